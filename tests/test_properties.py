"""Property-based tests: hostile model output never escapes as an exception, rewards stay in
range and are deterministic, and the work per turn is bounded."""

from __future__ import annotations

import asyncio
import json
import math
import tracemalloc

import escalation_emergency
import escalation_tool_use
import pytest
import set_diagnosis_tool_call
import verifiers as vf
from conftest import GOLD_CASES, assistant
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clinical_envs.escalation import FLAGS, LOCALES, classify
from clinical_envs.toolcalls import DEFAULT_MAX_CALLS, parse_turn

pytestmark = pytest.mark.reliability
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

FRAGMENTS = st.sampled_from(
    [
        "<tool_call>",
        "</tool_call>",
        "<tool_response>",
        "</tool_response>",
        "<think>",
        "</think>",
        '{"name": "set_diagnosis", "arguments": ',
        '{"icd10_code": "E05.01", "description": "x", "status": "acute"}',
        '{"name": "finish_setting_diagnoses", "arguments": {}}',
        '{"name": "lookup_emergency_number", "arguments": {"country": "UK"}}',
        "}",
        "]",
        "[",
        '"',
        "\\",
        "\\u0000",
        "\\ud800",
        "\x00",
        "\udcff",
        "user:",
        "assistant:",
        "DONE",
        "```json\n",
        "```",
        "Call 911 now.",
        "If it gets worse, go to A&E.",
        "no need for the ER",
        "\n- ",
        "**",
    ]
)
HOSTILE_TEXT = st.lists(st.one_of(FRAGMENTS, st.text(max_size=40)), max_size=30).map("".join)
NATIVE_CALLS = st.lists(
    st.fixed_dictionaries(
        {
            "id": st.text(max_size=8),
            "type": st.just("function"),
            "function": st.fixed_dictionaries(
                {
                    "name": st.one_of(
                        st.sampled_from(
                            ["set_diagnosis", "search_diagnosis_codes", "finish_setting_diagnoses"]
                        ),
                        st.text(max_size=12),
                    ),
                    "arguments": st.one_of(
                        st.text(max_size=60),
                        st.dictionaries(
                            st.text(max_size=10),
                            st.one_of(
                                st.none(), st.integers(), st.text(max_size=10), st.booleans()
                            ),
                            max_size=4,
                        ).map(json.dumps),
                    ),
                }
            ),
        }
    ),
    max_size=12,
)


def message(text: str, calls: list[dict] | None = None) -> vf.AssistantMessage:
    tool_calls = [
        vf.ToolCall(id=c["id"], name=c["function"]["name"], arguments=c["function"]["arguments"])
        for c in calls or []
    ]
    return vf.AssistantMessage(content=text, tool_calls=tool_calls or None)


async def new_state(env, row: dict) -> vf.State:
    info = row["info"] if isinstance(row["info"], dict) else json.loads(row["info"])
    state = vf.State(input={"prompt": row["prompt"], "info": info, "example_id": 0, "answer": ""})
    state["trajectory"] = []
    return await env.setup_state(state)


async def play(env, row: dict, turns: list[vf.AssistantMessage]) -> vf.State:
    """Feed assistant messages straight to env_response, as the rollout loop would."""
    state = await new_state(env, row)
    for turn in turns:
        state["trajectory"].append({"completion": [turn]})
        replies = await env.env_response([turn], state)
        assert isinstance(replies, list)
        if state.get("final_env_response") is not None:
            break
    if hasattr(env, "grade_last_reply"):
        await env.grade_last_reply(state)
    return state


def rewards(env, state: vf.State) -> dict[str, float]:
    info = state["info"]
    out = {}
    for rubric in getattr(env.rubric, "rubrics", [env.rubric]):
        for func in rubric.funcs:
            params = func.__wrapped__.__code__.co_varnames if hasattr(func, "__wrapped__") else ()
            if func.__name__ == "num_turns":
                continue
            out[func.__name__] = (
                func(state=state, info=info) if "info" in params else func(state=state)
            )
    return out


@pytest.fixture(scope="module")
def diagnosis():
    env = set_diagnosis_tool_call.load_environment(dataset=str(GOLD_CASES), test_size=0)
    return env, dict(env.get_eval_dataset()[0])


@pytest.fixture(scope="module")
def emergency():
    env = escalation_emergency.load_environment(split="all", ids=["MTR-004"])
    return env, dict(env.get_eval_dataset()[0])


@pytest.fixture(scope="module")
def tool_use():
    env = escalation_tool_use.load_environment(split="all", ids=["TUS-001"])
    return env, dict(env.get_eval_dataset()[0])


@SETTINGS
@given(HOSTILE_TEXT, NATIVE_CALLS)
def test_parser_never_raises(text, calls):
    from clinical_envs.envs.set_diagnosis import TOOLS
    from clinical_envs.toolcalls import tool_spec

    specs = {s.name: s for s in map(tool_spec, TOOLS)}
    turn = parse_turn(
        assistant(text, [(c["function"]["name"], c["function"]["arguments"]) for c in calls]), specs
    )
    executed = [i for i in turn.items if type(i).__name__ == "ToolCall"]
    assert len(executed) <= DEFAULT_MAX_CALLS


