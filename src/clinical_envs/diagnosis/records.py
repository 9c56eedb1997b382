"""The rules for recording a diagnosis, as pure functions over JSON-able records.

A record is accepted only if its status is acute/chronic (any case), its code is in the
ICD-10-CM catalog or is a well-formed ICD-10 code (so WHO ICD-10 answers such as ``I43.1`` are
not rejected), it is not a duplicate of an earlier record (same code and status), and no other
diagnosis was recorded in the same assistant turn.
"""

from __future__ import annotations

from typing import TypedDict

from clinical_envs import icd10

STATUSES = ("acute", "chronic")


class Record(TypedDict):
    icd10_code: str
    """Normalised: dotted, upper case."""
    status: str
    """``acute`` or ``chronic``."""
    description: str
    """As the model wrote it; echoed, never scored."""
    turn: int
    in_catalog: bool
    billable: bool


def parse_status(value: str) -> str | None:
    status = value.strip().lower()
    return status if status in STATUSES else None


def code_problem(code: str) -> str | None:
    """Why ``code`` cannot be recorded, or None when it can."""
    if icd10.lookup(code) is not None or icd10.is_well_formed(code):
        return None
    return (
        f"{code!r} is not an ICD-10-CM code nor a well-formed ICD-10 code (a letter, a digit, "
        "a digit or letter, then optionally a dot and 1-4 characters, e.g. E05.01); "
        "use search_diagnosis_codes to find the code"
    )


def record_diagnosis(
    records: list[Record], icd10_code: str, description: str, status: str, turn: int
) -> tuple[Record | None, str]:
    """Try to add one diagnosis; returns the new record (or None) and the reply for the model."""
    parsed_status = parse_status(status)
    if parsed_status is None:
        return None, f"status must be 'acute' or 'chronic', got {status!r}; nothing was recorded"
    problem = code_problem(icd10_code)
    if problem is not None:
        return None, f"{problem}; nothing was recorded"
    code = icd10.normalize(icd10_code)
    if any(r["icd10_code"] == code and r["status"] == parsed_status for r in records):
        return None, f"{code} ({parsed_status}) is already recorded; a duplicate adds nothing"
    if any(r["turn"] == turn for r in records):
        return None, (
            "only one diagnosis is recorded per turn and this turn already recorded one; "
            f"{code} was not recorded (send it again in a later turn if you mean it)"
        )
    entry = icd10.lookup(code)
    record = Record(
        icd10_code=code,
        status=parsed_status,
        description=description,
        turn=turn,
        in_catalog=entry is not None,
        billable=entry is not None and entry.billable,
    )
    records.append(record)
    if entry is None:
        note = "not in ICD-10-CM (accepted as a well-formed ICD-10 code)"
    else:
        header = "" if entry.billable else " [header, not billable]"
        note = f"ICD-10-CM: {entry.description}{header}"
    return record, f"recorded: {code} ({parsed_status}) - {description!s} | {note}"
