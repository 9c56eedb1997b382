"""The seven distributions build, and one environment installs from the wheels alone and runs.

This is what a Hub install does once the core is on the package index: ``prime env install``
installs the environment's wheel, which pins ``clinical-envs==X.Y.Z``. The fresh venv gets the
third-party dependencies (verifiers, datasets, ...) as links to this venv's copies, so nothing is
downloaded; clinical-envs and the environment come only from the wheelhouse built here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import ENVIRONMENTS, KEY_VAR, ROOT

from clinical_envs import __version__
from clinical_envs.policies.escalation import AlwaysEscalate

ENV_DIRS = sorted(p for p in ENVIRONMENTS.iterdir() if (p / "pyproject.toml").is_file())
DISTRIBUTIONS = ["clinical_envs", *(p.name for p in ENV_DIRS)]
SCENARIO_FILES = sorted((ROOT / "scenarios").rglob("*.yaml"))
# Never linked into the fresh venv: our own packages (they must come from the wheels) and the
# venv's own installer.
OWN = ("clinical_envs", "_clinical_envs", "__editable__", "pip", "setuptools", "_distutils_hack")


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_one_version_for_all_seven_distributions():
    done = run([sys.executable, str(ROOT / "scripts" / "set_version.py")])
    assert f"at {__version__}" in done.stdout


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory) -> Path:
    """Each distribution's sdist, and its wheel built from that sdist (as an index would)."""
    out = tmp_path_factory.mktemp("wheelhouse")
    for project in [ROOT, *ENV_DIRS]:
        run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(project)])
    return out


@pytest.mark.slow
def test_every_distribution_builds_a_wheel_and_an_sdist(wheelhouse):
    names = sorted(p.name for p in wheelhouse.iterdir())
    assert names == sorted(
        f"{name}-{__version__}{suffix}"
        for name in DISTRIBUTIONS
        for suffix in ("-py3-none-any.whl", ".tar.gz")
    )
    with zipfile.ZipFile(wheelhouse / f"clinical_envs-{__version__}-py3-none-any.whl") as core:
        files = set(core.namelist())
    packaged = {
        f"clinical_envs/data/scenarios/{p.relative_to(ROOT / 'scenarios')}" for p in SCENARIO_FILES
    }
    assert len(SCENARIO_FILES) >= 85 and packaged <= files
    assert "clinical_envs/data/set_diagnosis_cases.jsonl" in files
    assert {f"{p.name}.py" for p in ENV_DIRS} <= files
    for env_dir in ENV_DIRS:
        wheel = wheelhouse / f"{env_dir.name}-{__version__}-py3-none-any.whl"
        with zipfile.ZipFile(wheel) as env_wheel:
            (metadata,) = [n for n in env_wheel.namelist() if n.endswith(".dist-info/METADATA")]
            requires = env_wheel.read(metadata).decode()
        assert f"Requires-Dist: clinical-envs=={__version__}" in requires
        with tarfile.open(wheelhouse / f"{env_dir.name}-{__version__}.tar.gz") as sdist:
            members = {Path(m).name for m in sdist.getnames()}
        # What `prime env push` reads from the folder.
        assert {f"{env_dir.name}.py", "README.md", "pyproject.toml"} <= members


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory) -> Path:
    """A new venv whose third-party packages are links to this venv's, and nothing of ours."""
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    site = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if entry.name.startswith(OWN) or entry.suffix == ".pth" or (site / entry.name).exists():
            continue
        # Linked into site-packages itself (not a .pth folder): dill, which datasets uses to
        # fingerprint, pickles modules outside site-packages by value and fails on pyarrow.
        (site / entry.name).symlink_to(entry)
    return venv


@pytest.mark.slow
def test_an_environment_installs_from_the_wheelhouse_and_runs(
    wheelhouse, fresh_venv, policy_server, tmp_path
):
    python = fresh_venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--no-index", "--find-links", str(wheelhouse)]
    run([*pip, "escalation-emergency"])
    where = run(
        [
            str(python),
            "-c",
            "import clinical_envs, escalation_emergency; from clinical_envs.scenarios import "
            "scenarios_root; print(clinical_envs.__file__, escalation_emergency.__file__, "
            "scenarios_root(), sep='\\n')",
        ],
        cwd=tmp_path,
    ).stdout.split()
    assert all(Path(p).is_relative_to(fresh_venv) for p in where), where
    assert len(list(Path(where[2]).rglob("*.yaml"))) == len(SCENARIO_FILES)

    policy_server.policies["wheel-holds"] = AlwaysEscalate()
    vf_eval = (
        "import sys, importlib.metadata as m\n"
        "(ep,) = [e for e in m.entry_points(group='console_scripts') if e.name == 'vf-eval']\n"
        "sys.argv = ['vf-eval', *sys.argv[1:]]\n"
        "sys.exit(ep.load()())\n"
    )
    out = tmp_path / "out"
    args = f"-m wheel-holds -b {policy_server.base_url} -k {KEY_VAR} -n 1 -r 1 -s -o {out}"
    run(
        [str(python), "-c", vf_eval, "escalation-emergency", *args.split()],
        cwd=tmp_path,
        env={**os.environ, KEY_VAR: "test", "HF_HUB_OFFLINE": "1"},
    )
    (results,) = out.rglob("results.jsonl")
    (row,) = [json.loads(line) for line in results.read_text().splitlines()]
    assert row["reward"] > 0.9
