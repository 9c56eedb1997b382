"""The run-time settings every v1 task shares with its classic ``load_environment`` twin."""

from __future__ import annotations

from pydantic import BaseModel

from clinical_envs.toolcalls import DEFAULT_MAX_CALLS


class ToolLoopSettings(BaseModel):
    """Knobs a taskset passes to every task (``--env.taskset.<field>``), named and defaulted as
    the classic ``load_environment`` arguments."""

    tool_protocol: str = "both"
    """"both" (native tools offered, text format documented), "xml" (text) or "native"."""
    max_calls_per_turn: int = DEFAULT_MAX_CALLS
    """Tool calls handled per model message; the rest get an error."""
    max_seq_len: int | None = None
    """Token budget of a rollout (prime-rl's ``seq_len``)."""
