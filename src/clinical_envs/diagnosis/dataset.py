"""Case reports for set-diagnosis: from the Hugging Face hub, a local file, or the bundled sample.

Every source yields the same columns (``input``, ``icd10_code``, ``diagnosis``, ``status``); extra
columns are kept in ``info``. A row with a missing column or an unusable gold code fails the load
with an error naming the source, the row and the column, so a bad file never trains silently.
Several gold diagnoses per case are written as JSON lists or ``;``-separated strings.

An optional ``acceptable_codes`` column lists other codes a coder would accept for a gold
diagnosis (e.g. D35.1 beside E21.0 for a parathyroid adenoma): a list or ``;``-separated string
for a case with one gold diagnosis, or a list of such lists, one per gold diagnosis. Scoring
reads them as the gold code (see :func:`clinical_envs.rewards.diagnosis.score_diagnoses`).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from clinical_envs import icd10
from clinical_envs.diagnosis.records import STATUSES, code_problem

HUB_DEFAULT = "mkurman/clinical-case-icd10-diagnosis"
BUNDLED = "bundled"
REQUIRED_COLUMNS = ("input", "icd10_code", "diagnosis", "status")
ACCEPTABLE = "acceptable_codes"
LOCAL_SUFFIXES = (".jsonl", ".json", ".parquet", ".csv")
MAX_LISTED_ERRORS = 10


class DatasetError(ValueError):
    """A dataset that cannot be used, with the place and the fix in the message."""


@dataclass(frozen=True)
class Case:
    """One case report and its gold diagnoses."""

    case_id: str
    text: str
    gold: tuple[dict[str, Any], ...]
    """Each ``{"icd10_code": "E05.01", "diagnosis": "...", "status": "acute",
    "acceptable_codes": []}`` (other codes that earn the same credit)."""
    extra: dict[str, Any]
    """The source row's other columns, kept for analysis."""

    def info(self) -> dict[str, Any]:
        return {"case_id": self.case_id, "gold": list(self.gold), **self.extra}

    def answer(self) -> str:
        """The gold diagnoses as one line, e.g. ``E05.01 (acute)`` (for reading, not scoring)."""
        return "; ".join(f"{g['icd10_code']} ({g['status']})" for g in self.gold)


def bundled_path() -> Path:
    return Path(str(resources.files("clinical_envs") / "data" / "set_diagnosis_cases.jsonl"))


def load_cases(source: str) -> list[Case]:
    """Read and validate every row of ``source`` (``"bundled"``, a local file or a hub id)."""
    if source == BUNDLED:
        path = bundled_path()
        return parse_rows(_read_local(path), str(path))
    path = Path(source).expanduser()
    if path.suffix.lower() in LOCAL_SUFFIXES or path.exists():
        if not path.is_file():
            raise DatasetError(f"dataset file {source!r} does not exist")
        return parse_rows(_read_local(path), str(path))
    return parse_rows(_read_hub(source), source)


def _read_local(path: Path) -> Iterable[tuple[int, Any]]:
    """(row number, row) pairs; row numbers are 1-based lines for JSONL/CSV, indexes otherwise."""
    suffix = path.suffix.lower()
    if suffix not in LOCAL_SUFFIXES:
        raise DatasetError(
            f"{path}: unsupported file type {suffix or '(none)'}; use one of "
            + ", ".join(LOCAL_SUFFIXES)
        )
    try:
        if suffix == ".jsonl":
            return list(_read_jsonl(path))
        if suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, Mapping) and isinstance(data.get("data"), list):
                data = data["data"]
            if not isinstance(data, list):
                raise DatasetError(f"{path}: expected a JSON array of row objects")
            return list(enumerate(data, start=1))
        if suffix == ".csv":
            with path.open(newline="", encoding="utf-8") as f:
                return list(enumerate(csv.DictReader(f), start=2))
        import pyarrow.parquet as pq

        return list(enumerate(pq.read_table(path).to_pylist(), start=1))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise DatasetError(f"{path}: cannot be read ({e})") from e
    except Exception as e:  # pyarrow raises its own error types for damaged files
        if isinstance(e, DatasetError):
            raise
        raise DatasetError(f"{path}: cannot be read as {suffix} ({e})") from e


def _read_jsonl(path: Path) -> Iterable[tuple[int, Any]]:
    with path.open(encoding="utf-8") as f:
        for line_no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                yield line_no, json.loads(line)
            except json.JSONDecodeError as e:
                raise DatasetError(f"{path}: line {line_no}: invalid JSON ({e.msg})") from e


def _read_hub(dataset_id: str) -> Iterable[tuple[int, Any]]:
    try:
        from datasets import load_dataset

        rows = load_dataset(dataset_id, split="train")
    except Exception as e:
        raise DatasetError(
            f"could not load the Hugging Face dataset {dataset_id!r} ({type(e).__name__}: {e}). "
            f"Offline? Use dataset='{BUNDLED}' for the bundled synthetic cases, or a local file "
            f"(dataset='path/to/cases.jsonl', also .json/.parquet/.csv) with the columns "
            f"{', '.join(REQUIRED_COLUMNS)}."
        ) from e
    return enumerate(rows, start=1)


