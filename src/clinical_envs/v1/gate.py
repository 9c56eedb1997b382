"""Which call of which model message a tool result answers: what the v1 tool gates decide on.

verifiers 0.4 shows a task's ``@vf.intercept`` the request with the tool results so far; the
gates of both v1 tasks must find the assistant message that issued the last result, and the
call's place in it, to apply the classic per-message rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import verifiers.v1 as vf


@dataclass(frozen=True)
class CallOrigin:
    issuer: vf.AssistantMessage
    position: int  # of the call in ``issuer.tool_calls``
    index: int  # of ``issuer`` in the messages


def call_origin(messages: Sequence[Any]) -> CallOrigin | None:
    """The origin of the last message's call, or None if the last message is no tool result
    of a call the preceding assistant message made."""
    if not messages or not isinstance(messages[-1], vf.ToolMessage):
        return None
    k = len(messages) - 2
    while k >= 0 and isinstance(messages[k], vf.ToolMessage):
        k -= 1
    issuer = messages[k] if k >= 0 else None
    if not isinstance(issuer, vf.AssistantMessage) or not issuer.tool_calls:
        return None
    ids = [c.id for c in issuer.tool_calls]
    if messages[-1].tool_call_id not in ids:
        return None
    return CallOrigin(issuer, ids.index(messages[-1].tool_call_id), k)
