"""Ranked search over the ICD-10-CM catalog.

Code-like queries match by code prefix; text queries rank descriptions by the inverse-document-
frequency weight of the query words they contain, so rare clinical words decide the ranking and
filler words barely count.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from clinical_envs.icd10.catalog import Catalog, Entry, load_catalog

CODE_QUERY = re.compile(r"^[A-Z][0-9][0-9A-Z]?(?:\.?[0-9A-Z]{0,4})$")
_WORD = re.compile(r"[a-z0-9]+")
# Words too common in descriptions to help rank; "with"/"without" are kept on purpose.
_STOPWORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "due", "for", "from", "in", "into", "is", "of"}
    | {"on", "or", "other", "the", "to", "unspecified"}
)
MAX_QUERY_WORDS = 64


def words(text: str) -> list[str]:
    """Lower-cased word tokens with a light plural strip, shared by index and queries."""
    out = []
    for w in _WORD.findall(text.lower()):
        if w in _STOPWORDS:
            continue
        if len(w) > 4 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.append(w)
    return out


@dataclass(frozen=True)
class TextIndex:
    postings: dict[str, tuple[int, ...]]
    idf: dict[str, float]
    lengths: tuple[int, ...]


@cache
def text_index() -> TextIndex:
    catalog = load_catalog()
    postings: dict[str, list[int]] = defaultdict(list)
    lengths = []
    for i, entry in enumerate(catalog.entries):
        toks = set(words(entry.description))
        lengths.append(len(toks))
        for t in toks:
            postings[t].append(i)
    n = len(catalog)
    return TextIndex(
        postings={t: tuple(p) for t, p in postings.items()},
        idf={t: math.log(1 + n / len(p)) for t, p in postings.items()},
        lengths=tuple(lengths),
    )


def search_codes(catalog: Catalog, key: str, limit: int) -> list[Entry]:
    """Exact code first, then its descendants in code order; billable before headers."""
    start = bisect_left(catalog.keys, key)
    hits = []
    for i in range(start, len(catalog)):
        if not catalog.keys[i].startswith(key):
            break
        hits.append(catalog.entries[i])
        if len(hits) >= 200:
            break
    exact = [h for h in hits if h.code.replace(".", "") == key]
    rest = [h for h in hits if h.code.replace(".", "") != key]
    rest.sort(key=lambda e: (not e.billable, len(e.code), e.code))
    return (exact + rest)[:limit]


def nearest_ancestor(catalog: Catalog, key: str) -> str | None:
    """Longest prefix of ``key`` that is a real code (``I431`` -> ``I43``)."""
    for end in range(len(key), 2, -1):
        if key[:end] in catalog.index:
            return key[:end]
    return None


def search_text(catalog: Catalog, query: str, limit: int) -> list[Entry]:
    index = text_index()
    terms = list(dict.fromkeys(words(query)))[:MAX_QUERY_WORDS]
    scores: dict[int, float] = defaultdict(float)
    for t in terms:
        weight = index.idf.get(t)
        if weight is None:
            continue
        for i in index.postings[t]:
            scores[i] += weight
    if not scores:
        return []
    total = sum(index.idf.get(t, 0.0) for t in terms) or 1.0

    def rank(i: int) -> tuple[float, bool, str]:
        entry = catalog.entries[i]
        # Matched weight dominates; extra words in a description cost a little.
        score = scores[i] / total - 0.01 * index.lengths[i]
        return (-score, not entry.billable, entry.code)

    best = sorted(scores, key=rank)[:limit]
    return [catalog.entries[i] for i in best]
