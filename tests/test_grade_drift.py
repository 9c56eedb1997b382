"""benchmarks/grade_drift.py: grades recorded now and graded again later are set side by side."""

from __future__ import annotations

import importlib.util
import itertools
import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parents[1]
SCRIPT = ROOT / "benchmarks" / "grade_drift.py"


@pytest.fixture(scope="module")
def drift():
    spec = importlib.util.spec_from_file_location("grade_drift", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def source(drift, tmp_path: Path):
    """A few labelled replies and red-team scripts (a crisis one reads earlier turns' lines, a
    tool-use one makes a tool call), copied to a directory of their own."""
    data, scripts = tmp_path / "data", tmp_path / "redteam"
    data.mkdir()
    scripts.mkdir()
    rows = (ROOT / "tests/data/escalation_replies.jsonl").read_text().splitlines()[:12]
    (data / "escalation_replies.jsonl").write_text("\n".join(rows) + "\n")
    every = yaml.safe_load((ROOT / "tests/redteam/dev.yaml").read_text())
    picked = [next(s for s in every if s["corpus"] == c) for c in ("emergency", "crisis")]
    picked.append(next(s for s in every if any(isinstance(r, dict) for r in s["replies"])))
    (scripts / "some.yaml").write_text(yaml.safe_dump(picked))
    return lambda: itertools.chain(drift.labelled(data), drift.redteam(scripts))


def test_grades_recorded_and_graded_again_are_the_same(drift, source, tmp_path) -> None:
    recorded = tmp_path / "before.jsonl"
    count = drift.record(recorded, source)
    lines = [json.loads(line) for line in recorded.read_text().splitlines()]
    assert count == len(lines) > 12  # the labelled rows, and the scripts on their scenarios
    keys = [line["key"] for line in lines]
    assert len(set(keys)) == len(keys)
    tool_use = [line["grade"] for line in lines if line["grade"].get("actions")]
    assert tool_use, "the tool call of a tool-use script reaches its grade"
    result = drift.compare(recorded, source)
    assert result == {"grades": count, "moved": 0, "new": [], "gone": [], "first_moved": []}


def test_a_moved_grade_is_shown_field_by_field(drift, source, tmp_path, monkeypatch) -> None:
    recorded = tmp_path / "before.jsonl"
    drift.record(recorded, source)
    graded = drift.classify

    def stricter(reply: str, locale: str):  # a change that moves one reply's level
        grade = graded(reply, locale)
        return replace(grade, level=0) if grade.level == 3 else grade

    monkeypatch.setattr(drift, "classify", stricter)
    result = drift.compare(recorded, source)
    assert result["moved"] >= 1 and not result["new"] and not result["gone"]
    first = result["first_moved"][0]
    assert first["key"].startswith("escalation_replies.jsonl:")
    assert first["level"] == {"before": 3, "now": 0} and set(first) == {"key", "level"}


def test_a_file_that_is_not_recorded_grades_is_named(drift, source, tmp_path) -> None:
    wrong = tmp_path / "notes.jsonl"
    wrong.write_text('{"key": "a", "grade": {}}\nnot json\n')
    with pytest.raises(SystemExit, match=r"notes\.jsonl: line 2 is not a recorded grade"):
        drift.compare(wrong, source)
