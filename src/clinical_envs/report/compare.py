"""Runs side by side (e.g. a base and a trained model): each headline figure per run, its
difference from the first run with a bootstrap interval, and a paired test where the same
scenarios (or cases) ran in both.

The unit is the scenario (escalation) or the case (set-diagnosis): a figure is first averaged
over that unit's rollouts, so a run with more rollouts per scenario does not look more certain
than it is.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from clinical_envs.report import diagnosis, escalation, figures
from clinical_envs.report.document import Figure, Section
from clinical_envs.report.runs import Run
from clinical_envs.report.stats import (
    Estimate,
    bootstrap,
    bootstrap_difference,
    paired_sign_flip,
    wilson,
)

Units = dict[str, float]


def _unit_means(
    items: Sequence[Any], unit: Callable[[Any], str], value: Callable[[Any], float]
) -> Units:
    groups: dict[str, list[float]] = defaultdict(list)
    for item in items:
        groups[unit(item)].append(value(item))
    return {k: sum(v) / len(v) for k, v in groups.items()}


def figures_by_unit(run: Run) -> dict[str, Units]:
    """Each compared figure as a mean per scenario (or case)."""
    if run.kind == "diagnosis":
        cases = diagnosis.cases(run)
        out = {"mean reward": _unit_means(cases, lambda c: c.case_id, lambda c: c.reward)}
        if all(c.clinical is not None for c in cases):
            out["exact code"] = _unit_means(cases, lambda c: c.case_id, lambda c: float(c.exact))
        return out
    items = escalation.rollouts(run)
    graded = all(r.grades is not None for r in items)
    out = {}
    corpora = sorted({r.corpus for r in items}, key=escalation.corpus_key)
    scopes = [("all", items)] + (
        [(c, [r for r in items if r.corpus == c]) for c in corpora] if len(corpora) > 1 else []
    )
    for scope, group in scopes:
        out[f"{scope}: mean reward"] = _unit_means(group, lambda r: r.scenario, lambda r: r.reward)
        if graded:
            out[f"{scope}: pass^1"] = _unit_means(
                group, lambda r: r.scenario, lambda r: float(r.held)
            )
    return out


def build(runs: Sequence[Run]) -> Section:
    kinds = {r.kind for r in runs}
    if len(kinds) > 1:
        raise ValueError("--compare needs runs of one kind (all escalation or all set-diagnosis)")
    per_run = [figures_by_unit(r) for r in runs]
    names = [n for n in per_run[0] if all(n in f for f in per_run)]
    section = Section("Comparison")
    rows = []
    for name in names:
        a = per_run[0][name]
        cells = [name] + [_mean(f[name]) for f in per_run]
        for other in per_run[1:]:
            b = other[name]
            diff = bootstrap_difference(list(a.values()), list(b.values()))
            shared = sorted(set(a) & set(b))
            p = paired_sign_flip([b[k] - a[k] for k in shared]) if shared else float("nan")
            cells.append(f"{diff.value:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}]")
            cells.append(f"{p:.3g} ({len(shared)} paired)" if shared else "no shared units")
        rows.append(tuple(cells))
    columns = ["figure"] + [f"run {i + 1}" for i in range(len(runs))]
    for i in range(1, len(runs)):
        columns += [f"run {i + 1} - run 1 [95% CI]", f"paired p (run {i + 1} vs 1)"]
    section.table(
        "Headline figures side by side",
        tuple(columns),
        rows,
        "Runs: "
        + "; ".join(f"run {i + 1} = {r.label} ({r.shown_path})" for i, r in enumerate(runs))
        + ". Each figure is averaged per scenario (or case) first; the interval is a bootstrap "
        "over those units (2,000 resamples, seed 0); the p-value is a two-sided sign-flip test "
        "on the paired per-unit differences.",
    )
    shown = names[:6]
    series = {f"run {i + 1}": [_estimate(f[n]) for n in shown] for i, f in enumerate(per_run)}
    n_units = min(len(per_run[0][n]) for n in shown) if shown else 0
    section.add(
        Figure(
            "Headline figures by run",
            "comparison.png",
            figures.grouped_bars(
                shown, series, f"Runs side by side (at least n={n_units} units a figure)", "value"
            ),
            " / ".join(f"run {i + 1}: {r.label}" for i, r in enumerate(runs)),
        )
    )
    return section


def _mean(units: Units) -> str:
    return f"{sum(units.values()) / len(units):.3f}" if units else "n/a"


def _estimate(units: Units) -> Estimate:
    """Mean of per-unit values with a bootstrap interval (a Wilson one when they are 0/1)."""
    values = list(units.values())
    if all(v in (0.0, 1.0) for v in values):
        return wilson(int(sum(values)), len(values))
    return bootstrap([[(v, 1.0)] for v in values])
