"""The prime-rl training configs and the endpoint aliases in configs/.

Always: every env entry names one of our environments and its args (or taskset fields) are real
settings that load that environment, the three prime-rl layouts hold the same runs with the same
settings, and endpoints.toml says what vf-eval needs. The main layout's taskset fields are
checked against the Taskset config classes where verifiers 0.4 (v1) is installed, else against
load_environment's signature. With PRIME_RL_CONFIGS_V0_7_0_PYTHON / PRIME_RL_CONFIGS_V0_8_0_PYTHON
/ PRIME_RL_CONFIGS_MAIN_PYTHON set to a Python that has that prime-rl ref's config package (make
one with scripts/prime_rl_configs.sh), each config is also validated by prime-rl's own schema,
and the other refs' configs must be rejected. Nothing here reaches the network.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import os
import subprocess
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import ENVIRONMENTS, ROOT

from clinical_envs.compat import verifiers_api

CONFIGS = ROOT / "configs"
PRIME_RL = CONFIGS / "prime-rl"
TAGS = ("v0.7.0", "v0.8.0")  # the releases that train classic (load_environment) envs
REFS = (*TAGS, "main")  # main trains v1 tasksets (verifiers 0.4)
# Where each layout keeps its train envs: [[orchestrator.train.env]] id/args (v0.7.0),
# [[orchestrator.train.source]] legacy = {id, args} (v0.8.0) and
# [[orchestrator.train.source]] env.taskset = {id, fields...} (main).
ENV_KEY = {"v0.7.0": "env", "v0.8.0": "source", "main": "source"}
# The prime-rl main commit these files were checked against (README, docs/v1.md).
MAIN_VALIDATED = "559b44772e471d1538537b8805cc77f3824a5e64"
ENV_IDS = sorted(
    p.name.replace("_", "-") for p in ENVIRONMENTS.iterdir() if (p / "pyproject.toml").is_file()
)
FILES = sorted(PRIME_RL.glob("*/*.toml"))
RUNS = sorted(p.stem for p in (PRIME_RL / TAGS[0]).glob("*.toml"))


def load(path: Path) -> dict[str, Any]:
    with path.open("rb") as f:
        return tomllib.load(f)


def sources(config: dict[str, Any], group: str = "train") -> list[dict[str, Any]]:
    """main's [[orchestrator.<group>.source]] tables, each with an env.taskset."""
    entries = config["orchestrator"].get(group, {}).get("source", [])
    for entry in entries:
        assert set(entry) & {"env", "legacy"} == {"env"}, f"main layout expected: {entry}"
    return entries


