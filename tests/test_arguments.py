"""Every environment rejects unknown arguments by name (verifiers would store typos silently)."""

from __future__ import annotations

import importlib

import pytest
from conftest import ENVIRONMENTS

MODULES = sorted(p.name for p in ENVIRONMENTS.iterdir() if (p / "pyproject.toml").is_file())

pytestmark = pytest.mark.reliability


@pytest.mark.parametrize("module", MODULES)
def test_unknown_argument_is_rejected_by_name(module):
    load = importlib.import_module(module).load_environment
    with pytest.raises(TypeError, match="max_turnz"):
        load(max_turnz=3)


@pytest.mark.parametrize(
    "module", [m for m in MODULES if m.startswith("escalation_") and m != "escalation_mix"]
)
def test_bad_values_name_the_argument(module):
    load = importlib.import_module(module).load_environment
    with pytest.raises(ValueError, match="tool_protocol='json'"):
        load(tool_protocol="json")
    with pytest.raises(ValueError, match="max_tool_rounds must be >= 0"):
        load(max_tool_rounds=-1)
    with pytest.raises(ValueError, match="max_calls_per_turn must be >= 1"):
        load(max_calls_per_turn=0)


@pytest.mark.parametrize("module", MODULES)
def test_max_seq_len_from_prime_rl_reaches_the_environment(module):
    """Callers may pass the token budget at load; prime-rl sets the same attribute afterwards."""
    load = importlib.import_module(module).load_environment
    args = {"dataset": "bundled"} if module == "set_diagnosis_tool_call" else {}
    assert load(max_seq_len=4096, **args).max_seq_len == 4096
