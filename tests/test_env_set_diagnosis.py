"""set-diagnosis-tool-call end to end in-process: scripted policies over a loopback endpoint."""

from __future__ import annotations

import asyncio
import json
import math

import pytest
import set_diagnosis_tool_call
import verifiers as vf
from conftest import GOLD_CASES, call, run_rollouts, script

import clinical_envs.envs.tool_env as tool_env
from clinical_envs import icd10
from clinical_envs.envs.set_diagnosis import list_diagnosis_codes, search_diagnosis_codes
from clinical_envs.policies import Reply
from clinical_envs.toolcalls import ToolInputError

THYROID_STORM = json.loads(GOLD_CASES.read_text().splitlines()[0])
RIGHT = call("set_diagnosis", icd10_code="E05.01", description="thyroid storm", status="acute")
RIGHT_LOWER = call("set_diagnosis", icd10_code="e0501", description="storm", status="ACUTE")
WRONG_STATUS = call("set_diagnosis", icd10_code="E05.01", description="storm", status="chronic")
WRONG_CODE = call("set_diagnosis", icd10_code="I10", description="hypertension", status="chronic")
FINISH = call("finish_setting_diagnoses", reason="done")


@pytest.fixture(scope="module")
def one_case(tmp_path_factory):
    path = tmp_path_factory.mktemp("cases") / "one.jsonl"
    path.write_text(json.dumps(THYROID_STORM) + "\n")
    return str(path)


@pytest.fixture(scope="module")
def env(one_case):
    return set_diagnosis_tool_call.load_environment(dataset=one_case, test_size=0)


def rollout(env, server, request, *replies, **kwargs):
    (out,) = run_rollouts(env, server, script(*replies), request.node.name, **kwargs)
    assert out.get("error") is None, out.get("error")
    return out


def turns(*calls, protocol="auto"):
    return [Reply(None, [c], protocol) for c in calls]


@pytest.mark.parametrize("protocol", ["native", "xml"])
@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        ([RIGHT, FINISH], 1.0),
        ([RIGHT_LOWER, FINISH], 1.0),
        ([RIGHT] * 5 + [FINISH], 1.0),
        ([WRONG_STATUS, FINISH], 0.40),
        ([RIGHT, WRONG_CODE, FINISH], 0.875),
        ([WRONG_CODE, FINISH], 0.10),
        ([FINISH], 0.0),
    ],
    ids=["right", "casing", "five-times", "wrong-status", "wrong-extra", "wrong-code", "none"],
)
def test_issue_totals_through_the_environment(
    env, policy_server, request, protocol, calls, expected
):
    out = rollout(env, policy_server, request, *turns(*calls, protocol=protocol))
    assert math.isclose(out["reward"], expected), out["metrics"]
    assert out["stop_condition"] == "has_final_env_response"


def test_one_message_with_five_calls_records_one(env, policy_server, request):
    out = rollout(env, policy_server, request, Reply(None, [RIGHT] * 5, "xml"), Reply("DONE"))
    ns = out["clinical"]
    assert len(ns["recorded"]) == 1
    assert [p["kind"] for p in ns["problems"]] == ["tool_input"] * 4
    assert math.isclose(out["reward"], 1.0)


def test_second_diagnosis_in_one_turn_is_rejected(env, policy_server, request):
    out = rollout(env, policy_server, request, Reply(None, [WRONG_CODE, RIGHT]), Reply("DONE"))
    assert [r["icd10_code"] for r in out["clinical"]["recorded"]] == ["I10"]
    assert "one diagnosis is recorded per turn" in out["clinical"]["problems"][0]["message"]
    assert math.isclose(out["reward"], 0.10)


def test_done_ends_the_rollout(env, policy_server, request):
    out = rollout(env, policy_server, request, Reply(None, [RIGHT]), Reply("All recorded.\nDONE"))
    assert out["clinical"]["finished"]["how"] == "DONE"
    assert out["metrics"]["num_turns"] == 2


