"""A disk cache of judge verdicts, shared by rollouts, processes and reruns.

SQLite in WAL mode lets concurrent readers and one writer at a time work without blocking each
other; the busy timeout makes a second process wait its turn instead of failing. Only verdicts
that parsed are stored: an endpoint error is retried the next time the same reply comes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any


class VerdictCache:
    """``get`` / ``put`` of verdicts by key (the hash of everything the judge saw)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS verdicts "
                "(key TEXT PRIMARY KEY, verdict TEXT NOT NULL, created REAL NOT NULL)"
            )
            self._db.commit()
        except (OSError, sqlite3.Error) as e:
            raise ValueError(
                f"judge_cache {str(path)!r}: cannot open a SQLite cache there ({e}); pass a "
                "writable file path, or judge_cache=None to judge without a cache"
            ) from None
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT verdict FROM verdicts WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, verdict: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?)",
                (key, json.dumps(verdict, sort_keys=True), time.time()),
            )
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
