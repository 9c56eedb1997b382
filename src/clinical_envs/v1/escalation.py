"""The escalation environments on verifiers 0.4's v1 API: tasksets, tasks and the scripted user.

Same rows, same conversation, same grades, same rewards as the classic environments
(:mod:`clinical_envs.envs.escalation`); both are thin adapters over :mod:`clinical_envs.dialogue`
(rows, tools, pressure turns, per-turn grading), :mod:`clinical_envs.tooluse` (tool-call
bookkeeping) and :mod:`clinical_envs.rewards` (every score).

* A row is an :class:`EscalationData` (the classic row's ``info`` fields plus the scenario
  itself); the user opens the conversation (``prompt=None``).
* :class:`EscalationEnv` plays the scripted user: the scenario's first message, then the next
  pressure turn after every reply. Each reply is graded with the classic ``grade_reply`` and
  kept in ``trace.info["reply_grades"]``; tool counters and problems in
  ``trace.info["clinical"]``, as the classic ``state["clinical"]``.
* Tool calls: native calls go to :class:`clinical_envs.v1.tools.EscalationToolset` over MCP,
  gated before execution by :meth:`EscalationTask.gate_tool_calls` (malformed calls and calls
  past the turn's tool rounds get the classic ``error: ...`` result instead of running);
  ``<tool_call>`` text blocks are parsed with the same core parser and answered in the loop
  with a ``<tool_response>`` user message, as the classic environment does.
* Scores: one ``@vf.reward`` per classic rubric function, calling the same function with the
  same weight (weight 0 for the classic diagnostics), so ``trace.rewards`` holds the classic
  metrics and ``trace.reward`` equals the classic reward. ``weights`` becomes per-reward weight
  overrides in the task config.

Which rows: ``side="eval"`` (the default, what ``vf-eval`` should measure) takes the eval
split, ``side="train"`` the training rows (variants included); the classic ``split`` argument
keeps its meaning (how scenarios are divided, "condition" or "all").
"""

from __future__ import annotations

import inspect
from abc import abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal

import verifiers.v1 as vf
from pydantic import Field

from clinical_envs.dialogue import (
    DEFAULT_MAX_TOOL_ROUNDS,
    Plan,
    check_plan,
    check_turn_settings,
    corpus_plan,
    finish_turn,
    max_model_turns,
    mix_metrics,
    mix_plan,
    next_user_message,
    pending_turn,
    refuse_or_record,
    row_info,
    scenario_from_wire,
    scenario_wire,
    start_rollout,
    system_prompt,
    tool_limit,
)
from clinical_envs.judge import Judge, JudgeSettings, judge_disagreement, judge_settings
from clinical_envs.rewards import override_weights
from clinical_envs.rewards.corpora import corpus_rubric
from clinical_envs.rewards.escalation import mean_escalation_level
from clinical_envs.scenarios import Scenario
from clinical_envs.toolcalls import (
    CallProblem,
    ToolCall,
    ToolSpec,
    message_text,
    parse_turn,
    reply_text,
)
from clinical_envs.tooluse import (
    STATE_KEY,
    ToolFailure,
    answer_call,
    check_protocol,
    count_calls,
    ignored_note,
    new_namespace,
    record_executed,
    record_problem,
    text_responses,
    tool_prompt,
)
from clinical_envs.v1.gate import call_origin
from clinical_envs.v1.settings import ToolLoopSettings
from clinical_envs.v1.stops import SequenceLimit
from clinical_envs.v1.tools import EscalationToolset, row_specs

Side = Literal["train", "eval"]
JUDGE_CACHE = "~/.cache/clinical-envs/judge-verdicts.sqlite"


class EscalationData(vf.TaskData):
    """One row: the classic row's ``info`` fields, the scenario, and the rollout's turn cap."""

    scenario_id: str
    corpus: str
    condition: str
    locale: str
    required_level: int
    expected_replies: int
    severity_weight: float
    tool_defs: list[dict[str, Any]] = Field(default_factory=list)
    scenario: dict[str, Any]
    """The scenario as :func:`clinical_envs.dialogue.scenario_wire` writes it."""
    max_model_turns: int
    """Model messages the rollout may take (the classic environment's ``max_turns``)."""

    def info(self) -> dict[str, Any]:
        """The classic row's ``info`` (what the pure reward functions read)."""
        return self.model_dump(
            include={
                "scenario_id",
                "corpus",
                "condition",
                "locale",
                "required_level",
                "expected_replies",
                "severity_weight",
                "tool_defs",
            }
        )


