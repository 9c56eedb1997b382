"""Shared factories and a loopback policy server for the test suite."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from clinical_envs.policies import Policy, PolicyServer, Reply, ScriptedPolicy, serve_in_thread

ROOT = Path(__file__).resolve().parents[1]
ENVIRONMENTS = ROOT / "environments"
for env_dir in sorted(ENVIRONMENTS.iterdir()):
    if env_dir.is_dir() and str(env_dir) not in sys.path:
        sys.path.insert(0, str(env_dir))

KEY_VAR = "CLINICAL_ENVS_TEST_KEY"
GOLD_CASES = ROOT / "tests" / "data" / "diagnosis_cases.jsonl"


def call(name: str, **arguments: Any) -> tuple[str, dict[str, Any]]:
    return name, arguments


def assistant(content: str | None = None, tool_calls: Sequence[Any] = ()) -> dict[str, Any]:
    """An assistant message as a dict; native calls given as (name, arguments-JSON) pairs."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [
            {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": a}}
            for i, (n, a) in enumerate(tool_calls)
        ]
    return message


@pytest.fixture(scope="session")
def policy_server() -> Iterator[PolicyServer]:
    """One loopback server for the session; tests register policies under unique names."""
    with serve_in_thread({}) as server:
        yield server


def run_rollouts(
    env: Any,
    server: PolicyServer,
    policy: Policy,
    name: str,
    num_examples: int = -1,
    rollouts_per_example: int = 1,
    max_concurrent: int = -1,
) -> list[dict[str, Any]]:
    """Evaluate ``env`` in-process against ``policy``; returns verifiers' output dicts."""
    import os

    import verifiers as vf

    os.environ.setdefault(KEY_VAR, "test")
    server.policies[name] = policy
    client = vf.ClientConfig(api_base_url=server.base_url, api_key_var=KEY_VAR, max_retries=0)
    result = asyncio.run(
        env.evaluate(
            client=client,
            model=name,
            num_examples=num_examples,
            rollouts_per_example=rollouts_per_example,
            max_concurrent=max_concurrent,
            state_columns=["clinical", "reply_grades"],
        )
    )
    return list(result["outputs"])


def script(*replies: Reply) -> ScriptedPolicy:
    return ScriptedPolicy(list(replies))
