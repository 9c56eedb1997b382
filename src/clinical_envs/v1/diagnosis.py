"""set-diagnosis-tool-call on verifiers 0.4's v1 API: taskset, task, tool gate and loop.

Same rows, same tools, same ledger, same rewards as the classic environment
(:mod:`clinical_envs.envs.set_diagnosis`); both are thin adapters over
:mod:`clinical_envs.diagnosis` (cases, tools, ledger, the after-message rules) and
:mod:`clinical_envs.rewards.diagnosis` (every score).

* A row is a :class:`SetDiagnosisData`: the case report as the prompt, the classic row's
  ``info`` (gold diagnoses) and ``answer``. The ledger is per rollout, in
  ``trace.info["clinical"]`` (the classic ``state["clinical"]``).
* Native calls are answered by :meth:`SetDiagnosisTask.gate_tool_calls` in this process, before
  the harness would run them; the MCP toolset (:mod:`clinical_envs.v1.diagnosis_tools`) only
  advertises the tools. Its module docstring says why (the ledger, and a per-rollout tool
  server's cost). ``<tool_call>`` text calls are parsed with the same parser and answered by
  :class:`SetDiagnosisEnv`'s loop with a ``<tool_response>`` user message, as in classic.
* The rollout ends after ``finish_setting_diagnoses`` or a ``DONE`` line (stop ``finished``)
  or at ``max_turns`` model messages (stop ``turn_limit``); a reply that calls no tool gets the
  classic reminder. A message at the turn limit is not acted on, as in classic.
* Scores: one ``@vf.reward`` per classic rubric function, calling the same function with the
  same default weight; ``weights`` (a preset or a mapping) becomes per-reward weight overrides.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, Protocol

import verifiers.v1 as vf
from pydantic import field_validator, model_validator

from clinical_envs.diagnosis.dataset import HUB_DEFAULT, Case, load_cases, split_cases
from clinical_envs.diagnosis.prompts import REMINDER, SYSTEM_PROMPT, case_prompt
from clinical_envs.diagnosis.tools import (
    CallContext,
    after_message,
    new_ledger,
    refusal,
    tool_specs,
)
from clinical_envs.rewards.diagnosis import DEFAULT_WEIGHTS, REWARD_FUNCS, resolve_weights
from clinical_envs.toolcalls import (
    CallProblem,
    ParsedTurn,
    ToolCall,
    message_text,
    parse_turn,
)
from clinical_envs.tooluse import (
    STATE_KEY,
    ToolFailure,
    answer_call,
    check_protocol,
    count_calls,
    ignored_note,
    text_responses,
    with_tool_prompt,
)
from clinical_envs.v1.diagnosis_tools import SetDiagnosisToolset
from clinical_envs.v1.gate import call_origin
from clinical_envs.v1.settings import ToolLoopSettings
from clinical_envs.v1.stops import SequenceLimit

Side = Literal["train", "eval"]
DEFAULT_MAX_TURNS = 10
FINISHED = "finished"
TURN_LIMIT = "turn_limit"
SPECS = tool_specs()


def ledger_of(trace: vf.Trace) -> dict[str, Any]:
    """The rollout's namespace with its ledger (made on first use, so the gate works whoever
    opened the rollout)."""
    ns = trace.info.get(STATE_KEY)
    if ns is None:
        ns = trace.info[STATE_KEY] = new_ledger()
    return ns


class SetDiagnosisData(vf.TaskData):
    """One case: the classic row's ``info`` and ``answer``; the prompt is the case report."""

    info: dict[str, Any]
    """``case_id``, ``gold`` (code, diagnosis, status, acceptable codes) and extra columns."""
    answer: str


class DiagnosisSettings(ToolLoopSettings):
    """The shared knobs, and the turn limit of a set-diagnosis rollout."""

    max_turns: int = DEFAULT_MAX_TURNS
    """Model messages before the rollout is cut off."""


class SetDiagnosisTaskConfig(vf.TaskConfig, DiagnosisSettings):
    """Run-time knobs of a rollout. The taskset sets them from its own fields of the same
    names, so set them there."""


