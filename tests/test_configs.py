"""The prime-rl training configs and the endpoint aliases in configs/.

Always: every env entry names one of our environments and its args load that environment, the
two prime-rl layouts hold the same runs, and endpoints.toml says what vf-eval needs. With
PRIME_RL_CONFIGS_V0_7_0_PYTHON / PRIME_RL_CONFIGS_V0_8_0_PYTHON set to a Python that has that
prime-rl tag's config package (make one with scripts/prime_rl_configs.sh), each config is also
validated by prime-rl's own schema, and the other tag's configs must be rejected.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import ENVIRONMENTS, ROOT

CONFIGS = ROOT / "configs"
PRIME_RL = CONFIGS / "prime-rl"
TAGS = ("v0.7.0", "v0.8.0")
# Where each layout keeps its train envs: [[orchestrator.train.env]] id/args (v0.7.0) and
# [[orchestrator.train.source]] legacy = {id, args} (v0.8.0).
ENV_KEY = {"v0.7.0": "env", "v0.8.0": "source"}
ENV_IDS = sorted(
    p.name.replace("_", "-") for p in ENVIRONMENTS.iterdir() if (p / "pyproject.toml").is_file()
)
FILES = sorted(PRIME_RL.glob("*/*.toml"))


def load(path: Path) -> dict[str, Any]:
    with path.open("rb") as f:
        return tomllib.load(f)


def env_entries(tag: str, config: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The (env id, load_environment args) of each train env, in either layout."""
    train = config["orchestrator"]["train"]
    other = ENV_KEY[TAGS[1 - TAGS.index(tag)]]
    assert other not in train, f"{tag} layout expected, found orchestrator.train.{other}"
    entries = train[ENV_KEY[tag]]
    if tag == "v0.8.0":
        entries = [entry["legacy"] for entry in entries]
    return [(entry["id"], entry.get("args", {})) for entry in entries]


def test_configs_exist():
    assert len(ENV_IDS) == 6
    assert {p.parent.name for p in FILES} == set(TAGS)


def test_each_prime_rl_version_has_the_same_runs():
    names = {tag: sorted(p.stem for p in (PRIME_RL / tag).glob("*.toml")) for tag in TAGS}
    assert names[TAGS[0]] == names[TAGS[1]]
    assert set(ENV_IDS) < set(names[TAGS[0]])


@pytest.mark.parametrize("name", sorted(p.stem for p in (PRIME_RL / TAGS[0]).glob("*.toml")))
def test_versions_differ_only_in_the_env_layout(name):
    configs = {tag: load(PRIME_RL / tag / f"{name}.toml") for tag in TAGS}
    entries = {tag: env_entries(tag, configs[tag]) for tag in TAGS}
    assert entries[TAGS[0]] == entries[TAGS[1]]
    for tag in TAGS:
        del configs[tag]["orchestrator"]["train"][ENV_KEY[tag]]
    assert configs[TAGS[0]] == configs[TAGS[1]]


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_env_args_load_the_environment(path):
    tag = path.parent.name
    config = load(path)
    entries = env_entries(tag, config)
    assert entries
    for env_id, args in entries:
        assert env_id in ENV_IDS, f"{path.name}: unknown env id {env_id!r}"
        module = importlib.import_module(env_id.replace("-", "_"))
        args = dict(args)
        if "dataset" in args and args["dataset"] == getattr(module, "DEFAULT_DATASET", None):
            # The Hub dataset a run trains on; the bundled cases keep this test offline.
            args["dataset"] = "bundled"
        env = module.load_environment(**args)
        assert len(env.get_dataset()) > 0
        # What prime-rl's legacy bridge does after loading a classic env, at both tags.
        env.set_kwargs(max_seq_len=config["seq_len"])
        assert env.max_seq_len == config["seq_len"]


def test_single_env_configs_are_named_after_their_env():
    for path in FILES:
        ids = [env_id for env_id, _ in env_entries(path.parent.name, load(path))]
        assert path.stem in ids or len(ids) > 1, path


def test_endpoints_toml_has_what_vf_eval_reads(monkeypatch):
    from clinical_envs import cli
    from clinical_envs.policies.server import builtin_policies

    served: dict[str, Any] = {}
    monkeypatch.setattr(cli, "serve", lambda host, port: served.update(host=host, port=port) or 0)
    assert cli.main(["serve"]) == 0
    policy_url = f"http://{served['host']}:{served['port']}/v1"

    entries = load(CONFIGS / "endpoints.toml")["endpoint"]
    by_id = {e["endpoint_id"]: e for e in entries}
    assert len(by_id) == len(entries), "duplicate endpoint_id"
    for entry in entries:
        assert {"endpoint_id", "model", "url", "key"} <= set(entry), entry
        assert entry.get("type", "openai_chat_completions") == "openai_chat_completions"
    policies = [e for e in entries if e["endpoint_id"].startswith("policy-")]
    assert policies
    for entry in policies:
        assert entry["endpoint_id"] == f"policy-{entry['model']}"
        assert entry["model"] in builtin_policies()
        assert (entry["url"], entry["key"]) == (policy_url, "LOCAL_POLICY_KEY")
    assert by_id["vllm"]["url"] == "http://localhost:8000/v1"
    assert (by_id["gpt-4.1-mini"]["url"], by_id["gpt-4.1-mini"]["key"]) == (
        "https://api.openai.com/v1",
        "OPENAI_API_KEY",
    )