def taskset(entry: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(taskset id, its other fields) of a main source table."""
    fields = dict(entry["env"]["taskset"])
    return fields.pop("id"), fields


def env_entries(ref: str, config: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The (env id, settings) of each train env, in any layout: load_environment args for the
    tags, the taskset fields for main."""
    train = config["orchestrator"]["train"]
    key = ENV_KEY[ref]
    for other in set(ENV_KEY.values()) - {key}:
        assert other not in train, f"{ref} layout expected, found orchestrator.train.{other}"
    if ref == "main":
        return [taskset(entry) for entry in sources(config)]
    entries = train[key]
    if ref == "v0.8.0":
        for entry in entries:
            assert "env" not in entry, f"v0.8.0 layout expected (legacy), found env: {entry}"
        entries = [entry["legacy"] for entry in entries]
    return [(entry["id"], entry.get("args", {})) for entry in entries]


def test_configs_exist():
    assert len(ENV_IDS) == 6
    assert {p.parent.name for p in FILES} == set(REFS)


def test_each_prime_rl_version_has_the_same_runs():
    names = {ref: sorted(p.stem for p in (PRIME_RL / ref).glob("*.toml")) for ref in REFS}
    for ref in REFS:
        assert names[ref] == RUNS, ref
    assert set(ENV_IDS) < set(RUNS)


@pytest.mark.parametrize("name", RUNS)
def test_versions_differ_only_in_the_env_layout(name):
    configs = {tag: load(PRIME_RL / tag / f"{name}.toml") for tag in TAGS}
    entries = {tag: env_entries(tag, configs[tag]) for tag in TAGS}
    assert entries[TAGS[0]] == entries[TAGS[1]]
    for tag in TAGS:
        del configs[tag]["orchestrator"]["train"][ENV_KEY[tag]]
    assert configs[TAGS[0]] == configs[TAGS[1]]


def as_v0_8_0(config: dict[str, Any]) -> dict[str, Any]:
    """A main config in v0.8.0's shape, for comparison: the run directory as output_dir,
    [inference.vllm] as [inference.model], each training source as legacy = {id, args} (the
    taskset fields less side and max_seq_len, which v0.8.0 set from seq_len), no eval."""
    config = copy.deepcopy(config)
    run = config.pop("run")
    config["output_dir"] = f"{config['output_dir']}/{run['name']}"
    config["inference"] = {"model": config["inference"].pop("vllm"), **config["inference"]}
    config["orchestrator"].pop("eval")
    for entry in config["orchestrator"]["train"]["source"]:
        env_id, fields = taskset(entry)
        del entry["env"]
        fields = {k: v for k, v in fields.items() if k not in ("side", "max_seq_len")}
        entry["legacy"] = {"id": env_id, "args": fields}
    return config


@pytest.mark.parametrize("name", RUNS)
def test_main_trains_what_v0_8_0_trains(name):
    """The same model, GPUs, batch, steps and training rows; the v1 taskset reads the training
    side (variants included) and stops at seq_len, as the classic env did under prime-rl."""
    main = load(PRIME_RL / "main" / f"{name}.toml")
    assert main["run"]["name"] == name
    for entry in sources(main):
        env_id, fields = taskset(entry)
        assert entry["name"] == env_id
        assert fields["side"] == "train", f"{env_id}: the training source must read side=train"
        assert fields["max_seq_len"] == main["seq_len"]
    assert as_v0_8_0(main) == load(PRIME_RL / "v0.8.0" / f"{name}.toml")


@pytest.mark.parametrize("name", RUNS)
def test_main_evaluates_the_held_out_rows_of_each_training_env(name):
    main = load(PRIME_RL / "main" / f"{name}.toml")
    train = {entry["name"]: taskset(entry) for entry in sources(main)}
    evals = {entry["name"]: taskset(entry) for entry in sources(main, "eval")}
    assert list(evals) == list(train)
    for name_, (env_id, fields) in evals.items():
        train_id, train_fields = train[name_]
        assert env_id == train_id
        # The default side is "eval"; variants are training rows only.
        assert fields.get("side", "eval") == "eval"
        assert fields == {
            k: v for k, v in train_fields.items() if k not in ("side", "variants_per_scenario")
        }


@pytest.mark.parametrize("path", sorted(PRIME_RL.glob("main/*.toml")), ids=lambda p: p.stem)
def test_main_runs_the_null_harness_locally(path):
    config = load(path)
    for group in ("train", "eval"):
        for entry in sources(config, group):
            assert set(entry["env"]) == {"taskset", "agent"}, entry["env"]
            assert entry["env"]["agent"] == {
                "harness": {"id": "null"},
                "runtime": {"type": "subprocess"},
            }


def load_args(env_id: str, fields: dict[str, Any]) -> dict[str, Any]:
    """load_environment arguments for a taskset's fields (side is v1's own: which rows)."""
    module = importlib.import_module(env_id.replace("-", "_"))
    params = inspect.signature(module.load_environment).parameters
    args = {k: v for k, v in fields.items() if k != "side"}
    unknown = set(args) - set(params)
    assert not unknown, f"{env_id}: {sorted(unknown)} are not settings of this environment"
    assert fields.get("side", "eval") in ("train", "eval")
    if "dataset" in args and args["dataset"] == getattr(module, "DEFAULT_DATASET", None):
        # The Hub dataset a run trains on; the bundled cases keep this test offline.
        args["dataset"] = "bundled"
    return args


def check_v1_taskset(env_id: str, fields: dict[str, Any]) -> None:
    """Validate the fields with the taskset's own config class (as prime-rl main narrows the
    table) and load its rows, whose keys must be unique (prime-rl main's task sampler)."""
    import verifiers.v1 as vf
    from verifiers.v1.utils.loaders import taskset_config_type

    config_type = taskset_config_type(env_id)
    assert config_type.__module__.startswith("clinical_envs.v1."), config_type
    unknown = set(fields) - set(config_type.model_fields)
    assert not unknown, f"{env_id}: {sorted(unknown)} are not fields of {config_type.__name__}"
    fields = dict(fields)
    module = importlib.import_module(env_id.replace("-", "_"))
    if "dataset" in fields and fields["dataset"] == getattr(module, "DEFAULT_DATASET", None):
        fields["dataset"] = "bundled"  # offline, as above
    tasks = list(vf.load_taskset(config_type.model_validate({"id": env_id, **fields})))
    assert tasks, f"{env_id} {fields}: no rows"
    keys = Counter(task.key for task in tasks)
    assert max(keys.values()) == 1, f"{env_id}: duplicate task keys"


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_env_args_load_the_environment(path):
    ref = path.parent.name
    config = load(path)
    entries = env_entries(ref, config)
    assert entries
    if ref == "main":
        entries += [taskset(entry) for entry in sources(config, "eval")]
    for env_id, settings in entries:
        assert env_id in ENV_IDS, f"{path.name}: unknown env id {env_id!r}"
        if ref == "main" and verifiers_api() == "v1":
            check_v1_taskset(env_id, settings)
            continue
        args = load_args(env_id, settings)
        if verifiers_api() != "classic":
            continue  # load_environment needs the classic API; load_args checked the names
        if ref == "main" and settings.get("side", "eval") == "eval":
            # The eval fields are the training ones less side and variants (checked above):
            # loading the training source's environment already built these rows.
            continue
        env = importlib.import_module(env_id.replace("-", "_")).load_environment(**args)
        assert len(env.get_dataset()) > 0
        assert len(env.get_eval_dataset()) > 0
        if ref != "main":
            # What prime-rl's legacy bridge does after loading a classic env, at both tags.
            env.set_kwargs(max_seq_len=config["seq_len"])
            assert env.max_seq_len == config["seq_len"]


def test_the_validated_main_commit_is_recorded():
    """The files, the venv script, the README and docs/v1.md name the same prime-rl main."""
    short = MAIN_VALIDATED[:7]
    for path in sorted(PRIME_RL.glob("main/*.toml")):
        assert f"commit {short}" in path.read_text(), path.name
    assert f"MAIN_VALIDATED={MAIN_VALIDATED}" in (ROOT / "scripts/prime_rl_configs.sh").read_text()
    for doc in ("README.md", "docs/v1.md"):
        assert MAIN_VALIDATED in (ROOT / doc).read_text(), doc


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


@pytest.mark.skipif(verifiers_api() != "classic", reason="the classic vf-eval's endpoint loader")
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


# prime-rl's own schema, in a Python that has the ref's config package (no GPU, no torch).

VALIDATE = r"""
import json, sys, warnings
from pydantic_config import cli
from prime_rl.configs.orchestrator import TrainConfig
from prime_rl.configs.rl import RLConfig

warnings.simplefilter("ignore")
if "env" in TrainConfig.model_fields:
    layout = "env"  # v0.7.0: [[orchestrator.train.env]]
else:
    source = TrainConfig.model_fields["source"].annotation.__args__[0]
    layout = "legacy" if "legacy" in source.model_fields else "taskset"  # v0.8.0 / main
results = {"layout": layout, "files": {}}


def v1_entries(group):
    out = []
    for source in getattr(group, "source", None) or []:
        taskset = source.env.taskset
        agent = source.env.agent
        out.append(dict(
            name=source.resolved_name,
            id=taskset.id,
            fields=taskset.model_dump(mode="json", exclude_unset=True),
            config=f"{type(taskset).__module__}.{type(taskset).__name__}",
            harness=agent.harness.id,
            runtime=agent.runtime.type,
        ))
    return out


for path in sys.argv[1:]:
    try:
        config = cli(RLConfig, args=["@", path])
    except BaseException as e:  # ConfigFileError; SystemExit on usage errors; import errors
        results["files"][path] = {"error": f"{type(e).__name__}: {e}"}
        continue
    orchestrator = config.orchestrator
    verdict = {"seq_len": orchestrator.seq_len}
    if layout == "taskset":
        verdict["train"] = v1_entries(orchestrator.train)
        verdict["eval"] = v1_entries(orchestrator.eval)
    else:
        train = orchestrator.train
        envs = train.env if layout == "env" else [source.legacy for source in train.source]
        verdict["envs"] = [
            dict(id=e.id, args=e.args, extra_env_kwargs=e.extra_env_kwargs) for e in envs
        ]
    results["files"][path] = verdict
json.dump(results, sys.stdout)
"""
# The env layout VALIDATE finds in each ref's schema.
LAYOUT = {"v0.7.0": "env", "v0.8.0": "legacy", "main": "taskset"}


def ref_var(ref: str) -> str:
    return "PRIME_RL_CONFIGS_" + ref.upper().replace(".", "_") + "_PYTHON"


def schema_env() -> dict[str, str]:
    """The subprocess's environment: this checkout's core and environment modules importable
    (v0.8.0's and main's schemas import each taskset to narrow its table), Hub access off."""
    paths = [str(ROOT / "src"), *(str(p) for p in sorted(ENVIRONMENTS.iterdir()) if p.is_dir())]
    if os.environ.get("PYTHONPATH"):
        paths.append(os.environ["PYTHONPATH"])
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(paths),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
    }


