"""The dual tool-call protocol: native ``tool_calls`` and ``<tool_call>{json}</tool_call>`` text.

Everything here is pure and never raises on model output: every defect becomes a
:class:`CallProblem` whose ``message`` is written for the model. The verifiers adapter
(:mod:`clinical_envs.envs.tool_env`) executes the valid calls and renders the replies.

Rules (DESIGN §4):

* A message with native ``tool_calls`` is answered from those alone; any ``<tool_call>`` text
  blocks beside them are counted as ignored, so one call is never executed twice.
* Otherwise every ``<tool_call>`` block in the text is a call, in order. Blocks inside
  ``<think>`` or inside a ``<tool_response>`` the model wrote itself are not calls.
* A block holds ``{"name": ..., "arguments": {...}}``; ``arguments`` may be a JSON string
  (double-encoded) or be called ``parameters``; a fenced code block and whitespace around the
  JSON are accepted.
* At most ``max_calls`` items are handled per message; the rest get one problem.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_type_hints

OPEN_TAG = "<tool_call>"
CLOSE_TAG = "</tool_call>"
MAX_BLOCK_CHARS = 32_768
DEFAULT_MAX_CALLS = 8

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FAKE_RESPONSE = re.compile(r"<tool_response>.*?(?:</tool_response>|\Z)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n?(.*?)\n?```$", re.DOTALL)
_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}

Source = Literal["native", "text"]


@dataclass(frozen=True)
class ToolSpec:
    """A tool as offered to the model: the schema is derived from the function itself."""

    name: str
    description: str
    parameters: dict[str, Any]
    func: Callable[..., Any] = field(compare=False, repr=False)

    def as_tool_def(self) -> dict[str, Any]:
        """The provider-agnostic definition verifiers sends as native ``tools``."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


@dataclass(frozen=True)
class ToolCall:
    """A well-formed call whose arguments match the tool's schema."""

    name: str
    arguments: dict[str, Any]
    source: Source
    call_id: str | None = None


@dataclass(frozen=True)
class CallProblem:
    """A call that cannot be executed; ``message`` tells the model what to fix."""

    kind: str
    message: str
    source: Source
    call_id: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class ParsedTurn:
    """The calls of one assistant message, in order, as calls or problems."""

    items: tuple[ToolCall | CallProblem, ...]
    source: Source | None
    ignored_text_blocks: int = 0
    fake_tool_responses: int = 0

    @property
    def calls(self) -> list[ToolCall]:
        return [i for i in self.items if isinstance(i, ToolCall)]

    @property
    def problems(self) -> list[CallProblem]:
        return [i for i in self.items if isinstance(i, CallProblem)]


class ToolInputError(Exception):
    """Raised by a tool for a mistake the model can fix; the text goes back to the model."""


# --- schemas ---------------------------------------------------------------------------------


def tool_spec(func: Callable[..., Any]) -> ToolSpec:
    """Build a spec from a function's signature and Google-style docstring.

    Positional-or-keyword parameters are the tool's arguments (those without a default are
    required); keyword-only parameters are context the environment injects (e.g. ``state``).
    """
    doc = inspect.getdoc(func) or ""
    summary, arg_docs = _split_docstring(doc)
    hints = get_type_hints(func)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for p in inspect.signature(func).parameters.values():
        if p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
            continue
        json_type = _JSON_TYPES.get(hints.get(p.name, str))
        if json_type is None:
            raise TypeError(f"{func.__name__}.{p.name}: unsupported tool argument type")
        properties[p.name] = {"type": json_type, "description": arg_docs.get(p.name, "")}
        if p.default is inspect.Parameter.empty:
            required.append(p.name)
    parameters = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    return ToolSpec(func.__name__, summary, parameters, func)


def _split_docstring(doc: str) -> tuple[str, dict[str, str]]:
    summary_lines: list[str] = []
    args: dict[str, str] = {}
    section = "summary"
    current: str | None = None
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped in ("Args:", "Returns:", "Raises:"):
            section = stripped[:-1].lower()
            continue
        if section == "summary":
            summary_lines.append(stripped)
        elif section == "args" and stripped:
            head, sep, rest = stripped.partition(":")
            if sep and line.startswith(" " * 4) and not line.startswith(" " * 8):
                current = head.split(" ")[0]
                args[current] = rest.strip()
            elif current is not None:
                args[current] += " " + stripped
    return " ".join(s for s in summary_lines if s).strip(), args


