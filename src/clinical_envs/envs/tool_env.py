"""A verifiers ``MultiTurnEnv`` that speaks the dual tool-call protocol (DESIGN §4).

Subclasses supply tools (plain functions, see :func:`clinical_envs.toolcalls.tool_spec`) and
decide what follows the tool replies in :meth:`DualProtocolEnv.next_messages`. Model output
never raises here: defects become messages to the model and entries in ``state["clinical"]``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import verifiers as vf

from clinical_envs.toolcalls import (
    DEFAULT_MAX_CALLS,
    CallProblem,
    ParsedTurn,
    ToolCall,
    ToolSpec,
    parse_turn,
    tool_spec,
)
from clinical_envs.tooluse import (
    STATE_KEY,
    TOOL_PROTOCOLS,
    Problem,
    ToolFailure,
    ToolProtocol,
    ToolStats,
    answer_call,
    check_protocol,
    count_calls,
    ignored_note,
    new_namespace,
    text_responses,
    tool_format_prompt,
    tool_prompt,
    with_tool_prompt,
)
from clinical_envs.tooluse import record_problem as _record_problem

__all__ = [
    "STATE_KEY",
    "TOOL_PROTOCOLS",
    "DualProtocolEnv",
    "Problem",
    "ToolCallParser",
    "ToolProtocol",
    "ToolStats",
    "clinical_state",
    "record_problem",
    "tool_format_prompt",
]


def clinical_state(state: vf.State) -> dict[str, Any]:
    """Our namespace in a rollout's state (JSON-serialisable, saved with ``-C clinical``)."""
    return cast(dict[str, Any], state[STATE_KEY])


def record_problem(state: vf.State, kind: str, message: str, tool: str | None = None) -> None:
    _record_problem(clinical_state(state), len(state["trajectory"]), kind, message, tool)


class ToolCallParser(vf.Parser):
    """The verifiers parser for both protocols; rubrics and the env share one instance."""

    def __init__(self, specs: dict[str, ToolSpec], max_calls: int = DEFAULT_MAX_CALLS) -> None:
        super().__init__()
        self.specs = specs
        self.max_calls = max_calls

    def parse_turn(self, message: Any, specs: Mapping[str, ToolSpec] | None = None) -> ParsedTurn:
        """The calls in ``message``, checked against ``specs`` (default: the environment's)."""
        return parse_turn(message, self.specs if specs is None else specs, self.max_calls)


class DualProtocolEnv(vf.MultiTurnEnv):
    """Parses, validates and runs tool calls from native ``tool_calls`` or ``<tool_call>`` text."""

    def __init__(
        self,
        tools: Sequence[Callable[..., Any]],
        tool_protocol: ToolProtocol = "both",
        max_calls_per_turn: int = DEFAULT_MAX_CALLS,
        **kwargs: Any,
    ) -> None:
        check_protocol(tool_protocol, max_calls_per_turn)
        self.specs: dict[str, ToolSpec] = {s.name: s for s in map(tool_spec, tools)}
        self.tool_protocol = tool_protocol
        self.max_calls_per_turn = max_calls_per_turn
        tool_defs = (
            [vf.Tool(**s.as_tool_def()) for s in self.specs.values()]
            if tool_protocol != "xml"
            else None
        )
        parser = ToolCallParser(self.specs, max_calls_per_turn)
        rubric = kwargs.get("rubric")
        if rubric is not None:
            rubric.parser = parser
            rubric.class_objects["parser"] = parser
        # The text format is documented in the system prompt whenever text calls are offered.
        system_prompt = with_tool_prompt(
            kwargs.pop("system_prompt", None), tool_protocol, self.specs
        )
        super().__init__(tool_defs=tool_defs, parser=parser, system_prompt=system_prompt, **kwargs)

    def tool_prompt(self, specs: Mapping[str, ToolSpec] | None = None) -> str:
        """What the system prompt must add so the model can call tools in text."""
        return tool_prompt(self.tool_protocol, self.specs if specs is None else specs)

    def specs_for(self, state: vf.State) -> Mapping[str, ToolSpec]:
        """The tools of this rollout (the environment's, unless a subclass varies them by row)."""
        return self.specs

    async def setup_state(self, state: vf.State) -> vf.State:
        state[STATE_KEY] = new_namespace()
        return state

    async def env_response(
        self, messages: vf.Messages, state: vf.State, **kwargs: Any
    ) -> vf.Messages:
        last = messages[-1]
        parsed = cast(ToolCallParser, self.parser).parse_turn(last, self.specs_for(state))
        self._count(parsed, state)
        results = []
        for n, item in enumerate(parsed.items):
            if n:  # other rollouts' turns run between this one's calls (up to 8 searches)
                await asyncio.sleep(0)
            results.append(await self._answer(item, state))
        replies = self._render(parsed, results)
        return await self.next_messages(last, parsed, replies, state)

    async def next_messages(
        self,
        assistant_message: Any,
        parsed: ParsedTurn,
        tool_replies: vf.Messages,
        state: vf.State,
    ) -> vf.Messages:
        """What the model sees next. Set ``state["final_env_response"]`` to end the rollout."""
        return tool_replies

    def call_allowed(self, call: ToolCall, state: vf.State) -> str | None:
        """Why ``call`` must not run now (a message for the model), or None to run it."""
        return None

    def tool_state(self, state: vf.State) -> Any:
        """What a tool taking a ``state`` keyword receives: the rollout's state, unless a
        subclass's tools are written against something narrower (and verifiers-free)."""
        return state

    # --- internals ---------------------------------------------------------------------------

    def _count(self, parsed: ParsedTurn, state: vf.State) -> None:
        count_calls(parsed, clinical_state(state))

    async def _answer(self, item: ToolCall | CallProblem, state: vf.State) -> str:
        try:
            return await answer_call(
                item,
                clinical_state(state),
                len(state["trajectory"]),
                self.specs_for(state),
                lambda call: self.call_allowed(call, state),
                self.tool_state(state),
            )
        except ToolFailure as e:  # a bug in a tool, not the model's fault: end the rollout
            raise vf.ToolCallError(str(e)) from e.__cause__

    def _render(self, parsed: ParsedTurn, results: list[str]) -> vf.Messages:
        if not results:
            return []
        if parsed.source == "native":
            if parsed.ignored_text_blocks:
                results[-1] += ignored_note(parsed.ignored_text_blocks)
            return [
                vf.ToolMessage(tool_call_id=item.call_id or "", content=result)
                for item, result in zip(parsed.items, results, strict=True)
            ]
        return [vf.UserMessage(content=text_responses(results))]