class RolloutSettings(ToolLoopSettings):
    """The shared knobs, the tool rounds of a turn, and the grader."""

    max_tool_rounds: int = DEFAULT_MAX_TOOL_ROUNDS
    grader: str = "rules"
    judge_model: str | None = None
    judge_base_url: str | None = None
    judge_api_key_var: str = "OPENAI_API_KEY"
    judge_max_concurrency: int = 32
    judge_timeout_s: float = 60.0
    judge_cache: str | None = JUDGE_CACHE

    def judge(self) -> JudgeSettings | None:
        return judge_settings(
            self.grader,
            self.judge_model,
            self.judge_base_url,
            self.judge_api_key_var,
            self.judge_max_concurrency,
            self.judge_timeout_s,
            self.judge_cache,
        )


class EscalationTaskConfig(vf.TaskConfig, RolloutSettings):
    """Run-time knobs of a rollout. The taskset sets every field except ``tools`` from its own
    fields of the same names, so set them there."""

    tools: vf.ToolsetConfig = vf.ToolsetConfig()


class EscalationTask(SequenceLimit, vf.Task[EscalationData, vf.State, EscalationTaskConfig]):
    """Scores, the tool gate and the turn cap of one row (rewards: see the subclasses)."""

    DEFAULT_WEIGHTS: ClassVar[dict[str, float]] = {}
    """The classic rubric's weights by function name (diagnostics absent: weight 0)."""

    @classmethod
    def toolsets(cls, config: EscalationTaskConfig) -> list[vf.Toolset]:
        if config.tool_protocol == "xml":
            return []
        return [EscalationToolset(config.tools)]

    def hooks(self, attr: str) -> list[Callable[..., Any]]:
        """The judge diagnostic is a sub-score only when a judge grades (as in classic)."""
        fns = super().hooks(attr)
        if attr == "reward" and self.config.grader == "rules":
            fns = [f for f in fns if f.__name__ != judge_disagreement.__name__]
        return fns

    def specs(self) -> dict[str, ToolSpec]:
        """The row's tools (built once per task object)."""
        cached = self.__dict__.get("_specs")
        if cached is None:
            cached = self.__dict__["_specs"] = row_specs(self.data.scenario)
        return cached

    @vf.intercept
    async def gate_tool_calls(self, request: vf.Request) -> vf.Request | None:
        """Before a native call runs (its result still empty), answer a malformed call or one
        past the turn's tool rounds with the classic ``error: ...`` text, so it never runs;
        after the calls ran, add the classic note about ignored text blocks."""
        messages = request.messages
        origin = call_origin(messages)
        if origin is None:
            return None
        result, position, k = messages[-1], origin.position, origin.index
        parsed = parse_turn(origin.issuer, self.specs(), self.config.max_calls_per_turn)
        if position >= len(parsed.items):
            return None
        content = message_text(result.content)
        text = content
        if content == "":  # the pre-execution probe: decide whether the call may run
            verdict = self._verdict(parsed.items[position], messages[:k])
            if verdict is None:
                return None
            text = verdict
        if position == len(parsed.items) - 1 and parsed.ignored_text_blocks:
            note = ignored_note(parsed.ignored_text_blocks)
            if not text.endswith(note):
                text += note
        if text == content:
            return None
        replaced = result.model_copy(update={"content": text})
        return request.model_copy(update={"messages": [*messages[:-1], replaced]})

    def _verdict(self, item: ToolCall | CallProblem, before: Sequence[Any]) -> str | None:
        if isinstance(item, CallProblem):
            return f"error: {item.message}"
        refused = tool_limit(item.name, self._rounds_before(before), self.config.max_tool_rounds)
        return None if refused is None else f"error: {refused}"

    def _rounds_before(self, messages: Sequence[Any]) -> int:
        """Tool rounds already used in the current turn: the assistant messages with calls
        since the last one without (the last finished reply)."""
        rounds = 0
        for message in reversed(messages):
            if not isinstance(message, vf.AssistantMessage):
                continue
            parsed = parse_turn(message, self.specs(), self.config.max_calls_per_turn)
            if not parsed.items:
                break
            rounds += 1
        return rounds

    @vf.stop
    async def turn_limit(self, trace: vf.Trace) -> bool:
        """The classic environment's ``max_turns``: every reply with all its tool rounds."""
        return trace.num_turns >= self.data.max_model_turns

    @vf.metric
    async def replies_graded(self, trace: vf.Trace) -> float:
        return float(len(trace.info.get("reply_grades") or []))

    @vf.metric
    async def tool_calls(self, trace: vf.Trace) -> float:
        return float(_stats(trace).get("calls", 0))

    @vf.metric
    async def tool_problems(self, trace: vf.Trace) -> float:
        return float(_stats(trace).get("problems", 0))


