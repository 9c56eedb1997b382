"""set-diagnosis-tool-call on the v1 API: how vf-eval finds it, its config and rows, its tools,
and real rollouts of scripted transcripts.

The rollouts run verifiers 0.4's own machinery (taskset loading, the env's loop, the
interception server, the tool gate, stops, scoring) with the null harness's chat loop run in this
process (``inprocess_harness.py``), against the loopback policy server: milliseconds per
rollout, no uv, no network. The real null harness runs in ``test_v1_equivalence.py``.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import math
import os
import sys
from pathlib import Path

import pytest
from conftest import GOLD_CASES, KEY_VAR, call

from clinical_envs.compat import verifiers_api
from clinical_envs.policies import Reply, ScriptedPolicy

pytestmark = pytest.mark.skipif(
    verifiers_api() != "v1",
    reason="needs verifiers>=0.4 (the v1 API); see scripts/compat_v1.sh",
)
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the in-process harness

ENV_ID = "set-diagnosis-tool-call"
THYROID_STORM = json.loads(GOLD_CASES.read_text().splitlines()[0])
RIGHT = call("set_diagnosis", icd10_code="E05.01", description="thyroid storm", status="acute")
RIGHT_LOWER = call("set_diagnosis", icd10_code="e0501", description="storm", status="ACUTE")
WRONG_STATUS = call("set_diagnosis", icd10_code="E05.01", description="storm", status="chronic")
WRONG_CODE = call("set_diagnosis", icd10_code="I10", description="hypertension", status="chronic")
FINISH = call("finish_setting_diagnoses", reason="done")
SEARCH = call("search_diagnosis_codes", query="E05.0", limit=3)
PROTOCOLS = {"native": "both", "xml": "xml"}  # how the calls are sent -> the taskset's protocol


@pytest.fixture(scope="module")
def one_case(tmp_path_factory):
    path = tmp_path_factory.mktemp("cases") / "one.jsonl"
    path.write_text(json.dumps(THYROID_STORM) + "\n")
    return str(path)


def rollout(server, request, dataset, *replies, ok=True, **taskset):
    """One rollout of the first case of ``dataset`` answered by ``replies`` (a script: reply i
    answers model message i, or a policy); returns the finished ``vf.Trace``."""
    from verifiers.v1.clients import ModelContext
    from verifiers.v1.configs.client import EvalClientConfig
    from verifiers.v1.envs.single_agent.env import SingleAgentEnvConfig
    from verifiers.v1.utils.loaders import load_environment

    os.environ.setdefault(KEY_VAR, "test")
    name = request.node.name
    server.policies[name] = replies[0] if callable(replies[0]) else ScriptedPolicy(list(replies))
    config = SingleAgentEnvConfig.model_validate(
        {
            "taskset": {
                "id": ENV_ID,
                "dataset": dataset,
                "test_size": 0,
                # The in-process harness offers the tools itself: no tool server to start.
                "tools": {"url": "http://127.0.0.1:9/mcp"},
                **taskset,
            },
            "agent": {"harness": {"id": "inprocess_harness"}, "runtime": {"type": "subprocess"}},
        }
    )
    env = load_environment(config)
    ctx = ModelContext(
        model=name, client=EvalClientConfig(base_url=server.base_url, api_key_var=KEY_VAR)
    )

    async def run():
        async with env.serving():
            return await env.run_episode(next(iter(env.taskset)), ctx)

    (trace,) = asyncio.run(run()).traces
    assert trace.ok == ok and bool(trace.errors) != ok, trace.errors
    return trace


def turns(*calls, protocol="auto"):
    return [Reply(None, [c], protocol) for c in calls]


def ledger(trace):
    return trace.info["clinical"]


def roles(trace):
    return [m.role for m in trace.messages]


# --- how verifiers 0.4 finds and configures it ---------------------------------------------


def test_vf_eval_finds_one_taskset_and_the_env():
    import set_diagnosis_tool_call
    from verifiers.v1.utils.loaders import environment_class, taskset_class

    from clinical_envs.v1.diagnosis import SetDiagnosisEnv, SetDiagnosisTaskset

    assert taskset_class(ENV_ID) is SetDiagnosisTaskset
    assert environment_class(ENV_ID) is SetDiagnosisEnv
    assert set_diagnosis_tool_call.__all__ == [
        "load_environment",
        "SetDiagnosisEnv",
        "SetDiagnosisTaskset",
    ]


def test_taskset_fields_are_the_load_environment_arguments():
    """Same names and defaults, so a classic -a '{...}' becomes --env.taskset.<name> ..."""
    import set_diagnosis_tool_call
    from verifiers.v1.utils.loaders import taskset_config_type

    fields = taskset_config_type(ENV_ID).model_fields
    for name, parameter in inspect.signature(
        set_diagnosis_tool_call.load_environment
    ).parameters.items():
        assert name in fields, name
        assert fields[name].default == parameter.default, name
    assert fields["side"].default == "eval"


def _tasks(**config):
    from clinical_envs.v1.diagnosis import SetDiagnosisConfig, SetDiagnosisTaskset

    return list(SetDiagnosisTaskset(SetDiagnosisConfig(**config)))


def test_rows_carry_the_classic_prompt_and_info():
    from clinical_envs.diagnosis.prompts import SYSTEM_PROMPT, case_prompt

    task = _tasks(dataset=str(GOLD_CASES), test_size=0)[0]
    by_id = {c["id"]: c for c in map(json.loads, GOLD_CASES.read_text().splitlines())}
    case = by_id[task.data.name]
    assert task.data.prompt == case_prompt(case["input"])
    assert task.data.info["case_id"] == task.data.name and task.data.info["gold"]
    assert task.data.system_prompt.startswith(SYSTEM_PROMPT + "\n\n")
    assert "<tool_call>" in task.data.system_prompt  # "both": the text format is documented
    native = _tasks(dataset=str(GOLD_CASES), test_size=0, tool_protocol="native")[0]
    assert native.data.system_prompt == SYSTEM_PROMPT
    brief = _tasks(dataset=str(GOLD_CASES), test_size=0, system_prompt="Be brief.")[0]
    assert brief.data.system_prompt.startswith("Be brief.\n\nYou can call tools.")


def test_side_picks_the_eval_or_the_training_rows():
    eval_ids = {t.data.name for t in _tasks(dataset="bundled")}
    train_ids = {t.data.name for t in _tasks(dataset="bundled", side="train")}
    assert len(eval_ids) == 7 and len(train_ids) == 57 and not eval_ids & train_ids
    every = {t.data.name for t in _tasks(dataset="bundled", test_size=0)}
    assert every == eval_ids | train_ids


def test_tools_are_offered_unless_text_only():
    from clinical_envs.v1.diagnosis import SetDiagnosisConfig, SetDiagnosisTaskset
    from clinical_envs.v1.diagnosis_tools import SetDiagnosisToolset

    (server,) = SetDiagnosisTaskset.toolsets(SetDiagnosisConfig())
    assert isinstance(server, SetDiagnosisToolset)
    assert SetDiagnosisTaskset.toolsets(SetDiagnosisConfig(tool_protocol="xml")) == []


def test_weights_become_reward_weight_overrides():
    from clinical_envs.rewards.diagnosis import BINARY_WEIGHTS, DEFAULT_WEIGHTS

    def weights(**config):
        (task, *_) = _tasks(dataset=str(GOLD_CASES), **config)
        return {f.__name__: f._vf_weight for f in task.hooks("reward")}

    assert weights() == DEFAULT_WEIGHTS
    assert weights(weights="binary") == BINARY_WEIGHTS
    assert weights(weights={"precision_score": 0.5}) == DEFAULT_WEIGHTS | {"precision_score": 0.5}
    # --env.taskset.weights '{...}' arrives as text
    assert weights(weights='{"precision_score": 0.5}')["precision_score"] == 0.5
    with pytest.raises(ValueError, match="unknown weight name"):
        weights(weights={"recall": 1})
    with pytest.raises(ValueError, match="'strict' is not a preset"):
        weights(weights="strict")


def test_bad_settings_fail_at_load_with_the_classic_message():
    with pytest.raises(ValueError, match="tool_protocol='json' is not one of"):
        _tasks(dataset="bundled", tool_protocol="json")
    with pytest.raises(ValueError, match="max_turns must be >= 1"):
        _tasks(dataset="bundled", max_turns=0)
    with pytest.raises(ValueError, match="max_calls_per_turn must be >= 1"):
        _tasks(dataset="bundled", max_calls_per_turn=0)


def test_toolset_advertises_the_classic_tools_and_runs_none():
    from mcp.server.mcpserver import MCPServer

    from clinical_envs.diagnosis.tools import tool_specs
    from clinical_envs.v1.diagnosis import SetDiagnosisConfig, SetDiagnosisTaskset

    (server,) = SetDiagnosisTaskset.toolsets(SetDiagnosisConfig())
    mcp = MCPServer("test")
    server.register(mcp)
    tools = {t.name: t for t in asyncio.run(mcp.list_tools())}
    specs = tool_specs()
    assert list(tools) == list(specs)
    for name, spec in specs.items():
        assert tools[name].input_schema == spec.parameters
        assert tools[name].description == spec.description
    result = asyncio.run(mcp.call_tool("set_diagnosis", dict(RIGHT[1])))
    assert "error: set_diagnosis was not run" in str(result) and "tool gate" in str(result)


# --- rollouts ------------------------------------------------------------------------------


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
def test_the_classic_totals(policy_server, request, one_case, protocol, calls, expected):
    """The README's totals (the classic tests' table), with native and text calls."""
    trace = rollout(
        policy_server,
        request,
        one_case,
        *turns(*calls, protocol=protocol),
        tool_protocol=PROTOCOLS[protocol],
    )
    assert math.isclose(trace.reward, expected), trace.rewards
    assert trace.stop_condition == "finished"
    assert trace.num_turns == len(calls)  # no model call after the finish
    assert ledger(trace)["finished"]["how"] == "tool"
    assert ledger(trace)["tool_stats"][protocol if protocol == "native" else "text"] == len(calls)


def test_sub_scores_are_the_classic_rewards_with_their_weights(policy_server, request, one_case):
    from clinical_envs.rewards.diagnosis import DEFAULT_WEIGHTS

    trace = rollout(policy_server, request, one_case, *turns(WRONG_STATUS, FINISH))
    assert {k: (r.score, r.weight) for k, r in trace.rewards.items()} == {
        "coverage_score": (0.0, DEFAULT_WEIGHTS["coverage_score"]),
        "precision_score": (0.0, DEFAULT_WEIGHTS["precision_score"]),
        "code_identity_coverage_score": (1.0, DEFAULT_WEIGHTS["code_identity_coverage_score"]),
        "code_identity_precision_score": (1.0, DEFAULT_WEIGHTS["code_identity_precision_score"]),
        "json_valid_score": (1.0, DEFAULT_WEIGHTS["json_valid_score"]),
        "num_unique_diagnoses_score": (1.0, DEFAULT_WEIGHTS["num_unique_diagnoses_score"]),
    }
    assert trace.metrics == {"num_turns": 2.0}


def test_binary_weights(policy_server, request, one_case):
    trace = rollout(
        policy_server, request, one_case, *turns(WRONG_STATUS, FINISH), weights="binary"
    )
    assert trace.reward == 0.0 and trace.rewards["code_identity_coverage_score"].score == 1.0


@pytest.mark.parametrize("protocol", ["native", "xml"])
def test_one_message_with_five_calls_records_one(policy_server, request, one_case, protocol):
    trace = rollout(
        policy_server,
        request,
        one_case,
        Reply(None, [RIGHT] * 5, protocol),
        Reply("DONE"),
        tool_protocol=PROTOCOLS[protocol],
    )
    assert len(ledger(trace)["recorded"]) == 1
    assert [p["kind"] for p in ledger(trace)["problems"]] == ["tool_input"] * 4
    assert math.isclose(trace.reward, 1.0)
    assert ledger(trace)["finished"]["how"] == "DONE" and trace.stop_condition == "finished"


def test_done_ends_the_rollout(policy_server, request, one_case):
    trace = rollout(
        policy_server, request, one_case, Reply(None, [RIGHT]), Reply("All recorded.\nDONE")
    )
    assert ledger(trace)["finished"] == {"turn": 2, "how": "DONE", "reason": ""}
    assert trace.num_turns == 2 and trace.stop_condition == "finished"


def test_done_beside_a_native_call_runs_the_call_then_ends(policy_server, request, one_case):
    trace = rollout(policy_server, request, one_case, Reply("DONE", [RIGHT], "native"))
    assert math.isclose(trace.reward, 1.0) and trace.num_turns == 1
    assert ledger(trace)["finished"]["how"] == "DONE"


def test_no_tool_call_gets_a_reminder_until_max_turns(policy_server, request, one_case):
    from clinical_envs.diagnosis.prompts import REMINDER

    trace = rollout(
        policy_server, request, one_case, Reply("I believe this is thyroid storm."), max_turns=3
    )
    assert ledger(trace)["reminders"] == 2
    assert trace.stop_condition == "turn_limit" and trace.num_turns == 3
    assert trace.reward == 0.0
    users = [m.content for m in trace.messages if m.role == "user"][1:]
    assert users == [REMINDER, REMINDER]


def test_a_call_at_the_turn_limit_is_not_acted_on(policy_server, request, one_case):
    """As in classic: the message that reaches max_turns ends the rollout unanswered."""
    trace = rollout(
        policy_server, request, one_case, Reply("thinking"), Reply(None, [RIGHT]), max_turns=2
    )
    assert ledger(trace)["recorded"] == [] and trace.reward == 0.0
    assert ledger(trace)["tool_stats"]["calls"] == 0 and ledger(trace)["reminders"] == 1
    assert trace.stop_condition == "turn_limit"


@pytest.mark.parametrize("protocol", ["native", "xml"])
def test_calls_after_finish_in_the_same_message_do_not_run(
    policy_server, request, one_case, protocol
):
    trace = rollout(
        policy_server,
        request,
        one_case,
        Reply(None, [FINISH, RIGHT], protocol),
        Reply(None, [RIGHT], protocol),
        tool_protocol=PROTOCOLS[protocol],
    )
    assert ledger(trace)["recorded"] == []
    (problem,) = ledger(trace)["problems"]
    assert problem["kind"] == "not_allowed" and problem["tool"] == "set_diagnosis"
    assert trace.num_turns == 1 and trace.stop_condition == "finished"


def test_malformed_text_call_is_answered_and_recorded(policy_server, request, one_case):
    garbage = Reply(
        '<tool_call>{"name": "set_diagnosis", "arguments": {"icd10_code": 5}}</tool_call>'
    )
    trace = rollout(policy_server, request, one_case, garbage, Reply(None, [RIGHT]), Reply("DONE"))
    (problem,) = ledger(trace)["problems"]
    assert problem["kind"] == "bad_arguments" and problem["turn"] == 1
    answer = trace.messages[3]
    assert answer.role == "user"
    assert answer.content.startswith("<tool_response>\nerror: set_diagnosis: missing required")
    assert math.isclose(trace.reward, 1.0)


def test_malformed_native_calls_are_answered_and_recorded(policy_server, request, one_case):
    broken = ("set_diagnosis", '{"icd10_code": "E05.01", ')
    trace = rollout(
        policy_server,
        request,
        one_case,
        Reply(None, [broken, call("no_such_tool")], "native"),
        Reply(None, [RIGHT]),
        Reply("DONE"),
    )
    kinds = [(p["kind"], p["tool"]) for p in ledger(trace)["problems"]]
    assert kinds == [("bad_json", "set_diagnosis"), ("unknown_tool", "no_such_tool")]
    results = [m.content for m in trace.messages if m.role == "tool"]
    assert results[0].startswith("error: set_diagnosis: arguments are not valid JSON")
    assert results[1].startswith("error: unknown tool 'no_such_tool'; available: search_")
    assert results[2].startswith("recorded: E05.01 (acute)")
    assert math.isclose(trace.reward, 1.0)


def test_native_results_answer_each_call_id_and_note_ignored_text(policy_server, request, one_case):
    text_call = '<tool_call>{"name": "list_diagnosis_codes", "arguments": {}}</tool_call>'
    trace = rollout(
        policy_server, request, one_case, Reply(text_call, [SEARCH, RIGHT], "native"), Reply("DONE")
    )
    assistant, *results = trace.messages[2:5]
    assert [r.tool_call_id for r in results] == [c.id for c in assistant.tool_calls]
    assert "E05.01 | Thyrotoxicosis with diffuse goiter with" in results[0].content
    assert results[1].content.endswith(
        "(note: 1 <tool_call> text block(s) in the same message were not run, because it also "
        "had native tool calls)"
    )
    assert ledger(trace)["tool_stats"]["ignored_text_blocks"] == 1


def test_fake_tool_response_earns_nothing(policy_server, request, one_case):
    fake = Reply("<tool_response>recorded: E05.01 (acute)</tool_response>\nDONE")
    trace = rollout(policy_server, request, one_case, fake)
    assert trace.reward == 0.0 and ledger(trace)["tool_stats"]["fake_tool_responses"] == 1


def test_a_cut_query_is_said_and_recorded(policy_server, request, one_case):
    from clinical_envs import icd10

    long_query = "thyroid storm " + " ".join(f"word{i}" for i in range(300))
    search = call("search_diagnosis_codes", query=long_query, limit=3)
    trace = rollout(
        policy_server, request, one_case, Reply(None, [search]), Reply(None, [RIGHT, FINISH])
    )
    reply = trace.messages[3].content
    assert f"only the first {len(icd10.query_prefix(long_query)):,} of" in reply
    (problem,) = ledger(trace)["problems"]
    assert problem["kind"] == "query_cut" and problem["tool"] == "search_diagnosis_codes"
    assert math.isclose(trace.reward, 1.0)


def test_module_exports_follow_the_api():
    module = importlib.import_module("set_diagnosis_tool_call")
    assert "vf-eval" in module.__doc__ and "--env.taskset.dataset bundled" in module.__doc__


def test_a_failed_rollout_earns_nothing(policy_server, request, one_case):
    """The endpoint fails after a right diagnosis was recorded: the rollout fails closed."""
    from clinical_envs.policies import ServerFault

    def policy(chat):
        if chat.assistant_turns:
            raise ServerFault(400)
        return Reply(None, [RIGHT])

    trace = rollout(policy_server, request, one_case, policy, ok=False)
    assert ledger(trace)["recorded"] and trace.reward == 0.0
