"""The real ``prime eval`` (prime==0.7.7, verifiers 0.2.0), in a subprocess, against the loopback
policy endpoint. It runs in its own venv, made by ``bash scripts/compat.sh``; without it, skipped.

What prime 0.7.7 needs to run locally and offline (each set in ``prime_env`` below):
- a non-empty ``PRIME_API_KEY``, even with ``-b``/``-k`` and ``--skip-upload``;
- ``PRIME_DISABLE_VERSION_CHECK=1``, or every command first asks PyPI for a newer prime;
- ``VIRTUAL_ENV`` naming its venv: it runs ``python -m verifiers.cli.commands.eval`` with the
  interpreter of ``$UV_PROJECT_ENVIRONMENT``, else ``$VIRTUAL_ENV``, else ``./.venv`` of the
  nearest pyproject.toml (here: the main venv, not verifiers 0.2.0);
- ``uv`` on PATH: from a checkout with ``./environments/<module>`` it reinstalls the environment
  with ``uv pip install -e environments/<module>`` on every run. ``UV_OFFLINE=1`` with the uv
  cache that compat.sh warmed keeps that step off the network. Outside such a checkout it would
  look the environment up on the Prime platform instead, so it runs from the repository root;
- ``--skip-upload``, else it saves and tries to upload the results.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import KEY_VAR, ROOT

from clinical_envs.icd10.catalog import cache_path
from clinical_envs.policies.diagnosis_baseline import RetrievalBaseline
from clinical_envs.policies.escalation import AlwaysEscalate

PRIME_VENV = Path(
    os.environ.get("CLINICAL_ENVS_PRIME_VENV") or ROOT / ".venv-compat" / "prime-0.7.7"
)
PRIME = PRIME_VENV / "bin" / "prime"
# Any call to the Prime platform fails at once on loopback instead of leaving the machine.
NOWHERE = "http://127.0.0.1:9"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not PRIME.exists(),
        reason=f"no prime venv at {PRIME_VENV}: `bash scripts/compat.sh` makes it "
        "(or set CLINICAL_ENVS_PRIME_VENV)",
    ),
]


def prime_env(home: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PRIME_", "UV_")) and key != "VIRTUAL_ENV"
    }
    env.update(
        VIRTUAL_ENV=str(PRIME_VENV),
        PATH=f"{PRIME_VENV / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        PRIME_API_KEY="dummy",
        PRIME_DISABLE_VERSION_CHECK="1",
        PRIME_API_BASE_URL=NOWHERE,
        PRIME_BASE_URL=NOWHERE,
        PRIME_FRONTEND_URL=NOWHERE,
        PRIME_INFERENCE_URL=NOWHERE,
        PRIME_TRACES_URL=NOWHERE,
        UV_OFFLINE="1",
        UV_CACHE_DIR=str(PRIME_VENV / "uv-cache"),
        # A fresh HOME: prime writes ~/.prime, and a developer's own prime login stays out.
        HOME=str(home),
        CLINICAL_ENVS_CACHE=str(cache_path().parent),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        **{KEY_VAR: "test"},
    )
    return env


def prime_eval(
    tmp_path: Path, base_url: str, env_id: str, model: str, env_args: dict, n: int
) -> list[dict]:
    out_dir = tmp_path / "out"
    command = [
        str(PRIME), "eval", "run", env_id,
        "-m", model,
        "-b", base_url,
        "-k", KEY_VAR,
        "-a", json.dumps(env_args),
        "-n", str(n),
        "-r", "1",
        "-c", "4",
        "-s",
        "-d",
        "-A",
        "-o", str(out_dir),
        "--skip-upload",
    ]  # fmt: skip
    (tmp_path / "home").mkdir()
    done = subprocess.run(
        command,
        cwd=ROOT,
        env=prime_env(tmp_path / "home"),
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = done.stdout[-3000:] + done.stderr[-3000:]
    assert done.returncode == 0, output
    assert "Skipped uploading evaluation results" in done.stdout + done.stderr, output
    (results,) = out_dir.glob(f"evals/{env_id}--{model}/*/results.jsonl")
    metadata = json.loads((results.parent / "metadata.json").read_text())
    assert metadata["env_id"] == env_id and metadata["model"] == model
    assert metadata["version_info"]["vf_version"] == "0.2.0"
    return [json.loads(line) for line in results.read_text().splitlines()]


def test_prime_eval_escalation_emergency(tmp_path, policy_server):
    policy_server.policies["always-escalate"] = AlwaysEscalate()
    rows = prime_eval(
        tmp_path, policy_server.base_url, "escalation-emergency", "always-escalate", {}, 2
    )
    assert len(rows) == 2
    for row in rows:
        assert row["error"] is None
        assert row["reward"] == 1.0, row["info"]["scenario_id"]
        assert row["metrics"]["mean_escalation_level"] == 3.0


def test_prime_eval_set_diagnosis(tmp_path, policy_server):
    policy_server.policies["retrieval-baseline"] = RetrievalBaseline("auto")
    args = {"dataset": "bundled", "test_size": 0}
    rows = prime_eval(
        tmp_path, policy_server.base_url, "set-diagnosis-tool-call", "retrieval-baseline", args, 2
    )
    assert len(rows) == 2
    for row in rows:
        assert row["error"] is None
        # The baseline's format floor (README, Results): a valid, recorded call, not the gold code.
        assert row["reward"] == pytest.approx(0.1), row["info"]
        assert row["metrics"]["json_valid_score"] == 1.0
