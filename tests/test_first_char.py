"""Patterns rewritten to open with their first character find exactly what they found."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from clinical_envs.escalation.first_char import hoisted

PATTERNS = [
    r"\b(?:go|going|get|getting|now)\b",
    r"(?<!not )(?<!n't )\b(?:now|right now|tonight|go now)\b",
    r"\B(?:ing|ed)\b",
    r"\b(?:go|go now|get|now)",  # the first branch that matches wins: "go", not "go now"
    r"\b(?:it'?s|it is) (\d{3})\b",
    r"\b(go|be)\b",
    r"(?<=\s)(?:call|ring) (?:911|999)",
    r"(?:\bgo\b|\bget|_x|'s\b)",
    r"\b(?:call|ring)\s+(?P<number>999|911)",
    r"(?<![\w'])'(?:s|ll)\b",
    r"\b(?:école|ecole)\b",
    r"\b(?:jk|just kidding)|^kidding\b|(?<=\()kidding",
    r"[a-z0-9&]+",
    r"(?<![\d-])(911|999|000|112|111)(?![\d-])",
    r"x{2,5}y",
]
MULTILINE = [r"^(?:go|now)\b", r"\A(?:go|now)"]
TOKENS = [
    "go", "going", "get", "getting", "now", "not ", "n't ", "right", "tonight", "ing", "ed",
    "'s", "'ll", "(", "kidding", "just kidding", "jk", "xx", "xxxy", "it's", "it is", "999",
    "911", "call", "ring", "_x", "é", "école", "ecole", "x",
    " ", "  ", "\n", ",", "-", "'", ".",
]  # fmt: skip


@pytest.mark.parametrize("source", PATTERNS)
def test_the_rewrite_applies(source):
    moved = hoisted(source)
    assert moved is not None and moved.pattern == source
    assert moved.groupindex == re.compile(source).groupindex


@given(st.lists(st.sampled_from(TOKENS), max_size=25), st.integers(0, 30))
@example(["now", "\n", "go", " ", "now"], 1)
def test_line_starts(tokens, pos):
    text = "".join(tokens)
    for source in MULTILINE:
        for flags in (0, re.MULTILINE):
            plain, moved = re.compile(source, flags), hoisted(source, flags)
            want = [m.span() for m in plain.finditer(text, pos)]
            assert [m.span() for m in moved.finditer(text, pos)] == want, (source, flags)


@given(st.lists(st.sampled_from(TOKENS), max_size=25), st.integers(0, 30), st.integers(0, 40))
@example(["go", " ", "now"], 0, 40)
@example(["xx", "xx", "xxxy"], 0, 40)  # seven x: "x{2,5}y" matches from the third
@example(["not ", "now", " ", "n't ", "tonight"], 0, 40)
@example(["it's", " ", "999", ",", "it is", " ", "911"], 3, 40)
@example(["call", "  ", "911", "_x", "'s", " ", "'ll", "\n", "école", "going", "ed"], 0, 40)
def test_the_same_matches_spans_and_groups(tokens, pos, endpos):
    text = "".join(tokens)
    for source in PATTERNS:
        plain, moved = re.compile(source), hoisted(source)
        want = [(m.span(), m.groups()) for m in plain.finditer(text)]
        assert [(m.span(), m.groups()) for m in moved.finditer(text)] == want, source
        found, expected = moved.search(text, pos, endpos), plain.search(text, pos, endpos)
        assert (found and found.span()) == (expected and expected.span()), source
        found, expected = moved.match(text, pos), plain.match(text, pos)
        assert (found and found.span()) == (expected and expected.span()), source


@pytest.mark.parametrize(
    "source",
    [
        r"\b(?:go|\w+ing)\b",  # a branch opens with a class: no character to group by
        r"\b(?:go|be)+",  # a repeated group
        r"[ab]x",  # the engine already scans for a class
        r"(?:go|be)\b",  # ... or for an alternation of characters
        r"\b\w+ing\b",  # no first character to move the test after
        r"(?i)\bgo\b",  # case-folded
    ],
)
def test_left_as_it_is(source):
    assert hoisted(source) is None
