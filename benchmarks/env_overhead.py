"""What each environment costs beyond verifiers' own multi-turn loop, measured side by side.

    python benchmarks/env_overhead.py [--rollouts 128] [--concurrency 1 16 64 256]
                                      [--envs ...] [--repeats 2] [--no-stall]

For every environment a reference policy (set-diagnosis: the retrieval baseline, which searches
with the whole case report; escalation: the ideal policy) runs through the real environment, and
the same conversations run through a bare ``vf.MultiTurnEnv`` that replays the recorded
environment messages (same rows, tools, turns and message sizes) and scores with one constant
function. Both use the in-process endpoint, so the difference is the environment's own work:
parsing, tools, grading and scoring. Prints JSON: seconds and rollouts/s for each side at each
concurrency, and env/bare ratios (target: escalation within 2x, set-diagnosis within 3x); and
the CPU seconds each side used over the same span, the escalation grading worker's included and
also given alone (it grades on another core, so the time ratio can be lower than the CPU ratio),
and how many replies the event loop graded itself (taken back from a worker that fell behind).

``--memoised-grades`` grades each distinct escalation reply once (in the recording run, in this
process) and recalls its grade after: the environment's cost besides grading, for telling the
grader's share from the rest.

The stall check runs 64 normal set-diagnosis rollouts (concurrency 16) alone and then beside
one adversarial rollout that sends 8 searches of 32 KB of fresh random words every turn
(target: at most 1.5x the time alone).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import string
import time
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import verifiers as vf

from clinical_envs import dialogue
from clinical_envs.escalation.grading_process import ENV_VAR, grading_process
from clinical_envs.policies import ChatRequest, Reply, builtin_policies
from clinical_envs.policies.inprocess import inprocess_client

ALL = {"split": "all"}  # every scenario, as before the train/eval split
ENVIRONMENTS: dict[str, tuple[str, dict[str, Any]]] = {
    # env id -> (policy, load_environment arguments)
    "set-diagnosis-tool-call": ("retrieval-baseline", {"dataset": "bundled"}),
    "escalation-emergency": ("ideal", ALL),
    "escalation-crisis": ("ideal", ALL),
    "escalation-defer": ("ideal", ALL),
    "escalation-tool-use": ("ideal", ALL),
    "escalation-mix": ("ideal", ALL),
}
QUIET: dict[str, Any] = {"on_start": lambda *a, **k: None, "on_progress": lambda *a, **k: None}


def as_message(message: Any) -> Any:
    """A recorded message as the vf type an environment returns (no re-validation per turn)."""
    if not isinstance(message, dict):
        return message
    kind = {"user": vf.UserMessage, "tool": vf.ToolMessage, "system": vf.SystemMessage}
    return kind[message["role"]](**{k: v for k, v in message.items() if k != "role"})


class BareLoop(vf.MultiTurnEnv):
    """verifiers' loop and nothing else: each turn answers with the recorded messages."""

    def __init__(self, replies: Mapping[int, list[list[Any]]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.replies = replies

    async def setup_state(self, state: vf.State) -> vf.State:
        state["replay"] = list(self.replies[state["example_id"]])
        return state

    async def env_response(
        self, messages: vf.Messages, state: vf.State, **kwargs: Any
    ) -> vf.Messages:
        batch = state["replay"].pop(0) if state["replay"] else []
        if not state["replay"]:
            state["final_env_response"] = batch
        return batch


def recorded_replies(outputs: Sequence[Mapping[str, Any]]) -> dict[int, list[list[Any]]]:
    """Per example, the environment's messages after each assistant message."""
    replies: dict[int, list[list[Any]]] = {}
    for output in outputs:
        groups: list[list[Any]] = []
        for message in output["completion"]:
            if message["role"] == "assistant":
                groups.append([])
            elif groups:
                groups[-1].append(as_message(message))
        replies.setdefault(output["example_id"], groups)
    return replies


def bare_twin(env: vf.Environment, outputs: Sequence[Mapping[str, Any]]) -> BareLoop:
    def constant(state: Any) -> float:
        return 1.0

    dataset = env.get_eval_dataset()
    return BareLoop(
        recorded_replies(outputs),
        dataset=dataset,
        eval_dataset=dataset,
        tool_defs=env.tool_defs,
        rubric=vf.Rubric(funcs=[constant]),
        max_turns=env.max_turns,
    )


class Timing(NamedTuple):
    """One evaluation: wall-clock seconds, the CPU seconds used over the same span by this
    process and by the grading worker (escalation grades there), and how many replies were
    graded in this process instead (taken back from a worker that fell behind, or all of them
    without a worker)."""

    seconds: float
    cpu_s: float
    worker_cpu_s: float
    graded_in_loop: int = 0


async def timed_evaluate(
    env: vf.Environment, client: Any, model: str, rollouts: int, concurrency: int
) -> tuple[Timing, list[dict[str, Any]]]:
    rows = len(env.get_eval_dataset())
    # Objects left by earlier runs are collected and frozen first, so that a full collection
    # of them does not land at random in one side's timing (it cost up to 0.4 s here).
    gc.collect()
    gc.freeze()
    worker = grading_process()
    try:
        cpu, worker_cpu = time.process_time(), worker.worker_cpu_seconds()
        graded_here = worker.graded_here
        start = time.perf_counter()
        result = await env.evaluate(
            client=client,
            model=model,
            num_examples=min(rows, rollouts),
            rollouts_per_example=max(1, -(-rollouts // rows)),
            max_concurrent=concurrency,
            **QUIET,
        )
        seconds = time.perf_counter() - start
        worker_cpu = worker.worker_cpu_seconds() - worker_cpu
        cpu = time.process_time() - cpu + worker_cpu
        timing = Timing(seconds, cpu, worker_cpu, worker.graded_here - graded_here)
        return timing, list(result["outputs"])
    finally:
        gc.unfreeze()


def timed_run(
    env: vf.Environment, client: Any, model: str, rollouts: int, concurrency: int
) -> Timing:
    return asyncio.run(timed_evaluate(env, client, model, rollouts, concurrency))[0]


def overhead(
    env_id: str, client: Any, rollouts: int, levels: Sequence[int], repeats: int
) -> dict[str, Any]:
    policy, args = ENVIRONMENTS[env_id]
    env = vf.load_environment(env_id, **args)
    _, outputs = asyncio.run(timed_evaluate(env, client, policy, rollouts, 64))  # warm, record
    errors = [o for o in outputs if o.get("error")]
    if errors:
        raise RuntimeError(f"{env_id}: {len(errors)} rollouts failed, e.g. {errors[0]['error']}")
    bare = bare_twin(env, outputs)
    figures: dict[str, Any] = {"policy": policy, "rollouts": len(outputs)}
    for level in levels:
        best = {"env": Timing(float("inf"), 0, 0), "bare": Timing(float("inf"), 0, 0)}
        for _ in range(repeats):  # alternate, keep the fastest run of each (and its CPU time)
            for side, twin in (("env", env), ("bare", bare)):
                best[side] = min(best[side], timed_run(twin, client, policy, rollouts, level))
        (env_s, env_cpu, worker_cpu, in_loop), (bare_s, bare_cpu, *_) = best["env"], best["bare"]
        figures[f"concurrency_{level}"] = {
            "env_s": round(env_s, 3),
            "bare_s": round(bare_s, 3),
            "env_rollouts_per_s": round(len(outputs) / env_s, 1),
            "bare_rollouts_per_s": round(len(outputs) / bare_s, 1),
            "ratio": round(env_s / bare_s, 2),
            "env_cpu_s": round(env_cpu, 3),
            "env_worker_cpu_s": round(worker_cpu, 3),
            "env_replies_graded_in_loop": in_loop,
            "bare_cpu_s": round(bare_cpu, 3),
            "cpu_ratio": round(env_cpu / bare_cpu, 2),
            "extra_cpu_ms_per_rollout": round((env_cpu - bare_cpu) / len(outputs) * 1000, 2),
        }
    return figures


def memoise_grades() -> None:
    """From now on each distinct reply is graded once, here, and its grade recalled after."""
    os.environ[ENV_VAR] = "0"  # environments loaded after this grade in this process
    grade = dialogue.grade_reply
    # Keyed by the scenario's identity; the scenario is held, so its id is not reused.
    memo: dict[tuple[Any, ...], tuple[Any, dict[str, Any]]] = {}

    def recalled(text: str, scenario: Any, turn: int, *earlier: Sequence[Any]) -> dict[str, Any]:
        key = (text, id(scenario), turn, *(tuple(map(repr, e)) for e in earlier))
        if key not in memo:
            memo[key] = (scenario, grade(text, scenario, turn, *earlier))
        return dict(memo[key][1])

    dialogue.grade_reply = recalled  # type: ignore[assignment]


class FloodingSearcher:
    """Every turn: 8 searches, each 32 KB of random words never sent before."""

    def __init__(self, turns: int = 10, calls: int = 8, size: int = 32_000, seed: int = 0) -> None:
        rng = random.Random(seed)
        self.queries = [_noise(rng, size) for _ in range(turns * calls)]
        self.calls = calls

    def __call__(self, request: ChatRequest) -> Reply:
        turn = request.assistant_turns
        batch = self.queries[turn * self.calls : (turn + 1) * self.calls]
        calls = [("search_diagnosis_codes", {"query": q, "limit": 50}) for q in batch]
        return Reply(None, calls or [("finish_setting_diagnoses", {})])


def _noise(rng: random.Random, size: int) -> str:
    words: list[str] = []
    length = 0
    while length < size:
        word = "".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 12)))
        words.append(word)
        length += len(word) + 1
    return " ".join(words)[:size]


def stall(normal: int = 64, concurrency: int = 16, repeats: int = 3) -> dict[str, Any]:
    policies: dict[str, Any] = dict(builtin_policies())
    client = inprocess_client(policies)
    env = vf.load_environment("set-diagnosis-tool-call", dataset="bundled")

    async def alone() -> float:
        timing, _ = await timed_evaluate(env, client, "retrieval-baseline", normal, concurrency)
        return timing.seconds

    async def beside(seed: int) -> tuple[float, float]:
        # New words for every run: searches are memoised for the process, so a repeated
        # flood would cost a fraction of a fresh one (about 0.7 ms per search against 4).
        policies["flood"] = FloodingSearcher(seed=seed)
        start = time.perf_counter()
        flood = asyncio.create_task(timed_evaluate(env, client, "flood", 1, 1))
        await asyncio.sleep(0)  # let the flood start first
        seconds = await alone()
        await flood
        return seconds, time.perf_counter() - start

    asyncio.run(alone())  # warm up
    alone_s = min(asyncio.run(alone()) for _ in range(repeats))
    runs = [asyncio.run(beside(seed)) for seed in range(repeats)]
    beside_s = min(r[0] for r in runs)
    return {
        "normal_rollouts": normal,
        "concurrency": concurrency,
        "adversary": "1 rollout, 10 turns x 8 searches of 32 KB of fresh random words",
        "alone_s": round(alone_s, 3),
        "beside_adversary_s": round(beside_s, 3),
        "adversary_total_s": round(min(r[1] for r in runs), 3),
        "ratio": round(beside_s / alone_s, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=128)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 16, 64, 256])
    parser.add_argument("--envs", nargs="+", default=list(ENVIRONMENTS), choices=ENVIRONMENTS)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--no-stall", action="store_true", help="skip the stall check")
    parser.add_argument(
        "--memoised-grades",
        action="store_true",
        help="grade each distinct escalation reply once and recall it after (cost besides grading)",
    )
    args = parser.parse_args()
    if args.memoised_grades:
        memoise_grades()

    client = inprocess_client(builtin_policies())
    result: dict[str, Any] = {
        "cpus": os.cpu_count(),
        "verifiers": vf.__version__,
        "grades": "memoised" if args.memoised_grades else "graded",
        "overhead": {
            env_id: overhead(env_id, client, args.rollouts, args.concurrency, args.repeats)
            for env_id in args.envs
        },
    }
    result["max_ratio"] = {
        env_id: max(v["ratio"] for k, v in figures.items() if k.startswith("concurrency_"))
        for env_id, figures in result["overhead"].items()
    }
    if not args.no_stall:
        result["stall"] = stall()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
