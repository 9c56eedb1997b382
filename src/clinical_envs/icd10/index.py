"""An inverted index over code titles and inclusion terms, scored with numpy.

A code's score is the inverse-document-frequency weight of the query terms it contains, as a
share of the query's total weight, less a small cost per extra word in its title (optional words
in parentheses, negated clauses and "initial encounter" cost nothing). Billable codes win ties
over headers, then code order decides. A query word the catalog and the synonym table do not
know is replaced by the nearest known word (optimal string alignment distance, 1 edit for words
of up to 5 letters, 2 beyond; ties go to the closer length, then the commoner word).

The cost of a query is bounded whatever a model sends: only its start is read (see
:func:`query_prefix`), at most ``MAX_CORRECTIONS`` unknown words are corrected, and corrections
are memoised for the whole process. Results never depend on what the cache holds.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import OSA

from clinical_envs.icd10.synonyms import expand, synonym_words
from clinical_envs.icd10.text import american, core_length, terms, words

LENGTH_COST = 0.006  # per half-word of title beyond what the query asked for
# A billable code outranks its header when it is at most one word more specific.
BILLABLE_BONUS = 2 * LENGTH_COST
# A word found only in a code's inclusion terms counts for less than one in its title.
INCLUSION_WEIGHT = 0.6
MAX_QUERY_TERMS = 48
# What a search reads: its first 64 distinct words, 128 words or 2,000 characters, whichever
# ends first. Only 48 terms count anyway; this bounds the work before they are found.
MAX_QUERY_WORDS = 64
MAX_QUERY_TOKENS = 128
MAX_QUERY_CHARS = 2_000
MAX_CORRECTIONS = 8  # unknown words corrected per query, in order; later ones stay as written
CORRECTION_CACHE = 1 << 16  # memoised corrections, shared by every search in the process
MIN_FUZZY_LENGTH = 4
_WORD = re.compile(r"[a-z0-9]+")
_RAW_WORD = re.compile(r"[A-Za-z0-9]+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def query_prefix(query: str) -> str:
    """The part of ``query`` a search reads; the rest is ignored (and the tool says so)."""
    head = query[:MAX_QUERY_CHARS]
    seen: set[str] = set()
    for n, match in enumerate(_RAW_WORD.finditer(head), 1):
        seen.add(match.group(0).lower())
        if len(seen) >= MAX_QUERY_WORDS or n >= MAX_QUERY_TOKENS:
            return head[: match.end()]
    return head


def ascii_text(text: str) -> str:
    """Non-ASCII characters as word breaks, as the index reads them (so nothing changes), but
    the regexes that follow run on short ASCII text, never on 2,000 characters of emoji."""
    return _NON_ASCII.sub(" ", text)


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
    def _targets(self) -> tuple[list[str], list[int]]:
        """Correction targets sorted by length, and their lengths (to bisect a band of lengths)."""
        known = sorted({w for w in (*self.words, *synonym_words()) if w.isalpha()}, key=len)
        lengths = [len(w) for w in known]
        return known, lengths

    def needs_correction(self, word: str) -> bool:
        """Long enough to judge, alphabetic, and known neither to the catalog nor the synonyms."""
        return len(word) >= MIN_FUZZY_LENGTH and word.isalpha() and not self._count(word)

    @cached_property
    def _correct(self) -> Callable[[str], str]:
        """The nearest known word (or the word itself), memoised for the process."""

        @lru_cache(maxsize=CORRECTION_CACHE)
        def nearest(word: str) -> str:
            limit = 1 if len(word) <= 5 else 2
            known, lengths = self._targets
            band = known[
                bisect_left(lengths, len(word) - limit) : bisect_left(
                    lengths, len(word) + limit + 1
                )
            ]
            found = [
                ((distance, abs(len(candidate) - len(word)), -self._count(candidate)), candidate)
                for candidate, distance, _ in process.extract(
                    word, band, scorer=OSA.distance, score_cutoff=limit, limit=None
                )
            ]
            return min(found)[1] if found else word

        return nearest

    def query_terms(self, query: str) -> list[int]:
        budget = MAX_CORRECTIONS
        fixed: dict[str, str] = {}

        def correct(match: re.Match[str]) -> str:
            nonlocal budget
            word = match.group(0)
            if word not in fixed:
                if budget and self.needs_correction(word):
                    budget -= 1
                    fixed[word] = self._correct(word)
                else:
                    fixed[word] = word
            return fixed[word]

        corrected = _WORD.sub(correct, american(ascii_text(query_prefix(query))))
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