def check_arguments(spec: ToolSpec, args: Mapping[str, Any]) -> str | None:
    """Why ``args`` do not fit ``spec`` (one sentence for the model), or None if they do."""
    props: dict[str, Any] = spec.parameters["properties"]
    missing = [n for n in spec.parameters["required"] if n not in args]
    if missing:
        return f"missing required argument(s) {', '.join(missing)}"
    extra = sorted(set(args) - set(props))
    if extra:
        return f"unknown argument(s) {', '.join(extra)}; {spec.name} takes {', '.join(props)}"
    for name, value in args.items():
        expected = props[name]["type"]
        if not _has_type(value, expected):
            return f"argument {name} must be {_article(expected)}, got {_json_type_name(value)}"
    return None


def _has_type(value: Any, expected: str) -> bool:
    if expected == "string":
        return isinstance(value, str)
    if expected == "boolean":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if expected == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    return isinstance(value, int | float)


def _article(json_type: str) -> str:
    return f"an {json_type}" if json_type[0] in "aeiou" else f"a {json_type}"


def _json_type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def coerce_arguments(spec: ToolSpec, args: Mapping[str, Any]) -> dict[str, Any]:
    """Integral floats (``5.0``) become ints where the schema says integer."""
    props = spec.parameters["properties"]
    return {
        k: int(v) if props[k]["type"] == "integer" and isinstance(v, float) else v
        for k, v in args.items()
    }


# --- parsing ---------------------------------------------------------------------------------


def parse_turn(
    message: Any, specs: Mapping[str, ToolSpec], max_calls: int = DEFAULT_MAX_CALLS
) -> ParsedTurn:
    """Every tool call in one assistant message (a verifiers message object or a dict)."""
    native = _field(message, "tool_calls") or []
    text = message_text(_field(message, "content"))
    scanned, fake_responses = strip_ignored(text)
    if native:
        items = [_parse_native(tc, specs) for tc in native]
        ignored = scanned.count(OPEN_TAG)
        return ParsedTurn(_cap(items, max_calls, "native"), "native", ignored, fake_responses)
    raw_items = _text_blocks(scanned, max_calls + 1)
    if not raw_items:
        return ParsedTurn((), None, 0, fake_responses)
    items = [
        raw if isinstance(raw, CallProblem) else _parse_text_block(raw, specs) for raw in raw_items
    ]
    total = scanned.count(OPEN_TAG)
    capped = _cap(items, max_calls, "text", total_blocks=total)
    return ParsedTurn(capped, "text", 0, fake_responses)


def visible_text(message: Any) -> str:
    """A message's text without reasoning and without tool responses the model wrote itself."""
    return strip_ignored(message_text(_field(message, "content")))[0]


def reply_text(message: Any) -> str:
    """All of a message's text, for grading what the user reads.

    Unlike :func:`visible_text` nothing is cut: a fake ``<tool_response>`` is text the user
    sees, and an unclosed one must not hide what follows it. The grader drops what rendering
    hides (see :mod:`clinical_envs.escalation.normalize`).
    """
    return message_text(_field(message, "content"))


def _field(message: Any, name: str) -> Any:
    if isinstance(message, Mapping):
        return message.get(name)
    return getattr(message, name, None)


