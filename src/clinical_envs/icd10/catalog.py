"""The ICD-10-CM code set in a compact, cached form.

``simple-icd-10-cm`` is the source of truth, but importing it costs ~1.7 s and ~195 MB. The first
use in a machine flattens the entries we need into a gzip TSV under the user cache directory
(keyed by the library version and our format version); later processes read that file and never
import the library.
"""

from __future__ import annotations

import gzip
import logging
import os
import tempfile
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version
from pathlib import Path

logger = logging.getLogger(__name__)

FORMAT_VERSION = 2
_HEADER_PREFIX = "#clinical-envs-icd10"


@dataclass(frozen=True, slots=True)
class Entry:
    """One ICD-10-CM code (category or subcategory; never a chapter or block)."""

    code: str
    """Dotted, upper case, e.g. ``E05.01``."""
    description: str
    billable: bool
    """True for leaf codes, the only ones valid on a claim."""


class Catalog:
    """Every ICD-10-CM code in code order, with O(1) lookup by dotless key."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries: tuple[Entry, ...] = tuple(sorted(entries, key=lambda e: e.code))
        self.index: dict[str, int] = {
            e.code.replace(".", ""): i for i, e in enumerate(self.entries)
        }
        self.keys: tuple[str, ...] = tuple(e.code.replace(".", "") for e in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, key: str) -> Entry | None:
        """Entry for a dotless upper-case key such as ``E0501``."""
        i = self.index.get(key)
        return None if i is None else self.entries[i]


def library_entries() -> list[Entry]:
    """Read every code from ``simple-icd-10-cm`` (slow: imports the library)."""
    import simple_icd_10_cm as cm

    # 39 names (B20, C50, ...) are both a block and a category and appear twice in
    # get_all_codes(); is_chapter_or_block() is True for them, so test for the category instead.
    return [
        Entry(code, cm.get_description(code), cm.is_leaf(code))
        for code in dict.fromkeys(cm.get_all_codes(with_dots=True))
        if cm.is_category_or_subcategory(code)
    ]


def cache_path() -> Path:
    base = os.environ.get("CLINICAL_ENVS_CACHE") or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    if not os.environ.get("CLINICAL_ENVS_CACHE"):
        root = root / "clinical-envs"
    lib = version("simple-icd-10-cm")
    return root / f"icd10cm-{lib}-v{FORMAT_VERSION}.tsv.gz"


def _write(path: Path, entries: list[Entry]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as raw, gzip.open(raw, "wt", encoding="utf-8") as out:
        out.write(f"{_HEADER_PREFIX}\t{FORMAT_VERSION}\t{len(entries)}\n")
        for e in entries:
            out.write(f"{e.code}\t{int(e.billable)}\t{e.description}\n")
    os.replace(tmp, path)


def _read(path: Path) -> list[Entry] | None:
    """Entries from a cache file, or None when it is missing, stale or damaged."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            header = f.readline().rstrip("\n").split("\t")
            if header[:2] != [_HEADER_PREFIX, str(FORMAT_VERSION)]:
                return None
            entries = []
            for line in f:
                code, billable, description = line.rstrip("\n").split("\t", 2)
                entries.append(Entry(code, description, billable == "1"))
    except (OSError, EOFError, ValueError, IndexError):
        return None
    return entries if len(entries) == int(header[2]) else None


@cache
def load_catalog() -> Catalog:
    """The process-wide catalog (immutable, safe to share between rollouts)."""
    path = cache_path()
    entries = _read(path)
    if entries is None:
        logger.info("building the ICD-10-CM cache at %s (once per machine)", path)
        entries = library_entries()
        try:
            _write(path, entries)
        except OSError as e:  # a read-only home must not stop an evaluation
            logger.warning("could not write the ICD-10-CM cache %s: %s", path, e)
    return Catalog(entries)
