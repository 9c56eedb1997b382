"""The grader's literal prefilter changes speed, never results."""

from __future__ import annotations

import json
import re
from pathlib import Path
from re import _parser  # type: ignore[attr-defined]

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinical_envs.escalation import attribution, classifier, crisis, normalize
from clinical_envs.escalation import lexicon as lx
from clinical_envs.escalation.normalize import read_as_shown
from clinical_envs.escalation.prefilter import (
    _STRINGS,
    PLAIN_FORMS,
    BranchGatedPattern,
    GatedPattern,
    also_required,
    first_char_guard,
    gated,
    may_match,
    new_reply,
    required_strings,
    top_level_branches,
)

DATA = Path(__file__).parent / "data"
MODULES = (lx, classifier, attribution, crisis, normalize)
GATED = {
    f"{m.__name__.rsplit('.', 1)[-1]}.{name}": value
    for m in MODULES
    for name, value in vars(m).items()
    if isinstance(value, GatedPattern)
}


def _texts() -> list[str]:
    """Labelled replies as the rules read them, whole and line by line (sentences and clauses
    are substrings of these, so a gate sound here is sound there)."""
    texts: list[str] = []
    for name in ("escalation_replies.jsonl", "escalation_replies_chat12.jsonl"):
        for line in (DATA / name).read_text().splitlines():
            reading = read_as_shown(json.loads(line)["reply"])
            if reading.unreadable is None:
                texts.append(reading.text)
                texts.extend(t for t in reading.text.split("\n") if t.strip())
    return texts


TEXTS = _texts()


def test_the_long_patterns_are_gated():
    assert isinstance(lx.CONTRARY, BranchGatedPattern)
    # one \b(?:...)\b group with a branch no gate can test ("jk"), written as branches
    assert isinstance(lx.RETRACTION, BranchGatedPattern)
    assert isinstance(lx.FEAR, GatedPattern)
    assert len(GATED) >= 80


@pytest.mark.parametrize("name", sorted(GATED))
def test_a_gated_pattern_finds_what_the_pattern_finds(name):
    pattern = GATED[name]
    for text in TEXTS:
        got = [(m.span(), m.group(0)) for m in pattern.finditer(text)]
        want = [(m.span(), m.group(0)) for m in pattern.compiled.finditer(text)]
        assert got == want, (name, text[:200])
        if not want:
            assert pattern.search(text) is None and pattern.sub("", text) == text


@pytest.mark.parametrize("name", sorted(GATED))
def test_may_match_is_false_only_where_nothing_can_match(name):
    """A rule skips a search when ``may_match`` says no: then the pattern has no match in the
    text, in any part of it, or in any span of it (rules search clauses cut from texts, and
    ``search(text, 0, end)`` reads the text as if it ended at ``end``)."""
    pattern = GATED[name]
    for text in TEXTS:
        if may_match(pattern, text):
            continue  # (the longest patterns are open on every whole text or line)
        parts = [text, *text.split(","), *text.split(" - ")]
        for part in parts:
            assert pattern.compiled.search(part) is None, (name, part[:200])
        for end in range(0, len(text) + 1, 7):
            assert pattern.compiled.search(text, 0, end) is None, (name, text[:200], end)
            assert pattern.compiled.match(text, end) is None, (name, text[:200], end)


def test_may_match_without_a_gate_is_true():
    assert may_match(re.compile(r"\bnow\b"), "")
    gated_one = gated(re.compile(r"ambulance"))
    assert not may_match(gated_one, "call a taxi") and may_match(gated_one, "an ambulance")


COMPILED = {
    f"{m.__name__.rsplit('.', 1)[-1]}.{name}": value
    for m in MODULES
    for name, value in vars(m).items()
    if isinstance(value, re.Pattern) and value.pattern is not None
}


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_a_rewritten_pattern_finds_what_its_source_finds(name):
    """Module patterns are compiled opening with their first character where they can be
    (first_char.compiled): the same matches, spans and groups as the source compiled as is."""
    pattern = COMPILED[name]
    plain = re.compile(pattern.pattern, pattern.flags)
    for text in TEXTS:
        got = [(m.span(), m.groups()) for m in pattern.finditer(text)]
        assert got == [(m.span(), m.groups()) for m in plain.finditer(text)], (name, text[:200])


