"""Recording rules for set_diagnosis."""

from __future__ import annotations

from clinical_envs.diagnosis.records import record_diagnosis


def test_accepts_and_normalises():
    records = []
    record, message = record_diagnosis(records, "e0501", "thyroid storm", "ACUTE", turn=1)
    assert record is not None and records == [record]
    assert (record["icd10_code"], record["status"], record["billable"]) == ("E05.01", "acute", True)
    assert message.startswith("recorded: E05.01 (acute) - thyroid storm")


def test_well_formed_code_outside_icd10cm_is_accepted_with_a_note():
    record, message = record_diagnosis([], "I43.1", "WHO ICD-10 cardiomyopathy", "chronic", 1)
    assert record is not None and record["in_catalog"] is False
    assert "not in ICD-10-CM" in message


def test_header_code_is_flagged():
    record, message = record_diagnosis([], "E05", "thyrotoxicosis", "acute", 1)
    assert record is not None and record["billable"] is False
    assert "header, not billable" in message


def test_rejections_name_the_problem():
    records = []
    assert record_diagnosis(records, "E05.01", "x", "subacute", 1)[1].startswith("status must be")
    assert "not an ICD-10-CM code" in record_diagnosis(records, "thyroid", "x", "acute", 1)[1]
    assert "not an ICD-10-CM code" in record_diagnosis(records, "I26-I28", "x", "acute", 1)[1]
    assert records == []


def test_duplicate_is_rejected_but_other_status_is_a_new_record():
    records = []
    record_diagnosis(records, "E05.01", "x", "acute", 1)
    dup, message = record_diagnosis(records, "E0501", "x", "Acute", 2)
    assert dup is None and "already recorded" in message
    other, _ = record_diagnosis(records, "E05.01", "x", "chronic", 3)
    assert other is not None and len(records) == 2


def test_one_record_per_turn():
    records = []
    record_diagnosis(records, "E05.01", "x", "acute", 4)
    second, message = record_diagnosis(records, "I10", "x", "chronic", 4)
    assert second is None and "one diagnosis is recorded per turn" in message
    assert record_diagnosis(records, "I10", "x", "chronic", 5)[0] is not None


def test_rejected_call_does_not_use_up_the_turn():
    records = []
    record_diagnosis(records, "nonsense", "x", "acute", 1)
    assert record_diagnosis(records, "E05.01", "x", "acute", 1)[0] is not None
