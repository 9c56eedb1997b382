"""The real vf-eval CLI, in a subprocess, against the loopback policy endpoint."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GOLD_CASES, KEY_VAR
from policies import Oracle, exact, first_only, wrong_status

from clinical_envs.diagnosis.dataset import load_cases
from clinical_envs.policies.diagnosis_baseline import RetrievalBaseline
from clinical_envs.policies.escalation import AlwaysEscalate, CapitulateAt

pytestmark = pytest.mark.slow

VF_EVAL = str(Path(sys.executable).with_name("vf-eval"))


def vf_eval(
    tmp_path: Path,
    base_url: str,
    model: str,
    env_args: dict,
    n: int,
    env_id: str = "set-diagnosis-tool-call",
) -> list[dict]:
    out_dir = tmp_path / model
    command = [
        VF_EVAL if Path(VF_EVAL).exists() else shutil.which("vf-eval") or "vf-eval",
        env_id,
        "-m", model,
        "-b", base_url,
        "-k", KEY_VAR,
        "-a", json.dumps(env_args),
        "-n", str(n),
        "-r", "1",
        "-c", "4",
        "-s",
        "-C", "clinical,reply_grades" if env_id.startswith("escalation") else "clinical",
        "-o", str(out_dir),
        "-d",
    ]  # fmt: skip
    env = {**os.environ, KEY_VAR: "test", "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (results,) = out_dir.rglob("results.jsonl")
    assert (results.parent / "metadata.json").is_file()
    return [json.loads(line) for line in results.read_text().splitlines()]


def test_vf_eval_scores_scripted_answers(tmp_path, policy_server):
    cases = load_cases(str(GOLD_CASES))
    styles = {"FX-1": exact, "FX-2": wrong_status, "FX-3": first_only}
    policy_server.policies["e2e-oracle"] = Oracle(cases, lambda c: styles[c.case_id])
    rows = vf_eval(
        tmp_path,
        policy_server.base_url,
        "e2e-oracle",
        {"dataset": str(GOLD_CASES), "test_size": 0},
        3,
    )
    rewards = {row["info"]["case_id"]: row["reward"] for row in rows}
    assert rewards.keys() == {"FX-1", "FX-2", "FX-3"}
    assert math.isclose(rewards["FX-1"], 1.0)
    assert math.isclose(rewards["FX-2"], 0.40)
    # One of two gold diagnoses, right: half coverage, full precision, half uniqueness.
    assert math.isclose(rewards["FX-3"], 0.45 / 2 + 0.15 + 0.20 / 2 + 0.10 + 0.05 + 0.05 / 2)
    for row in rows:
        assert row["metrics"].keys() >= {"coverage_score", "num_unique_diagnoses_score"}


@pytest.mark.parametrize("model", ["retrieval-baseline", "retrieval-baseline-xml"])
def test_vf_eval_runs_the_baseline_on_bundled_data(tmp_path, policy_server, model):
    protocol = "xml" if model.endswith("xml") else "auto"
    policy_server.policies[model] = RetrievalBaseline(protocol)
    rows = vf_eval(tmp_path, policy_server.base_url, model, {"dataset": "bundled"}, 4)
    assert len(rows) == 4
    for row in rows:
        assert row.get("error") is None
        assert 0.0 <= row["reward"] <= 1.0
        assert row["clinical"]["tool_stats"]["executed"] == 3
        assert row["metrics"]["json_valid_score"] == 1.0


def test_vf_eval_escalation_holds_beats_capitulates(tmp_path, policy_server):
    policy_server.policies["e2e-holds"] = AlwaysEscalate()
    policy_server.policies["e2e-capitulates"] = CapitulateAt(3)
    args = {"ids": ["MTR-001", "MTR-002", "MTR-003"], "split": "all"}
    url = policy_server.base_url
    holds = vf_eval(tmp_path, url, "e2e-holds", args, 3, "escalation-emergency")
    gives = vf_eval(tmp_path, url, "e2e-capitulates", args, 3, "escalation-emergency")
    assert {r["info"]["scenario_id"] for r in holds} == set(args["ids"])
    for row in holds:
        assert row["reward"] == 1.0
        assert [g["level"] for g in row["reply_grades"]] == [3, 3, 3, 3, 3]
    for row in gives:
        assert [g["maintained"] for g in row["reply_grades"]] == [True, True, False, False, False]
        assert row["reward"] < 0.5
    # The report reads what vf-eval saved: both runs side by side, and each on its own.
    runs = [
        str(next((tmp_path / m).rglob("results.jsonl")).parent)
        for m in ("e2e-holds", "e2e-capitulates")
    ]
    report = subprocess.run(
        [str(Path(sys.executable).with_name("clinical-envs")), "report", *runs, "--compare",
         "--out", str(tmp_path / "report")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr
    md = (tmp_path / "report" / "report.md").read_text()
    assert "| all: pass^1 | 1.000 | 0.000 | -1.000 [-1.000, -1.000] | 0.25 (3 paired) |" in md
    assert "| emergency | 3 | 3 | 1.000 [1.000, 1.000] (n=3) | 1.000 [0.439, 1.000] (n=3) |" in md
    assert "| emergency (n=3) | 1.000 | 1.000 | 0.000 | 0.000 | 0.000 |" in md  # capitulates at 3


@pytest.mark.parametrize(
    ("env_id", "args"),
    [
        ("escalation-crisis", {"ids": ["CRS-001", "CRS-002"], "split": "all"}),
        ("escalation-defer", {"ids": ["DEF-001", "DEF-005"], "split": "all"}),
        ("escalation-tool-use", {"ids": ["TUS-001", "TUS-002"], "split": "all"}),
        ("escalation-mix", {"size": 4, "split": "all"}),
    ],
)
def test_vf_eval_runs_every_escalation_environment(tmp_path, policy_server, env_id, args):
    from clinical_envs.policies.server import builtin_policies

    policy_server.policies["ideal"] = builtin_policies()["ideal"]
    policy_server.policies["always-escalate"] = AlwaysEscalate()
    n = args.get("size", len(args.get("ids", [])))
    ideal = vf_eval(tmp_path, policy_server.base_url, "ideal", args, n, env_id)
    assert len(ideal) == n
    for row in ideal:
        assert row["reward"] == pytest.approx(1.0), row["info"]
        assert len(row["reply_grades"]) == 5 and all(g["maintained"] for g in row["reply_grades"])
    if env_id == "escalation-defer":
        escalate = vf_eval(tmp_path, policy_server.base_url, "always-escalate", args, n, env_id)
        assert all(row["reward"] <= 0.3 for row in escalate)


def test_vf_eval_with_both_graders_saves_both_verdicts(tmp_path, policy_server):
    from clinical_envs.policies.judges import LabelJudge

    policy_server.policies["e2e-judge"] = LabelJudge()
    policy_server.policies["e2e-holds-judged"] = AlwaysEscalate()
    args = {
        "ids": ["MTR-001", "MTR-002"],
        "split": "all",
        "grader": "both",
        "judge_model": "e2e-judge",
        "judge_base_url": policy_server.base_url,
        "judge_cache": str(tmp_path / "verdicts.sqlite"),
    }
    rows = vf_eval(
        tmp_path, policy_server.base_url, "e2e-holds-judged", args, 2, "escalation-emergency"
    )
    assert len(rows) == 2
    for row in rows:
        assert row["reward"] == 1.0 and row["judge_disagreement"] == 0.0
        for grade in row["reply_grades"]:
            assert grade["rules"]["maintained"] and grade["judge"]["maintained"]
            assert grade["judge"]["evidence"] and grade["judge"]["prompt_version"]
    report = subprocess.run(
        [sys.executable, "-m", "clinical_envs.cli", "agreement", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert report.returncode == 0, report.stderr
    assert "| emergency | 10 | 0 | 1.000 |" in report.stdout
