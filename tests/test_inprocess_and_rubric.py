"""The in-process endpoint (benchmarks) and the one-pass rubric (scoring cost, issue 15)."""

from __future__ import annotations

import asyncio
import logging

import pytest
import verifiers as vf

from clinical_envs.policies import Reply, ScriptedPolicy, builtin_policies
from clinical_envs.policies.inprocess import inprocess_client
from clinical_envs.rewards import once_per_rollout
from clinical_envs.rewards.rubric import DirectRubric

QUIET = {"on_start": lambda *a, **k: None, "on_progress": lambda *a, **k: None}


def evaluate(env, client, model, **kwargs):
    result = asyncio.run(
        env.evaluate(client=client, model=model, state_columns=["reply_grades"], **QUIET, **kwargs)
    )
    return list(result["outputs"])


@pytest.mark.parametrize(
    ("policy", "expected"), [("ideal", 1.0), ("always-reassure", 0.1), ("capitulate-at-3", 0.43)]
)
def test_in_process_rollouts_score_as_over_http(policy, expected):
    env = vf.load_environment("escalation-emergency", split="all")
    outputs = evaluate(env, inprocess_client(builtin_policies()), policy, num_examples=-1)
    assert len(outputs) == len(env.scenarios) and not [o for o in outputs if o.get("error")]
    assert sum(o["reward"] for o in outputs) / len(outputs) == pytest.approx(expected, abs=1e-9)


def test_in_process_endpoint_errors_end_the_rollout():
    env = vf.load_environment("escalation-emergency")
    client = inprocess_client({"scripted": ScriptedPolicy([Reply("Call 911 now.")])})
    (output,) = evaluate(env, client, "no-such-model", num_examples=1)
    assert "unknown model" in str(output["error"]) and "no-such-model" in str(output["error"])
    assert output["reward"] == 0.0


# --- DirectRubric gives what verifiers' Rubric gives --------------------------------------------


def reward_a(state, info) -> float:
    return float(info["x"]) / 10


def reward_b(completion, answer) -> float:
    return float(len(completion) + len(answer))


def broken(state) -> float:
    raise RuntimeError("boom")


def anything(**kwargs) -> float:
    return float({"answer", "completion", "info", "parser", "prompt", "state"} <= set(kwargs))


def states() -> list[dict]:
    rows = [(3, ["a"], "xy"), (7, ["a", "b"], ""), (0, [], "z")]
    return [
        {
            "prompt": [],
            "completion": completion,
            "answer": answer,
            "info": {"x": x},
            "trajectory": [{"reward": None, "advantage": None}, {"reward": 0.5, "advantage": 1.0}],
        }
        for x, completion, answer in rows
    ]


def test_direct_rubric_matches_the_verifiers_rubric(caplog):
    funcs, weights = [reward_a, reward_b, broken, anything], [1.0, 0.25, 2.0, 0.0]
    plain, direct = states(), states()
    asyncio.run(vf.Rubric(funcs=funcs, weights=weights).score_group(plain))
    with caplog.at_level(logging.ERROR):
        asyncio.run(DirectRubric(funcs, weights).score_group(direct))
    assert direct == plain
    assert direct[0]["metrics"] == {
        "reward_a": 0.3,
        "reward_b": 3.0,
        "broken": 0.0,
        "anything": 1.0,
    }
    assert "broken" in caplog.text


def test_direct_rubric_rejects_arguments_it_cannot_supply():
    def needs_judge(state, judge) -> float:
        return 0.0

    with pytest.raises(TypeError, match="needs_judge asks for \\['judge'\\]"):
        DirectRubric([needs_judge], [1.0])


def test_shared_scores_are_computed_once_per_rollout():
    calls: list[int] = []

    @once_per_rollout
    def scores(state, info) -> dict[str, float]:
        calls.append(info["x"])
        return {"double": 2.0 * info["x"], "half": info["x"] / 2}

    def double(state, info) -> float:
        return scores(state, info)["double"]

    def half(state, info) -> float:
        return scores(state, info)["half"]

    direct, plain = states(), states()
    asyncio.run(DirectRubric([double, half], [1.0, 1.0]).score_group(direct))
    assert calls == [3, 7, 0]  # once per rollout, none carried over to the next
    asyncio.run(vf.Rubric(funcs=[double, half], weights=[1.0, 1.0]).score_group(plain))
    assert sorted(calls[3:]) == [0, 0, 3, 3, 7, 7]  # outside DirectRubric: every call
    assert [s["metrics"] for s in direct] == [s["metrics"] for s in plain]
    assert direct[1]["metrics"] == {"double": 14.0, "half": 3.5}


def test_the_environments_use_it():
    for env_id, args in (
        ("escalation-emergency", {}),
        ("escalation-mix", {}),
        ("set-diagnosis-tool-call", {"dataset": "bundled"}),
    ):
        rubric = vf.load_environment(env_id, **args).rubric
        inner = rubric.rubrics if isinstance(rubric, vf.RubricGroup) else [rubric]
        assert any(isinstance(r, DirectRubric) for r in inner)
