"""A literal prefilter for the grader's long phrase patterns.

Python's regex engine tries every branch of a long alternation at every word start, so a
pattern of a few hundred phrases costs tens of microseconds on a sentence that contains none of
them, and a reply runs about a hundred such patterns. Nearly every phrase pattern needs at least
one fixed string in any match ("call", "ambulance", "your call"): if no such string occurs in the
text, the pattern cannot match, and a substring test (C speed) says so without running it. The
strings are read from the pattern's own parse tree when it is compiled, so they cannot drift from
the pattern; a pattern with a branch that needs no fixed string is never skipped.

A long alternation is gated branch by branch: only the branches whose strings occur in the text
are run, each compiled on its own, and the earliest match wins (the first branch on a tie), as
in the alternation. Dropping a branch that cannot match anywhere in the text changes no result
(the pattern has no groups to renumber and no empty matches).

Once a gate is open, up to two further sets of strings the pattern (or branch) needs are tested
the same way, so "needs? ... emergency department" stays closed on a text with "emergency" but
no "need" (:func:`also_required`; sets of common words are not worth a test).

Which strings occur is found once per text for every pattern together: one Aho-Corasick scan
(C speed) over all gate strings of all patterns, about 5 us for a clause, instead of a Python
loop of substring tests per pattern (a reply runs over a hundred gates on a dozen texts). The
answer is a pure function of the text, kept for the reply being graded (:func:`new_reply`).

Once its strings are found, a pattern that opens with a word boundary or a look behind runs
rewritten to open with its first character (:mod:`~clinical_envs.escalation.first_char`), or,
where it cannot be, behind a lookahead for the characters its matches can start with
(:func:`first_char_guard`): the regex engine scans for first characters itself only when a
pattern opens with one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from re import _constants as _c  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

import ahocorasick

from clinical_envs.escalation.first_char import hoisted

MIN_LITERAL = 3  # shorter fixed strings (" ", "'s") occur in nearly every text: no use as a gate
_ZERO_WIDTH = (_c.AT, _c.ASSERT, _c.ASSERT_NOT)


class _GateStrings:
    """Every gate string of every pattern, numbered, and which of them occur in a text."""

    MEMO = 1024  # texts remembered at most (a reply brings a few dozen)

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self._automaton: Any = None
        self._memo: dict[str, frozenset[int]] = {}

    def register(self, strings: frozenset[str]) -> frozenset[int]:
        """The numbers of ``strings``, added to the scan if new."""
        for string in strings:
            if string not in self.ids:
                self.ids[string] = len(self.ids)
                self._automaton = None
        return frozenset(self.ids[s] for s in strings)

    def present(self, text: str) -> frozenset[int]:
        """The numbers of the gate strings that occur in ``text``."""
        found = self._memo.get(text)
        if found is None:
            if self._automaton is None:
                self._automaton = self._build()
            found = frozenset([n for _, n in self._automaton.iter(text)])
            if len(self._memo) >= self.MEMO:
                self._memo.clear()
            self._memo[text] = found
        return found

    def forget(self) -> None:
        self._memo.clear()

    def _build(self) -> Any:
        automaton = ahocorasick.Automaton()
        for string, number in self.ids.items():
            automaton.add_word(string, number)
        automaton.make_automaton()
        return automaton


_STRINGS = _GateStrings()
_present = _STRINGS.present


def gate_string_count() -> int:
    """How many different strings the gates of all patterns compiled so far test for."""
    return len(_STRINGS.ids)


def new_reply() -> None:
    """Forget the texts seen so far: each reply pays for its own scans (a policy that repeats
    a reply is graded at the cost of a new one; nothing carries from one reply to the next)."""
    _STRINGS.forget()


class GatedPattern:
    """A compiled pattern that first checks the text holds one of its required strings.

    Same results as the pattern for every method the grader uses; only faster when the check
    fails. ``required`` is the set of strings, one of which every match contains (and one of
    each set in ``also``, tested after it). When the check passes, the pattern runs rewritten
    to open with its first character, or behind its :func:`first_char_guard` (every match
    holds a required string, so none is empty).
    """

    __slots__ = ("_also", "_numbers", "_run", "also", "compiled", "pattern", "required")

    def __init__(
        self,
        compiled: re.Pattern[str],
        required: frozenset[str],
        run: re.Pattern[str] | None = None,
        also: Sequence[frozenset[str]] = (),
    ) -> None:
        self.compiled = compiled
        self.pattern = compiled.pattern
        self.required = required
        self.also = tuple(also)  # further sets every match needs a member of
        self._numbers = _STRINGS.register(required)
        self._also = tuple(_STRINGS.register(strings) for strings in also)
        self._run = compiled if run is None else run  # the same matches, maybe found faster

    def _closed(self, text: str) -> bool:
        """Whether ``text`` lacks every string of one of the sets each match needs."""
        found = _present(text)
        return self._numbers.isdisjoint(found) or bool(self._also and _lacks(self._also, found))

    def search(self, text: str, *span: int) -> re.Match[str] | None:
        found = _present(text)  # (the gate test inlined: these three run hundreds of times)
        if self._numbers.isdisjoint(found) or (self._also and _lacks(self._also, found)):
            return None
        return self._run.search(text, *span)

    def match(self, text: str, *span: int) -> re.Match[str] | None:
        found = _present(text)
        if self._numbers.isdisjoint(found) or (self._also and _lacks(self._also, found)):
            return None
        return self._run.match(text, *span)

    def fullmatch(self, text: str, *span: int) -> re.Match[str] | None:
        if self._closed(text):
            return None
        return self._run.fullmatch(text, *span)

    def finditer(self, text: str, *span: int) -> Iterator[re.Match[str]]:
        found = _present(text)
        if self._numbers.isdisjoint(found) or (self._also and _lacks(self._also, found)):
            return iter(())
        return self._run.finditer(text, *span)

    def findall(self, text: str, *span: int) -> list[Any]:
        if self._closed(text):
            return []
        return self._run.findall(text, *span)

    def sub(self, repl: Any, text: str, count: int = 0) -> str:
        if self._closed(text):
            return text
        return self._run.sub(repl, text, count)

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        if self._closed(text):
            return [text]
        return self._run.split(text, maxsplit)

    def __repr__(self) -> str:
        return f"GatedPattern({self.pattern[:60]!r}, {len(self.required)} strings)"


def _lacks(sets: tuple[frozenset[int], ...], found: frozenset[int]) -> bool:
    """Whether one of ``sets`` has no member in ``found``."""
    return any(numbers.isdisjoint(found) for numbers in sets)


Pattern = GatedPattern | re.Pattern[str]


def may_match(pattern: Pattern, text: str) -> bool:
    """False when ``pattern``'s literal gate rules out a match anywhere in ``text``, and so in
    any part of it: a rule can skip the costly search whose result it would only use beside
    such a match. True for a pattern without a gate."""
    if isinstance(pattern, BranchGatedPattern):
        return bool(pattern._present(text))
    if isinstance(pattern, GatedPattern):
        return not pattern._closed(text)
    return True


class BranchGatedPattern(GatedPattern):
    """An alternation that runs only the branches whose required strings are in the text.

    Each branch is compiled on its own (once, on first use) and the present ones are searched
    one by one; the alternation's leftmost-first result is the earliest match, the lower branch
    winning a tie. Compiling the subset of present branches as one pattern instead costs about
    2 ms per new subset, and every fresh reply brings new subsets: that compilation, not the
    search, was most of the grading time on unseen replies.
    """

    __slots__ = ("_also_of", "_always", "_masks", "_singles", "branches", "head")

    def __init__(self, compiled: re.Pattern[str], head: str, branches: list[str]) -> None:
        parsed = [_parser.parse(b) for b in branches]
        needs = [required_strings(p) for p in parsed]
        super().__init__(compiled, frozenset().union(*(n for n in needs if n is not None)))
        self.head = head
        self.branches = branches
        self._also_of = [  # per branch, the further sets it needs a member of
            tuple(_STRINGS.register(s) for s in also_required(p, n))
            for p, n in zip(parsed, needs, strict=True)
        ]
        self._always = sum(1 << i for i, n in enumerate(needs) if n is None)
        masks: dict[int, int] = {}  # gate string number -> the branches that need it
        for i, n in enumerate(needs):
            for number in _STRINGS.register(n or frozenset()):
                masks[number] = masks.get(number, 0) | 1 << i
        self._masks = masks  # its keys are ``_numbers``: every string is some branch's
        self._singles: list[re.Pattern[str] | None] = [None] * len(branches)

    def _present(self, text: str) -> list[re.Pattern[str]]:
        """The compiled branches that may match in ``text``, in branch order."""
        mask = self._always
        found = _present(text)
        for number in self._numbers.intersection(found):
            mask |= self._masks[number]
        present = []
        while mask:
            low = mask & -mask
            i = low.bit_length() - 1
            mask ^= low
            also = self._also_of[i]
            if also and _lacks(also, found):
                continue
            single = self._singles[i]
            if single is None:
                single = self._singles[i] = _single(self.head + self.branches[i] + ")")
            present.append(single)
        return present

    def search(self, text: str, *span: int) -> re.Match[str] | None:
        return _earliest(self._present(text), text, *span)

    def match(self, text: str, *span: int) -> re.Match[str] | None:
        for single in self._present(text):
            found = single.match(text, *span)
            if found is not None:
                return found
        return None

    def fullmatch(self, text: str, *span: int) -> re.Match[str] | None:
        for single in self._present(text):
            found = single.fullmatch(text, *span)
            if found is not None:
                return found
        return None

    def finditer(self, text: str, *span: int) -> Iterator[re.Match[str]]:
        present = self._present(text)
        if len(present) <= 1:
            return present[0].finditer(text, *span) if present else iter(())
        return _scan(present, text, *span)

    def findall(self, text: str, *span: int) -> list[Any]:
        return [m.group(0) for m in self.finditer(text, *span)]

    def sub(self, repl: Any, text: str, count: int = 0) -> str:
        parts, last = [], 0
        for n, found in enumerate(self.finditer(text)):
            if count and n >= count:
                break
            parts += [
                text[last : found.start()],
                repl(found) if callable(repl) else found.expand(repl),
            ]
            last = found.end()
        return "".join(parts) + text[last:] if parts else text

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        pieces, last = [], 0
        for n, found in enumerate(self.finditer(text)):
            if maxsplit and n >= maxsplit:
                break
            pieces.append(text[last : found.start()])
            last = found.end()
        return [*pieces, text[last:]]


def _single(source: str) -> re.Pattern[str]:
    """One branch compiled to open with its first character, or behind its guard."""
    return hoisted(source) or re.compile(first_char_guard(_parser.parse(source)) + source)


MAX_FIRST_CHARS = 16  # a larger set rarely turns a position away: its test would only cost


def first_char_guard(items: Any) -> str:
    """A lookahead for the characters one of which every match of the parsed branch ``items``
    starts with ("(?=[bcg])" for "\\b(?:go|be|come)"), or "" when that set is unknown or large.

    The regex engine tries a branch that starts with a word boundary at every word start and
    walks its alternatives there; the lookahead turns most positions away with one class test
    (the longest branches are searched in about a third less time). Branches never match the
    empty string (see :func:`gated`), so every match has a first character and the guard
    changes no result.
    """
    chars = _first_chars(items)
    if not chars or len(chars) > MAX_FIRST_CHARS or _engine_scans(items):
        return ""
    return "(?=[" + "".join(re.escape(c) for c in sorted(chars)) + "])"


def _guarded(compiled: re.Pattern[str], parsed: Any) -> re.Pattern[str] | None:
    """``compiled`` (parsed as ``parsed``) rewritten to open with its first character (see
    :mod:`~clinical_envs.escalation.first_char`), or else behind its first-character guard,
    if it has one."""
    moved = hoisted(compiled.pattern, compiled.flags)
    if moved is not None:
        return moved
    guard = first_char_guard(parsed)
    if not guard:
        return None
    try:
        return re.compile(guard + "(?:" + compiled.pattern + ")", compiled.flags)
    except re.error:  # e.g. inline global flags, which must open the pattern
        return None


def _engine_scans(items: Any) -> bool:
    """Whether the regex engine finds the pattern's start itself: it scans for a literal
    prefix or a class of first characters when the pattern opens with a character, a class,
    or an alternation of characters (re._compiler's info block), and otherwise tries every
    position; only then does a guard help."""
    while items and items[0][0] is _c.SUBPATTERN:
        items = items[0][1][3]
    if not items:
        return False
    op, arg = items[0]
    if op is _c.BRANCH:
        return all(branch and branch[0][0] is _c.LITERAL for branch in arg[1])
    return op in (_c.LITERAL, _c.IN)


def _first_chars(items: Any) -> frozenset[str] | None:
    for op, arg in items:
        if op is _c.AT or (op in (_c.ASSERT, _c.ASSERT_NOT) and arg[0] < 0):
            continue  # zero-width: a boundary, or a look behind the position
        if op is _c.LITERAL:
            return frozenset(chr(arg))
        if op is _c.IN:
            chars: set[str] = set()
            for kind, value in arg:
                if kind is _c.LITERAL:
                    chars.add(chr(value))
                elif kind is _c.RANGE and value[1] - value[0] < MAX_FIRST_CHARS:
                    chars.update(map(chr, range(value[0], value[1] + 1)))
                else:
                    return None  # negated classes, categories (\\w), wide ranges
            return frozenset(chars)
        if op is _c.BRANCH:
            alternatives = [_first_chars(branch) for branch in arg[1]]
            if any(a is None for a in alternatives):
                return None
            return frozenset().union(*alternatives)  # type: ignore[arg-type]
        if op is _c.SUBPATTERN:
            return _first_chars(arg[3])
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT) and arg[0] >= 1:
            return _first_chars(arg[2])
        return None  # optional parts, lookaheads, any character, ...
    return None


def _earliest(present: list[re.Pattern[str]], text: str, *span: int) -> re.Match[str] | None:
    best = None
    for single in present:
        found = single.search(text, *span)
        if found is not None and (best is None or found.start() < best.start()):
            best = found
    return best


def _scan(present: list[re.Pattern[str]], text: str, *span: int) -> Iterator[re.Match[str]]:
    """``finditer`` over several branches: the earliest match, then on from its end."""
    pos = span[0] if span else 0
    end = min(span[1], len(text)) if len(span) > 1 else len(text)
    while pos <= end:
        found = _earliest(present, text, pos, end)
        if found is None:
            return
        yield found
        pos = found.end()


MIN_BRANCHES = 8  # below this, one gate for the whole pattern costs less than choosing branches


def gated(compiled: re.Pattern[str], head: str = "", branches: list[str] | None = None) -> Pattern:
    """``compiled`` behind its literal gate, or unchanged when no gate is sound or useful (then
    behind its :func:`first_char_guard` alone, if it has one).

    With ``branches`` (``compiled`` is ``head + "|".join(branches) + ")"``), each branch is gated
    on its own.
    """
    if compiled.flags & (re.IGNORECASE | re.VERBOSE):
        return compiled  # case-folded or verbose patterns: a substring test would not be exact
    if (
        branches is not None
        and len(branches) >= MIN_BRANCHES
        and not compiled.groups
        and _parser.parse(compiled.pattern).getwidth()[0] > 0
    ):  # no empty matches: the branch-by-branch scan need not copy re's rules for them
        return BranchGatedPattern(compiled, head, branches)
    parsed = _parser.parse(compiled.pattern, compiled.flags)
    required = required_strings(parsed)
    if required is None:  # no gate, but the guard still spares the engine most positions
        guarded = _guarded(compiled, parsed)
        if guarded is None:
            return compiled
        PLAIN_FORMS[guarded] = compiled
        return guarded
    return GatedPattern(
        compiled, required, _guarded(compiled, parsed), also_required(parsed, required)
    )


PLAIN_FORMS: dict[re.Pattern[str], re.Pattern[str]] = {}
"""Each pattern :func:`gated` returned guarded but ungated, and the pattern it was given (the
tests check they match alike)."""


def top_level_branches(pattern: str) -> list[str]:
    """``pattern`` split at its top-level ``|`` (outside groups, classes and escapes)."""
    branches, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "^":
                i += 1
            if pattern[i + 1 : i + 2] == "]":
                i += 1  # a "]" first in a class is a literal
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            branches.append(pattern[start:i])
            start = i + 1
        i += 1
    branches.append(pattern[start:])
    return branches


def required_strings(items: Any) -> frozenset[str] | None:
    """Strings of which every match of the parsed sequence ``items`` contains at least one."""
    return max(required_sets(items), key=_selectivity, default=None)


def required_sets(items: Any) -> list[frozenset[str]]:
    """Sets of strings each of which every match of the parsed sequence ``items`` contains a
    member of: one for each literal run and each part of the sequence that needs one."""
    candidates: list[frozenset[str]] = []
    run: list[str] = []

    def close_run() -> None:
        if len("".join(run).strip(_EDGES)) >= MIN_LITERAL:
            candidates.append(frozenset(["".join(run)]))
        run.clear()

    for op, arg in items:
        if op is _c.LITERAL:
            run.append(chr(arg))
            continue
        if op is _c.AT:
            continue  # zero-width: "go\b now" still needs "go now"
        close_run()
        if op in _ZERO_WIDTH:
            continue
        inner = _required_of(op, arg)
        if inner is not None:
            candidates.append(inner)
    close_run()
    return candidates


MAX_ALSO = 2  # further sets tested once a pattern's gate is open


def also_required(items: Any, gate: frozenset[str] | None) -> list[frozenset[str]]:
    """Sets besides the gate ``gate`` that every match needs a member of, the most selective
    first, of uncommon words only: tested after the gate, they close "need ... emergency"
    in a text with "emergency" but no "need"."""
    others = {s for s in required_sets(items) if s != gate and _selectivity(s)[0]}
    return sorted(others, key=lambda s: (_selectivity(s), sorted(s)), reverse=True)[:MAX_ALSO]


def _required_of(op: Any, arg: Any) -> frozenset[str] | None:
    if op is _c.SUBPATTERN:
        return required_strings(arg[3])
    if op is _c.BRANCH:
        alternatives = [required_strings(branch) for branch in arg[1]]
        if any(a is None for a in alternatives):
            return None
        return _minimal(frozenset().union(*alternatives))  # type: ignore[arg-type]
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and arg[0] >= 1:
        return required_strings(arg[2])
    if op is _c.ATOMIC_GROUP:
        return required_strings(arg)
    return None


def _minimal(strings: frozenset[str]) -> frozenset[str]:
    """Drop strings that contain another member: "calling" is found wherever "call" is."""
    return frozenset(s for s in strings if not any(t != s and t in s for t in strings))


def _selectivity(strings: frozenset[str]) -> tuple[bool, int, int]:
    """Prefer a gate of no common words, then one whose shortest string is longest, then the
    one with fewest strings: " be " is in nearly every reply, "ambulance" in few."""
    cores = [s.strip(_EDGES) for s in strings]
    return all(c not in _COMMON for c in cores), min(map(len, cores)), -len(strings)


_EDGES = " '-,."
# Words so frequent in replies that a gate made of them is nearly always open.
_COMMON = frozenset(
    "the and you your are not can will but for with this that have has was its it's i'm "
    "be to of in on at or if is it do so go get now me my he she they them we our".split()
)