class SetDiagnosisTask(SequenceLimit, vf.Task[SetDiagnosisData, vf.State, SetDiagnosisTaskConfig]):
    """The rewards, the tool gate, the stops and the loop's answers of one case (rewards: one
    per classic rubric function, added below the class)."""

    @vf.intercept
    async def gate_tool_calls(self, request: vf.Request, trace: vf.Trace) -> vf.Request | None:
        """Answer a native call before the harness would run it: verifiers probes each call of
        a committed message, in order, with an empty result, and the text put in its place is
        what the model gets (the harness runs nothing)."""
        messages = request.messages
        origin = call_origin(messages)
        if origin is None:
            return None
        probe = messages[-1]
        if message_text(probe.content) != "":
            return None  # a result already given, not a pre-execution probe
        turn = sum(isinstance(m, vf.AssistantMessage) for m in messages[: origin.index + 1])
        text = await self.answer_native(origin.issuer, origin.position, turn, trace)
        answered = probe.model_copy(update={"content": text})
        return request.model_copy(update={"messages": [*messages[:-1], answered]})

    async def answer_native(
        self, message: vf.AssistantMessage, position: int, turn: int, trace: vf.Trace
    ) -> str:
        """The result of the native call at ``position`` of ``message`` (model message number
        ``turn``), doing for that message what the classic environment's ``env_response`` does:
        count its calls (at its first call), answer each, then note ignored text blocks and a
        ``DONE`` line (at its last)."""
        if turn >= self.config.max_turns:  # classic never acts on this message: nothing runs
            name = (message.tool_calls or [])[position].name
            return f"error: {name} was not run: the rollout reached max_turns"
        ns = ledger_of(trace)
        parsed = self.parse(message)
        if position == 0:
            count_calls(parsed, ns)
        text = await self.answer(parsed.items[position], ns, turn)
        if position == len(parsed.items) - 1:
            if parsed.ignored_text_blocks:
                text += ignored_note(parsed.ignored_text_blocks)
            after_message(ns, message, parsed, turn)
        return text

    async def respond(self, trace: vf.Trace, segment: Sequence[Any]) -> str | None:
        """The user's next message after a harness segment: the ``<tool_response>`` answers to
        text calls, or the reminder; None ends the rollout (and says why in the stop)."""
        replies = [m for m in segment if isinstance(m, vf.AssistantMessage)]
        if not replies:
            return None
        ns = ledger_of(trace)
        turn = trace.num_turns  # the segment's last reply is the newest model message
        if ns["finished"] is not None:
            trace.stop(FINISHED)
            return None
        if turn >= self.config.max_turns:
            trace.stop(TURN_LIMIT)
            return None
        message = replies[-1]
        parsed = self.parse(message)
        if parsed.source == "native":
            return None  # answered at the gate; the harness stopped without a reply
        count_calls(parsed, ns)
        answers = [await self.answer(item, ns, turn) for item in parsed.items]
        step = after_message(ns, message, parsed, turn)
        if step == "finished":
            trace.stop(FINISHED)
            return None
        if step == "remind":
            return REMINDER
        return text_responses(answers)

    def parse(self, message: Any) -> ParsedTurn:
        return parse_turn(message, SPECS, self.config.max_calls_per_turn)

    async def answer(self, item: ToolCall | CallProblem, ns: dict[str, Any], turn: int) -> str:
        """One call's result, exactly as the classic environment words and records it."""
        try:
            return await answer_call(
                item, ns, turn, SPECS, lambda call: refusal(ns, call), CallContext(ns, turn)
            )
        except ToolFailure as e:  # a bug in a tool, not the model's fault: fail the rollout
            raise RuntimeError(str(e)) from e.__cause__

    @vf.stop
    async def finished(self, trace: vf.Trace) -> bool:
        """``finish_setting_diagnoses`` was called or a reply said ``DONE``."""
        return ledger_of(trace)["finished"] is not None

    @vf.stop
    async def turn_limit(self, trace: vf.Trace) -> bool:
        """The classic ``max_turns``: model messages in the rollout."""
        return trace.num_turns >= self.config.max_turns

    @vf.metric
    async def num_turns(self, trace: vf.Trace) -> float:
        return float(trace.num_turns)


def _reward(func: Callable[..., float], weight: float) -> Callable[..., Any]:
    """A ``@vf.reward`` method calling the classic reward function ``func`` on the rollout's
    ledger and the row's info. Fails closed like the classic rubric: 0.0 for a rollout that
    ended in an error or a timeout."""

    async def score(self: SetDiagnosisTask, trace: vf.Trace) -> float:
        if trace.errors or trace.is_timeout:
            return 0.0
        return float(func(state={STATE_KEY: ledger_of(trace)}, info=self.data.info))

    score.__name__ = score.__qualname__ = func.__name__
    score.__doc__ = func.__doc__
    return vf.reward(score, weight=weight)


for _func in REWARD_FUNCS:
    setattr(SetDiagnosisTask, _func.__name__, _reward(_func, DEFAULT_WEIGHTS[_func.__name__]))