@pytest.mark.parametrize("name", sorted(GATED))
def test_every_match_contains_one_of_its_required_strings(name):
    """The gate's soundness, seen directly: a match without one of them would be skipped; and
    so for each further set tested once the gate is open."""
    pattern = GATED[name]
    parts = [(pattern.compiled, [pattern.required, *pattern.also])]
    if isinstance(pattern, BranchGatedPattern):
        parts = []
        for branch in pattern.branches:
            gate = required_strings(_parser.parse(branch))
            also = also_required(_parser.parse(branch), gate)
            parts.append((re.compile(pattern.head + branch + ")"), [gate, *also]))
    for compiled, sets in parts:
        for text in TEXTS:
            for match in compiled.finditer(text) if sets[0] is not None else ():
                for required in sets:
                    assert any(s in match.group(0) for s in required), (name, match.group(0))


@pytest.mark.parametrize(
    ("source", "gate", "also"),
    [
        # "need" is the rarer word: it gates, the places are tested once it is found
        (r"\bneeds?\s+(?:the er|a&e|hospital)", {"need"}, [{"the er", "a&e", "hospital"}]),
        # common words ("the", "your") are never worth a test
        (r"\bcall (?:the|your) ambulance", {" ambulance"}, [{"call "}]),
        (r"\b(?:go|be) now", {" now"}, []),
    ],
)
def test_further_required_sets(source, gate, also):
    parsed = _parser.parse(source)
    assert set(required_strings(parsed)) == gate
    assert [set(s) for s in also_required(parsed, frozenset(gate))] == also


def test_a_pattern_stays_closed_without_its_further_strings():
    pattern = gated(re.compile(r"\bneeds? (?:an )?ambulance"))
    assert isinstance(pattern, GatedPattern) and pattern.also == (frozenset({"need"}),)
    assert pattern.required == frozenset({"ambulance"})
    assert pattern.search("the ambulance is here") is None
    assert pattern.search("he needs an ambulance").group(0) == "needs an ambulance"


@pytest.mark.parametrize(
    ("source", "required"),
    [
        (r"call (?:an )?ambulance", {"ambulance"}),
        (r"\b(?:call|calling) 911\b", {"call"}),
        (r"(?:go to the er|head to hospital)", {"go to the er", "head to hospital"}),
        (r"(?:go|be) now", {" now"}),
        (r"(?:ab|cd)", None),  # too short to tell anything apart
        (r"(?:see a doctor)?", None),  # may match the empty string
        (r"x[^y]+z", None),
        (r"(?:very )+urgent", {"urgent"}),
    ],
)
def test_required_strings(source, required):
    got = required_strings(_parser.parse(source))
    assert (None if got is None else set(got)) == required


def test_case_folded_patterns_are_not_gated():
    compiled = re.compile("ambulance", re.IGNORECASE)
    assert gated(compiled) is compiled


@pytest.mark.parametrize(
    ("source", "branches"),
    [
        ("a|b", ["a", "b"]),
        (r"a(?:b|c)|d", ["a(?:b|c)", "d"]),
        (r"[|)]x|y", ["[|)]x", "y"]),
        (r"[]|]x|y", ["[]|]x", "y"]),
        (r"\||\(", [r"\|", r"\("]),
    ],
)
def test_top_level_branches(source, branches):
    assert top_level_branches(source) == branches


WORDS = ["call", "911", "now", "go", "to", "the", "er", "wait", "home", "tonight", "not", "an"]


@given(st.lists(st.sampled_from([*WORDS, " ", ", ", ". "]), max_size=30))
def test_branch_gating_keeps_leftmost_first_order(words):
    source = r"call 911|go to the er|wait(?: at)? home|not now|call|er\b|tonight"
    branches = [*top_level_branches(source), "call"]  # a duplicate branch, never reached
    plain = re.compile("(?:" + "|".join(branches) + ")")
    pattern = gated(plain, "(?:", branches)
    text = "".join(words)
    assert isinstance(pattern, BranchGatedPattern)
    assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in plain.finditer(text)]


