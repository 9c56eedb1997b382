"""Pure scoring: transcript facts in, named scores out. Reward functions are thin adapters."""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")
_ROLLOUT_MEMO: ContextVar[dict[tuple[Callable[..., Any], int], Any] | None] = ContextVar(
    "rollout_memo", default=None
)


def override_weights(
    defaults: Mapping[str, float], weights: Mapping[str, float] | None
) -> dict[str, float]:
    """``defaults`` with some weights overridden; unknown names and bad values are errors."""
    table = dict(defaults)
    if weights is None:
        return table
    if not isinstance(weights, Mapping):
        kind = type(weights).__name__
        raise ValueError(f"weights must be a mapping of metric name to weight, got {kind}")
    unknown = sorted(set(weights) - set(table))
    if unknown:
        raise ValueError(
            f"unknown weight name(s) {', '.join(unknown)}; allowed: {', '.join(defaults)}"
        )
    for name, value in weights.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ValueError(f"weights[{name!r}] must be a number >= 0, got {value!r}")
        table[name] = float(value)
    if not any(table.values()):
        raise ValueError("at least one weight must be positive")
    return table


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


@contextlib.contextmanager
def scoring_one_rollout() -> Iterator[None]:
    """While scoring one rollout, each :func:`once_per_rollout` helper computes its value once.

    A rubric's functions each report one score of the same computation (a corpus's five
    scores, a case's six); without the memo every function redid it. The memo lives only for
    the block, so nothing is shared between rollouts.
    """
    token = _ROLLOUT_MEMO.set({})
    try:
        yield
    finally:
        _ROLLOUT_MEMO.reset(token)


def once_per_rollout(
    source: Callable[[Any, Mapping[str, Any]], T],
) -> Callable[[Any, Mapping[str, Any]], T]:
    """``source(state, info)``, computed once per rollout inside :func:`scoring_one_rollout`
    (every call, as before, outside it). Its result must not be mutated by callers."""

    @functools.wraps(source)
    def memoised(state: Any, info: Mapping[str, Any]) -> T:
        memo = _ROLLOUT_MEMO.get()
        if memo is None:
            return source(state, info)
        key = (source, id(state))
        if key not in memo:
            memo[key] = source(state, info)
        return memo[key]

    return memoised
