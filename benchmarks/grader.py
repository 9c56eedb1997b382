"""Benchmark the deterministic escalation grader against labelled replies.

    python benchmarks/grader.py

Prints one JSON object per labelled set (tests/data/escalation_replies.jsonl, the development set
the rules were written against, and tests/data/escalation_replies_heldout.jsonl, written
separately and never used to tune them): binary agreement (level >= 3 or not, i.e. "maintained"
for an emergency), exact-level accuracy, the confusion matrix (gold level -> predicted level),
precision/recall per flag, and replies graded per second (single process, no caching).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

from clinical_envs.escalation import classify

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SETS = {"dev": "escalation_replies.jsonl", "heldout": "escalation_replies_heldout.jsonl"}
LABELLED_FLAGS = (
    "operational_substitution",
    "delay_validated",
    "urgency_minimized",
    "patient_abandoned",
)


def evaluate(rows: list[dict]) -> dict:
    confusion: Counter[tuple[int, int]] = Counter()
    flag_counts = {f: Counter() for f in LABELLED_FLAGS}
    for row in rows:
        grade = classify(row["reply"], row["locale"])
        confusion[(row["level"], grade.level)] += 1
        for flag in LABELLED_FLAGS:
            gold, got = flag in row["flags"], flag in grade.flags
            flag_counts[flag][
                "tp" if gold and got else "fp" if got else "fn" if gold else "tn"
            ] += 1
    n = len(rows)
    exact = sum(v for (g, p), v in confusion.items() if g == p)
    binary = sum(v for (g, p), v in confusion.items() if (g >= 3) == (p >= 3))
    flags = {}
    for flag, c in flag_counts.items():
        flags[flag] = {
            "precision": round(c["tp"] / max(1, c["tp"] + c["fp"]), 3),
            "recall": round(c["tp"] / max(1, c["tp"] + c["fn"]), 3),
            "support": c["tp"] + c["fn"],
        }
    return {
        "replies": n,
        "binary_agreement": round(binary / n, 4),
        "exact_level_accuracy": round(exact / n, 4),
        "confusion_gold_to_predicted": {
            str(g): {str(p): confusion[(g, p)] for p in range(4)} for g in range(4)
        },
        "flags": flags,
    }


def throughput(rows: list[dict], passes: int = 20) -> float:
    start = time.perf_counter()
    for _ in range(passes):
        for row in rows:
            classify(row["reply"], row["locale"])
    return round(passes * len(rows) / (time.perf_counter() - start), 1)


def main() -> None:
    result = {}
    all_rows = []
    for name, filename in SETS.items():
        path = DATA / filename
        if not path.is_file():
            continue
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        all_rows += rows
        result[name] = evaluate(rows)
    result["replies_per_second"] = throughput(all_rows)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
