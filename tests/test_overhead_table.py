"""benchmarks/overhead_table.py: the README's performance table from env_overhead.py's JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[1] / "benchmarks" / "overhead_table.py"


def cell(ratio: float, cpu_ratio: float, bare: float) -> dict[str, float]:
    return {"ratio": ratio, "cpu_ratio": cpu_ratio, "bare_rollouts_per_s": bare}


def run(*args: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True
    )


def test_the_table_gives_each_cells_range_over_the_runs(tmp_path: Path) -> None:
    first = {
        "overhead": {
            "escalation-defer": {
                "policy": "ideal",
                "concurrency_1": cell(2.1, 2.5, 300),
                "concurrency_16": cell(1.7, 2.3, 410),
            },
            "set-diagnosis-tool-call": {
                "policy": "retrieval-baseline",
                "concurrency_1": cell(2.2, 1.9, 390),
                "concurrency_16": cell(2.3, 1.8, 400),
            },
        },
        "stall": {"ratio": 1.22},
    }
    second = json.loads(json.dumps(first))
    second["overhead"]["escalation-defer"]["concurrency_1"] = cell(1.9, 2.4, 250)
    second["overhead"]["escalation-defer"]["concurrency_64"] = cell(1.5, 2.0, 500)  # not in both
    second["stall"]["ratio"] = 1.1
    for name, data in (("a.json", first), ("b.json", second)):
        (tmp_path / name).write_text(json.dumps(data))

    done = run(tmp_path / "a.json", tmp_path / "b.json")

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "| Environment (policy) | c=1 | c=16 | CPU ratio | target |",
        "| --- | --- | --- | --- | --- |",
        "| `escalation-defer` (ideal) | 1.90-2.10x | 1.70x | 2.30-2.50x | 2x |",
        "| `set-diagnosis-tool-call` (retrieval-baseline) | 2.20x | 2.30x | 1.80-1.90x | 3x |",
        "",
        "2 runs; bare loop 250-410 rollouts/s.",
        "Stall check: 1.10-1.22x the time alone (target 1.5x).",
    ]


def test_a_file_that_is_not_a_run_is_named(tmp_path: Path) -> None:
    (tmp_path / "log.json").write_text('{"cpus": 2}')
    (tmp_path / "cut.json").write_text('{"overhead": {')

    for name, says in (("log.json", "no 'overhead' field"), ("cut.json", "cannot read it")):
        done = run(tmp_path / name)
        assert done.returncode != 0
        assert str(tmp_path / name) in done.stderr and says in done.stderr


def test_per_rollout_splits_the_environments_cpu_between_loop_and_worker(tmp_path: Path) -> None:
    timing = {"env_s": 0.6, "bare_s": 0.3, "env_cpu_s": 0.9, "env_worker_cpu_s": 0.4}
    runs = []
    for n, in_loop in enumerate((110, 85, None)):  # the last run is from before it was printed
        counted = {} if in_loop is None else {"env_replies_graded_in_loop": in_loop}
        concurrency_1 = {**cell(2.0, 3.0, 333.3), **timing, "bare_cpu_s": 0.3, **counted}
        overhead = {"policy": "ideal", "rollouts": 100, "concurrency_1": concurrency_1}
        runs.append(tmp_path / f"run{n}.json")
        runs[-1].write_text(json.dumps({"overhead": {"escalation-defer": overhead}}))

    done = run(*runs, "--per-rollout", "1")

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-3:] == [
        "| Environment, c=1, ms per rollout | bare wall | bare CPU | env wall | env loop CPU "
        "| env worker CPU | replies graded in the loop |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        "| `escalation-defer` | 3.00 | 3.00 | 6.00 | 5.00 | 4.00 | 0.85-1.10 |",
    ]


def test_runs_with_memoised_grades_make_a_table_of_their_own(tmp_path: Path) -> None:
    graded = {"overhead": {"escalation-defer": {"policy": "ideal", "concurrency_1": cell(2, 3, 9)}}}
    memoised = {**graded, "grades": "memoised"}
    paths = []
    for name, body in (("graded.json", graded), ("memoised.json", memoised)):
        paths.append(tmp_path / name)
        paths[-1].write_text(json.dumps(body))
    mixed = run(*paths)
    assert mixed.returncode != 0 and "memoised.json: ran with --memoised-grades" in mixed.stderr
    alone = run(paths[1])
    assert alone.returncode == 0, alone.stderr
    assert "1 run with grades memoised (--memoised-grades); bare loop 9 rollouts/s." in alone.stdout