def message_text(content: Any) -> str:
    """The text of a message's ``content`` (a string or a list of content parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            text = part.get("text") if isinstance(part, Mapping) else getattr(part, "text", None)
            if isinstance(text, str):
                parts.append(text)
        return "\n".join(parts)
    return ""


def strip_ignored(text: str) -> tuple[str, int]:
    """Text without reasoning and without tool responses the model wrote itself."""
    text = _THINK.sub(" ", text)
    return _FAKE_RESPONSE.subn(" ", text)


def _text_blocks(text: str, limit: int) -> list[str | CallProblem]:
    """Raw block bodies in order (at most ``limit``), or problems for unclosed tags."""
    out: list[str | CallProblem] = []
    pos = 0
    while len(out) < limit:
        start = text.find(OPEN_TAG, pos)
        if start < 0:
            break
        body_start = start + len(OPEN_TAG)
        end = text.find(CLOSE_TAG, body_start)
        next_open = text.find(OPEN_TAG, body_start)
        if end < 0 or 0 <= next_open < end:
            out.append(
                CallProblem(
                    "unclosed_tag",
                    f"a {OPEN_TAG} tag was not closed with {CLOSE_TAG}; nothing in it was run",
                    "text",
                )
            )
            pos = body_start if end < 0 else next_open
            if end < 0:
                break
            continue
        out.append(text[body_start:end])
        pos = end + len(CLOSE_TAG)
    return out


def _parse_text_block(body: str, specs: Mapping[str, ToolSpec]) -> ToolCall | CallProblem:
    if len(body) > MAX_BLOCK_CHARS:
        return CallProblem(
            "too_large",
            f"a tool call of {len(body):,} characters exceeds the {MAX_BLOCK_CHARS:,} limit",
            "text",
        )
    body = body.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    payload, error = loads_untrusted(body)
    if error is not None:
        return CallProblem("bad_json", f"the tool call is not valid JSON ({error})", "text")
    if not isinstance(payload, dict):
        return CallProblem(
            "bad_shape",
            'a tool call must be one JSON object: {"name": ..., "arguments": {...}}',
            "text",
        )
    name = payload.get("name")
    if not isinstance(name, str) or not name:
        return CallProblem("bad_shape", 'the tool call has no "name" string', "text")
    extra_keys = sorted(set(payload) - {"name", "arguments", "parameters", "id", "type"})
    if extra_keys:
        return CallProblem(
            "bad_shape",
            f'unexpected key(s) {", ".join(extra_keys)}: put arguments inside "arguments"',
            "text",
            name=name,
        )
    args = payload.get("arguments", payload.get("parameters", {}))
    return _build_call(name, args, specs, "text", None)


def _parse_native(tool_call: Any, specs: Mapping[str, ToolSpec]) -> ToolCall | CallProblem:
    function = _field(tool_call, "function")
    holder = function if function is not None else tool_call
    name = _field(holder, "name")
    call_id = _field(tool_call, "id")
    call_id = call_id if isinstance(call_id, str) else None
    raw = _field(holder, "arguments")
    if not isinstance(name, str) or not name:
        return CallProblem("bad_shape", "the tool call has no name", "native", call_id)
    if isinstance(raw, str) and len(raw) > MAX_BLOCK_CHARS:
        return CallProblem(
            "too_large",
            f"tool call arguments of {len(raw):,} characters exceed the {MAX_BLOCK_CHARS:,} limit",
            "native",
            call_id,
            name,
        )
    return _build_call(name, raw, specs, "native", call_id)


def _build_call(
    name: str,
    raw_args: Any,
    specs: Mapping[str, ToolSpec],
    source: Source,
    call_id: str | None,
) -> ToolCall | CallProblem:
    spec = specs.get(name)
    if spec is None:
        known = ", ".join(specs)
        return CallProblem(
            "unknown_tool", f"unknown tool {name!r}; available: {known}", source, call_id, name
        )
    args: Any = raw_args
    # Arguments may arrive JSON-encoded once (native) or twice (double-encoded text).
    for _ in range(2):
        if not isinstance(args, str):
            break
        if not args.strip():
            args = {}
            break
        args, error = loads_untrusted(args)
        if error is not None:
            return CallProblem(
                "bad_json", f"{name}: arguments are not valid JSON ({error})", source, call_id, name
            )
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return CallProblem(
            "bad_arguments", f"{name}: arguments must be a JSON object", source, call_id, name
        )
    problem = check_arguments(spec, args)
    if problem is not None:
        return CallProblem("bad_arguments", f"{name}: {problem}", source, call_id, name)
    return ToolCall(name, coerce_arguments(spec, args), source, call_id)


MAX_JSON_DEPTH = 64
_JSON_STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def _too_deep(text: str) -> bool:
    """Nesting deeper than any tool call needs. Checked before parsing: letting json hit the
    recursion limit can leave CPython 3.11's recursion counter inconsistent, so that a later,
    unrelated ``ast.parse`` in the same process fails with SystemError."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return False
    depth = 0
    for char in _JSON_STRING.sub("", text):
        if char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def loads_untrusted(text: str) -> tuple[Any, str | None]:
    """JSON from a model: the value and None, or None and what is wrong with it (never raises)."""
    if _too_deep(text):
        return None, f"nested more than {MAX_JSON_DEPTH} levels deep"
    try:
        return json.loads(text), None
    except json.JSONDecodeError as e:
        return None, f"{e.msg} at line {e.lineno} column {e.colno}"
    except (ValueError, RecursionError) as e:
        return None, type(e).__name__


def _cap(
    items: list[ToolCall | CallProblem],
    max_calls: int,
    source: Source,
    total_blocks: int | None = None,
) -> tuple[ToolCall | CallProblem, ...]:
    if len(items) <= max_calls and (total_blocks is None or total_blocks <= max_calls):
        return tuple(items)
    kept = items[:max_calls]
    message = f"only {max_calls} tool calls are handled per message; this one was not run"
    if source == "native":
        extra = [
            CallProblem("over_cap", message, "native", i.call_id, i.name) for i in items[max_calls:]
        ]
        return (*kept, *extra)
    skipped = max(total_blocks or 0, len(items)) - max_calls
    return (
        *kept,
        CallProblem(
            "over_cap",
            f"{skipped} further tool call(s) were not run: "
            f"only {max_calls} are handled per message",
            "text",
        ),
    )
