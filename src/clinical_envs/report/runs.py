"""Reading saved evaluation runs (vf-eval / ``prime eval`` output folders) for the report."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOW_TO_SAVE = (
    "pass a vf-eval output folder (outputs/evals/<env>--<model>/<run id>) or its results.jsonl"
)


class RunError(ValueError):
    """A run that cannot be read; the message names the file, the row and the fix."""


@dataclass(frozen=True)
class Run:
    """One saved evaluation: its rows and what vf-eval recorded about it."""

    path: Path
    metadata: dict[str, Any]
    rows: list[dict[str, Any]]
    kind: str
    """``escalation`` (rows carry a ``scenario_id``) or ``diagnosis`` (a ``case_id``)."""
    columns: frozenset[str] = field(default_factory=frozenset)
    """Saved state columns present in every row (``reply_grades``, ``clinical``)."""

    @property
    def shown_path(self) -> str:
        return shown(self.path)

    @property
    def label(self) -> str:
        env = self.metadata.get("env_id") or self.path.parent.name
        model = self.metadata.get("model")
        return f"{env} / {model}" if model else str(env)


def shown(path: Path) -> str:
    """A path as a reader wants it: relative to the working folder when it lies inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _decoded(value: Any) -> Any:
    """Older verifiers releases save ``info`` and state columns as JSON strings."""
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def _results_file(path: Path) -> Path:
    if path.is_file():
        return path
    if path.is_dir() and (path / "results.jsonl").is_file():
        return path / "results.jsonl"
    if path.is_dir():
        raise RunError(f"{path}: no results.jsonl in this folder; {HOW_TO_SAVE}")
    raise RunError(f"{path}: no such file or folder; {HOW_TO_SAVE}")


def _kind(info: dict[str, Any], where: str) -> str:
    if "scenario_id" in info:
        return "escalation"
    if "case_id" in info:
        return "diagnosis"
    raise RunError(
        f"{where}: info has neither scenario_id nor case_id; the report reads runs of this "
        "package's environments only"
    )


def load_run(path: str | Path) -> Run:
    """Read ``results.jsonl`` (and ``metadata.json`` beside it, when present)."""
    results = _results_file(Path(path))
    rows: list[dict[str, Any]] = []
    with results.open(encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise RunError(f"{results}: line {number}: not JSON ({e.msg})") from None
            if not isinstance(row, dict) or "reward" not in row:
                raise RunError(f"{results}: line {number}: not a vf-eval result row (no reward)")
            row["info"] = _decoded(row.get("info")) or {}
            if not isinstance(row["info"], dict):
                raise RunError(f"{results}: line {number}: info is not a mapping")
            for column in ("reply_grades", "clinical", "metrics"):
                if column in row:
                    row[column] = _decoded(row[column])
            rows.append(row)
    if not rows:
        raise RunError(f"{results}: no rows; the run saved nothing")
    kinds = {_kind(r["info"], f"{results}: line {i}") for i, r in enumerate(rows, 1)}
    if len(kinds) > 1:
        raise RunError(f"{results}: mixes escalation and set-diagnosis rows")
    meta_file = results.parent / "metadata.json"
    metadata: dict[str, Any] = {}
    if meta_file.is_file():
        try:
            metadata = json.loads(meta_file.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise RunError(
                f"{meta_file}: not JSON ({e.msg}); delete it or re-save the run"
            ) from None
    columns = frozenset(
        c for c in ("reply_grades", "clinical") if all(r.get(c) is not None for r in rows)
    )
    return Run(results.parent, metadata, rows, kinds.pop(), columns)


def metric(row: dict[str, Any], name: str) -> float | None:
    """A row's score by name (top-level column, or inside ``metrics``)."""
    value = row.get(name)
    if value is None and isinstance(row.get("metrics"), dict):
        value = row["metrics"].get(name)
    return float(value) if isinstance(value, int | float) else None