@pytest.fixture(scope="module", params=REFS)
def schema(request) -> tuple[str, dict[str, Any]]:
    """(ref, the ref's verdict on every config file), from one subprocess per ref."""
    ref, var = request.param, ref_var(request.param)
    python = os.environ.get(var)
    if not python:
        pytest.skip(
            f"{var} is unset: make a Python with prime-rl {ref}'s config schema with "
            f'`eval "$(bash scripts/prime_rl_configs.sh /path/to/prime-rl {ref})"` '
            f"(any prime-rl clone that has {ref}; needs python3.12 and PyPI)"
        )
    run = subprocess.run(
        [python, "-c", VALIDATE, *map(str, FILES)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=schema_env(),
    )
    assert run.returncode == 0, f"{var}={python} failed:\n{run.stderr[-3000:]}"
    results = json.loads(run.stdout)
    assert results["layout"] == LAYOUT[ref], (
        f"{var}={python} has the {results['layout']!r} env layout, "
        f"not prime-rl {ref}'s {LAYOUT[ref]!r}"
    )
    return ref, results["files"]


def v1_expected(config: dict[str, Any], group: str) -> list[dict[str, Any]]:
    """What main's schema should make of a main file's sources: the file's fields, validated
    by our own taskset config class, and the null harness on the subprocess runtime."""
    out = []
    for entry in sources(config, group):
        env_id, fields = taskset(entry)
        out.append(
            dict(
                name=entry["name"],
                id=env_id,
                fields={"id": env_id, **fields},
                harness="null",
                runtime="subprocess",
            )
        )
    return out


@pytest.mark.slow
def test_prime_rl_schema_accepts_its_own_configs(schema):
    ref, verdicts = schema
    for path in FILES:
        if path.parent.name != ref:
            continue
        verdict = verdicts[str(path)]
        assert "error" not in verdict, f"{path.relative_to(ROOT)}: {verdict.get('error')}"
        config = load(path)
        assert verdict["seq_len"] == config["seq_len"]
        if ref == "main":
            for group in ("train", "eval"):
                got = verdict[group]
                for entry in got:
                    config_class = entry.pop("config")
                    assert config_class.startswith("clinical_envs.v1."), (path.name, config_class)
                assert got == v1_expected(config, group), (path.name, group)
            continue
        assert [(e["id"], e["args"]) for e in verdict["envs"]] == env_entries(ref, config)
        # prime-rl hands seq_len to each classic env after loading it, via env.set_kwargs.
        for env in verdict["envs"]:
            assert env["extra_env_kwargs"]["max_seq_len"] == config["seq_len"]


# How each schema turns down another ref's file (checked in its error message).
REJECTION = {
    # The classic layouts: an unknown table where the train envs are.
    ("main", "v0.7.0"): ("orchestrator.train.env", "Extra inputs"),
    ("main", "v0.8.0"): ("legacy", "Extra inputs"),
    ("v0.7.0", "v0.8.0"): ("orchestrator.train.source", "Extra inputs"),
    ("v0.8.0", "v0.7.0"): ("orchestrator.train.env", "Extra inputs"),
    ("v0.7.0", "main"): ("orchestrator.train.source", "Extra inputs"),
    # v0.8.0 reads main's env tables as v1 envs, but its classic verifiers leaves our modules
    # without a v1 Taskset to narrow them to.
    ("v0.8.0", "main"): ("exports no Taskset subclass", ""),
}


@pytest.mark.slow
def test_prime_rl_schema_rejects_the_other_versions_configs(schema):
    ref, verdicts = schema
    for path in FILES:
        if path.parent.name == ref:
            continue
        error = verdicts[str(path)].get("error", "")
        wanted = REJECTION[ref, path.parent.name]
        assert error and all(w in error for w in wanted), (
            f"prime-rl {ref} did not reject {path.relative_to(ROOT)} for its layout: {error!r}"
        )
