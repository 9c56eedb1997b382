"""Benchmark ICD-10-CM search: quality and speed against two baselines, measured in one run.

    python benchmarks/search.py [--set dev|heldout|all] [--baselines/--no-baselines]

Prints one JSON object: recall@1, recall@10 and MRR over the query set (acceptable gold codes per
query, tests/data/icd10_queries_*.jsonl), latency p50/p99 per query, the worst time of one
search over adversarial inputs up to the tool's 32 KB cap (target: 50 ms), catalog load time (cold =
built from simple-icd-10-cm, warm = from the cache) and resident memory of a warm process, the
same quality and latency figures for rapidfuzz WRatio / token_set_ratio over all descriptions and
for SQLite FTS5 BM25, and our/baseline ratios. Cold and warm loads run in fresh subprocesses.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def load_queries(which: str) -> list[dict]:
    names = {"dev": ["dev"], "heldout": ["heldout"], "all": ["dev", "heldout"]}[which]
    rows = []
    for name in names:
        path = DATA / f"icd10_queries_{name}.jsonl"
        rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


def evaluate(search: Callable[[str], list[str]], queries: list[dict]) -> dict:
    """Quality and latency of ``search`` (query -> codes, best first)."""
    search(queries[0]["query"])  # warm up caches outside the timing
    ranks, times, by_kind = [], [], {}
    for q in queries:
        start = time.perf_counter()
        codes = search(q["query"])[:10]
        times.append(time.perf_counter() - start)
        gold = set(q["gold"])
        rank = next((i + 1 for i, c in enumerate(codes) if c in gold), None)
        ranks.append(rank)
        by_kind.setdefault(q["kind"], []).append(rank)

    def quality(rs: list[int | None]) -> dict:
        n = len(rs)
        return {
            "n": n,
            "recall@1": round(sum(r == 1 for r in rs) / n, 4),
            "recall@10": round(sum(r is not None for r in rs) / n, 4),
            "mrr": round(sum(1 / r for r in rs if r) / n, 4),
        }

    ms = sorted(t * 1000 for t in times)
    return {
        **quality(ranks),
        "latency_ms": {
            "p50": round(statistics.median(ms), 4),
            "p99": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 4),
            "mean": round(statistics.fmean(ms), 4),
        },
        "by_kind": {k: quality(v) for k, v in sorted(by_kind.items())},
    }


def ours() -> Callable[[str], list[str]]:
    from clinical_envs import icd10

    return lambda q: [e.code for e in icd10.search(q, 10)]


def rapidfuzz_baseline(scorer_name: str) -> Callable[[str], list[str]]:
    from rapidfuzz import fuzz, process

    from clinical_envs.icd10 import load_catalog

    catalog = load_catalog()
    scorer = getattr(fuzz, scorer_name)
    codes = [catalog.code(i) for i in range(len(catalog))]
    choices = list(catalog.descriptions)
    return lambda q: [codes[i] for _, _, i in process.extract(q, choices, scorer=scorer, limit=10)]


def fts5_baseline() -> Callable[[str], list[str]]:
    from clinical_envs.icd10 import load_catalog

    catalog = load_catalog()
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute("CREATE VIRTUAL TABLE codes USING fts5(code UNINDEXED, description, inclusion)")
    rows = (
        (catalog.code(i), catalog.description(i), " ; ".join(catalog.inclusion_terms(i)))
        for i in range(len(catalog))
    )
    db.executemany("INSERT INTO codes VALUES (?, ?, ?)", rows)

    def search(q: str) -> list[str]:
        words = [w for w in "".join(ch if ch.isalnum() else " " for ch in q).split() if w]
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        rows = db.execute(
            "SELECT code FROM codes WHERE codes MATCH ? ORDER BY bm25(codes) LIMIT 10", (match,)
        ).fetchall()
        return [r[0] for r in rows]

    return search


def adversarial_inputs(seed: int) -> dict[str, str]:
    """Queries a policy under RL could send, each up to the 32 KB per-call cap."""
    import random
    import string

    rng = random.Random(seed)

    def word(low: int, high: int) -> str:
        return "".join(rng.choices(string.ascii_lowercase, k=rng.randint(low, high)))

    return {
        "32 KB of unknown words": " ".join(word(5, 12) for _ in range(4000))[:32_000],
        "32 KB of long unknown words": " ".join(word(20, 30) for _ in range(1300))[:32_000],
        "32 KB of one misspelled word": ("pnuemoniaa " * 3000)[:32_000],
        "random Unicode": "".join(chr(rng.randint(0x20, 0x2FFF)) for _ in range(16_000)),
        "thousands of code-like tokens": " ".join(
            f"{rng.choice('ABCDEFGHIJKLMNOPQRSTUVWXYZ')}{rng.randint(0, 99)}.{rng.randint(0, 9999)}"
            for _ in range(3000)
        )[:32_000],
        "a case report (long but normal)": load_queries("dev")[0]["query"] * 20,
    }


def worst_case(seeds: int = 5) -> dict:
    """Milliseconds per search call over adversarial inputs (fresh words every seed, so the
    correction cache cannot help): the worst call, and the worst of each kind."""
    from clinical_envs import icd10

    icd10.search("pnuemonia", 10)  # warm the catalog and the correction table
    by_kind: dict[str, float] = {}
    for seed in range(seeds):
        for kind, query in adversarial_inputs(seed).items():
            start = time.perf_counter()
            icd10.search(query, 50)
            ms = (time.perf_counter() - start) * 1000
            by_kind[kind] = max(by_kind.get(kind, 0.0), ms)
    return {
        "worst_ms": round(max(by_kind.values()), 2),
        "target_ms": 50,
        "worst_ms_by_kind": {k: round(v, 2) for k, v in by_kind.items()},
    }


_PROBE = """
import json, sys, time
start = time.perf_counter()
from clinical_envs import icd10
icd10.load_catalog()
loaded = time.perf_counter() - start
icd10.search("pulmonary embolism", 5)
rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmRSS:"))
print(json.dumps({"seconds": loaded, "rss_mb": rss / 1024,
                  "library_imported": "simple_icd_10_cm" in sys.modules}))
