"""Interval estimates for the report: Wilson for shares, a seeded bootstrap for means and
differences, and a paired sign-flip test. Pure Python and deterministic, so a report built twice
from the same runs prints the same numbers."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
BOOTSTRAP_RESAMPLES = 2000
SEED = 0


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval and the number of units it rests on."""

    value: float
    low: float
    high: float
    n: int

    def __str__(self) -> str:
        if self.n == 0:
            return "n/a (n=0)"
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}] (n={self.n})"


def wilson(successes: int, n: int) -> Estimate:
    """Share with a Wilson score interval: sound at 0/n and n/n, where the normal one collapses."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def _percentiles(draws: list[float]) -> tuple[float, float]:
    draws.sort()
    return draws[int(0.025 * (len(draws) - 1))], draws[int(0.975 * (len(draws) - 1))]


def bootstrap(
    clusters: Sequence[Sequence[tuple[float, float]]],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = SEED,
) -> Estimate:
    """Weighted mean of ``(value, weight)`` pairs with a percentile bootstrap interval that
    resamples whole clusters (a scenario's rollouts move together: they are not independent)."""
    if not any(clusters):
        return Estimate(math.nan, math.nan, math.nan, 0)
    # Each cluster as (sum of value x weight, sum of weight): a resample costs O(clusters).
    sums = [(sum(v * w for v, w in c), sum(w for _, w in c)) for c in clusters]

    def mean(chosen: Sequence[tuple[float, float]]) -> float:
        total = sum(w for _, w in chosen)
        return sum(vw for vw, _ in chosen) / total if total else math.nan

    rng = random.Random(seed)
    k = len(sums)
    draws = [mean([sums[rng.randrange(k)] for _ in range(k)]) for _ in range(resamples)]
    low, high = _percentiles([d for d in draws if not math.isnan(d)])
    return Estimate(mean(sums), low, high, len(clusters))


def bootstrap_difference(
    a: Sequence[float],
    b: Sequence[float],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = SEED,
) -> Estimate:
    """Mean of ``b`` minus mean of ``a`` (independent samples), with a bootstrap interval."""
    if not a or not b:
        return Estimate(math.nan, math.nan, math.nan, 0)
    rng = random.Random(seed)

    def resampled_mean(xs: Sequence[float]) -> float:
        return sum(xs[rng.randrange(len(xs))] for _ in xs) / len(xs)

    draws = [resampled_mean(b) - resampled_mean(a) for _ in range(resamples)]
    low, high = _percentiles(draws)
    return Estimate(sum(b) / len(b) - sum(a) / len(a), low, high, min(len(a), len(b)))


def paired_sign_flip(
    differences: Sequence[float], resamples: int = 10000, seed: int = SEED
) -> float:
    """Two-sided p-value that the mean paired difference is 0 (random sign flips; exact
    enumeration when there are at most 16 non-zero pairs)."""
    diffs = [d for d in differences if d != 0]
    if not diffs:
        return 1.0
    observed = abs(sum(diffs))
    if len(diffs) <= 16:
        total = 1 << len(diffs)
        hits = sum(
            abs(sum(d if mask >> i & 1 else -d for i, d in enumerate(diffs))) >= observed - 1e-12
            for mask in range(total)
        )
        return hits / total
    rng = random.Random(seed)
    hits = sum(
        abs(sum(d if rng.random() < 0.5 else -d for d in diffs)) >= observed - 1e-12
        for _ in range(resamples)
    )
    return (hits + 1) / (resamples + 1)
