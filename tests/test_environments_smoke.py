"""Every environment folder: metadata, README template, and tables that match the code."""

from __future__ import annotations

import importlib
import inspect
import re
import tomllib

import pytest
from conftest import ENVIRONMENTS

ENV_DIRS = sorted(p for p in ENVIRONMENTS.iterdir() if (p / "pyproject.toml").is_file())
# Arguments that keep a load offline (the set-diagnosis default is a hub dataset).
OFFLINE_ARGS = {"set_diagnosis_tool_call": {"dataset": "bundled"}}
SECTIONS = (
    "### Overview",
    "### Datasets",
    "### Task",
    "### Quickstart",
    "### Environment Arguments",
    "### Metrics",
)


def table_rows(readme: str, heading: str) -> list[list[str]]:
    """Body rows of the first table under ``heading``."""
    section = readme.split(heading, 1)[1].split("\n### ", 1)[0]
    lines = section.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| "))
    rows = []
    for line in lines[start:]:
        if not line.startswith("| "):
            break
        rows.append(line)
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


@pytest.fixture(params=ENV_DIRS, ids=lambda p: p.name)
def env_dir(request):
    return request.param


def test_pyproject_metadata(env_dir):
    project = tomllib.loads((env_dir / "pyproject.toml").read_text())
    meta = project["project"]
    assert meta["name"].replace("-", "_") == env_dir.name
    assert meta["description"] and meta["tags"]
    assert any(d.startswith("verifiers>=0.2.0,<0.5") for d in meta["dependencies"])
    assert project["tool"]["verifiers"]["eval"]["num_examples"] > 0
    # What `prime env push` reads from the folder alone.
    assert meta["version"]
    include = project["tool"]["hatch"]["build"]["include"]
    assert set(include) >= {f"{env_dir.name}.py", "README.md", "pyproject.toml"}


def test_readme_follows_the_template(env_dir):
    readme = (env_dir / "README.md").read_text()
    positions = [readme.find(s) for s in SECTIONS]
    assert -1 not in positions and positions == sorted(positions), positions


def test_arguments_table_matches_the_signature(env_dir):
    module = importlib.import_module(env_dir.name)
    params = inspect.signature(module.load_environment).parameters
    rows = table_rows((env_dir / "README.md").read_text(), "### Environment Arguments")
    documented = {row[0].strip("`"): row[2].strip("`") for row in rows}
    assert list(documented) == list(params)
    for name, default in documented.items():
        expected = params[name].default
        shown = "null" if expected is None else repr(expected).replace("'", '"')
        assert default == shown, (name, default, shown)


def test_metrics_table_matches_the_rubric(env_dir):
    module = importlib.import_module(env_dir.name)
    env = module.load_environment(**OFFLINE_ARGS.get(env_dir.name, {}))
    rows = table_rows((env_dir / "README.md").read_text(), "### Metrics")
    documented = {row[0].strip("`"): row[1] for row in rows if row[0] != "`reward`"}
    weights = {}
    for rubric in getattr(env.rubric, "rubrics", [env.rubric]):
        weights.update(
            zip(rubric._get_reward_func_names(), rubric._get_reward_weights(), strict=True)
        )
    assert documented.keys() == weights.keys()
    for name, weight in weights.items():
        assert float(documented[name]) == pytest.approx(weight), name


def test_module_docstring_says_how_to_run(env_dir):
    module = importlib.import_module(env_dir.name)
    assert module.__doc__ and "vf-eval" in module.__doc__
    assert re.search(r"def load_environment\(", (env_dir / f"{env_dir.name}.py").read_text())