def _stats(trace: vf.Trace) -> Mapping[str, Any]:
    return (trace.info.get(STATE_KEY) or {}).get("tool_stats") or {}


def _reward(func: Callable[..., float], weight: float) -> Callable[..., Any]:
    """A ``@vf.reward`` method calling the pure classic reward function ``func`` with the
    classic arguments (``state`` holds the reply grades, ``info`` the row's info). Fails
    closed like the classic rubric: 0.0 for a rollout that ended in an error or a timeout."""
    wanted = set(inspect.signature(func).parameters)

    async def score(self: EscalationTask, trace: vf.Trace) -> float:
        if trace.errors or trace.is_timeout:
            return 0.0
        arguments: dict[str, Any] = {}
        if "state" in wanted:
            arguments["state"] = {"reply_grades": trace.info.get("reply_grades") or []}
        if "info" in wanted:
            arguments["info"] = self.data.info()
        return float(func(**arguments))

    score.__name__ = func.__name__
    score.__qualname__ = func.__name__
    score.__doc__ = func.__doc__
    return vf.reward(score, weight=weight)


def _task_class(name: str, funcs: Sequence[Callable[..., float]], weights: Mapping[str, float]):
    diagnostics = (mean_escalation_level, judge_disagreement)
    body: dict[str, Any] = {
        f.__name__: _reward(f, weights.get(f.__name__, 0.0)) for f in (*funcs, *diagnostics)
    }
    body["DEFAULT_WEIGHTS"] = dict(weights)
    body["__module__"] = __name__
    body["__qualname__"] = name
    body["__doc__"] = f"A row of {name.removesuffix('Task')}: the classic rubric as rewards."
    return type(name, (EscalationTask,), body)


EmergencyTask = _task_class("EmergencyTask", *corpus_rubric("emergency"))
CrisisTask = _task_class("CrisisTask", *corpus_rubric("crisis-resource"))
DeferTask = _task_class("DeferTask", *corpus_rubric("defer"))
ToolUseTask = _task_class("ToolUseTask", *corpus_rubric("tool-use"))
MixTask = _task_class("MixTask", mix_metrics(), {"escalation_reward": 1.0})


class TurnSettings(vf.TasksetConfig, RolloutSettings):
    """What every escalation taskset shares with its classic ``load_environment``."""

    task: EscalationTaskConfig = EscalationTaskConfig()
    side: Side = "eval"
    """Which rows: "eval" (the held-out split) or "train" (training rows, with variants)."""
    variants_per_scenario: int = 0
    seed: int = 42
    split: str = "condition"
    eval_conditions: list[str] | None = None


class CorpusConfig(TurnSettings):
    """One corpus's taskset: the arguments of its classic ``load_environment``."""

    scenarios: str | list[str] | None = None
    ids: list[str] | None = None
    weights: dict[str, float] | None = None


class MixConfig(TurnSettings):
    """escalation-mix's taskset: the arguments of its classic ``load_environment``."""

    corpora: dict[str, float] | None = None
    size: int | None = None


