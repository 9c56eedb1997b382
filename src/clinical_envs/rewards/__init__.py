"""Pure scoring: transcript facts in, named scores out. Reward functions are thin adapters."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any


def fail_closed(func: Callable[..., float]) -> Callable[..., float]:
    """``func``, but 0.0 for a rollout that ended in an error or a timeout.

    A rollout cut short by an endpoint fault must never count as a success by accident; the
    error itself stays visible in the results (``error``, ``stop_condition``).
    """
    if "state" not in inspect.signature(func).parameters:
        raise TypeError(f"{func.__name__} must take `state` to be guarded")

    @functools.wraps(func)
    def guarded(state: Any, **kwargs: Any) -> float:
        if state.get("error") is not None or state.get("timed_out"):
            return 0.0
        return func(state, **kwargs)

    return guarded
