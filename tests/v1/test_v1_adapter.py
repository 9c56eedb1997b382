"""The v1 adapter without a model: how verifiers 0.4 finds it, its config, rows and tool gate."""

from __future__ import annotations

import importlib
import inspect

import pytest

from clinical_envs.compat import verifiers_api

pytestmark = pytest.mark.skipif(
    verifiers_api() != "v1",
    reason="needs verifiers>=0.4 (the v1 API); see scripts/compat_v1.sh",
)

ENVS = {
    "escalation-emergency": "EscalationEmergencyTaskset",
    "escalation-crisis": "EscalationCrisisTaskset",
    "escalation-defer": "EscalationDeferTaskset",
    "escalation-tool-use": "EscalationToolUseTaskset",
    "escalation-mix": "EscalationMixTaskset",
}
# load_environment arguments the v1 taskset does not take, and why: none today.
NOT_ON_V1: set[str] = set()


@pytest.mark.parametrize("env_id", sorted(ENVS))
def test_vf_eval_finds_one_taskset_and_the_scripted_user(env_id):
    from verifiers.v1.utils.loaders import environment_class, taskset_class

    from clinical_envs.v1.escalation import EscalationEnv

    assert taskset_class(env_id).__name__ == ENVS[env_id]
    assert environment_class(env_id) is EscalationEnv


@pytest.mark.parametrize("env_id", sorted(ENVS))
def test_taskset_fields_are_the_load_environment_arguments(env_id):
    """Same names and defaults, so a classic -a '{...}' becomes --env.taskset.<name> ..."""
    from verifiers.v1.utils.loaders import taskset_config_type

    module = importlib.import_module(env_id.replace("-", "_"))
    config_type = taskset_config_type(env_id)  # what vf-eval narrows --env.taskset to
    fields = config_type.model_fields
    for name, parameter in inspect.signature(module.load_environment).parameters.items():
        if name in NOT_ON_V1:
            continue
        assert name in fields, name
        assert fields[name].default == parameter.default, name
    assert fields["side"].default == "eval"


def _tasks(taskset_name: str, **config):
    from clinical_envs.v1 import escalation

    taskset = getattr(escalation, taskset_name)
    config_type = escalation.MixConfig if "Mix" in taskset_name else escalation.CorpusConfig
    return list(taskset(config_type(**config)))


def test_rows_carry_the_classic_info_and_open_with_the_user():
    (task,) = _tasks("EscalationToolUseTaskset", ids=["TUS-001"], split="all")
    info = task.data.info()
    assert info["scenario_id"] == "TUS-001" and info["corpus"] == "tool-use"
    assert info["expected_replies"] == 5 and task.data.prompt is None
    assert [d["name"] for d in info["tool_defs"]][:2] == ["run_symptom_checker", "book_appointment"]
    assert "<tool_call>" in task.data.system_prompt  # "both": the text format is documented
    (native,) = _tasks(
        "EscalationToolUseTaskset", ids=["TUS-001"], split="all", tool_protocol="native"
    )
    assert "<tool_call>" not in native.data.system_prompt
    (xml,) = _tasks("EscalationToolUseTaskset", ids=["TUS-001"], split="all", tool_protocol="xml")
    assert xml.data.tool_defs == [] and type(xml).toolsets(xml.config) == []


def test_side_picks_the_eval_or_the_training_rows():
    eval_ids = {t.data.scenario_id for t in _tasks("EscalationEmergencyTaskset")}
    train_ids = {t.data.scenario_id for t in _tasks("EscalationEmergencyTaskset", side="train")}
    assert eval_ids and train_ids and not eval_ids & train_ids
    variants = _tasks("EscalationEmergencyTaskset", side="train", variants_per_scenario=1)
    assert len(variants) == 2 * len(train_ids)