"""


def probe_load(cache_dir: str) -> dict:
    env = {**os.environ, "CLINICAL_ENVS_CACHE": cache_dir}
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="dev", choices=["dev", "heldout", "all"])
    parser.add_argument("--no-baselines", action="store_true", help="skip the slow baselines")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as cache_dir:
        cold = probe_load(cache_dir)
        warm = min((probe_load(cache_dir) for _ in range(3)), key=lambda r: r["seconds"])
    queries = load_queries(args.set)
    result = {
        "query_set": args.set,
        "queries": len(queries),
        "load": {
            "cold_seconds": round(cold["seconds"], 3),
            "warm_seconds": round(warm["seconds"], 3),
            "warm_rss_mb": round(warm["rss_mb"], 1),
            "warm_imports_library": warm["library_imported"],
        },
        "ours": evaluate(ours(), queries),
        "adversarial": worst_case(),
    }
    if not args.no_baselines:
        baselines = {
            "rapidfuzz_wratio": rapidfuzz_baseline("WRatio"),
            "rapidfuzz_token_set_ratio": rapidfuzz_baseline("token_set_ratio"),
            "sqlite_fts5_bm25": fts5_baseline(),
        }
        result["baselines"] = {}
        result["ratios"] = {}
        for name, fn in baselines.items():
            stats = evaluate(fn, queries)
            stats.pop("by_kind")
            result["baselines"][name] = stats
            result["ratios"][name] = {
                "recall@10_ours_over_baseline": round(
                    result["ours"]["recall@10"] / max(stats["recall@10"], 1e-9), 2
                ),
                "mrr_ours_over_baseline": round(result["ours"]["mrr"] / max(stats["mrr"], 1e-9), 2),
                "p50_speedup": round(
                    stats["latency_ms"]["p50"] / result["ours"]["latency_ms"]["p50"], 1
                ),
            }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
