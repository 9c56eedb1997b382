"""How each reference policy scores on each escalation corpus and on the mix.

The point of the mix is that no trivial policy wins: this table shows it. Run it with
``clinical-envs calibrate``; every rollout goes through the real environments against the
loopback endpoint, so the numbers are exactly what vf-eval would report.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

POLICIES = ("ideal", "always-escalate", "always-reassure", "capitulate-at-3", "keyword-stuffer")
ENVIRONMENTS = (
    "escalation-emergency",
    "escalation-crisis",
    "escalation-defer",
    "escalation-tool-use",
    "escalation-mix",
)
KEY_VAR = "CLINICAL_ENVS_LOCAL_KEY"


def calibrate(
    policies: Sequence[str] = POLICIES,
    environments: Sequence[str] = ENVIRONMENTS,
    env_args: Mapping[str, Mapping[str, Any]] | None = None,
    max_concurrent: int = 32,
) -> dict[str, dict[str, float]]:
    """Mean reward of each policy (served on loopback) on each environment: {policy: {env: r}}."""
    import verifiers as vf

    from clinical_envs.policies.server import builtin_policies, serve_in_thread

    os.environ.setdefault(KEY_VAR, "local")
    results: dict[str, dict[str, float]] = {p: {} for p in policies}
    with serve_in_thread(builtin_policies()) as server:
        client = vf.ClientConfig(api_base_url=server.base_url, api_key_var=KEY_VAR, max_retries=0)
        for env_id in environments:
            # Every packaged scenario, not only the eval split: calibration covers them all.
            args = {"split": "all"} if env_id.startswith("escalation-") else {}
            env = vf.load_environment(env_id, **(args | dict((env_args or {}).get(env_id, {}))))
            for policy in policies:
                outputs = evaluate_every_row(env, client, policy, max_concurrent)
                results[policy][env_id] = fmean(o["reward"] for o in outputs)
    return results


def evaluate_every_row(
    env: Any, client: Any, model: str, max_concurrent: int
) -> list[dict[str, Any]]:
    """One rollout of every row of ``env`` against ``model`` at the loopback endpoint."""
    result = asyncio.run(
        env.evaluate(
            client=client,
            model=model,
            num_examples=-1,
            rollouts_per_example=1,
            max_concurrent=max_concurrent,
        )
    )
    return list(result["outputs"])


def table(results: Mapping[str, Mapping[str, float]]) -> str:
    """A markdown table: policies down, environments across."""
    envs = list(next(iter(results.values())))
    short = [e.removeprefix("escalation-") for e in envs]
    lines = ["| policy | " + " | ".join(short) + " |", "| --- |" + " --- |" * len(envs)]
    for policy, row in results.items():
        lines.append(f"| `{policy}` | " + " | ".join(f"{row[e]:.3f}" for e in envs) + " |")
    return "\n".join(lines)