class SetDiagnosisConfig(vf.TasksetConfig, DiagnosisSettings):
    """set-diagnosis-tool-call's taskset: the arguments of its classic ``load_environment``."""

    task: SetDiagnosisTaskConfig = SetDiagnosisTaskConfig()
    side: Side = "eval"
    """Which rows: "eval" (the held-out split) or "train" (the training split)."""
    dataset: str = HUB_DEFAULT
    """A Hugging Face dataset id, a local .jsonl/.json/.parquet/.csv file, or "bundled"."""
    test_size: float = 0.1
    """Fraction of rows held out as the eval side (0 puts every row on both sides)."""
    seed: int = 42
    """Seed of the train/eval split."""
    weights: dict[str, float] | str = "default"
    """"default", "binary" (eval only), or {sub-score name: weight} overriding some defaults."""
    # The classic argument, not vf.TasksetConfig's own system_prompt (a file whose text would
    # replace the whole system prompt, the tool-call format included).
    system_prompt: str | None = None  # type: ignore[assignment]
    """Replaces the task instructions; the tool-call format is still appended."""
    tools: vf.SharedToolsetConfig = vf.SharedToolsetConfig()
    """Where the taskset's one tool server runs (it only advertises the tools)."""

    @field_validator("weights", mode="before")
    @classmethod
    def _weights_from_json(cls, value: Any) -> Any:
        """``--env.taskset.weights '{"precision_score": 0.5}'`` arrives as text (the CLI decodes
        JSON only for a plain dict field, and this one also takes a preset name)."""
        if isinstance(value, str) and value.lstrip().startswith("{"):
            return json.loads(value)
        return value

    @model_validator(mode="after")
    def _check(self) -> SetDiagnosisConfig:
        """Bad settings fail where they are given (also under ``--dry-run``), with the
        classic environment's messages."""
        check_protocol(self.tool_protocol, self.max_calls_per_turn)
        if self.max_turns < 1:
            raise ValueError(f"max_turns must be >= 1, got {self.max_turns}")
        resolve_weights(self.weights)
        return self


class SetDiagnosisTaskset(vf.Taskset[SetDiagnosisTask, SetDiagnosisConfig]):
    """set-diagnosis-tool-call on v1."""

    def __init__(self, config: SetDiagnosisConfig) -> None:
        # Not super().__init__: it reads config.system_prompt as a file path and would impose
        # that file's text on every task; here the field is the classic argument (see load).
        self.config = config
        self.system_prompt = None

    @classmethod
    def toolsets(cls, config: SetDiagnosisConfig) -> list[vf.Toolset]:
        if config.tool_protocol == "xml":
            return []
        return [SetDiagnosisToolset(config.tools)]

    def task_config(self) -> SetDiagnosisTaskConfig:
        """The task config: the taskset's settings, its weights as reward weight overrides."""
        c = self.config
        rewards = dict(c.task.rewards)
        for name, weight in resolve_weights(c.weights).items():
            if weight != DEFAULT_WEIGHTS[name] and name not in rewards:
                rewards[name] = vf.RewardFunctionConfig(weight=weight)
        update: dict[str, Any] = {name: getattr(c, name) for name in DiagnosisSettings.model_fields}
        update["rewards"] = rewards
        return c.task.model_copy(update=update)

    def load(self) -> Iterable[SetDiagnosisTask]:
        c = self.config
        task_config = self.task_config()
        splits = split_cases(load_cases(c.dataset), c.test_size, c.seed)
        instructions = SYSTEM_PROMPT if c.system_prompt is None else c.system_prompt
        system = with_tool_prompt(instructions, c.tool_protocol, SPECS)
        for case in splits.train if c.side == "train" else splits.test:
            yield SetDiagnosisTask(row(case, system), task_config)


def row(case: Case, system_prompt: str | None) -> SetDiagnosisData:
    """The v1 row of ``case`` (prompt, system prompt, info and answer as the classic row)."""
    return SetDiagnosisData(
        id=case.case_id,
        name=case.case_id,
        prompt=case_prompt(case.text),
        system_prompt=system_prompt,
        info=case.info(),
        answer=case.answer(),
    )


class Interaction(Protocol):
    """What :func:`play` needs of ``vf.Agent.interaction(...)``."""

    trace: vf.Trace

    async def turn(self, message: str | None = None) -> Any: ...


class SetDiagnosisEnv(vf.SingleAgentEnv):
    """One agent seat; the environment answers ``<tool_call>`` text and sends reminders."""

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        if not isinstance(task, SetDiagnosisTask):
            raise TypeError(f"SetDiagnosisEnv runs set-diagnosis tasks, got {type(task).__name__}")
        async with agents.agent.interaction(task) as interaction:
            await play(task, interaction)


async def play(task: SetDiagnosisTask, interaction: Interaction) -> None:
    """The rollout's loop: the case report opens it, then one segment per user message until
    :meth:`SetDiagnosisTask.respond` ends it (leaving the interaction scores the rollout)."""
    ledger_of(interaction.trace)
    segment = await interaction.turn()
    while not segment.terminated:
        message = await task.respond(interaction.trace, segment.messages)
        if message is None:
            return
        segment = await interaction.turn(message)


__all__ = [
    "DiagnosisSettings",
    "SetDiagnosisConfig",
    "SetDiagnosisData",
    "SetDiagnosisEnv",
    "SetDiagnosisTask",
    "SetDiagnosisTaskConfig",
    "SetDiagnosisTaskset",
    "ledger_of",
    "play",
]