class _EscalationTasks:
    """``load()`` shared by the escalation tasksets (mixed into each ``vf.Taskset``, whose
    generic parameters give ``task_type()`` and the config type)."""

    config: Any
    task_type: Callable[[], type[EscalationTask]]

    @abstractmethod
    def plan(self) -> Plan:
        """The environment's scenarios and rows (as the classic ``load_environment`` builds)."""

    def weights(self, defaults: Mapping[str, float]) -> dict[str, float]:
        """The reward weights: the classic defaults, or the taskset's overrides of them."""
        return dict(defaults)

    def task_config(self) -> EscalationTaskConfig:
        """The task config: the taskset's turn settings, and its weights as overrides."""
        c = self.config
        check_protocol(c.tool_protocol, c.max_calls_per_turn)
        judge = c.judge()
        check_turn_settings(c.max_tool_rounds, c.grader, judge is not None)
        task_cls = self.task_type()
        table = self.weights(task_cls.DEFAULT_WEIGHTS)
        rewards = dict(c.task.rewards)
        for name, weight in table.items():
            if weight != task_cls.DEFAULT_WEIGHTS.get(name) and name not in rewards:
                rewards[name] = vf.RewardFunctionConfig(weight=weight)
        update = {name: getattr(c, name) for name in RolloutSettings.model_fields}
        update["rewards"] = rewards
        return c.task.model_copy(update=update)

    def load(self) -> Iterable[EscalationTask]:
        task_config = self.task_config()
        plan = self.plan()
        check_plan(plan.scenarios, plan.schedule, plan.eval_schedule)
        by_id = {s.id: s for s in plan.scenarios}
        limit = max_model_turns(plan.scenarios, task_config.max_tool_rounds)
        rows = plan.schedule if self.config.side == "train" else plan.eval_schedule
        task_cls = self.task_type()
        for sid in rows:
            yield task_cls(row(by_id[sid], task_config.tool_protocol, limit), task_config)


def row(scenario: Scenario, tool_protocol: str, limit: int) -> EscalationData:
    """The v1 row of ``scenario`` (system prompt and info as the classic row)."""
    wire = scenario_wire(scenario)
    specs = row_specs(wire)
    info = row_info(scenario, specs, tool_protocol)
    return EscalationData(
        name=scenario.id,
        prompt=None,
        system_prompt=system_prompt(scenario, tool_prompt(tool_protocol, specs)),
        scenario=wire,
        max_model_turns=limit,
        **info,
    )


def _corpus_taskset(corpus: str, task: type[EscalationTask], name: str, doc: str) -> type:
    class CorpusTaskset(_EscalationTasks, vf.Taskset[task, CorpusConfig]):  # type: ignore[valid-type]
        def plan(self) -> Plan:
            c = self.config
            return corpus_plan(
                corpus,
                c.scenarios,
                c.ids,
                c.split,
                c.eval_conditions,
                c.variants_per_scenario,
                c.seed,
            )

        def weights(self, defaults: Mapping[str, float]) -> dict[str, float]:
            return override_weights(defaults, self.config.weights)

    CorpusTaskset.__name__ = CorpusTaskset.__qualname__ = name
    CorpusTaskset.__doc__ = doc
    return CorpusTaskset


EscalationEmergencyTaskset = _corpus_taskset(
    "emergency", EmergencyTask, "EscalationEmergencyTaskset", "escalation-emergency on v1."
)
EscalationCrisisTaskset = _corpus_taskset(
    "crisis-resource", CrisisTask, "EscalationCrisisTaskset", "escalation-crisis on v1."
)
EscalationDeferTaskset = _corpus_taskset(
    "defer", DeferTask, "EscalationDeferTaskset", "escalation-defer on v1."
)
EscalationToolUseTaskset = _corpus_taskset(
    "tool-use", ToolUseTask, "EscalationToolUseTaskset", "escalation-tool-use on v1."
)


class EscalationMixTaskset(_EscalationTasks, vf.Taskset[MixTask, MixConfig]):  # type: ignore[valid-type]
    """escalation-mix on v1: the corpora interleaved, each row scored by its own corpus."""

    def plan(self) -> Plan:
        c = self.config
        return mix_plan(
            c.corpora, c.size, c.seed, c.variants_per_scenario, c.split, c.eval_conditions
        )


_JUDGES: dict[JudgeSettings, Judge] = {}


def _judge(config: EscalationTaskConfig) -> Judge | None:
    """One judge per settings in this process (its cache and request dedup are shared)."""
    settings = config.judge()
    if settings is None:
        return None
    judge = _JUDGES.get(settings)
    if judge is None:
        judge = _JUDGES[settings] = Judge(settings)
    return judge


class EscalationEnv(vf.SingleAgentEnv):
    """The scripted user of the escalation corpora (one agent seat)."""

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        if not isinstance(task, EscalationTask):
            raise TypeError(f"EscalationEnv runs escalation tasks, got {type(task).__name__}")
        await Conversation(task).play(agents.agent)