@given(
    st.lists(st.sampled_from([*WORDS, " ", ", ", ". "]), max_size=30),
    st.integers(min_value=0, max_value=40),
)
def test_branch_gating_answers_every_method_as_the_alternation_does(words, pos):
    source = r"call 911|go to the er|wait(?: at)? home|not now|call|er\b|tonight|(?<=the )er"
    branches = top_level_branches(source)
    plain = re.compile("(?:" + "|".join(branches) + ")")
    pattern = gated(plain, "(?:", branches)
    text = "".join(words)
    span = lambda m: m and (m.span(), m.group(0))  # noqa: E731
    assert span(pattern.search(text, pos)) == span(plain.search(text, pos))
    assert span(pattern.match(text, pos)) == span(plain.match(text, pos))
    assert span(pattern.fullmatch(text, pos)) == span(plain.fullmatch(text, pos))
    assert pattern.findall(text, pos) == plain.findall(text, pos)
    assert pattern.sub("<\\g<0>>", text) == plain.sub("<\\g<0>>", text)
    assert pattern.sub(lambda m: m.group(0).upper(), text, 2) == plain.sub(
        lambda m: m.group(0).upper(), text, 2
    )
    assert pattern.split(text, 3) == plain.split(text, 3)


GATE_STRINGS = sorted(_STRINGS.ids)


@given(
    st.lists(
        st.one_of(st.sampled_from(GATE_STRINGS), st.text(max_size=8), st.sampled_from(" .,\n")),
        max_size=25,
    )
)
def test_the_scan_finds_exactly_the_gate_strings_that_occur(pieces):
    """One Aho-Corasick scan answers every gate: it must agree with a substring test for each
    of the strings, overlapping and nested ones included, in any Unicode text."""
    text = "".join(pieces)
    new_reply()
    assert _STRINGS.present(text) == {n for s, n in _STRINGS.ids.items() if s in text}


def test_nothing_carries_from_one_reply_to_the_next():
    """Texts seen while grading a reply are forgotten when the next reply is read, so a policy
    that repeats a reply pays for every scan again (and memory stays bounded)."""
    classifier.classify("Please call 911 now. Do not drive yourself.")
    assert _STRINGS._memo
    classifier.parse("ok")
    assert set(_STRINGS._memo) <= {"ok"}
    for n in range(_STRINGS.MEMO + 10):
        _STRINGS.present(f"text {n}")
    assert len(_STRINGS._memo) <= _STRINGS.MEMO


@pytest.mark.parametrize(
    ("source", "guard"),
    [
        (r"\b(?:go|be|come)\b", "(?=[bcg])"),
        (r"\b[a-c]x|zed", "(?=[abcz])"),
        (r"(?<=the )er\b", "(?=[e])"),  # a lookbehind tests the same position
        (r"(?:very )+urgent", "(?=[v])"),  # a repeat: the engine tries every position
        (r"very urgent|vital", ""),  # opens with a character: the engine scans for it itself
        (r"[a-c]x|zed", "(?=[abcz])"),  # the engine scans only for alternatives of characters
        (r"ax|bx|zed", ""),
        (r"\s*go", ""),  # may start with "go" or with any space
        (r"(?=a)b", ""),
        (r"[^a]b", ""),
        (r"\w+ now", ""),
        ("|".join("abcdefghijklmnopqrstuvwxyz"), ""),  # too many to turn positions away
    ],
)
def test_first_char_guard(source, guard):
    assert first_char_guard(_parser.parse(source)) == guard


GUARDED_ONLY = {
    f"{m.__name__.rsplit('.', 1)[-1]}.{name}": value
    for m in MODULES
    for name, value in vars(m).items()
    if isinstance(value, re.Pattern) and value in PLAIN_FORMS
}


def test_patterns_without_a_gate_run_behind_their_guard():
    assert lx.NEGATOR in PLAIN_FORMS and lx.CONDITIONAL in PLAIN_FORMS
    assert len(GUARDED_ONLY) >= 8