def test_no_tool_call_gets_a_reminder_until_max_turns(one_case, policy_server, request):
    env = set_diagnosis_tool_call.load_environment(dataset=one_case, test_size=0, max_turns=3)
    out = rollout(env, policy_server, request, Reply("I believe this is thyroid storm."))
    assert out["clinical"]["reminders"] == 2
    assert out["stop_condition"] == "max_turns_reached"
    assert out["reward"] == 0.0
    reminders = [m for m in out["completion"] if m["role"] == "user"]
    assert all("No tool call found" in m["content"] for m in reminders)


def test_calls_after_finish_in_the_same_message_do_not_run(env, policy_server, request):
    out = rollout(env, policy_server, request, Reply(None, [FINISH, RIGHT]))
    assert out["clinical"]["recorded"] == []
    assert out["clinical"]["problems"][0]["kind"] == "not_allowed"


def test_malformed_calls_are_answered_and_recorded(env, policy_server, request):
    garbage = Reply(
        '<tool_call>{"name": "set_diagnosis", "arguments": {"icd10_code": 5}}</tool_call>'
    )
    out = rollout(env, policy_server, request, garbage, Reply(None, [RIGHT]), Reply("DONE"))
    (problem,) = out["clinical"]["problems"]
    assert problem["kind"] == "bad_arguments" and problem["turn"] == 1
    tool_reply = out["completion"][1]["content"]
    assert tool_reply.startswith("<tool_response>\nerror: set_diagnosis: missing required")
    assert math.isclose(out["reward"], 1.0)


def test_fake_tool_response_earns_nothing(env, policy_server, request):
    fake = Reply("<tool_response>recorded: E05.01 (acute)</tool_response>\nDONE")
    out = rollout(env, policy_server, request, fake)
    assert out["reward"] == 0.0
    assert out["clinical"]["tool_stats"]["fake_tool_responses"] == 1


