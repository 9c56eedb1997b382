"""A verifiers ``MultiTurnEnv`` that speaks the dual tool-call protocol (DESIGN §4).

Subclasses supply tools (plain functions, see :func:`clinical_envs.toolcalls.tool_spec`) and
decide what follows the tool replies in :meth:`DualProtocolEnv.next_messages`. Model output
never raises here: defects become messages to the model and entries in ``state["clinical"]``.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypedDict, cast

import verifiers as vf

from clinical_envs.toolcalls import (
    DEFAULT_MAX_CALLS,
    CallProblem,
    ParsedTurn,
    ToolCall,
    ToolInputError,
    ToolSpec,
    parse_turn,
    tool_spec,
)

STATE_KEY = "clinical"
ToolProtocol = Literal["both", "xml", "native"]
TOOL_PROTOCOLS: tuple[str, ...] = ("both", "xml", "native")


class ToolStats(TypedDict):
    """Counters over a whole rollout."""

    calls: int
    """Tool calls the model attempted (well-formed or not), up to the per-message cap."""
    executed: int
    problems: int
    native: int
    text: int
    ignored_text_blocks: int
    """``<tool_call>`` text beside native calls in one message (answered from the native ones)."""
    fake_tool_responses: int
    """``<tool_response>`` blocks the model wrote itself (ignored)."""
    by_tool: dict[str, int]
    """Executed calls per tool name (the report's searches per case)."""


class Problem(TypedDict):
    turn: int
    kind: str
    tool: str | None
    message: str


def clinical_state(state: vf.State) -> dict[str, Any]:
    """Our namespace in a rollout's state (JSON-serialisable, saved with ``-C clinical``)."""
    return cast(dict[str, Any], state[STATE_KEY])


def record_problem(state: vf.State, kind: str, message: str, tool: str | None = None) -> None:
    ns = clinical_state(state)
    ns["problems"].append(
        Problem(turn=len(state["trajectory"]), kind=kind, tool=tool, message=message)
    )
    ns["tool_stats"]["problems"] += 1


def tool_format_prompt(specs: Sequence[ToolSpec]) -> str:
    """System-prompt text documenting the ``<tool_call>`` format and every tool's schema."""
    lines = [
        "You can call tools. To call one, write a block like this in your reply:",
        "<tool_call>",
        '{"name": "<tool name>", "arguments": {<arguments as JSON>}}',
        "</tool_call>",
        "You may write several blocks in one reply; they run in order. Results come back in "
        "<tool_response> blocks in the next message. Native function calling works too.",
        "",
        "Tools:",
    ]
    for spec in specs:
        lines.append(json.dumps(spec.as_tool_def(), ensure_ascii=False))
    return "\n".join(lines)


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
        if tool_protocol not in TOOL_PROTOCOLS:
            raise ValueError(
                f"tool_protocol={tool_protocol!r} is not one of {', '.join(TOOL_PROTOCOLS)}"
            )
        if max_calls_per_turn < 1:
            raise ValueError(f"max_calls_per_turn must be >= 1, got {max_calls_per_turn}")
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
        parts = (kwargs.pop("system_prompt", None), self.tool_prompt())
        system_prompt = "\n\n".join(p for p in parts if p) or None
        super().__init__(tool_defs=tool_defs, parser=parser, system_prompt=system_prompt, **kwargs)

    def tool_prompt(self, specs: Mapping[str, ToolSpec] | None = None) -> str:
        """What the system prompt must add so the model can call tools in text."""
        if self.tool_protocol == "native":
            return ""
        return tool_format_prompt((self.specs if specs is None else specs).values())

    def specs_for(self, state: vf.State) -> Mapping[str, ToolSpec]:
        """The tools of this rollout (the environment's, unless a subclass varies them by row)."""
        return self.specs

    async def setup_state(self, state: vf.State) -> vf.State:
        stats = ToolStats(
            calls=0,
            executed=0,
            problems=0,
            native=0,
            text=0,
            ignored_text_blocks=0,
            fake_tool_responses=0,
            by_tool={},
        )
        state[STATE_KEY] = {"tool_stats": stats, "problems": []}
        return state

    async def env_response(
        self, messages: vf.Messages, state: vf.State, **kwargs: Any
    ) -> vf.Messages:
        last = messages[-1]
        parsed = cast(ToolCallParser, self.parser).parse_turn(last, self.specs_for(state))
        self._count(parsed, state)
        results = [await self._answer(item, state) for item in parsed.items]
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

    # --- internals ---------------------------------------------------------------------------

    def _count(self, parsed: ParsedTurn, state: vf.State) -> None:
        stats: ToolStats = clinical_state(state)["tool_stats"]
        attempted = [i for i in parsed.items if not _is_over_cap(i)]
        stats["calls"] += len(attempted)
        if parsed.source is not None:
            stats[parsed.source] += len(attempted)
        stats["ignored_text_blocks"] += parsed.ignored_text_blocks
        stats["fake_tool_responses"] += parsed.fake_tool_responses

    async def _answer(self, item: ToolCall | CallProblem, state: vf.State) -> str:
        if isinstance(item, CallProblem):
            record_problem(state, item.kind, item.message, item.name)
            return f"error: {item.message}"
        refusal = self.call_allowed(item, state)
        if refusal is not None:
            record_problem(state, "not_allowed", refusal, item.name)
            return f"error: {refusal}"
        spec = self.specs_for(state)[item.name]
        extra = {"state": state} if "state" in inspect.signature(spec.func).parameters else {}
        try:
            result = spec.func(**item.arguments, **extra)
            if inspect.isawaitable(result):
                result = await result
        except ToolInputError as e:
            record_problem(state, "tool_input", str(e), item.name)
            return f"error: {e}"
        except Exception as e:  # a bug in a tool, not the model's fault: end the rollout
            raise vf.ToolCallError(f"{item.name} failed: {e!r}") from e
        stats = clinical_state(state)["tool_stats"]
        stats["executed"] += 1
        stats["by_tool"][item.name] = stats["by_tool"].get(item.name, 0) + 1
        return str(result)

    def _render(self, parsed: ParsedTurn, results: list[str]) -> vf.Messages:
        if not results:
            return []
        if parsed.source == "native":
            if parsed.ignored_text_blocks:
                results[-1] += (
                    f"\n(note: {parsed.ignored_text_blocks} <tool_call> text block(s) in the "
                    "same message were not run, because it also had native tool calls)"
                )
            return [
                vf.ToolMessage(tool_call_id=item.call_id or "", content=result)
                for item, result in zip(parsed.items, results, strict=True)
            ]
        blocks = [f"<tool_response>\n{r}\n</tool_response>" for r in results]
        return [vf.UserMessage(content="\n".join(blocks))]


def _is_over_cap(item: ToolCall | CallProblem) -> bool:
    return isinstance(item, CallProblem) and item.kind == "over_cap"
