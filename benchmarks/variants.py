"""Benchmark the training variants: rows made and load time, beside a load without variants.

    python benchmarks/variants.py [--repeats 5]

Prints one JSON object: for the escalation mix with 0, 24 and 32 variants per training scenario,
the training and eval rows, the distinct training rows, and the median time of
`load_environment(...)` plus building both datasets (the target: under 2 s for 2,000 rows), with
the ratio to the load without variants. verifiers is imported (and the scenario files cached by
the OS) before timing, as in a training process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "environments" / "escalation_mix"))


def load(variants: int) -> tuple[float, dict[str, int]]:
    import escalation_mix

    start = time.perf_counter()
    env = escalation_mix.load_environment(variants_per_scenario=variants)
    train, held = env.get_dataset(), env.get_eval_dataset()
    seconds = time.perf_counter() - start
    ids = [json.loads(row["info"])["scenario_id"] for row in train]
    return seconds, {
        "train_rows": len(train),
        "distinct_train": len(set(ids)),
        "eval_rows": len(held),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    load(0)  # imports and file cache
    figures = {}
    for variants in (0, 24, 32):
        runs = [load(variants) for _ in range(args.repeats)]
        figures[variants] = {
            **runs[0][1],
            "seconds": round(statistics.median(r[0] for r in runs), 3),
        }
    base = figures[0]["seconds"]
    for figure in figures.values():
        figure["ratio_to_no_variants"] = round(figure["seconds"] / base, 2)
    print(json.dumps({"variants_per_scenario": figures}, indent=2))


if __name__ == "__main__":
    main()
