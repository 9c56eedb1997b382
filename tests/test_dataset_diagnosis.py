"""Loading set-diagnosis cases from every source, and the errors users see."""

from __future__ import annotations

import csv
import json

import pytest
from conftest import GOLD_CASES

from clinical_envs.diagnosis import dataset as ds
from clinical_envs.diagnosis.dataset import DatasetError, load_cases, split_cases

pytestmark = pytest.mark.reliability  # bad files and rows: messages name file/row and field

ROWS = [json.loads(line) for line in GOLD_CASES.read_text().splitlines()]
FLAT = [r for r in ROWS if isinstance(r["icd10_code"], str)]


def test_jsonl_with_extra_columns_and_several_gold():
    cases = load_cases(str(GOLD_CASES))
    assert [c.case_id for c in cases] == ["FX-1", "FX-2", "FX-3"]
    assert cases[0].gold == (
        {
            "icd10_code": "E05.01",
            "diagnosis": ROWS[0]["diagnosis"],
            "status": "acute",
            "acceptable_codes": [],
        },
    )
    assert cases[0].extra == {"source_note": "fixture"}
    assert [g["icd10_code"] for g in cases[2].gold] == ["E11.22", "N18.32"]
    assert {g["status"] for g in cases[2].gold} == {"chronic"}


def test_json_csv_and_parquet_give_the_same_cases(tmp_path):
    as_json = tmp_path / "cases.json"
    as_json.write_text(json.dumps(FLAT))
    as_csv = tmp_path / "cases.csv"
    with as_csv.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(FLAT[0]))
        writer.writeheader()
        writer.writerows(FLAT)
    import pyarrow as pa
    import pyarrow.parquet as pq

    as_parquet = tmp_path / "cases.parquet"
    pq.write_table(pa.Table.from_pylist(FLAT), as_parquet)
    expected = load_cases(str(as_json))
    assert load_cases(str(as_csv)) == expected
    assert load_cases(str(as_parquet)) == expected
    assert [c.case_id for c in expected] == ["FX-1", "FX-2"]


def test_csv_semicolon_lists_several_gold(tmp_path):
    path = tmp_path / "multi.csv"
    path.write_text(
        "input,icd10_code,diagnosis,status\n"
        '"case text","E11.22; N18.32","T2DM with CKD; CKD 3b","chronic;chronic"\n'
    )
    (case,) = load_cases(str(path))
    assert [g["icd10_code"] for g in case.gold] == ["E11.22", "N18.32"]


def test_bundled_cases_are_valid_and_synthetic():
    cases = load_cases("bundled")
    assert len(cases) >= 60
    assert all(c.extra.get("synthetic") is True for c in cases)


@pytest.mark.parametrize(
    ("row", "fragment"),
    [
        (
            {"icd10_code": "E05.01", "diagnosis": "x", "status": "acute"},
            "row 2: column 'input' is missing",
        ),
        (
            {"input": "t", "icd10_code": "", "diagnosis": "x", "status": "acute"},
            "column 'icd10_code' is missing",
        ),
        (
            {"input": "t", "icd10_code": "thyroid", "diagnosis": "x", "status": "acute"},
            "row 2: column 'icd10_code'",
        ),
        (
            {"input": "t", "icd10_code": "E05.01", "diagnosis": "x", "status": "sub"},
            "row 2: column 'status'",
        ),
        (
            {"input": "t", "icd10_code": ["E05.01", "I10"], "diagnosis": "x", "status": "acute"},
            "different numbers",
        ),
    ],
)
def test_bad_rows_are_named(tmp_path, row, fragment):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(FLAT[0]) + "\n" + json.dumps(row) + "\n")
    with pytest.raises(DatasetError) as err:
        load_cases(str(path))
    assert str(path) in str(err.value) and fragment in str(err.value)


def test_invalid_json_line_is_named(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(FLAT[0]) + "\n{oops\n")
    with pytest.raises(DatasetError, match="line 2: invalid JSON"):
        load_cases(str(path))


def test_missing_file_and_wrong_suffix(tmp_path):
    with pytest.raises(DatasetError, match="does not exist"):
        load_cases(str(tmp_path / "nope.jsonl"))
    other = tmp_path / "cases.txt"
    other.write_text("x")
    with pytest.raises(DatasetError, match=r"unsupported file type \.txt"):
        load_cases(str(other))


