"""benchmarks/env_overhead.py --memoised-grades: a recalled grade is the grade, made once."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from clinical_envs import dialogue
from clinical_envs.escalation.grading_process import ENV_VAR
from clinical_envs.escalation.replies import grade_reply
from clinical_envs.scenarios import load_corpus

SCRIPT = Path(__file__).parents[1] / "benchmarks" / "env_overhead.py"


def test_memoised_grades_equal_the_grades_and_are_made_once(monkeypatch) -> None:
    spec = importlib.util.spec_from_file_location("env_overhead", SCRIPT)
    assert spec and spec.loader
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    made = []

    def counted(*args):
        made.append(args)
        return grade_reply(*args)

    monkeypatch.setattr(dialogue, "grade_reply", counted)
    monkeypatch.setenv(ENV_VAR, "1")
    benchmark.memoise_grades()
    assert benchmark.os.environ[ENV_VAR] == "0"  # environments loaded after grade in place
    defer, emergency = load_corpus("defer")[0], load_corpus("emergency")[0]
    cases = [
        ("Rest, fluids, and see your GP if it is no better in a few days.", defer, 1, [], [], []),
        ("Call 911 now.", emergency, 2, [], [("call_ambulance", "escalating")], []),
    ]
    for _ in range(3):
        for case in cases:
            recalled = dialogue.grade_reply(*case)
            assert recalled == grade_reply(*case)
            recalled["level"] = -1  # a caller's change does not reach the memo
    assert len(made) == len(cases)
