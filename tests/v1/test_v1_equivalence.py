"""Classic and v1 give the same transcripts the same reward, sub-scores and reply grades (the
escalation environments), and the same reward, sub-scores and ledger (set-diagnosis).

Runs under verifiers 0.4 (v1 API). The classic side runs in a classic venv
(``CLINICAL_ENVS_CLASSIC_PYTHON``, default ``.venv/bin/python`` of this checkout), or comes
from a file it wrote (``CLINICAL_ENVS_CLASSIC_EXPECTED``, see ``tests/v1/equivalence.py``); the
v1 side runs the real ``vf-eval`` with the null harness and the subprocess runtime against the
loopback server. The null harness's chat program is a uv script: ``uv`` must be on PATH and its
wheels reachable (offline: ``UV_NO_INDEX=1 UV_FIND_LINKS=<wheel dir>``,
``scripts/compat_v1.sh``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clinical_envs.compat import verifiers_api

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        verifiers_api() != "v1",
        reason="needs verifiers>=0.4 (the v1 API); see scripts/compat_v1.sh",
    ),
]
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import equivalence  # noqa: E402


def code_fingerprint() -> str:
    """A hash of the code and scenarios both sides run: the two sides run minutes apart, and a
    grader edited in between would show up as a difference that is not the adapters'."""
    import hashlib

    digest = hashlib.sha256()
    for folder in (ROOT / "src" / "clinical_envs", ROOT / "scenarios"):
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".yaml", ".yml", ".json", ".txt") and path.is_file():
                digest.update(str(path.relative_to(ROOT)).encode() + path.read_bytes())
    return digest.hexdigest()


def classic_side(tmp: Path) -> dict:
    given = os.environ.get("CLINICAL_ENVS_CLASSIC_EXPECTED")
    if given:
        return json.loads(Path(given).read_text())
    python = Path(os.environ.get("CLINICAL_ENVS_CLASSIC_PYTHON", ROOT / ".venv" / "bin" / "python"))
    if not python.exists():
        pytest.skip(
            f"no classic venv at {python}: set CLINICAL_ENVS_CLASSIC_PYTHON or "
            "CLINICAL_ENVS_CLASSIC_EXPECTED"
        )
    out = tmp / "classic.json"
    done = subprocess.run(
        [str(python), str(HERE / "equivalence.py"), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    if shutil.which("uv") is None:
        pytest.skip("uv is not on PATH (the null harness runs its chat program with uv)")
    vf_eval = Path(sys.executable).parent / "vf-eval"
    tmp = tmp_path_factory.mktemp("v1-equivalence")
    runs = equivalence.runs()
    before = code_fingerprint()
    expected = classic_side(tmp)
    from clinical_envs.policies.server import serve_in_thread

    results = {}
    with serve_in_thread(equivalence.routers(runs)) as server:
        for run in runs:
            command = equivalence.v1_command(run, str(vf_eval), server.base_url, tmp)
            done = subprocess.run(command, capture_output=True, text=True, cwd=tmp)
            assert done.returncode == 0, (run.key, done.stderr[-3000:])
            traces = tmp / run.key.replace("/", "-") / "traces.jsonl"
            results[run.key] = (run, expected[run.key], equivalence.v1_results(traces))
    return results, before == code_fingerprint()


def test_every_transcript_scores_the_same_on_both_apis(compared):
    compared, unchanged = compared
    assert unchanged, "src/clinical_envs or scenarios changed during the comparison: run it again"
    differences = [
        f"{key}: {line}"
        for key, (_, classic, v1) in compared.items()
        for line in equivalence.differences(classic, v1)
    ]
    assert differences == []


def test_every_chosen_transcript_ran_on_both_sides(compared):
    compared, _ = compared
    for key, (run, classic, v1) in compared.items():
        assert set(classic) == set(run.scenario_ids) == set(v1), key


def test_the_sample_exercises_tools_natively_and_in_text(compared):
    """The check covers de-escalating actions taken with native calls (MCP) and with
    ``<tool_call>`` text, not only plain replies."""
    kinds = set()
    for run, _, v1 in compared[0].values():
        for outcomes in v1.values():
            stats = outcomes[0]["tool_stats"]
            actions = [a for g in outcomes[0]["grades"] for a in g.get("actions", ())]
            if stats["native"]:
                kinds.add("native")
            if stats["text"]:
                kinds.add("text")
            if any(action == "de-escalating" for _, action in actions):
                kinds.add(f"de-escalating-{run.tool_protocol}")
    assert {"native", "text", "de-escalating-both", "de-escalating-xml"} <= kinds, kinds


def test_the_set_diagnosis_sample_ends_every_way_and_meets_bad_calls(compared):
    """The set-diagnosis transcripts end with the tool, with DONE and at the turn limit, and
    send malformed, unknown, refused (after the finish) and extra calls, natively and as text."""
    seen = set()
    for run, _, v1 in compared[0].values():
        if run.env_id != equivalence.DIAGNOSIS:
            continue
        for outcomes in v1.values():
            finished = outcomes[0]["ledger"]["finished"]
            seen.add(f"end-{finished['how'] if finished else 'turn-limit'}")
            seen.update(f"{kind}-{run.tool_protocol}" for kind, _ in outcomes[0]["problems"])
    assert {
        "end-tool",
        "end-DONE",
        "end-turn-limit",
        "bad_json-both",
        "unknown_tool-both",
        "not_allowed-both",
        "not_allowed-xml",
        "bad_arguments-xml",
        "tool_input-xml",
    } <= seen, seen