def test_hub_failure_explains_the_offline_options(monkeypatch):
    import datasets

    def offline(*args, **kwargs):
        raise ConnectionError("hub unreachable")

    monkeypatch.setattr(datasets, "load_dataset", offline)
    with pytest.raises(DatasetError) as err:
        load_cases(ds.HUB_DEFAULT)
    message = str(err.value)
    assert "dataset='bundled'" in message and "local file" in message and ds.HUB_DEFAULT in message


def test_hub_rows_are_parsed(monkeypatch):
    import datasets

    monkeypatch.setattr(datasets, "load_dataset", lambda *a, **k: datasets.Dataset.from_list(FLAT))
    assert [c.case_id for c in load_cases("someone/cases")] == ["FX-1", "FX-2"]


def test_split_is_deterministic_and_disjoint():
    cases = load_cases("bundled")
    a, b = split_cases(cases, 0.1, 42), split_cases(cases, 0.1, 42)
    assert a == b
    assert len(a.test) == round(len(cases) * 0.1) or len(a.test) == -(-len(cases) // 10)
    assert {c.case_id for c in a.train}.isdisjoint(c.case_id for c in a.test)
    assert len(a.train) + len(a.test) == len(cases)


def test_test_size_zero_uses_every_row_twice():
    cases = load_cases(str(GOLD_CASES))
    splits = split_cases(cases, 0, 42)
    assert splits.train == splits.test == cases


def test_bad_test_size():
    with pytest.raises(DatasetError, match=r"test_size must be in \[0, 1\)"):
        split_cases([], 1.0, 42)


# --- acceptable codes (issue 13) ----------------------------------------------------------------


def _load_one(tmp_path, row):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(row) + "\n")
    return load_cases(str(path))


def test_acceptable_codes_forms(tmp_path):
    base = {"input": "t", "icd10_code": "E21.0", "diagnosis": "x", "status": "chronic"}
    for value in (["d35.1"], "D35.1", "D35.1; E21.0", [["D35.1"]]):
        (case,) = _load_one(tmp_path, {**base, "acceptable_codes": value})
        assert case.gold[0]["acceptable_codes"] == ["D35.1"]  # normalised, gold code dropped
        assert "acceptable_codes" not in case.extra
    (case,) = _load_one(tmp_path, base)
    assert case.gold[0]["acceptable_codes"] == []
    two = {**base, "icd10_code": ["E21.0", "N20.0"], "diagnosis": ["x", "y"]}
    (case,) = _load_one(tmp_path, {**two, "acceptable_codes": [["D35.1"], []]})
    assert [g["acceptable_codes"] for g in case.gold] == [["D35.1"], []]


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        ({"acceptable_codes": ["Q99.99"]}, "'Q99.99' is not an ICD-10-CM code"),
        ({"icd10_code": ["E21.0", "N20.0"], "diagnosis": ["x", "y"], "acceptable_codes": ["D35.1"]},
         "give a list of 2 lists"),
        ({"icd10_code": ["E21.0", "N20.0"], "diagnosis": ["x", "y"],
          "acceptable_codes": [["D35.1"]]}, "1 list(s) for 2 gold diagnoses"),
        ({"icd10_code": ["E21.0", "N20.0"], "diagnosis": ["x", "y"],
          "acceptable_codes": [["N20.0"], []]}, "N20.0 belongs to another gold diagnosis"),
    ],
)  # fmt: skip
def test_bad_acceptable_codes_are_named(tmp_path, extra, fragment):
    row = {"input": "t", "icd10_code": "E21.0", "diagnosis": "x", "status": "chronic", **extra}
    with pytest.raises(DatasetError) as err:
        _load_one(tmp_path, row)
    assert "row 1: column 'acceptable_codes'" in str(err.value) and fragment in str(err.value)


def test_bundled_cases_list_the_codes_a_coder_would_also_accept():
    accepted = {c.case_id: c.gold[0]["acceptable_codes"] for c in load_cases("bundled")}
    assert accepted["SDX-016"] == ["D35.1"] and accepted["SDX-035"] == ["J96.22"]
    assert sum(1 for codes in accepted.values() if codes) == 4
