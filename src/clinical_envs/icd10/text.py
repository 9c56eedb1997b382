"""Turning descriptions and queries into the same search terms.

Both sides go through :func:`terms`: lower case, British spellings to the American ones ICD-10-CM
uses, a light stemmer and a short stop list. Negation is kept: words in a "without ..." (or
"no ...", "not ...") clause become ``no_<word>`` terms, so "thyrotoxic crisis" matches E05.01
(*with* thyrotoxic crisis) and not E05.00 (*without* it), while "hernia without obstruction"
still finds K40.90.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+")
_CLAUSE = re.compile(r"[,;:()\[\]]")
_PARENTHESISED = re.compile(r"\([^)]*\)|\[[^\]]*\]")
NEGATORS = frozenset({"without", "no", "not", "w/o"})
STOPWORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "due", "for", "from", "in", "into", "is", "of", "on"}
    | {"or", "the", "to", "unspecified", "nos", "type", "site", "classified", "elsewhere"}
    | {"organism", "specified"}
)
# Title words that do not make a code more specific than the query asked for.
FREE_WORDS = frozenset({"initial", "encounter", "closed"})
NEGATED = "no_"

# British -> American spelling.
_SPELLING = [
    (re.compile(p), r)
    for p, r in (
        (r"\bhaem", "hem"),
        (r"aem", "em"),  # anaemia, ischaemia, leukaemia, septicaemia
        (r"\boe(?=[a-z])", "e"),  # oedema, oesophagus, oestrogen
        (r"oea\b", "ea"),  # diarrhoea, dyspnoea, apnoea
        (r"oeic\b", "eic"),  # seborrhoeic
        (r"\bfoet", "fet"),
        (r"paed", "ped"),  # paediatric, orthopaedic
        (r"\bcoeli", "celi"),
        (r"\bcaec", "cec"),
        (r"\bgynaec", "gynec"),
        (r"our\b", "or"),  # tumour, labour
        (r"([a-z])tre\b", r"\1ter"),  # goitre, centre, litre
        (r"isation\b", "ization"),
        (r"\bpraevia\b", "previa"),
        (r"\bmelaena\b", "melena"),
        (r"\bcaesarean\b", "cesarean"),
        (r"\bsulph", "sulf"),
        (r"\bgonorrhoea", "gonorrhea"),
    )
]

# Every rule above needs one of these; most text (all of it, once converted) has none.
_BRITISH_MARKS = ("ae", "oe", "our", "tre", "isation", "sulph")


def american(text: str) -> str:
    """Lower-cased text with British spellings replaced by the ICD-10-CM (American) ones."""
    text = text.lower()
    if not any(mark in text for mark in _BRITISH_MARKS):
        return text
    for pattern, replacement in _SPELLING:
        text = pattern.sub(replacement, text)
    return text


def stem(word: str) -> str:
    """A light suffix stripper: fracture/fractured/fractures -> fractur (stems of >= 4 letters)."""
    if len(word) <= 4 or not word.isalpha():
        return word
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and not word.endswith(("ss", "us", "is")):
            root = word[: -len(suffix)]
            if len(root) >= 4:
                return root
    return word


def words(text: str) -> list[str]:
    """Plain lower-case words, spelling normalised (used for typo correction)."""
    return _WORD.findall(american(text))


def _clause_terms(text: str) -> list[tuple[str, int]]:
    """(term, cost in half-words) pairs.

    A title word costs 2; "other" costs 1 (it names a residual class, so "X, unspecified" ranks
    above "Other X" for a plain "X"); negated clauses, free words and the axis after a trailing
    "unspecified" ("..., unspecified trimester", "of unspecified part of") cost nothing.
    """
    out: list[tuple[str, int]] = []
    for n, clause in enumerate(_CLAUSE.split(american(text))):
        negated = axis = False
        for position, word in enumerate(_WORD.findall(clause.replace("w/o", "without"))):
            if word in NEGATORS:
                negated = True
                continue
            if word == "with":
                negated = False
            if word == "unspecified":
                axis = n > 0 or position > 0
            if word in STOPWORDS:
                continue
            term = stem(word)
            if negated:
                out.append((NEGATED + term, 0))
            elif axis or word in FREE_WORDS:
                out.append((term, 0))
            else:
                out.append((term, 1 if word == "other" else 2))
            axis = False
    return out


def terms(text: str) -> list[str]:
    """Search terms of ``text``, in order, duplicates kept."""
    return [t for t, _ in _clause_terms(text)]


def core_length(description: str) -> int:
    """The title's specificity in half-words; words in parentheses are optional and free."""
    costs: dict[str, int] = {}
    for term, cost in _clause_terms(_PARENTHESISED.sub(" ", description)):
        costs[term] = max(cost, costs.get(term, 0))
    return sum(costs.values())
