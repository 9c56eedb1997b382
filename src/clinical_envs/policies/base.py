"""What a policy sees (a chat request) and returns (a reply with optional tool calls)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Protocol = Literal["auto", "native", "xml"]


@dataclass(frozen=True)
class ChatRequest:
    model: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)

    def text_of(self, message: dict[str, Any]) -> str:
        content = message.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
        return ""

    @property
    def first_user_text(self) -> str:
        return next((self.text_of(m) for m in self.messages if m.get("role") == "user"), "")

    @property
    def assistant_turns(self) -> int:
        """Assistant messages so far: the number of the reply being asked for, minus one."""
        return sum(1 for m in self.messages if m.get("role") == "assistant")

    @property
    def last_text(self) -> str:
        """Text of the messages after the last assistant message (tool results, user turns)."""
        tail: list[str] = []
        for m in reversed(self.messages):
            if m.get("role") == "assistant":
                break
            tail.append(self.text_of(m))
        return "\n".join(reversed(tail))


@dataclass(frozen=True)
class Reply:
    """An assistant message: text, tool calls ``(name, arguments)``, or both."""

    content: str | None = None
    tool_calls: Sequence[tuple[str, dict[str, Any] | str]] = ()
    """Arguments given as a string are sent verbatim (to test malformed JSON)."""
    protocol: Protocol = "auto"
    """``native``: tool calls as OpenAI ``tool_calls``; ``xml``: ``<tool_call>`` blocks in the
    text; ``auto``: native when the request offered tools, otherwise xml."""
    finish_reason: str | None = None
    """Overrides the finish reason (``"length"`` simulates a truncated response)."""

    def rendered(self, request: ChatRequest) -> tuple[str | None, list[tuple[str, str]]]:
        """(content, [(name, arguments JSON)]) as the endpoint should send them."""
        native = self.protocol == "native" or (self.protocol == "auto" and bool(request.tools))
        calls = [
            (name, args if isinstance(args, str) else json.dumps(args))
            for name, args in self.tool_calls
        ]
        if native or not calls:
            return self.content, calls
        blocks = [
            "<tool_call>\n" + json.dumps({"name": name, "arguments": args}) + "\n</tool_call>"
            for name, args in self.tool_calls
        ]
        return "\n".join(filter(None, [self.content, *blocks])), []


Policy = Callable[[ChatRequest], Reply]


class ServerFault(Exception):
    """Raised by a test policy to make the endpoint misbehave: an HTTP error or a broken body."""

    def __init__(self, status: int = 500, body: bytes | None = None) -> None:
        super().__init__(f"fault {status}")
        self.status = status
        self.body = body


class ScriptedPolicy:
    """Replies from a fixed script: reply ``i`` answers the ``i``-th assistant turn.

    Past the end of the script the last reply repeats, so a script never runs dry.
    """

    def __init__(self, replies: Sequence[Reply]) -> None:
        if not replies:
            raise ValueError("a script needs at least one reply")
        self.replies = tuple(replies)

    def __call__(self, request: ChatRequest) -> Reply:
        return self.replies[min(request.assistant_turns, len(self.replies) - 1)]
