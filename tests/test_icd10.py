"""The ICD-10-CM catalog, its cache, and ranked search."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from clinical_envs import icd10
from clinical_envs.icd10 import catalog as catalog_module


def codes(query: str, limit: int = 10) -> list[str]:
    return [e.code for e in icd10.search(query, limit)]


# --- catalog content ----------------------------------------------------------------------------


def test_catalog_size_matches_fy2026():
    catalog = icd10.load_catalog()
    assert len(catalog) == 98_186
    assert int(catalog.billable.sum()) == 74_719


@pytest.mark.parametrize("code", ["B20", "C50", "E36", "D49"])
def test_names_that_are_also_blocks_are_codes(code):
    assert icd10.lookup(code) is not None


def test_chapters_and_blocks_are_not_codes():
    assert icd10.lookup("I26-I28") is None and icd10.lookup("9") is None


def test_hierarchy():
    catalog = icd10.load_catalog()
    storm = catalog.find("E0501")
    assert catalog.code(catalog.parent(storm)) == "E05.0"
    assert [catalog.code(i) for i in catalog.children(catalog.find("E050"))] == ["E05.00", "E05.01"]
    assert catalog.parent(catalog.find("E05")) is None
    assert "Decompensated COPD" in catalog.inclusion_terms(catalog.find("J441"))


@pytest.mark.slow
def test_compact_catalog_equals_the_library():
    """Everything the cache holds, checked against simple-icd-10-cm itself."""
    import simple_icd_10_cm as cm

    cached = icd10.load_catalog()
    fresh = catalog_module.library_catalog()
    for name in ("keys", "billable", "parents"):
        assert np.array_equal(getattr(cached, name), getattr(fresh, name)), name
    assert list(cached.descriptions) == list(fresh.descriptions)
    assert list(cached.inclusion) == list(fresh.inclusion)
    library_codes = {
        c for c in cm.get_all_codes(with_dots=True) if cm.is_category_or_subcategory(c)
    }
    assert {cached.code(i) for i in range(len(cached))} == library_codes
    for i in range(0, len(cached), 97):  # an even sample, read straight from the library
        code = cached.code(i)
        assert cached.description(i) == cm.get_description(code)
        assert bool(cached.billable[i]) == cm.is_leaf(code)
        parent = cached.parent(i)
        assert (cached.code(parent) if parent is not None else None) == (
            cm.get_parent(code) if cm.is_category_or_subcategory(cm.get_parent(code)) else None
        )
        assert cached.inclusion_terms(i) == tuple(cm.get_inclusion_term(code))


# --- the cache file -----------------------------------------------------------------------------


def test_cache_round_trip_and_damage(tmp_path):
    catalog = icd10.load_catalog()
    path = tmp_path / "catalog.npz"
    catalog_module.save(catalog, path)
    again = catalog_module.load(path)
    assert again is not None and np.array_equal(again.keys, catalog.keys)
    assert again.description(123) == catalog.description(123)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    assert catalog_module.load(path) is None
    assert catalog_module.load(tmp_path / "missing.npz") is None


def test_the_first_build_says_what_it_is_doing_in_one_line(tmp_path, monkeypatch, capfd):
    """Issue 12: a first run paused for 10-20 s without a word."""
    built = icd10.load_catalog()
    monkeypatch.setenv("CLINICAL_ENVS_CACHE", str(tmp_path))
    monkeypatch.setattr(catalog_module, "library_catalog", lambda: built)
    catalog_module.load_catalog.cache_clear()
    try:
        catalog_module.load_catalog()
    finally:
        catalog_module.load_catalog.cache_clear()
    lines = capfd.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "building the ICD-10-CM catalog cache" in lines[0], lines
    assert catalog_module.cache_path().is_file()


def test_stale_format_is_rejected(tmp_path, monkeypatch):
    path = tmp_path / "catalog.npz"
    catalog_module.save(icd10.load_catalog(), path)
    monkeypatch.setattr(catalog_module, "FORMAT_VERSION", catalog_module.FORMAT_VERSION + 1)
    assert catalog_module.load(path) is None


def test_warm_load_does_not_import_the_library():
    icd10.load_catalog()  # the cache exists after this
    probe = (
        "import sys; from clinical_envs import icd10; icd10.load_catalog(); "
        "icd10.search('thyroid storm'); print('simple_icd_10_cm' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=os.environ
    )
    assert out.stdout.strip() == "False"


# --- normalisation and lookups ------------------------------------------------------------------


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
    assert icd10.is_billable("B20") and not icd10.is_billable("E05")
    assert not icd10.is_billable("XYZ")


# --- code queries -------------------------------------------------------------------------------


def test_code_queries_rank_exact_then_descendants():
    assert codes("i26.09") == ["I26.09"]
    assert codes("E0501") == ["E05.01"]
    hits = codes("I26", 4)
    assert hits[0] == "I26" and all(h.startswith("I26.") for h in hits[1:])
    assert all(icd10.is_billable(h) for h in hits[1:])


def test_partial_code_prefix():
    assert all(h.startswith("I2") for h in codes("I2", 5))


@pytest.mark.parametrize(("query", "ancestor"), [("I43.1", "I43"), ("E11.99", "E11.9")])
def test_invalid_code_falls_back_to_nearest_ancestor(query, ancestor):
    assert codes(query)[0] == ancestor


# --- text ranking -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "acceptable"),
    [
        ("thyroid storm", {"E05.01", "E05.11", "E05.21", "E05.41", "E05.81", "E05.91"}),
        ("heart attack", {"I21.9", "I21.A1", "I21"}),
        ("STEMI", {"I21.3"}),
        ("community acquired pneumonia", {"J18.9"}),
        ("pnuemonia", {"J18.9"}),
        ("blood clot in the lung", {"I26.99", "I26.9"}),
        ("COPD exacerbation", {"J44.1"}),
        ("DKA type 1", {"E10.10"}),
        ("CKD stage 3b", {"N18.32"}),
        ("oesophageal varices with bleeding", {"I85.01", "I85.11"}),
    ],
)
def test_clinical_vocabulary_finds_the_code(query, acceptable):
    assert codes(query, 3)[0] in acceptable, codes(query, 3)


def test_with_and_without_are_meaningful():
    assert codes("thyrotoxicosis diffuse goiter with crisis", 1) == ["E05.01"]
    assert codes("thyrotoxicosis diffuse goiter without crisis", 1) == ["E05.00"]


def test_billable_wins_ties_then_code_order():
    ranked = codes("bilateral inguinal hernia without obstruction", 3)
    assert ranked[0] == "K40.20"  # billable, and the header K40.2 has the same words
    assert ranked.index("K40.20") < ranked.index("K40.2")
    tied = codes("inguinal hernia without obstruction", 2)
    assert tied == ["K40.20", "K40.90"]  # bilateral and unilateral tie: code order


def test_limits_are_capped():
    assert len(icd10.search("fracture", 500)) == icd10.MAX_LIMIT
    assert len(icd10.search("fracture", 0)) == 1


def test_unknown_words_find_nothing():
    assert icd10.search("zzzzqqq xxyyzz") == []


# --- paging -------------------------------------------------------------------------------------


def test_page_in_code_order():
    first, total = icd10.page(0, 3)
    assert [e.code for e in first] == ["A00", "A00.0", "A00.1"] and total == 98_186
    last, _ = icd10.page(total - 1, 10)
    assert len(last) == 1


# --- bounded cost (issue 15): what a search reads, and that it never depends on the cache -------


def _noise(words: int, seed: int = 0) -> str:
    import random
    import string

    rng = random.Random(seed)
    return " ".join(
        "".join(rng.choices(string.ascii_lowercase, k=rng.randint(6, 11))) for _ in range(words)
    )


def test_query_prefix_reads_a_bounded_start():
    from clinical_envs.icd10 import index

    assert icd10.query_prefix("acute appendicitis") == "acute appendicitis"
    many = " ".join(f"w{i}" for i in range(200))
    words = icd10.query_prefix(many).split()
    assert len(words) == index.MAX_QUERY_WORDS and words[-1] == f"w{index.MAX_QUERY_WORDS - 1}"
    repeated = icd10.query_prefix("cough " * 1000).split()
    assert len(repeated) == index.MAX_QUERY_TOKENS
    assert len(icd10.query_prefix("x" * 40_000)) == index.MAX_QUERY_CHARS


def test_a_long_query_ranks_as_its_prefix():
    query = "community acquired pneumonia in an elderly smoker " + _noise(3500)
    assert len(query) > 30_000
    assert codes(query) == codes(icd10.query_prefix(query)) != []


@pytest.mark.parametrize(
    "query",
    [
        "x" * 32_000,
        "pnuemoniaa " * 3000,
        "".join(chr(c) for c in range(0x20, 0x2FFF, 3)),
        " ".join(f"X{i % 99}.{i}q" for i in range(3000)),
        "\u202e\u200b" * 8000,
    ],
    ids=["one-long-word", "repeated-typo", "unicode", "code-like", "invisible"],
)
def test_adversarial_queries_answer(query):
    assert isinstance(icd10.search(query, 50), list)


def test_only_the_first_unknown_words_are_corrected():
    from clinical_envs.icd10 import index

    junk = _noise(index.MAX_CORRECTIONS, seed=1)
    assert "pneumonia" in {e.description.lower().split(",")[0] for e in icd10.search("pnuemonia")}
    assert codes("pnuemonia " + junk)[:1] == codes("pneumonia")[:1]  # within the budget
    assert "J18.9" not in codes(junk + " pnuemonia", 50)  # past it: left as written


def test_results_do_not_depend_on_the_correction_cache():
    index = icd10.load_catalog().index
    queries = ["pnuemonia with sepsiss", "diabetis mellitus type 2", _noise(40, seed=2)]
    warm = [codes(q) for q in queries]
    index._correct.cache_clear()
    assert [codes(q) for q in reversed(queries)][::-1] == warm


def test_non_ascii_letters_break_words_as_in_the_index():
    assert codes("Ménière's disease")[0].startswith("H81.0")  # the catalog spells it so
    assert codes("pneumonia 🫁🫁 sepsis") == codes("pneumonia sepsis")
