"""ICD-10-CM catalog: normalisation, lookup and ranked search.

Example:
    >>> from clinical_envs import icd10
    >>> icd10.normalize(" e0501 ")
    'E05.01'
    >>> icd10.lookup("E05.01").billable
    True
    >>> icd10.search("thyroid storm", 1)[0].code
    'E05.91'
"""

from __future__ import annotations

import re

from clinical_envs.icd10.catalog import Catalog, Entry, load_catalog
from clinical_envs.icd10.index import query_prefix

__all__ = [
    "MAX_LIMIT",
    "WELL_FORMED",
    "Catalog",
    "Entry",
    "is_billable",
    "is_well_formed",
    "load_catalog",
    "lookup",
    "normalize",
    "page",
    "query_prefix",
    "search",
]

WELL_FORMED = re.compile(r"^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")
CODE_KEY = re.compile(r"^[A-Z][0-9][0-9A-Z]{0,5}$")
_NOISE = re.compile(r"[\s.]+")
MAX_LIMIT = 50
MAX_PREFIX_HITS = 500
MAX_CODE_QUERY = 32  # a code with spaces and dots; anything longer is read as text


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
    """Best matches for a clinical phrase or a (partial) code, best first.

    A code-like query returns the code itself, then its descendants (billable first, shorter
    codes first); a code that does not exist falls back to its nearest existing ancestor
    (``I43.1`` -> ``I43``). Anything else is ranked as text.
    """
    limit = max(1, min(int(limit), MAX_LIMIT))
    catalog = load_catalog()
    query = query.strip()
    key = _key(query) if len(query) <= MAX_CODE_QUERY else ""
    if CODE_KEY.match(key):
        for end in range(len(key), min(len(key), 3) - 1, -1):  # else the nearest ancestor
            hits = _code_hits(catalog, key[:end], limit)
            if hits:
                return hits
    return [catalog.entry(i) for i in catalog.index.rank(query, limit)]


def _code_hits(catalog: Catalog, key: str, limit: int) -> list[Entry]:
    """The code ``key`` (if it exists) then the codes under that prefix, billable first."""
    exact = catalog.find(key)
    rest = sorted(
        (i for i in catalog.prefixed(key, MAX_PREFIX_HITS) if i != exact),
        key=lambda i: (not catalog.billable[i], len(catalog.keys[i]), i),
    )
    head = [] if exact is None else [exact]
    return [catalog.entry(i) for i in [*head, *rest][:limit]]


def page(offset: int, limit: int) -> tuple[list[Entry], int]:
    """One page of the catalog in code order, and the total number of codes."""
    catalog = load_catalog()
    stop = min(len(catalog), offset + limit)
    return [catalog.entry(i) for i in range(offset, stop)], len(catalog)