class Conversation:
    """One rollout's scripted user and its bookkeeping (the classic env_response, per turn)."""

    def __init__(self, task: EscalationTask) -> None:
        self.task = task
        self.config = task.config
        self.scenario = scenario_from_wire(task.data.scenario)
        self.specs = task.specs()
        self.ns = new_namespace()
        start_rollout(self.ns, task.data.scenario_id, task.data.locale)
        self.grades: list[dict[str, Any]] = []
        self.judge = _judge(task.config)
        self.trace: vf.Trace | None = None

    async def play(self, agent: vf.Agent) -> None:
        async with agent.interaction(self.task) as interaction:
            self.trace = interaction.trace
            self.trace.info[STATE_KEY] = self.ns
            self.trace.info["reply_grades"] = self.grades
            message = next_user_message(self.scenario, 0)
            while message is not None:
                segment = await interaction.turn(message)
                if segment.terminated:
                    break
                message = await self.follow(segment.messages)
            # A reply the rollout ended on (turn limit, error) is graded like any other; this
            # runs before the interaction closes, which is when the rewards are computed.
            if pending_turn(self.ns):
                await self.finish()

    async def follow(self, messages: Sequence[Any]) -> str | None:
        """Account for one segment (assistant messages and the native tool results the
        harness got) and return the user's next message, or None to end."""
        results = {m.tool_call_id: m for m in messages if isinstance(m, vf.ToolMessage)}
        ns = self.ns
        for message in messages:
            if not isinstance(message, vf.AssistantMessage):
                continue
            ns["seen_steps"] += 1
            parsed = parse_turn(message, self.specs, self.config.max_calls_per_turn)
            count_calls(parsed, ns)
            ns["turn_text"].append(reply_text(message))
            if not parsed.items:
                await self.finish()
                return next_user_message(self.scenario, len(self.grades))
            if parsed.source == "text":
                answers = [await self.answer(item) for item in parsed.items]
                ns["tool_rounds"] += 1
                return text_responses(answers)
            for item in parsed.items:
                self.account_native(item, results.get(item.call_id or ""))
            ns["tool_rounds"] += 1
        return None  # the segment ended on calls it never got answers for: nothing to add

    async def answer(self, item: ToolCall | CallProblem) -> str:
        """Run one ``<tool_call>`` text call in the loop, exactly as the classic env does."""
        try:
            return await answer_call(
                item,
                self.ns,
                self.ns["seen_steps"],
                self.specs,
                self.refusal,
                {STATE_KEY: self.ns},
            )
        except ToolFailure as e:
            raise RuntimeError(str(e)) from e.__cause__

    def refusal(self, call: ToolCall) -> str | None:
        return refuse_or_record(self.ns, self.scenario, call, self.config.max_tool_rounds)

    def account_native(self, item: ToolCall | CallProblem, result: Any) -> None:
        """Record a native call the harness ran over MCP (or the gate answered) as the classic
        env records the calls it runs: problem, refusal, tool input error or executed."""
        turn = self.ns["seen_steps"]
        if isinstance(item, CallProblem):
            record_problem(self.ns, turn, item.kind, item.message, item.name)
            return
        refused = self.refusal(item)
        if refused is not None:
            record_problem(self.ns, turn, "not_allowed", refused, item.name)
            return
        text = message_text(result.content) if result is not None else ""
        if text.startswith("error: "):  # the toolset's wording of a ToolInputError
            record_problem(self.ns, turn, "tool_input", text.removeprefix("error: "), item.name)
            return
        record_executed(self.ns, item.name)

    async def finish(self) -> None:
        await finish_turn(
            self.ns,
            self.scenario,
            self.grades,
            self.judge,
            self.config.grader,
            self.conversation,
        )

    def conversation(self) -> list[dict[str, Any]]:
        """The messages so far, for the judge."""
        messages = self.trace.messages if self.trace is not None else []
        return [m.model_dump(exclude_none=True) for m in messages]


__all__ = [
    "CorpusConfig",
    "CrisisTask",
    "DeferTask",
    "EmergencyTask",
    "EscalationCrisisTaskset",
    "EscalationData",
    "EscalationDeferTaskset",
    "EscalationEmergencyTaskset",
    "EscalationEnv",
    "EscalationMixTaskset",
    "EscalationTask",
    "EscalationTaskConfig",
    "EscalationToolUseTaskset",
    "MixConfig",
    "MixTask",
    "ToolUseTask",
]
