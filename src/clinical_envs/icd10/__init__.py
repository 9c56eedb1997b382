"""ICD-10-CM catalog: normalisation, lookup and ranked search.

Example:
    >>> from clinical_envs import icd10
    >>> icd10.normalize(" e0501 ")
    'E05.01'
    >>> icd10.lookup("E05.01").billable
    True
"""

from __future__ import annotations

import re

from clinical_envs.icd10.catalog import Entry, load_catalog
from clinical_envs.icd10.search import (
    CODE_QUERY,
    nearest_ancestor,
    search_codes,
    search_text,
)

__all__ = [
    "WELL_FORMED",
    "Entry",
    "is_billable",
    "is_well_formed",
    "load_catalog",
    "lookup",
    "normalize",
    "page",
    "search",
]

WELL_FORMED = re.compile(r"^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")
_NOISE = re.compile(r"[\s.]+")
MAX_LIMIT = 50


def _key(code: str) -> str:
    return _NOISE.sub("", code).upper()


def normalize(code: str) -> str:
    """Canonical dotted upper-case form: case, whitespace and dot placement do not matter."""
    key = _key(code)
    return f"{key[:3]}.{key[3:]}" if len(key) > 3 else key


def is_well_formed(code: str) -> bool:
    """Shape of an ICD-10 code (any edition), whether or not ICD-10-CM lists it."""
    return bool(WELL_FORMED.match(normalize(code)))


def lookup(code: str) -> Entry | None:
    """The catalog entry for ``code`` in any casing or dot placement, else None."""
    return load_catalog().get(_key(code))


def is_billable(code: str) -> bool:
    entry = lookup(code)
    return entry is not None and entry.billable


def search(query: str, limit: int = 10) -> list[Entry]:
    """Best matches for a clinical phrase or a (partial) code, best first."""
    limit = max(1, min(int(limit), MAX_LIMIT))
    catalog = load_catalog()
    query = query.strip()
    key = _key(query)
    if key and CODE_QUERY.match(query.upper().replace(" ", "")):
        hits = search_codes(catalog, key, limit)
        if hits:
            return hits
        ancestor = nearest_ancestor(catalog, key)
        if ancestor is not None:
            return search_codes(catalog, ancestor, limit)
    return search_text(catalog, query, limit)


def page(offset: int, limit: int) -> tuple[list[Entry], int]:
    """One page of the catalog in code order, and the total number of codes."""
    catalog = load_catalog()
    return list(catalog.entries[offset : offset + limit]), len(catalog)
