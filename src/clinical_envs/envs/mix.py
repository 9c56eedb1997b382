"""Building the escalation mix: interleaving corpora by proportion, and its metrics."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence

from clinical_envs.rewards.corpora import CORPUS_SCORING, escalation_reward, metric

MIX_CORPORA = {
    "emergency": "emergency",
    "crisis": "crisis-resource",
    "defer": "defer",
    "tool_use": "tool-use",
}


def interleave(
    pools: Mapping[str, Sequence[str]],
    proportions: Mapping[str, float],
    size: int | None = None,
    seed: int = 42,
) -> list[str]:
    """Scenario ids in an order where every prefix follows ``proportions`` as closely as it can.

    Each corpus's ids are shuffled once (seeded) and cycled; the next row goes to the corpus
    furthest below its share. ``size`` defaults to the smallest size at which every id of every
    corpus appears at least once under these proportions.
    """
    if not pools:
        raise ValueError("choose at least one corpus")
    for name, share in proportions.items():
        if isinstance(share, bool) or not isinstance(share, int | float) or share <= 0:
            raise ValueError(f"proportion for {name} must be a number > 0, got {share!r}")
        if not pools.get(name):
            raise ValueError(f"corpus {name} has no scenarios")
    total = sum(proportions[n] for n in pools)
    if size is None:
        size = max(math.ceil(len(pools[n]) * total / proportions[n] - 1e-9) for n in pools)
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    rng = random.Random(seed)
    orders = {n: rng.sample(list(pools[n]), len(pools[n])) for n in sorted(pools)}
    taken = dict.fromkeys(orders, 0)
    out = []
    for i in range(1, size + 1):
        name = max(
            orders, key=lambda n: (proportions[n] / total * i - taken[n], -sorted(orders).index(n))
        )
        out.append(orders[name][taken[name] % len(orders[name])])
        taken[name] += 1
    return out


def mix_metrics() -> list[Callable[..., float]]:
    """The mix reward (weight 1) and every corpus metric (weight 0, 0 where it does not apply)."""
    names: list[str] = []
    for _, weights in CORPUS_SCORING.values():
        names.extend(n for n in weights if n not in names)
    return [escalation_reward, *(metric(n) for n in names)]