def parse_rows(rows: Iterable[tuple[int, Any]], source: str) -> list[Case]:
    cases: list[Case] = []
    errors: list[str] = []
    for row_no, row in rows:
        try:
            cases.append(_parse_row(row, row_no))
        except DatasetError as e:
            errors.append(str(e))
    if errors:
        shown = "\n  ".join(errors[:MAX_LISTED_ERRORS])
        more = len(errors) - MAX_LISTED_ERRORS
        tail = f"\n  ... and {more} more" if more > 0 else ""
        raise DatasetError(
            f"{source}: {len(errors)} unusable row(s); fix or remove them:\n  {shown}{tail}"
        )
    if not cases:
        raise DatasetError(f"{source}: no rows")
    return cases


def _parse_row(row: Any, row_no: int) -> Case:
    where = f"row {row_no}"
    if not isinstance(row, Mapping):
        raise DatasetError(
            f"{where}: expected an object with columns {', '.join(REQUIRED_COLUMNS)}"
        )
    for column in REQUIRED_COLUMNS:
        value = row.get(column)
        if value is None or (isinstance(value, str) and not value.strip()):
            raise DatasetError(f"{where}: column {column!r} is missing or empty")
    text = row["input"]
    if not isinstance(text, str):
        raise DatasetError(f"{where}: column 'input' must be text")
    codes = _as_list(row["icd10_code"])
    names = _as_list(row["diagnosis"])
    statuses = _as_list(row["status"])
    if len(statuses) == 1:
        statuses *= len(codes)
    if not (len(codes) == len(names) == len(statuses)):
        raise DatasetError(
            f"{where}: columns 'icd10_code', 'diagnosis' and 'status' list different numbers "
            f"of diagnoses ({len(codes)}, {len(names)}, {len(statuses)})"
        )
    alternatives = _acceptable(row.get(ACCEPTABLE), len(codes), where)
    gold = []
    for code, name, status, others in zip(codes, names, statuses, alternatives, strict=True):
        problem = code_problem(code)
        if problem is not None:
            raise DatasetError(f"{where}: column 'icd10_code': {problem}")
        if status.strip().lower() not in STATUSES:
            raise DatasetError(f"{where}: column 'status': {status!r} is not acute or chronic")
        code = icd10.normalize(code)
        gold.append(
            {
                "icd10_code": code,
                "diagnosis": name,
                "status": status.strip().lower(),
                ACCEPTABLE: [c for c in dict.fromkeys(others) if c != code],
            }
        )
    primary = {g["icd10_code"] for g in gold}
    seen: set[str] = set()
    for g in gold:
        clash = sorted((set(g[ACCEPTABLE]) & primary) | (set(g[ACCEPTABLE]) & seen))
        if clash:
            raise DatasetError(
                f"{where}: column {ACCEPTABLE!r}: {', '.join(clash)} belongs to another gold "
                "diagnosis; an acceptable code must stand for exactly one"
            )
        seen.update(g[ACCEPTABLE])
    skip = {*REQUIRED_COLUMNS, ACCEPTABLE}
    extra = {k: _jsonable(v) for k, v in row.items() if k not in skip}
    case_id = str(extra.pop("id", f"row-{row_no}"))
    return Case(case_id, text, tuple(gold), extra)


def _acceptable(value: Any, golds: int, where: str) -> list[list[str]]:
    """Other acceptable codes for each gold diagnosis (normalised, checked)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return [[] for _ in range(golds)]
    if (
        isinstance(value, list | tuple)
        and value
        and all(isinstance(v, list | tuple) for v in value)
    ):
        groups = [_as_list(v) for v in value]
    elif golds == 1:
        groups = [_as_list(value)]
    else:
        raise DatasetError(
            f"{where}: column {ACCEPTABLE!r}: this case has {golds} gold diagnoses; give a list "
            f"of {golds} lists (one per diagnosis, [] where there is none)"
        )
    if len(groups) != golds:
        raise DatasetError(
            f"{where}: column {ACCEPTABLE!r}: {len(groups)} list(s) for {golds} gold diagnoses"
        )
    for group in groups:
        for code in group:
            if icd10.lookup(code) is None:
                raise DatasetError(
                    f"{where}: column {ACCEPTABLE!r}: {code!r} is not an ICD-10-CM code; "
                    "acceptable codes must be codes of the catalog"
                )
    return [[icd10.normalize(c) for c in group] for group in groups]


def _as_list(value: Any) -> list[str]:
    if isinstance(value, list | tuple):
        return [str(v).strip() for v in value]
    return [part.strip() for part in str(value).split(";") if part.strip()]


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value


@dataclass(frozen=True)
class Splits:
    train: list[Case]
    test: list[Case]


def split_cases(cases: list[Case], test_size: float, seed: int) -> Splits:
    """The upstream split (datasets' ``train_test_split``); ``test_size=0`` uses all rows twice."""
    if not 0 <= test_size < 1:
        raise DatasetError(f"test_size must be in [0, 1), got {test_size}")
    if test_size == 0 or len(cases) < 2:
        return Splits(list(cases), list(cases))
    from datasets import Dataset

    index = Dataset.from_dict({"i": list(range(len(cases)))})
    parts = index.train_test_split(test_size=test_size, seed=seed)
    return Splits(
        [cases[i] for i in parts["train"]["i"]],
        [cases[i] for i in parts["test"]["i"]],
    )
