"""Running parsed tool calls, without verifiers: counters, problems, results, rendering.

Both adapters (the classic ``MultiTurnEnv`` in :mod:`clinical_envs.envs.tool_env` and the v1
environments in :mod:`clinical_envs.v1`) keep the same namespace per rollout, built by
:func:`new_namespace` (``state["clinical"]`` / ``trace.info["clinical"]``), and answer calls
with :func:`answer_call`, so both count, refuse and word tool results identically.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypedDict

from clinical_envs.toolcalls import CallProblem, ParsedTurn, ToolCall, ToolInputError, ToolSpec

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


class ToolFailure(Exception):
    """A tool raised something other than :class:`ToolInputError`: a bug, not the model's fault
    (the adapter ends the rollout with its own error type)."""


def check_protocol(tool_protocol: str, max_calls_per_turn: int) -> None:
    """Reject a tool protocol or a per-message cap that cannot work."""
    if tool_protocol not in TOOL_PROTOCOLS:
        raise ValueError(
            f"tool_protocol={tool_protocol!r} is not one of {', '.join(TOOL_PROTOCOLS)}"
        )
    if max_calls_per_turn < 1:
        raise ValueError(f"max_calls_per_turn must be >= 1, got {max_calls_per_turn}")


def new_namespace() -> dict[str, Any]:
    """A rollout's fresh namespace: zeroed counters and no problems."""
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
    return {"tool_stats": stats, "problems": []}


def record_problem(
    ns: dict[str, Any], turn: int, kind: str, message: str, tool: str | None = None
) -> None:
    """Log a defect of the model's call (``turn``: model messages so far)."""
    ns["problems"].append(Problem(turn=turn, kind=kind, tool=tool, message=message))
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


def tool_prompt(tool_protocol: str, specs: Mapping[str, ToolSpec]) -> str:
    """What the system prompt must add so the model can call tools in text ("" if native)."""
    if tool_protocol == "native":
        return ""
    return tool_format_prompt(list(specs.values()))


def with_tool_prompt(
    instructions: str | None, tool_protocol: str, specs: Mapping[str, ToolSpec]
) -> str | None:
    """A system prompt: the instructions, then the text tool-call format when text calls are
    offered (None when both are empty)."""
    parts = (instructions, tool_prompt(tool_protocol, specs))
    return "\n\n".join(p for p in parts if p) or None


def is_over_cap(item: ToolCall | CallProblem) -> bool:
    return isinstance(item, CallProblem) and item.kind == "over_cap"


def count_calls(parsed: ParsedTurn, ns: dict[str, Any]) -> None:
    """Add one message's calls to the rollout's counters."""
    stats: ToolStats = ns["tool_stats"]
    attempted = [i for i in parsed.items if not is_over_cap(i)]
    stats["calls"] += len(attempted)
    if parsed.source is not None:
        stats[parsed.source] += len(attempted)
    stats["ignored_text_blocks"] += parsed.ignored_text_blocks
    stats["fake_tool_responses"] += parsed.fake_tool_responses


async def answer_call(
    item: ToolCall | CallProblem,
    ns: dict[str, Any],
    turn: int,
    specs: Mapping[str, ToolSpec],
    refusal: Callable[[ToolCall], str | None],
    state: Any,
) -> str:
    """The text the model gets for one call: the tool's result, or ``error: ...`` for a
    problem, a refused call (``refusal`` says why, or None to run it) or a tool input error.
    ``state`` is passed to tools that take a ``state`` keyword. Raises :class:`ToolFailure`."""
    if isinstance(item, CallProblem):
        record_problem(ns, turn, item.kind, item.message, item.name)
        return f"error: {item.message}"
    refused = refusal(item)
    if refused is not None:
        record_problem(ns, turn, "not_allowed", refused, item.name)
        return f"error: {refused}"
    spec = specs[item.name]
    extra = {"state": state} if "state" in inspect.signature(spec.func).parameters else {}
    try:
        result = spec.func(**item.arguments, **extra)
        if inspect.isawaitable(result):
            result = await result
    except ToolInputError as e:
        record_problem(ns, turn, "tool_input", str(e), item.name)
        return f"error: {e}"
    except Exception as e:
        raise ToolFailure(f"{item.name} failed: {e!r}") from e
    record_executed(ns, item.name)
    return str(result)


def record_executed(ns: dict[str, Any], name: str) -> None:
    stats: ToolStats = ns["tool_stats"]
    stats["executed"] += 1
    stats["by_tool"][name] = stats["by_tool"].get(name, 0) + 1


def ignored_note(ignored_text_blocks: int) -> str:
    """Appended to the last native result when text calls beside native ones were not run."""
    return (
        f"\n(note: {ignored_text_blocks} <tool_call> text block(s) in the "
        "same message were not run, because it also had native tool calls)"
    )


def text_responses(results: Sequence[str]) -> str:
    """The user message that answers ``<tool_call>`` text blocks."""
    return "\n".join(f"<tool_response>\n{r}\n</tool_response>" for r in results)
