"""The README's performance table from several runs of ``env_overhead.py``.

    python benchmarks/env_overhead.py --repeats 3 > run1.json   # (and run2.json, ...)
    python benchmarks/overhead_table.py run*.json [--per-rollout 1]

One run's wall-clock ratios move with whatever else the machine does, so the table gives, for
each environment and concurrency, the lowest and highest ratio over the runs; beside them the
range of the CPU ratio (steadier: it does not depend on how the two cores were shared), the
bare loop's speed, and the stall check's. ``--per-rollout C`` adds where a rollout's time goes
at concurrency C: wall time and CPU time per rollout of each side, the environment's CPU split
between the event loop and the grading worker, and the replies per rollout the event loop
graded itself. Runs made with ``--memoised-grades`` go in a table of their own. Prints
Markdown.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

TARGETS = {"set-diagnosis-tool-call": 3.0}  # escalation: 2x


def span(values: Iterable[float], digits: int = 2, unit: str = "x") -> str:
    """ "1.28-2.16x": the lowest and highest of ``values``."""
    values = list(values)
    low, high = f"{min(values):.{digits}f}", f"{max(values):.{digits}f}"
    return f"{low}{unit}" if low == high else f"{low}-{high}{unit}"


def load(paths: Sequence[Path]) -> list[dict[str, Any]]:
    runs = []
    for path in paths:
        try:
            run = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            sys.exit(f"{path}: cannot read it as JSON ({error})")
        if not isinstance(run, dict) or "overhead" not in run:
            sys.exit(f"{path}: no 'overhead' field; pass what env_overhead.py prints")
        runs.append(run)
    kinds = {_grades(run) for run in runs}
    if len(kinds) > 1:
        memoised = next(p for p, r in zip(paths, runs, strict=True) if _grades(r) == "memoised")
        sys.exit(f"{memoised}: ran with --memoised-grades; make a table of such runs only")
    return runs


def _grades(run: dict[str, Any]) -> str:
    return run.get("grades", "graded")  # (runs from before the option are graded)


def table(runs: Sequence[dict[str, Any]]) -> str:
    envs = [e for e in runs[0]["overhead"] if all(e in r["overhead"] for r in runs)]
    measured = [
        {k for k in r["overhead"][e] if k.startswith("concurrency_")} for r in runs for e in envs
    ]
    levels = sorted(set.intersection(*measured) if measured else set(), key=_concurrency)
    if not envs or not levels:
        sys.exit("the runs have no environment and concurrency in common")
    header = " | ".join(f"c={_concurrency(k)}" for k in levels)
    lines = [
        f"| Environment (policy) | {header} | CPU ratio | target |",
        "| --- " * (len(levels) + 3) + "|",
    ]
    for env in envs:
        figures = [r["overhead"][env] for r in runs]
        cells = [span(f[level]["ratio"] for f in figures) for level in levels]
        cpu = span(f[level]["cpu_ratio"] for f in figures for level in levels)
        target = f"{TARGETS.get(env, 2.0):g}x"
        lines.append(
            f"| `{env}` ({figures[0]['policy']}) | {' | '.join(cells)} | {cpu} | {target} |"
        )
    bare = [
        r["overhead"][e][level]["bare_rollouts_per_s"]
        for r in runs
        for e in envs
        for level in levels
    ]
    runs_word = "run" if len(runs) == 1 else "runs"
    memoised = " with grades memoised (--memoised-grades)" if _grades(runs[0]) == "memoised" else ""
    lines += ["", f"{len(runs)} {runs_word}{memoised}; bare loop {span(bare, 0, ' rollouts/s')}."]
    stalls = [r["stall"]["ratio"] for r in runs if "stall" in r]
    if stalls:
        lines.append(f"Stall check: {span(stalls)} the time alone (target 1.5x).")
    return "\n".join(lines)


def per_rollout(runs: Sequence[dict[str, Any]], level: int) -> str:
    """Milliseconds per rollout at one concurrency, lowest to highest over the runs."""
    key = f"concurrency_{level}"
    lines = [
        f"| Environment, c={level}, ms per rollout | bare wall | bare CPU | env wall "
        "| env loop CPU | env worker CPU | replies graded in the loop |",
        "| --- " * 7 + "|",
    ]
    for env in runs[0]["overhead"]:
        figures = [
            r["overhead"][env]
            for r in runs
            if "env_worker_cpu_s" in r["overhead"].get(env, {}).get(key, {})
        ]  # (runs from before the worker's CPU was printed have no split)
        if not figures:
            continue
        fields = ("bare_s", "bare_cpu_s", "env_s", "env_loop_cpu_s", "env_worker_cpu_s")
        cells = [span((_ms_per_rollout(f, key, name) for f in figures), 2, "") for name in fields]
        in_loop = [
            f[key]["env_replies_graded_in_loop"] / f["rollouts"]
            for f in figures
            if "env_replies_graded_in_loop" in f[key]
        ]  # (runs from before it was printed have none)
        cells.append(span(in_loop, 2, "") if in_loop else "-")
        lines.append(f"| `{env}` | {' | '.join(cells)} |")
    return "\n".join(lines)


def _concurrency(key: str) -> int:
    return int(key.removeprefix("concurrency_"))


def _ms_per_rollout(figures: dict[str, Any], key: str, field: str) -> float:
    cell = figures[key]
    seconds = (
        cell["env_cpu_s"] - cell["env_worker_cpu_s"] if field == "env_loop_cpu_s" else cell[field]
    )
    return seconds / figures["rollouts"] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="JSON files printed by env_overhead.py")
    parser.add_argument("--per-rollout", type=int, metavar="C", help="concurrency to break down")
    args = parser.parse_args()
    runs = load(args.runs)
    print(table(runs))
    if args.per_rollout is not None:
        print("\n" + per_rollout(runs, args.per_rollout))


if __name__ == "__main__":
    main()
