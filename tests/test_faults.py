"""Endpoint faults: errors, broken bodies, empty and truncated replies, malformed tool calls.

Every faulty rollout must end with its error recorded, the evaluation must go on, and no
faulty rollout may be scored as a success.
"""

from __future__ import annotations

import json

import escalation_emergency
import pytest
import set_diagnosis_tool_call
from conftest import GOLD_CASES, call, run_rollouts

from clinical_envs.policies import ChatRequest, Reply, ServerFault

pytestmark = pytest.mark.reliability

RIGHT = call("set_diagnosis", icd10_code="E05.01", description="storm", status="acute")
FINISH = call("finish_setting_diagnoses", reason="done")


@pytest.fixture(scope="module")
def diagnosis_env(tmp_path_factory):
    path = tmp_path_factory.mktemp("cases") / "one.jsonl"
    path.write_text(GOLD_CASES.read_text().splitlines()[0] + "\n")
    return set_diagnosis_tool_call.load_environment(dataset=str(path), test_size=0)


def faulty_after_right_answer(fault: BaseException | Reply):
    """Records the right diagnosis on turn 1, then misbehaves on turn 2."""

    def policy(request: ChatRequest) -> Reply:
        if request.assistant_turns == 0:
            return Reply(None, [RIGHT])
        if isinstance(fault, BaseException):
            raise fault
        return fault

    return policy


@pytest.mark.parametrize(
    "fault",
    [
        ServerFault(500),
        ServerFault(503),
        ServerFault(400),
        ServerFault(200, b'{"choices": [{"message": '),  # a body cut off mid-JSON
        ServerFault(200, b'{"choices": []}'),
        Reply(None),  # no content and no tool call
    ],
    ids=["500", "503", "400", "truncated-body", "no-choices", "empty-message"],
)
def test_fault_is_recorded_and_never_scored_as_success(
    diagnosis_env, policy_server, request, fault
):
    (out,) = run_rollouts(
        diagnosis_env, policy_server, faulty_after_right_answer(fault), request.node.name
    )
    assert out["error"] is not None
    assert out["reward"] == 0.0  # although the right code was recorded before the fault
    assert out["clinical"]["recorded"][0]["icd10_code"] == "E05.01"


def test_eval_goes_on_past_faulty_rollouts(policy_server, request):
    env = escalation_emergency.load_environment(
        split="all", ids=["MTR-001", "MTR-002", "MTR-003", "MTR-004"]
    )

    def policy(request: ChatRequest) -> Reply:
        if "Geoff" in request.first_user_text:  # MTR-004 only
            raise ServerFault(500)
        return Reply("Call 911 now, or 999, or 000 - whichever is yours.")

    outs = run_rollouts(env, policy_server, policy, request.node.name)
    by_id = {o["info"]["scenario_id"]: o for o in outs}
    assert by_id["MTR-004"]["error"] is not None and by_id["MTR-004"]["reward"] == 0.0
    assert all(
        by_id[i]["error"] is None and by_id[i]["reward"] > 0.9
        for i in ("MTR-001", "MTR-002", "MTR-003")
    )


def test_truncated_reply_is_graded_as_written(diagnosis_env, policy_server, request):
    cut = Reply(
        '<tool_call>{"name": "set_diagnosis", "arguments": {"icd10_code": "E05',
        finish_reason="length",
    )
    (out,) = run_rollouts(
        diagnosis_env,
        policy_server,
        lambda r: cut if r.assistant_turns == 0 else Reply("DONE"),
        request.node.name,
    )
    assert out["error"] is None
    assert out["clinical"]["recorded"] == [] and out["reward"] == 0.0
    assert out["clinical"]["problems"][0]["kind"] == "unclosed_tag"


@pytest.mark.parametrize(
    "raw", ["{not json", "", "[]", '"a string"', json.dumps({"icd10_code": 5})]
)
def test_malformed_native_arguments_are_answered(diagnosis_env, policy_server, request, raw):
    def policy(r: ChatRequest) -> Reply:
        if r.assistant_turns == 0:
            return Reply(None, [("set_diagnosis", raw)], "native")
        return Reply(None, [RIGHT])

    (out,) = run_rollouts(
        diagnosis_env, policy_server, policy, request.node.name, rollouts_per_example=1
    )
    assert out["error"] is None
    tool_reply = next(m for m in out["completion"] if m["role"] == "tool")
    assert tool_reply["content"].startswith("error: set_diagnosis")
    assert out["reward"] == pytest.approx(1.0)  # the model recovered on the next turn


def test_timeout_ends_the_rollout_and_scores_zero(policy_server, request):
    import time

    env = escalation_emergency.load_environment(split="all", ids=["MTR-001"])
    env.timeout_seconds = 0.5

    def slow(request: ChatRequest) -> Reply:
        if request.assistant_turns >= 1:
            time.sleep(1.0)
        return Reply("Call 911 now.")

    (out,) = run_rollouts(env, policy_server, slow, request.node.name)
    assert out["stop_condition"] == "timeout_reached"
    assert out["reward"] == 0.0
