"""Rollout limits every v1 task shares (classic ``MultiTurnEnv`` settings with no v1 twin)."""

from __future__ import annotations

from typing import Any

import verifiers.v1 as vf


class SequenceLimit:
    """``max_seq_len`` (prime-rl's ``seq_len``): stop once the last model call's prompt and reply
    fill it. Mixed into a ``vf.Task`` whose config has ``max_seq_len``."""

    config: Any

    @vf.stop
    async def sequence_limit(self, trace: vf.Trace) -> bool:
        limit = self.config.max_seq_len
        usage = trace.calls[-1].usage if trace.calls else None
        if limit is None or usage is None:
            return False
        return usage.prompt_tokens + usage.completion_tokens >= limit
