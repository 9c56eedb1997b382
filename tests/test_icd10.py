"""The ICD-10-CM catalog and its public API."""

from __future__ import annotations

import pytest

from clinical_envs import icd10


def test_catalog_size_matches_fy2026():
    catalog = icd10.load_catalog()
    assert len(catalog) == 98_186
    assert sum(e.billable for e in catalog.entries) == 74_719


@pytest.mark.parametrize("code", ["B20", "C50", "E36", "D49"])
def test_names_that_are_also_blocks_are_codes(code):
    assert icd10.lookup(code) is not None


def test_chapters_and_blocks_are_not_codes():
    assert icd10.lookup("I26-I28") is None and icd10.lookup("9") is None


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("e0501", "E05.01"),
        (" E05.01 ", "E05.01"),
        ("E0.501", "E05.01"),
        ("i10", "I10"),
        ("s72141a", "S72.141A"),
    ],
)
def test_normalize(raw, normal):
    assert icd10.normalize(raw) == normal


def test_lookup_and_billable():
    assert icd10.lookup("e0501").description.startswith("Thyrotoxicosis with diffuse goiter with")
    assert (
        icd10.is_billable("B20") and not icd10.is_billable("E05") and not icd10.is_billable("XYZ")
    )


def test_code_queries_rank_exact_then_descendants():
    assert [e.code for e in icd10.search("i26.09")] == ["I26.09"]
    hits = [e.code for e in icd10.search("I26", 4)]
    assert hits[0] == "I26" and all(h.startswith("I26.") for h in hits[1:])


def test_invalid_code_falls_back_to_nearest_ancestor():
    assert icd10.search("I43.1")[0].code == "I43"
