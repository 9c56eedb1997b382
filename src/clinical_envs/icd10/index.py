"""An inverted index over code titles and inclusion terms, scored with numpy.

A code's score is the inverse-document-frequency weight of the query terms it contains, as a
share of the query's total weight, less a small cost per extra word in its title (optional words
in parentheses, negated clauses and "initial encounter" cost nothing). Billable codes win ties
over headers, then code order decides. A query word the catalog and the synonym table do not
know is replaced by the nearest known word (Damerau-Levenshtein, 1 edit for words of up to 5
letters, 2 beyond; ties go to the closer length, then the commoner word).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from clinical_envs.icd10.synonyms import expand, synonym_words
from clinical_envs.icd10.text import american, core_length, terms, words

LENGTH_COST = 0.006  # per half-word of title beyond what the query asked for
# A billable code outranks its header when it is at most one word more specific.
BILLABLE_BONUS = 2 * LENGTH_COST
# A word found only in a code's inclusion terms counts for less than one in its title.
INCLUSION_WEIGHT = 0.6
MAX_QUERY_TERMS = 48
MIN_FUZZY_LENGTH = 4
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class TextIndex:
    vocab: tuple[str, ...]
    """Search terms (stemmed; ``no_`` prefix inside negated clauses), sorted."""
    offsets: np.ndarray
    """int64, len(vocab) + 1: term ``t`` occurs in codes ``postings[offsets[t]:offsets[t+1]]``."""
    postings: np.ndarray
    """int32 catalog positions."""
    in_title: np.ndarray
    """bool per posting: the term is in the code's title (else only in its inclusion terms)."""
    lengths: np.ndarray
    """int16 title specificity per code, in half-words (see ``text.core_length``)."""
    billable: np.ndarray
    """bool per code."""
    words: tuple[str, ...]
    """Every plain word of the catalog (typo-correction targets)."""
    word_counts: np.ndarray
    """int32 occurrences of each word, to prefer the commoner of two equally close words."""

    @cached_property
    def term_ids(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.vocab)}

    @cached_property
    def idf(self) -> np.ndarray:
        df = np.diff(self.offsets).astype(np.float64)
        return np.log1p(len(self.lengths) / np.maximum(df, 1)).astype(np.float32)

    def _count(self, word: str) -> int:
        """Occurrences of ``word`` in the catalog (1 for a synonym-table word, 0 if unknown)."""
        i = bisect_left(self.words, word)
        if i < len(self.words) and self.words[i] == word:
            return int(self.word_counts[i])
        return 1 if word in synonym_words() else 0

    @cached_property
    def _by_length(self) -> dict[int, list[str]]:
        groups: dict[int, list[str]] = defaultdict(list)
        for word in (*self.words, *synonym_words()):
            if word.isalpha():
                groups[len(word)].append(word)
        return groups

    def correct(self, word: str) -> str:
        """``word`` if known or too short to judge, else the nearest known word (or itself)."""
        if len(word) < MIN_FUZZY_LENGTH or not word.isalpha() or self._count(word):
            return word
        limit = 1 if len(word) <= 5 else 2
        found = []
        for n in range(len(word) - limit, len(word) + limit + 1):
            for candidate, distance, _ in process.extract(
                word, self._by_length.get(n, ()), scorer=DamerauLevenshtein.distance,
                score_cutoff=limit, limit=5,
            ):  # fmt: skip
                rank = (distance, abs(len(candidate) - len(word)), -self._count(candidate))
                found.append((rank, candidate))
        return min(found)[1] if found else word

    def query_terms(self, query: str) -> list[int]:
        corrected = _WORD.sub(lambda m: self.correct(m.group(0)), american(query))
        ids: list[int] = []
        for term in dict.fromkeys(terms(expand(corrected))):
            i = self.term_ids.get(term)
            if i is not None:
                ids.append(i)
            if len(ids) >= MAX_QUERY_TERMS:
                break
        return ids

    def rank(self, query: str, limit: int) -> list[int]:
        """Catalog positions of the best matches, best first."""
        ids = self.query_terms(query)
        if not ids:
            return []
        idf = self.idf
        scores = np.zeros(len(self.lengths), dtype=np.float32)
        for t in ids:
            span = slice(self.offsets[t], self.offsets[t + 1])
            weight = np.where(self.in_title[span], idf[t], idf[t] * INCLUSION_WEIGHT)
            scores[self.postings[span]] += weight
        candidates = np.flatnonzero(scores)
        if candidates.size == 0:
            return []
        total = float(idf[ids].sum())
        key = (
            scores[candidates] / total
            - LENGTH_COST * self.lengths[candidates]
            + BILLABLE_BONUS * self.billable[candidates]
        )
        if candidates.size > limit * 8:
            keep = np.argpartition(-key, limit * 8)[: limit * 8]
            candidates, key = candidates[keep], key[keep]
        # Sort by score (rounded so float noise cannot break ties), billable first, then code.
        order = np.lexsort((candidates, ~self.billable[candidates], -np.round(key, 5)))
        return candidates[order[:limit]].tolist()


def build_index(
    descriptions: Sequence[str], inclusion: Sequence[Sequence[str]], billable: np.ndarray
) -> TextIndex:
    postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
    counts: Counter[str] = Counter()
    for i, (description, extra) in enumerate(zip(descriptions, inclusion, strict=True)):
        title = set(terms(description))
        included = {t for text in extra for t in terms(text)} - title
        for term in title:
            postings[term].append((i, 1.0))
        for term in included:
            postings[term].append((i, INCLUSION_WEIGHT))
        counts.update(words(description))
        for text in extra:
            counts.update(words(text))
    vocab = tuple(sorted(postings))
    sizes = np.array([len(postings[t]) for t in vocab], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    pairs = [pair for t in vocab for pair in postings[t]]
    known = tuple(sorted(counts))
    return TextIndex(
        vocab=vocab,
        offsets=offsets,
        postings=np.array([i for i, _ in pairs], dtype=np.int32),
        in_title=np.array([w == 1.0 for _, w in pairs], dtype=bool),
        lengths=np.array([core_length(d) for d in descriptions], dtype=np.int16),
        billable=np.asarray(billable, dtype=bool),
        words=known,
        word_counts=np.array([counts[w] for w in known], dtype=np.int32),
    )
