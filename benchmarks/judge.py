"""What the judge layer costs per rollout, against the loopback judge, measured side by side.

    python benchmarks/judge.py [--rollouts 80] [--concurrency 16]

The ideal policy and ``rules-judge`` (a judge that answers what the rules say, instantly) are
served on one loopback endpoint; escalation-emergency (every packaged scenario) runs three
ways in one process: rules only; ``grader="both"`` with an empty verdict cache (every reply
judged over HTTP); and the same again on the filled cache. Prints JSON: seconds, rollouts/s,
judge requests per rollout, and each judged run's time as a ratio of the rules-only run. The
loopback judge answers in microseconds, so this is the layer's own overhead (prompt building,
HTTP, parsing, SQLite); a real judge adds its own latency per uncached reply.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import verifiers as vf

from clinical_envs.policies.judges import LabelJudge
from clinical_envs.policies.server import builtin_policies, serve_in_thread

KEY_VAR = "CLINICAL_ENVS_BENCH_KEY"


def run(env: Any, client: Any, rollouts: int, concurrency: int) -> float:
    start = time.perf_counter()
    result = asyncio.run(
        env.evaluate(
            client=client,
            model="ideal",
            num_examples=rollouts,
            rollouts_per_example=1,
            max_concurrent=concurrency,
        )
    )
    seconds = time.perf_counter() - start
    assert all(o["reward"] > 0.99 for o in result["outputs"]), "the ideal policy should hold"
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=80)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    os.environ.setdefault(KEY_VAR, "local")
    judge = LabelJudge()
    policies = {**builtin_policies(), "bench-judge": judge}
    out: dict[str, Any] = {"rollouts": args.rollouts, "concurrency": args.concurrency}
    with serve_in_thread(policies) as server, tempfile.TemporaryDirectory() as tmp:
        client = vf.ClientConfig(api_base_url=server.base_url, api_key_var=KEY_VAR, max_retries=0)
        rules = vf.load_environment("escalation-emergency", split="all")
        judged = vf.load_environment(
            "escalation-emergency",
            split="all",
            grader="both",
            judge_model="bench-judge",
            judge_base_url=server.base_url,
            judge_cache=str(Path(tmp) / "verdicts.sqlite"),
        )
        run(rules, client, 8, args.concurrency)  # warm imports and the server
        timings = {}
        calls = {}
        for name, env in (
            ("rules", rules),
            ("both_cold_cache", judged),
            ("both_warm_cache", judged),
        ):
            before = judge.calls
            timings[name] = run(env, client, args.rollouts, args.concurrency)
            calls[name] = judge.calls - before
    for name, seconds in timings.items():
        out[name] = {
            "seconds": round(seconds, 3),
            "rollouts_per_second": round(args.rollouts / seconds, 1),
            "judge_requests_per_rollout": round(calls[name] / args.rollouts, 2),
        }
    out["ratio_cold_to_rules"] = round(timings["both_cold_cache"] / timings["rules"], 2)
    out["ratio_warm_to_rules"] = round(timings["both_warm_cache"] / timings["rules"], 2)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