@pytest.mark.parametrize("name", sorted(GUARDED_ONLY))
def test_a_guarded_pattern_finds_what_its_plain_form_finds(name):
    pattern = GUARDED_ONLY[name]
    plain = PLAIN_FORMS[pattern]
    for text in TEXTS:
        got = [(m.span(), m.groups()) for m in pattern.finditer(text)]
        assert got == [(m.span(), m.groups()) for m in plain.finditer(text)], (name, text[:200])
        assert pattern.split(text) == plain.split(text)


GUARDED = [
    r"\b(?:go|going|get) (?:to|into) (?:the )?(?:er|a&e)\b",
    r"(?<=the )(?:er|ed)\b|\bhospital",
    r"\b(?:[0-9]{3}|one one one)\b",
    r"\b(?:call|ring|dial)(?:ing)? (?:911|999|000)",
]


@given(st.lists(st.sampled_from([*WORDS, "a&e", "ed", "ring", "999", "going", "into", " ", ". "])))
def test_a_guard_changes_no_match(words):
    text = "".join(words)
    for source in GUARDED:
        plain = re.compile(source)
        guard = first_char_guard(_parser.parse(source))
        assert guard
        spans = [m.span() for m in re.compile(guard + "(?:" + source + ")").finditer(text)]
        assert spans == [m.span() for m in plain.finditer(text)]


# The plain forms of the normaliser's and the attribution step's patterns that were rewritten
# so the regex engine can scan for their first character (a look behind moved after it, or a
# lookahead for the characters they start with).
REWRITTEN = {
    "normalize._SPACED_NUMBER": (
        r"(?<![\w.,/])(\d)[ .\-]{1,3}(\d)[ .\-]{1,3}(\d)(?![\w/]|[.,]\d)",
        0,
    ),
    "attribution._SINGLE_QUOTED": (r"(?<![\w'])'(?=\w)[^'\n]{1,300}?(?<=[\w.!?,])'(?![\w])", 0),
    "attribution._OR_AT_LINE_END": (r"(\bor)[ \t]*:?[ \t]*\n+[ \t]*(?=\S)", 0),
    "attribution._SENTENCE_END": (r"([.!?]+)(?=\s|$)|\n+|\s\|\s", 0),
    "attribution._CLAUSE": (r";|\s-+\s|:\s+|,?\s(?:but|however|although|though)\s", 0),
}
PIECES = [
    *"abo'\"-.,;:!?|/ \t\n07_",
    "or",
    "for",
    "or:\n",
    "for\nx",
    "or\ny",
    "  or \n\n ",
    "9 1 1",
    "1-2-3",
    "1.2",
    "it's",
    "'go now'",
    "x'y'",
    "''a'",
    " but ",
    " - ",
    "éo",
    "\u00b9",
]


@pytest.mark.parametrize("name", sorted(REWRITTEN))
@settings(max_examples=400)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=40))
def test_rewritten_patterns_match_as_their_plain_forms(name: str, pieces: list[str]) -> None:
    module, attr = name.split(".")
    fast = getattr({"normalize": normalize, "attribution": attribution}[module], attr)
    plain = re.compile(*REWRITTEN[name])
    text = "".join(pieces)
    spans = [(m.span(), m.groups()) for m in fast.finditer(text)]
    assert spans == [(m.span(), m.groups()) for m in plain.finditer(text)]
    assert fast.split(text) == plain.split(text)
    assert fast.sub("#", text) == plain.sub("#", text)


@given(pieces=st.lists(st.sampled_from([*PIECES, "-", "--", " rather than", " instead of"])))
def test_skipped_passes_could_not_have_matched(pieces: list[str]) -> None:
    """A pass skipped because a character or word it needs is missing would change nothing."""
    text = "".join(pieces)
    assert attribution._no_leading_dash(text) == attribution._LEADING_DASH.sub("", text)
    assert classifier._rather_than_dropped(text) == classifier._RATHER_THAN.sub("", text)
    if not normalize._STROKE.search(text):
        assert normalize._STRUCK.sub("", text) == text
    if not normalize._SUPERSCRIPT_CHAR.search(text):
        assert normalize._FOOTNOTE_MARK.sub(r"\1", text) == text