@SETTINGS
@given(st.lists(st.tuples(HOSTILE_TEXT, NATIVE_CALLS), min_size=1, max_size=6))
def test_diagnosis_env_survives_anything_and_rewards_stay_in_range(diagnosis, turns):
    env, row = diagnosis
    state = asyncio.run(play(env, row, [message(t, c) for t, c in turns]))
    first, second = rewards(env, state), rewards(env, state)
    assert first == second
    assert all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in first.values()), first
    assert len(state["clinical"]["recorded"]) <= len(turns)  # at most one diagnosis per turn


@SETTINGS
@given(st.lists(st.tuples(HOSTILE_TEXT, st.just([])), min_size=1, max_size=6))
def test_escalation_env_survives_anything_and_rewards_stay_in_range(emergency, turns):
    env, row = emergency
    state = asyncio.run(play(env, row, [message(t, c) for t, c in turns]))
    values = rewards(env, state)
    assert values == rewards(env, state)
    for name, value in values.items():
        high = 3.0 if name == "mean_escalation_level" else 1.0
        assert math.isfinite(value) and 0.0 <= value <= high, (name, value)


@SETTINGS
@given(st.lists(st.tuples(HOSTILE_TEXT, NATIVE_CALLS), min_size=1, max_size=5))
def test_tool_use_env_survives_anything(tool_use, turns):
    env, row = tool_use
    state = asyncio.run(play(env, row, [message(t, c) for t, c in turns]))
    assert all(0.0 <= v <= 3.0 for v in rewards(env, state).values())


@SETTINGS
@given(HOSTILE_TEXT, st.sampled_from(LOCALES))
def test_grader_is_total_and_deterministic(text, locale):
    grade = classify(text, locale)
    assert grade.level in (0, 1, 2, 3)
    assert grade.flags <= set(FLAGS)
    assert grade == classify(text, locale)


# --- bounded work on giant input ------------------------------------------------------------


def test_thousands_of_calls_and_megabytes_are_bounded(diagnosis):
    env, row = diagnosis
    block = (
        '<tool_call>{"name": "search_diagnosis_codes", "arguments": {"query": "fever"}}</tool_call>'
    )
    giant = block * 20_000 + "x" * 3_000_000  # ~5 MB, 20,000 calls
    tracemalloc.start()
    state = asyncio.run(play(env, row, [message(giant)]))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    stats = state["clinical"]["tool_stats"]
    assert stats["executed"] == DEFAULT_MAX_CALLS
    assert peak < 60 * 1024 * 1024  # a few copies of the input at most, not one per call


def test_giant_argument_is_rejected_not_executed(diagnosis):
    env, row = diagnosis
    huge = json.dumps({"name": "search_diagnosis_codes", "arguments": {"query": "a" * 2_000_000}})
    state = asyncio.run(play(env, row, [message(f"<tool_call>{huge}</tool_call>")]))
    assert state["clinical"]["problems"][0]["kind"] == "too_large"
    assert state["clinical"]["tool_stats"]["executed"] == 0


def test_giant_reply_fails_closed(emergency):
    """No length window a retraction could hide behind: past the limit nothing is read."""
    env, row = emergency
    state = asyncio.run(play(env, row, [message("Call 999 now. " + "blah " * 1_000_000)]))
    grade = state["reply_grades"][0]
    assert (grade["level"], grade["maintained"], grade["flags"]) == (0, False, ["unreadable"])


GRADES = st.lists(
    st.fixed_dictionaries(
        {
            "level": st.integers(0, 3),
            "maintained": st.booleans(),
            "flags": st.lists(st.sampled_from([*FLAGS, "overescalation", "deescalating_action"])),
            "resources": st.lists(st.sampled_from(["988", "116 123", "000"]), max_size=2),
            "foreign_resources": st.lists(st.sampled_from(["988", "1737"]), max_size=2),
            "safety_net": st.booleans(),
        }
    ),
    max_size=8,
)


@SETTINGS
@given(
    GRADES,
    st.integers(1, 6),
    st.sampled_from(["emergency", "crisis-resource", "defer", "tool-use"]),
)
def test_every_corpus_rubric_is_bounded_and_deterministic(grades, expected, corpus):
    from clinical_envs.rewards.corpora import corpus_reward, corpus_rubric, escalation_reward

    funcs, weights = corpus_rubric(corpus)
    state, info = {"reply_grades": grades}, {"corpus": corpus, "expected_replies": expected}
    values = {f.__name__: f(state=state, info=info) for f in funcs}
    assert all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in values.values()), values
    total = corpus_reward(corpus, grades, expected)
    assert math.isclose(total, sum(weights[n] * v for n, v in values.items()))
    assert 0.0 <= total <= 1.0 + 1e-9 and total == escalation_reward(state, info)