def test_weights_become_reward_weight_overrides():
    (task,) = _tasks(
        "EscalationEmergencyTaskset", ids=["MTR-001"], split="all", weights={"final_turn_score": 0}
    )
    weights = {f.__name__: f._vf_weight for f in task.hooks("reward")}
    assert weights["final_turn_score"] == 0.0 and weights["persistence_score"] == 0.45
    assert weights["mean_escalation_level"] == 0.0 and "judge_disagreement" not in weights
    with pytest.raises(ValueError, match="unknown weight name"):
        _tasks("EscalationEmergencyTaskset", weights={"nope": 1.0})


def test_bad_settings_fail_at_load_with_the_classic_message():
    with pytest.raises(ValueError, match="tool_protocol='smoke' is not one of"):
        _tasks("EscalationDeferTaskset", tool_protocol="smoke")
    with pytest.raises(ValueError, match="max_tool_rounds must be >= 0"):
        _tasks("EscalationDeferTaskset", max_tool_rounds=-1)
    with pytest.raises(ValueError, match="unknown corpus"):
        _tasks("EscalationMixTaskset", corpora={"surgery": 1.0})


def test_mix_rows_are_scored_by_their_own_corpus():
    tasks = _tasks("EscalationMixTaskset")
    assert {t.data.corpus for t in tasks} == {"emergency", "crisis-resource", "defer", "tool-use"}
    weights = {f.__name__: f._vf_weight for f in tasks[0].hooks("reward")}
    assert weights["escalation_reward"] == 1.0
    assert sum(weights.values()) == 1.0 and "safety_net_score" in weights


async def _gate(task, messages):
    import verifiers.v1 as vf

    request = vf.Request(messages=messages)
    return await task.gate_tool_calls(request)


def _assistant(*calls):
    import verifiers.v1 as vf

    return vf.AssistantMessage(
        content=None,
        tool_calls=[
            vf.ToolCall(id=f"c{i}", name=name, arguments=arguments)
            for i, (name, arguments) in enumerate(calls)
        ],
    )


def test_gate_answers_malformed_and_over_limit_calls_before_they_run():
    import asyncio

    import verifiers.v1 as vf

    (task,) = _tasks("EscalationToolUseTaskset", ids=["TUS-001"], split="all", max_tool_rounds=1)
    user = vf.UserMessage(content="help")
    good = ("run_symptom_checker", '{"symptoms": "weak arm"}')
    probe = vf.ToolMessage(tool_call_id="c0", content="")

    assert asyncio.run(_gate(task, [user, _assistant(good), probe])) is None  # it may run
    bad = asyncio.run(_gate(task, [user, _assistant(("run_symptom_checker", "{}")), probe]))
    assert bad.messages[-1].content == (
        "error: run_symptom_checker: missing required argument(s) symptoms"
    )
    earlier = [user, _assistant(good), vf.ToolMessage(tool_call_id="c0", content="ok")]
    late = asyncio.run(_gate(task, [*earlier, _assistant(good), probe]))
    assert late.messages[-1].content == (
        "error: run_symptom_checker was not run: tool limit for this turn reached; "
        "reply to the user"
    )
    # A finished reply starts a new turn: the rounds count again from zero.
    reply = vf.AssistantMessage(content="Call 911 now.")
    fresh = [*earlier, reply, vf.UserMessage(content="no"), _assistant(good), probe]
    assert asyncio.run(_gate(task, fresh)) is None


def test_toolset_serves_the_row_tools_with_the_classic_schemas():
    from mcp.server.mcpserver import MCPServer

    from clinical_envs.v1.tools import EscalationToolset, row_specs

    (task,) = _tasks("EscalationToolUseTaskset", ids=["TUS-001"], split="all")
    server = EscalationToolset(task.config.tools)
    import asyncio

    asyncio.run(server.setup_task(task.data))
    mcp = MCPServer("test")
    server.register(mcp)
    tools = {t.name: t for t in asyncio.run(mcp.list_tools())}
    specs = row_specs(task.data.scenario)
    assert list(tools) == list(specs)
    for name, spec in specs.items():
        assert tools[name].input_schema == spec.parameters
    result = asyncio.run(mcp.call_tool("book_appointment", {"slot": "next", "reason": "x"}))
    assert "Booked" in str(result)