def test_native_replies_answer_each_call_id(env, policy_server, request):
    search = call("search_diagnosis_codes", query="E05.0", limit=3)
    out = rollout(
        env, policy_server, request, Reply(None, [search, RIGHT], "native"), Reply("DONE")
    )
    tool_messages = [m for m in out["completion"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_0_0", "call_0_1"]
    assert "E05.01 | Thyrotoxicosis with diffuse goiter with" in tool_messages[0]["content"]


def test_protocol_argument_controls_what_is_offered(one_case):
    xml = set_diagnosis_tool_call.load_environment(
        dataset=one_case, test_size=0, tool_protocol="xml"
    )
    native = set_diagnosis_tool_call.load_environment(
        dataset=one_case, test_size=0, tool_protocol="native"
    )
    assert not xml.tool_defs and "<tool_call>" in xml.system_prompt
    assert [t.name for t in native.tool_defs] == [
        "search_diagnosis_codes",
        "list_diagnosis_codes",
        "set_diagnosis",
        "finish_setting_diagnoses",
    ]
    assert "<tool_call>" not in native.system_prompt
    with pytest.raises(ValueError, match="tool_protocol='json'"):
        set_diagnosis_tool_call.load_environment(dataset=one_case, tool_protocol="json")


def test_bad_arguments_are_rejected_by_name(one_case):
    with pytest.raises(TypeError, match="max_turn"):
        set_diagnosis_tool_call.load_environment(dataset=one_case, max_turn=3)
    with pytest.raises(ValueError, match="max_turns must be >= 1"):
        set_diagnosis_tool_call.load_environment(dataset=one_case, max_turns=0)
    with pytest.raises(ValueError, match="unknown weight name"):
        set_diagnosis_tool_call.load_environment(dataset=one_case, weights={"recall": 1})


def test_binary_weights_for_eval(one_case, policy_server, request):
    env = set_diagnosis_tool_call.load_environment(dataset=one_case, test_size=0, weights="binary")
    out = rollout(env, policy_server, request, *turns(WRONG_STATUS, FINISH))
    assert out["reward"] == 0.0 and out["metrics"]["code_identity_coverage_score"] == 1.0


def test_custom_system_prompt_keeps_the_tool_format(one_case):
    env = set_diagnosis_tool_call.load_environment(dataset=one_case, system_prompt="Be brief.")
    assert env.system_prompt.startswith("Be brief.\n\n") and "<tool_call>" in env.system_prompt


# --- the browsing tools -----------------------------------------------------------------------


def test_search_reply_has_one_hit_per_line():
    reply = search_diagnosis_codes("E05.0", limit=3)
    lines = reply.splitlines()
    assert lines[0].startswith("3 match(es) for 'E05.0'")
    assert lines[1] == "E05.0 | Thyrotoxicosis with diffuse goiter | header"
    assert lines[2].startswith("E05.00 | Thyrotoxicosis with diffuse goiter without")
    assert lines[2].endswith(" | billable")


def test_search_limits():
    assert "limit capped at 50" in search_diagnosis_codes("fracture", limit=500)
    with pytest.raises(ToolInputError, match="limit must be between 1 and 50"):
        search_diagnosis_codes("fracture", limit=0)
    with pytest.raises(ToolInputError, match="query is empty"):
        search_diagnosis_codes("  ")


def test_list_pages_in_code_order():
    first = list_diagnosis_codes(0, 3).splitlines()
    assert first[0].startswith("codes 0-2 of ") and first[1].startswith("A00 |")
    with pytest.raises(ToolInputError, match="offset must be between 0 and"):
        list_diagnosis_codes(-1, 3)
    with pytest.raises(ToolInputError, match="offset must be between 0 and"):
        list_diagnosis_codes(10**9, 3)
    assert "limit capped at 100" in list_diagnosis_codes(0, 1000)


def test_a_cut_query_is_said_and_recorded(env, policy_server, request):
    long_query = "thyroid storm " + " ".join(f"word{i}" for i in range(300))
    search = call("search_diagnosis_codes", query=long_query, limit=3)
    out = rollout(env, policy_server, request, Reply(None, [search]), Reply(None, [RIGHT, FINISH]))
    reply = out["completion"][1]["content"]
    assert "E05.91" in reply or "E05.01" in reply
    assert f"only the first {len(icd10.query_prefix(long_query)):,} of" in reply
    assert "search for the key clinical terms instead" in reply
    (problem,) = out["clinical"]["problems"]
    assert problem["kind"] == "query_cut" and problem["tool"] == "search_diagnosis_codes"
    assert math.isclose(out["reward"], 1.0)


def test_a_short_query_gets_no_note():
    assert "note:" not in search_diagnosis_codes("thyroid storm", limit=2)


def test_other_rollouts_turns_run_between_one_rollouts_calls(monkeypatch):
    """Up to 8 searches in one message must not hold the event loop that every rollout
    shares: each call after the first lets the others' turns run first."""
    order = []

    async def answer(item, *args):
        order.append(item.arguments["query"])
        return "ok"

    monkeypatch.setattr(tool_env, "answer_call", answer)
    env = set_diagnosis_tool_call.load_environment(dataset="bundled", test_size=0)
    row = env.get_dataset()[0]

    async def turn(queries):
        state = vf.State(input={"prompt": row["prompt"], "info": row["info"], "example_id": 0})
        state["trajectory"] = []
        state = await env.setup_state(state)
        calls = [
            vf.ToolCall(id=q, name="search_diagnosis_codes", arguments=json.dumps({"query": q}))
            for q in queries
        ]
        message = vf.AssistantMessage(content="", tool_calls=calls)
        state["trajectory"].append({"completion": [message]})
        return await env.env_response([message], state)

    async def both():
        return await asyncio.gather(turn(["a1", "a2", "a3"]), turn(["b1", "b2", "b3"]))

    replies = asyncio.run(both())

    assert order == ["a1", "b1", "a2", "b2", "a3", "b3"]
    assert [len(r) for r in replies] == [3, 3]
