"""The ICD-10-CM code set in a compact, cached form.

``simple-icd-10-cm`` is the source of truth, but importing it costs ~1.7 s and ~195 MB. The first
use on a machine flattens what we need (every code, description, billable flag, parent, inclusion
terms, and the search index) into one ``.npz`` file under the user cache directory, named by the
library version and our format version and verified by a checksum. Later processes load that
file and never import the library; a missing, stale or damaged file is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib.metadata import version
from pathlib import Path

import numpy as np

from clinical_envs.icd10.index import TextIndex, build_index

logger = logging.getLogger(__name__)

FORMAT_VERSION = 9
_SEP = "\x1f"


@dataclass(frozen=True, slots=True)
class Entry:
    """One ICD-10-CM code (category, subcategory or extension; never a chapter or block)."""

    code: str
    """Dotted, upper case, e.g. ``E05.01``."""
    description: str
    billable: bool
    """True for leaf codes, the only ones valid on a claim."""


class Catalog:
    """Every ICD-10-CM code in code order, with lookups, hierarchy and a text index.

    Codes, titles and inclusion terms stay packed in numpy buffers and are decoded one at a
    time, which keeps a loaded catalog to a few tens of megabytes.
    """

    def __init__(
        self,
        keys: np.ndarray,
        descriptions: Packed,
        billable: np.ndarray,
        parents: np.ndarray,
        inclusion: Packed,
        index: TextIndex,
    ) -> None:
        self.keys = keys
        """Dotless codes as fixed-width bytes (``b"E0501"``), sorted."""
        self.descriptions = descriptions
        self.billable = billable
        self.parents = parents
        self.inclusion = inclusion
        """Inclusion terms per code, joined by a unit separator."""
        self.index = index

    def __len__(self) -> int:
        return len(self.keys)

    def code(self, i: int) -> str:
        key = self.keys[i].decode()
        return f"{key[:3]}.{key[3:]}" if len(key) > 3 else key

    def description(self, i: int) -> str:
        return self.descriptions[i]

    def inclusion_terms(self, i: int) -> tuple[str, ...]:
        text = self.inclusion[i]
        return tuple(text.split(_SEP)) if text else ()

    def entry(self, i: int) -> Entry:
        return Entry(self.code(i), self.descriptions[i], bool(self.billable[i]))

    def find(self, key: str) -> int | None:
        """Position of a dotless upper-case key such as ``E0501``, or None."""
        raw = key.encode()
        i = int(np.searchsorted(self.keys, raw))
        return i if i < len(self.keys) and self.keys[i] == raw else None

    def get(self, key: str) -> Entry | None:
        i = self.find(key)
        return None if i is None else self.entry(i)

    def prefixed(self, key: str, limit: int) -> list[int]:
        """Positions of codes whose key starts with ``key``, in code order."""
        raw = key.encode()
        start = int(np.searchsorted(self.keys, raw))
        stop = min(len(self.keys), start + limit)
        return [i for i in range(start, stop) if self.keys[i].startswith(raw)]

    def parent(self, i: int) -> int | None:
        p = int(self.parents[i])
        return None if p < 0 else p

    @cached_property
    def _children(self) -> dict[int, list[int]]:
        children: dict[int, list[int]] = {}
        for i, p in enumerate(self.parents.tolist()):
            if p >= 0:
                children.setdefault(p, []).append(i)
        return children

    def children(self, i: int) -> list[int]:
        return self._children.get(i, [])


class Packed:
    """Strings stored as one UTF-8 buffer plus offsets; indexing decodes one string."""

    def __init__(self, blob: np.ndarray, offsets: np.ndarray) -> None:
        self.blob = blob
        self.offsets = offsets

    @classmethod
    def of(cls, strings: Sequence[str]) -> Packed:
        encoded = [s.encode("utf-8") for s in strings]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(b) for b in encoded])
        return cls(np.frombuffer(b"".join(encoded), dtype=np.uint8), offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> str:
        return self.blob[self.offsets[i] : self.offsets[i + 1]].tobytes().decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(len(self)))


def library_catalog() -> Catalog:
    """Build the catalog from ``simple-icd-10-cm`` (slow: imports the library)."""
    import simple_icd_10_cm as cm

    # 39 names (B20, C50, ...) are both a block and a category and appear twice in
    # get_all_codes(); is_chapter_or_block() is True for them, so test for the category instead.
    codes = sorted(
        c
        for c in dict.fromkeys(cm.get_all_codes(with_dots=True))
        if cm.is_category_or_subcategory(c)
    )
    position = {c: i for i, c in enumerate(codes)}
    descriptions = [cm.get_description(c) for c in codes]
    billable = np.array([cm.is_leaf(c) for c in codes], dtype=bool)
    parents = np.array([position.get(cm.get_parent(c), -1) for c in codes], dtype=np.int32)
    inclusion = [tuple(cm.get_inclusion_term(c)) for c in codes]
    index = build_index(descriptions, inclusion, billable)
    keys = np.array([c.replace(".", "").encode() for c in codes], dtype="S7")
    joined = Packed.of([_SEP.join(terms) for terms in inclusion])
    return Catalog(keys, Packed.of(descriptions), billable, parents, joined, index)


# --- the cache file ----------------------------------------------------------------------------


def cache_path() -> Path:
    """In ``$CLINICAL_ENVS_CACHE``, else ``$XDG_CACHE_HOME/clinical-envs`` or ``~/.cache/...``."""
    explicit = os.environ.get("CLINICAL_ENVS_CACHE")
    if explicit:
        root = Path(explicit)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        root = Path(base) / "clinical-envs"
    return root / f"icd10cm-{version('simple-icd-10-cm')}-v{FORMAT_VERSION}.npz"


def _pack(strings: Sequence[str]) -> np.ndarray:
    return np.frombuffer("\n".join(strings).encode("utf-8"), dtype=np.uint8)


def _unpack(array: np.ndarray) -> list[str]:
    return array.tobytes().decode("utf-8").split("\n")


def _arrays(catalog: Catalog) -> dict[str, np.ndarray]:
    index = catalog.index
    return {
        "keys": catalog.keys,
        "descriptions": catalog.descriptions.blob,
        "description_offsets": catalog.descriptions.offsets,
        "inclusion": catalog.inclusion.blob,
        "inclusion_offsets": catalog.inclusion.offsets,
        "billable": catalog.billable,
        "parents": catalog.parents,
        "vocab": _pack(index.vocab),
        "offsets": index.offsets,
        "postings": index.postings,
        "in_title": index.in_title,
        "lengths": index.lengths,
        "words": _pack(index.words),
        "word_counts": index.word_counts,
    }


_NAMES = (
    "keys",
    "descriptions",
    "description_offsets",
    "inclusion",
    "inclusion_offsets",
    "billable",
    "parents",
    "vocab",
    "offsets",
    "postings",
    "in_title",
    "lengths",
    "words",
    "word_counts",
)


def _checksum(arrays: dict[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in _NAMES:
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(arrays[name]).tobytes())
    return digest.hexdigest()


def save(catalog: Catalog, path: Path) -> None:
    arrays = _arrays(catalog)
    meta = {"format": FORMAT_VERSION, "count": len(catalog), "sha256": _checksum(arrays)}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        np.savez(f, meta=_pack([json.dumps(meta)]), **arrays)
    os.replace(tmp, path)


def load(path: Path) -> Catalog | None:
    """The catalog in ``path``, or None when it is missing, stale or fails its checksum."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(_unpack(data["meta"])[0])
            arrays = {name: data[name] for name in _NAMES}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if meta.get("format") != FORMAT_VERSION or meta.get("sha256") != _checksum(arrays):
        return None
    if len(arrays["keys"]) != meta.get("count"):
        return None
    index = TextIndex(
        vocab=tuple(_unpack(arrays["vocab"])),
        offsets=arrays["offsets"],
        postings=arrays["postings"],
        in_title=arrays["in_title"],
        lengths=arrays["lengths"],
        billable=arrays["billable"],
        words=tuple(_unpack(arrays["words"])),
        word_counts=arrays["word_counts"],
    )
    return Catalog(
        arrays["keys"],
        Packed(arrays["descriptions"], arrays["description_offsets"]),
        arrays["billable"],
        arrays["parents"],
        Packed(arrays["inclusion"], arrays["inclusion_offsets"]),
        index,
    )


@cache
def load_catalog() -> Catalog:
    """The process-wide catalog (immutable, safe to share between rollouts)."""
    path = cache_path()
    catalog = load(path)
    if catalog is None:
        # One line, so a first run that pauses for 10-20 s says why (a log keeps it too).
        print(
            f"clinical-envs: building the ICD-10-CM catalog cache at {path} "
            "(once per machine, 10-20 s)",
            file=sys.stderr,
        )
        catalog = library_catalog()
        try:
            save(catalog, path)
        except OSError as e:  # a read-only home must not stop an evaluation
            logger.warning("could not write the ICD-10-CM cache %s: %s", path, e)
    return catalog
