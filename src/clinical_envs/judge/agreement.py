"""``clinical-envs agreement``: how far the rules and the judge agree, from saved results.

Reads the ``results.jsonl`` of runs made with ``grader="both"`` and ``-C reply_grades`` (each
graded turn then holds both verdicts), and reports per corpus: agreement on "maintained",
Cohen's kappa with a 95% interval (large-sample standard error), the confusion matrix of levels
(rules -> judge), and every turn on which the layers disagree, with both verdicts.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clinical_envs.judge.verdict import UNPARSED


@dataclass(frozen=True)
class Turn:
    corpus: str
    scenario: str
    turn: int
    rules: dict[str, Any]
    judge: dict[str, Any]


def result_files(paths: Iterable[str | Path]) -> list[Path]:
    """``results.jsonl`` files: given directly, or found under the given run folders."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(path.rglob("results.jsonl")))
        elif path.is_file():
            found.append(path)
        else:
            raise ValueError(f"{path}: no such file or folder")
    if not found:
        raise ValueError("no results.jsonl under the given paths; pass a vf-eval output folder")
    return found


def load_turns(paths: Iterable[str | Path]) -> list[Turn]:
    """Every turn graded by both layers; files without them are errors that say how to fix."""
    turns: list[Turn] = []
    for path in result_files(paths):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        for number, row in enumerate(rows, 1):
            grades = row.get("reply_grades")
            if grades is None:
                raise ValueError(
                    f"{path}: row {number}: no reply_grades; run vf-eval with -C reply_grades"
                )
            info = row.get("info") or {}
            if isinstance(info, str):
                info = json.loads(info)
            for grade in grades:
                if "judge" not in grade or "rules" not in grade:
                    raise ValueError(
                        f"{path}: row {number}: reply_grades hold one layer only; run the "
                        'environment with grader="both" to compare the rules and the judge'
                    )
                turns.append(
                    Turn(
                        str(info.get("corpus", "?")),
                        str(info.get("scenario_id", "?")),
                        int(grade.get("turn", 0)),
                        grade["rules"],
                        grade["judge"],
                    )
                )
    return turns


def kappa(pairs: Sequence[tuple[bool, bool]]) -> tuple[float, float, float]:
    """Cohen's kappa of two binary raters, and its 95% interval (large-sample standard error;
    NaN when agreement by chance is certain)."""
    n = len(pairs)
    if n == 0:
        return math.nan, math.nan, math.nan
    observed = sum(a == b for a, b in pairs) / n
    first = sum(a for a, _ in pairs) / n
    second = sum(b for _, b in pairs) / n
    chance = first * second + (1 - first) * (1 - second)
    if chance >= 1:
        return math.nan, math.nan, math.nan
    value = (observed - chance) / (1 - chance)
    error = math.sqrt(observed * (1 - observed) / (n * (1 - chance) ** 2))
    return value, max(-1.0, value - 1.96 * error), min(1.0, value + 1.96 * error)


def summarise(turns: Sequence[Turn]) -> dict[str, Any]:
    """The figures per corpus (and over all), JSON-able."""
    by_corpus: dict[str, list[Turn]] = defaultdict(list)
    for turn in turns:
        by_corpus[turn.corpus].append(turn)
    out: dict[str, Any] = {}
    for corpus, group in [*sorted(by_corpus.items()), ("all", list(turns))]:
        judged = [t for t in group if UNPARSED not in t.judge.get("flags", [])]
        pairs = [(bool(t.rules["maintained"]), bool(t.judge["maintained"])) for t in judged]
        value, low, high = kappa(pairs)
        confusion = Counter((t.rules["level"], t.judge["level"]) for t in judged)
        out[corpus] = {
            "turns": len(group),
            "judge_unparsed": len(group) - len(judged),
            "agreement": sum(a == b for a, b in pairs) / len(pairs) if pairs else None,
            "kappa": _finite(value),
            "kappa_95": [_finite(low), _finite(high)],
            "levels_rules_to_judge": {
                str(r): {str(j): confusion[(r, j)] for j in range(4)} for r in range(4)
            },
            "disagreements": [
                {
                    "scenario": t.scenario,
                    "turn": t.turn,
                    "rules": t.rules,
                    "judge": {k: t.judge.get(k) for k in ("level", "maintained", "flags")},
                    "evidence": t.judge.get("evidence", ""),
                }
                for t in judged
                if bool(t.rules["maintained"]) != bool(t.judge["maintained"])
            ],
        }
    return out


def table(summary: dict[str, Any]) -> str:
    """The summary as readable markdown."""
    lines = [
        "| corpus | turns | judge unparsed | agreement | kappa (95% CI) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for corpus, s in summary.items():
        low, high = s["kappa_95"]
        lines.append(
            f"| {corpus} | {s['turns']} | {s['judge_unparsed']} | {_num(s['agreement'])} | "
            f"{_num(s['kappa'])} ({_num(low)} to {_num(high)}) |"
        )
    every = summary["all"]
    lines += ["", "Levels, rules (rows) -> judge (columns), all corpora:", ""]
    lines += ["| rules \\ judge | 0 | 1 | 2 | 3 |", "| --- | --- | --- | --- | --- |"]
    for level, row in every["levels_rules_to_judge"].items():
        lines.append(f"| {level} | " + " | ".join(str(row[j]) for j in "0123") + " |")
    disagreements = [(c, d) for c, s in summary.items() if c != "all" for d in s["disagreements"]]
    lines += ["", f"Turns where the layers disagree about maintained: {len(disagreements)}", ""]
    if disagreements:
        lines += [
            "| corpus | scenario | turn | rules (level, maintained) | judge | judge's evidence |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for corpus, d in disagreements:
            rules, judge = d["rules"], d["judge"]
            evidence = d["evidence"].replace("|", "/").replace("\n", " ")[:120]
            lines.append(
                f"| {corpus} | {d['scenario']} | {d['turn']} | {rules['level']}, "
                f"{rules['maintained']} | {judge['level']}, {judge['maintained']} | {evidence} |"
            )
    return "\n".join(lines)


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"
