"""``clinical-envs report``: a readable report (Markdown, self-contained HTML, PNG figures) from
saved vf-eval / ``prime eval`` runs of this package's environments."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from clinical_envs.report import compare, diagnosis, escalation, render
from clinical_envs.report.document import Section
from clinical_envs.report.runs import Run, RunError, load_run

__all__ = ["Run", "RunError", "build_report", "load_run"]


def sections_for(runs: Sequence[Run], with_comparison: bool) -> list[Section]:
    sections = [compare.build(runs)] if with_comparison else []
    for run in runs:
        sections.append(escalation.build(run) if run.kind == "escalation" else diagnosis.build(run))
    return sections


def build_report(
    paths: Sequence[str | Path], out_dir: str | Path | None = None, with_comparison: bool = False
) -> tuple[list[Path], str]:
    """Write the report for ``paths`` into ``out_dir`` (default: ``report/`` inside the first
    run's folder); return the files written and the console summary."""
    runs = [load_run(p) for p in paths]
    if with_comparison and len(runs) < 2:
        raise RunError("--compare needs at least two runs")
    sections = sections_for(runs, with_comparison)
    out = Path(out_dir) if out_dir is not None else runs[0].path / "report"
    title = "Evaluation report" if len(runs) > 1 else f"Evaluation report: {runs[0].label}"
    written = render.write(out, title, [r.shown_path for r in runs], sections)
    return written, render.summary_table(sections)
