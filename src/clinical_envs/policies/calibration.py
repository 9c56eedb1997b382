"""How each reference policy scores on each escalation corpus and on the mix.

The point of the mix is that no trivial policy wins: this table shows it. Run it with
``clinical-envs calibrate``; every rollout goes through the real environments against the
loopback endpoint, so the numbers are exactly what vf-eval would report.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
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
    progress = _Progress(len(policies) * len(environments))
    with serve_in_thread(builtin_policies()) as server, quiet_datasets():
        client = vf.ClientConfig(api_base_url=server.base_url, api_key_var=KEY_VAR, max_retries=0)
        for env_id in environments:
            # Every packaged scenario, not only the eval split: calibration covers them all.
            args = {"split": "all"} if env_id.startswith("escalation-") else {}
            env = vf.load_environment(env_id, **(args | dict((env_args or {}).get(env_id, {}))))
            for policy in policies:
                progress.step(f"{env_id} / {policy}")
                outputs = evaluate_every_row(env, client, policy, max_concurrent)
                results[policy][env_id] = fmean(o["reward"] for o in outputs)
    progress.done()
    return results


@contextlib.contextmanager
def quiet_datasets() -> Iterator[None]:
    """No Hugging Face ``datasets`` bars (verifiers maps every dataset it loads) while inside."""
    from datasets.utils import logging as datasets_logging

    enabled = datasets_logging.is_progress_bar_enabled()
    datasets_logging.disable_progress_bar()
    try:
        yield
    finally:
        if enabled:
            datasets_logging.enable_progress_bar()


class _Progress:
    """One line on stderr: redrawn in place on a terminal, written once in a log."""

    def __init__(self, total: int) -> None:
        self.total, self.count = total, 0
        self.live = sys.stderr.isatty()
        if not self.live:
            print(f"calibrate: {total} (environment, policy) runs ...", file=sys.stderr)

    def step(self, what: str) -> None:
        self.count += 1
        if self.live:
            print(f"\rcalibrate: {self.count}/{self.total} {what:<60}", end="", file=sys.stderr)

    def done(self) -> None:
        if self.live:
            print(file=sys.stderr)


def evaluate_every_row(
    env: Any, client: Any, model: str, max_concurrent: int, state_columns: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """One rollout of every row of ``env`` against ``model`` at the loopback endpoint, without
    verifiers' progress bar (its redraws filled logs with kilobytes per call); each output
    also holds the ``state_columns`` asked for."""
    result = asyncio.run(
        env.evaluate(
            client=client,
            model=model,
            num_examples=-1,
            rollouts_per_example=1,
            max_concurrent=max_concurrent,
            on_start=_ignore,
            on_progress=_ignore,
            **({"state_columns": list(state_columns)} if state_columns else {}),
        )
    )
    return list(result["outputs"])


def _ignore(*_args: Any, **_kwargs: Any) -> None:
    return None


def table(results: Mapping[str, Mapping[str, float]]) -> str:
    """A markdown table: policies down, environments across."""
    envs = list(next(iter(results.values())))
    short = [e.removeprefix("escalation-") for e in envs]
    lines = ["| policy | " + " | ".join(short) + " |", "| --- |" + " --- |" * len(envs)]
    for policy, row in results.items():
        lines.append(f"| `{policy}` | " + " | ".join(f"{row[e]:.3f}" for e in envs) + " |")
    return "\n".join(lines)
