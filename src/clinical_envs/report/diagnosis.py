"""The set-diagnosis part of the report: code, category, chapter and status accuracy, the six
sub-scores, a chapter confusion figure, how the model used the tools, and the failed cases.

Accuracy reads what was recorded (saved with ``-C clinical``): a case counts as exact when any
recorded code is the gold code or one of its acceptable codes, as the rewards do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from clinical_envs import icd10
from clinical_envs.report import figures
from clinical_envs.report.document import Figure, Section, pct
from clinical_envs.report.runs import Run, metric
from clinical_envs.report.stats import Estimate, bootstrap, wilson
from clinical_envs.rewards.diagnosis import DEFAULT_WEIGHTS

NO_CLINICAL = (
    "Saved without the recorded diagnoses, so accuracy by code, category, chapter and status, "
    "the chapter confusion, tool behaviour and the failed cases cannot be computed: re-run "
    "vf-eval with `-C clinical` (scripts/eval.sh saves it)."
)
SEARCH_TOOLS = ("search_diagnosis_codes", "list_diagnosis_codes")
MAX_FAILED_LISTED = 40


@cache
def chapter(code: str) -> str | None:
    """ICD-10-CM chapter number of a code (as a string), None when the catalog lacks it."""
    import simple_icd_10_cm as cm

    entry = icd10.lookup(code)
    if entry is None:
        return None
    try:
        return str(cm.get_ancestors(entry.code)[-1])
    except ValueError:
        return None


@dataclass(frozen=True)
class Case:
    case_id: str
    reward: float
    row: Mapping[str, Any]
    gold: tuple[Mapping[str, Any], ...]
    recorded: tuple[Mapping[str, Any], ...]
    clinical: Mapping[str, Any] | None

    def _gold_codes(self) -> set[str]:
        codes = set()
        for g in self.gold:
            codes.add(icd10.normalize(str(g["icd10_code"])))
            codes.update(icd10.normalize(str(c)) for c in g.get("acceptable_codes") or ())
        return codes

    def _recorded_codes(self) -> list[str]:
        return [icd10.normalize(str(r.get("icd10_code", ""))) for r in self.recorded]

    @property
    def exact(self) -> bool:
        return bool(self._gold_codes() & set(self._recorded_codes()))

    @property
    def category(self) -> bool:
        gold = {c[:3] for c in self._gold_codes()}
        return any(c[:3] in gold for c in self._recorded_codes())

    @property
    def gold_chapter(self) -> str:
        value = self.row["info"].get("chapter")
        return str(value) if value is not None else chapter(str(self.gold[0]["icd10_code"])) or "?"

    @property
    def recorded_chapter(self) -> str:
        """Chapter of the first recorded code (the primary diagnosis); "none" if nothing."""
        if not self.recorded:
            return "none"
        return chapter(str(self.recorded[0].get("icd10_code", ""))) or "invalid"

    @property
    def status_right(self) -> bool | None:
        """Whether the record of the gold code has the gold status (None: code not recorded)."""
        golds = self._gold_codes()
        wanted = {str(g.get("status", "")).lower() for g in self.gold}
        matched = [r for r in self.recorded if icd10.normalize(str(r.get("icd10_code"))) in golds]
        if not matched:
            return None
        return any(str(r.get("status", "")).lower() in wanted for r in matched)


def cases(run: Run) -> list[Case]:
    out = []
    for row in run.rows:
        clinical = row.get("clinical") if isinstance(row.get("clinical"), dict) else None
        out.append(
            Case(
                case_id=str(row["info"]["case_id"]),
                reward=float(row["reward"]),
                row=row,
                gold=tuple(row["info"].get("gold") or ()),
                recorded=tuple((clinical or {}).get("recorded") or ()),
                clinical=clinical,
            )
        )
    return out


def headline(items: list[Case], with_records: bool) -> dict[str, Estimate]:
    """The figures compared across runs."""
    out = {"mean reward": bootstrap([[(c.reward, 1.0)] for c in items])}
    if with_records:
        out["exact code"] = wilson(sum(c.exact for c in items), len(items))
        out["category (3 characters)"] = wilson(sum(c.category for c in items), len(items))
        out["chapter"] = wilson(
            sum(c.recorded_chapter == c.gold_chapter for c in items), len(items)
        )
    return out


def build(run: Run) -> Section:
    items = cases(run)
    with_records = all(c.clinical is not None for c in items)
    section = Section(f"Set-diagnosis: {run.label}")
    if not with_records:
        section.text(NO_CLINICAL)
    top = headline(items, with_records)
    rows = [(name, str(e)) for name, e in top.items()]
    if with_records:
        judged = [c.status_right for c in items if c.status_right is not None]
        rows.append(
            ("status, where the gold code was recorded", str(wilson(sum(judged), len(judged))))
        )
    section.table(
        "Accuracy",
        ("figure", "value [95% CI]"),
        rows,
        f"n = {len(items)} rollouts. Wilson intervals for shares, bootstrap for the mean reward.",
    )
    for name, e in top.items():
        section.summary.append((name, pct(e.value)))

    scores = []
    for name, weight in DEFAULT_WEIGHTS.items():
        values = [v for c in items if (v := metric(c.row, name)) is not None]
        if values:
            scores.append((name, f"{weight:.2f}", pct(sum(values) / len(values))))
    section.table("Sub-scores", ("score", "default weight", "mean"), scores)
    if with_records:
        _confusion(section, items)
        _tools(section, items)
        _failed(section, items)
    return section


def _confusion(section: Section, items: list[Case]) -> None:
    gold = sorted({c.gold_chapter for c in items}, key=_chapter_order)
    recorded = sorted({c.recorded_chapter for c in items} | set(gold), key=_chapter_order)
    counts = Counter((c.gold_chapter, c.recorded_chapter) for c in items)
    matrix = [[counts[(g, r)] for r in recorded] for g in gold]
    section.add(
        Figure(
            "Chapter of the first recorded code against the gold chapter",
            "chapter_confusion.png",
            figures.confusion(
                matrix,
                gold,
                recorded,
                f"ICD-10-CM chapter: gold vs first recorded (n={len(items)})",
            ),
            "Rows: gold chapter; columns: chapter of the first recorded code ('none': nothing "
            "recorded; 'invalid': not an ICD-10-CM code).",
        )
    )


def _chapter_order(value: str) -> tuple[int, str]:
    return (int(value), "") if value.isdigit() else (99, value)


def _tools(section: Section, items: list[Case]) -> None:
    n = len(items)
    used: Counter[str] = Counter()
    problems: Counter[str] = Counter()
    finished: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    for c in items:
        clinical = c.clinical or {}
        stats = clinical.get("tool_stats") or {}
        used.update(stats.get("by_tool") or {})
        sources.update({k: stats.get(k, 0) for k in ("native", "text")})
        problems.update(p.get("kind", "?") for p in clinical.get("problems") or ())
        done = clinical.get("finished")
        finished[f"finished ({done.get('how', '?')})" if done else "cut off (never finished)"] += 1
    counted = all("by_tool" in ((c.clinical or {}).get("tool_stats") or {}) for c in items)
    rows = [
        (f"{name} calls per case", f"{used[name] / n:.2f}" if counted else "not saved")
        for name in (*SEARCH_TOOLS, "set_diagnosis", "finish_setting_diagnoses")
    ]
    rows += [(f"{k} tool calls per case", f"{sources[k] / n:.2f}") for k in ("native", "text")]
    rows += [
        (f"problem: {kind}", f"{count} ({count / n:.2f} per case)")
        for kind, count in problems.most_common()
    ]
    rows += [(how, f"{count} of {n}") for how, count in sorted(finished.items())]
    section.table(
        "Tool behaviour",
        ("figure", "value"),
        rows,
        "Problems are calls the environment answered with an error (invalid JSON, unknown tool, "
        "bad arguments, a code not in the catalog, a call after finishing...).",
    )


def _failed(section: Section, items: list[Case]) -> None:
    failed = [c for c in items if not c.exact]
    rows = []
    for c in failed[:MAX_FAILED_LISTED]:
        gold = "; ".join(f"{g['icd10_code']} ({str(g.get('status', '')).lower()})" for g in c.gold)
        got = (
            "; ".join(f"{r.get('icd10_code')} ({r.get('status')})" for r in c.recorded) or "nothing"
        )
        rows.append((c.case_id, gold, got, pct(c.reward)))
    more = len(failed) - len(rows)
    section.table(
        f"Cases without the gold code ({len(failed)} of {len(items)})",
        ("case", "gold", "recorded", "reward"),
        rows,
        f"{more} more not listed." if more > 0 else "",
    )