def test_vf_eval_loads_the_endpoint_aliases():
    try:  # verifiers 0.3 moved the classic modules under verifiers.legacy
        from verifiers.legacy.utils.eval_utils import load_endpoints
    except ImportError:
        from verifiers.utils.eval_utils import load_endpoints

    endpoints = load_endpoints(str(CONFIGS / "endpoints.toml"))
    raw = load(CONFIGS / "endpoints.toml")["endpoint"]
    assert sorted(endpoints) == sorted(e["endpoint_id"] for e in raw)
    for entry in raw:
        (endpoint,) = endpoints[entry["endpoint_id"]]
        assert (endpoint.model, endpoint.base_url, endpoint.api_key_var) == (
            entry["model"],
            entry["url"],
            entry["key"],
        )


# prime-rl's own schema, in a Python that has the tag's config package (no GPU, no torch).

VALIDATE = r"""
import json, sys, warnings
from pydantic_config import cli
from prime_rl.configs.orchestrator import TrainConfig
from prime_rl.configs.rl import RLConfig

warnings.simplefilter("ignore")
results = {"layout": "source" if "source" in TrainConfig.model_fields else "env", "files": {}}
for path in sys.argv[1:]:
    try:
        config = cli(RLConfig, args=["@", path])
    except BaseException as e:  # cli raises ConfigFileError; SystemExit on usage errors
        results["files"][path] = {"error": f"{type(e).__name__}: {e}"}
        continue
    train = config.orchestrator.train
    envs = [e.legacy if hasattr(e, "legacy") else e for e in getattr(train, results["layout"])]
    results["files"][path] = {
        "seq_len": config.orchestrator.seq_len,
        "envs": [dict(id=e.id, args=e.args, extra_env_kwargs=e.extra_env_kwargs) for e in envs],
    }
json.dump(results, sys.stdout)
"""


def tag_var(tag: str) -> str:
    return "PRIME_RL_CONFIGS_" + tag.upper().replace(".", "_") + "_PYTHON"


@pytest.fixture(scope="module", params=TAGS)
def schema(request) -> tuple[str, dict[str, Any]]:
    """(tag, the tag's verdict on every config file), from one subprocess per tag."""
    tag, var = request.param, tag_var(request.param)
    python = os.environ.get(var)
    if not python:
        pytest.skip(
            f"{var} is unset: make a Python with prime-rl {tag}'s config schema with "
            f'`eval "$(bash scripts/prime_rl_configs.sh /path/to/prime-rl {tag})"` '
            f"(any prime-rl clone that has the tag; needs python3.12 and PyPI)"
        )
    run = subprocess.run(
        [python, "-c", VALIDATE, *map(str, FILES)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert run.returncode == 0, f"{var}={python} failed:\n{run.stderr[-3000:]}"
    results = json.loads(run.stdout)
    assert results["layout"] == ENV_KEY[tag], (
        f"{var}={python} has the orchestrator.train.{results['layout']} layout, "
        f"not prime-rl {tag}'s orchestrator.train.{ENV_KEY[tag]}"
    )
    return tag, results["files"]


@pytest.mark.slow
def test_prime_rl_schema_accepts_its_own_configs(schema):
    tag, verdicts = schema
    for path in FILES:
        if path.parent.name != tag:
            continue
        verdict = verdicts[str(path)]
        assert "error" not in verdict, f"{path.relative_to(ROOT)}: {verdict.get('error')}"
        config = load(path)
        assert verdict["seq_len"] == config["seq_len"]
        assert [(e["id"], e["args"]) for e in verdict["envs"]] == env_entries(tag, config)
        # prime-rl hands seq_len to each classic env after loading it, via env.set_kwargs.
        for env in verdict["envs"]:
            assert env["extra_env_kwargs"]["max_seq_len"] == config["seq_len"]


@pytest.mark.slow
def test_prime_rl_schema_rejects_the_other_versions_configs(schema):
    tag, verdicts = schema
    other = ENV_KEY[TAGS[1 - TAGS.index(tag)]]
    for path in FILES:
        if path.parent.name == tag:
            continue
        error = verdicts[str(path)].get("error", "")
        assert f"orchestrator.train.{other}" in error and "Extra inputs" in error, (
            f"prime-rl {tag} did not reject {path.relative_to(ROOT)} for its layout: {error!r}"
        )
