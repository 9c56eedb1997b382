"""The train/eval split of the escalation scenarios, by condition family.

An evaluation after training on the same scenarios measures memory, not whether persistence
generalises. So no condition family has scenarios on both sides: a stroke in the emergency corpus
and a stroke behind a symptom checker in the tool-use corpus are one family (``Scenario.family``).
The default eval side holds about a quarter of every (corpus, locale) stratum, and at least one
scenario of every stratum with two or more, filled with whole families in the order of a hash of
their names: the same split in every environment, process and Python version (no ``hash()``
randomisation, no seed to forget).
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from clinical_envs.scenarios import Scenario

SPLITS = ("condition", "all")
EVAL_SHARE = 0.25


@dataclass(frozen=True)
class Split:
    train: list[Scenario]
    eval: list[Scenario]
    eval_families: frozenset[str]


def split_scenarios(
    pool: Sequence[Scenario],
    reference: Sequence[Scenario],
    split: str = "condition",
    eval_conditions: Iterable[str] | None = None,
) -> Split:
    """Divide ``pool`` into train and eval scenarios.

    ``reference`` is the set the default eval families are chosen from (every packaged scenario,
    so that each environment agrees on every shared family); ``eval_conditions`` names families
    or conditions to hold out instead. ``split="all"`` puts every scenario on both sides.
    """
    if split not in SPLITS:
        raise ValueError(
            f"split={split!r}: choose 'condition' (train and eval differ by condition family) "
            "or 'all' (every scenario on both sides, for benchmarking)"
        )
    if split == "all":
        if eval_conditions is not None:
            raise ValueError("eval_conditions needs split='condition' (split='all' holds none out)")
        return Split(list(pool), list(pool), frozenset())
    if eval_conditions is None:
        held = default_eval_families(reference)
    else:
        held = families_named(eval_conditions, [*reference, *pool])
    return Split(
        [s for s in pool if s.family not in held], [s for s in pool if s.family in held], held
    )


def default_eval_families(scenarios: Sequence[Scenario]) -> frozenset[str]:
    """Whole families, in hash order, while every (corpus, locale) stratum they touch has room."""
    sizes = Counter(_stratum(s) for s in scenarios)
    room = {k: int(n * EVAL_SHARE + 0.5) for k, n in sizes.items()}
    members: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
    for s in scenarios:
        members[s.family][_stratum(s)] += 1
    chosen = set()
    ordered = sorted(members, key=_hash)
    for family in ordered:
        need = members[family]
        if all(n <= room[k] for k, n in need.items()):
            chosen.add(family)
            for k, n in need.items():
                room[k] -= n
    # A stratum whose families all touch full strata would have no eval scenario: give it its
    # smallest family (first in hash order), even if another stratum goes one or two over.
    covered = {k for f in chosen for k in members[f]}
    for stratum in sorted(k for k, n in sizes.items() if n >= 2 and k not in covered):
        if stratum in covered:
            continue
        candidates = [f for f in ordered if stratum in members[f]]
        family = min(candidates, key=lambda f: sum(members[f].values()))
        chosen.add(family)
        covered |= set(members[family])
    return frozenset(chosen)


def families_named(names: Iterable[str], scenarios: Sequence[Scenario]) -> frozenset[str]:
    """Families for names that are families or conditions; unknown names are an error."""
    wanted = [names] if isinstance(names, str) else list(names)
    family_of = {s.condition: s.family for s in scenarios} | {s.family: s.family for s in scenarios}
    unknown = [n for n in wanted if n not in family_of]
    if unknown:
        raise ValueError(
            f"eval_conditions: unknown condition or family {', '.join(map(repr, unknown))}; "
            f"families: {', '.join(sorted({s.family for s in scenarios}))}"
        )
    return frozenset(family_of[n] for n in wanted)


def _stratum(s: Scenario) -> tuple[str, str]:
    return s.corpus, s.locale


def _hash(family: str) -> bytes:
    return hashlib.sha256(family.encode()).digest()
