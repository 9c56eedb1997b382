"""A verifiers ``Rubric`` that reads its functions' signatures once, not once per call.

verifiers' ``Rubric`` inspects every reward function's signature and rebuilds its arguments
for every function of every rollout, then awaits each one separately. With the escalation
environments' 6 to 16 functions that was most of the scoring time (issue 15); set-diagnosis's
6 cost about 0.1 ms more per rollout that way. This rubric scores a rollout in one pass with
the same functions, weights and results: reward, per-function metrics, group advantages, and
0.0 (logged) for a function that raises.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Sequence
from typing import Any

import verifiers as vf

from clinical_envs.rewards import scoring_one_rollout

logger = logging.getLogger(__name__)

ARGUMENTS: dict[str, Callable[[Any, Any], Any]] = {
    # name -> how to read it from (rubric, state), as verifiers' Rubric supplies it
    "state": lambda rubric, state: state,
    "info": lambda rubric, state: state.get("info", {}),
    "prompt": lambda rubric, state: state["prompt"],
    "completion": lambda rubric, state: state["completion"],
    "answer": lambda rubric, state: state.get("answer", ""),
    "parser": lambda rubric, state: rubric.parser,
}


class DirectRubric(vf.Rubric):
    """A Rubric over functions of ``state``, ``info``, ``prompt``, ``completion``, ``answer``
    and ``parser`` (the names verifiers supplies), scored in one pass per rollout."""

    def __init__(self, funcs: Sequence[Callable[..., float]], weights: Sequence[float]) -> None:
        self._arguments: dict[Callable[..., float], tuple[str, ...]] = {}
        super().__init__(funcs=list(funcs), weights=list(weights))
        for func in self.funcs:
            self.arguments(func)  # a function asking for something unknown fails at load

    def arguments(self, func: Callable[..., float]) -> tuple[str, ...]:
        """The names ``func`` is called with (read from its signature the first time)."""
        names = self._arguments.get(func)
        if names is None:
            names = self._arguments[func] = _argument_names(func)
        return names

    def values(self, state: vf.State) -> dict[str, float]:
        """Every function's value for one rollout, by function name (helpers the functions
        share, such as a corpus's scores, computed once: see ``once_per_rollout``)."""
        out: dict[str, float] = {}
        with scoring_one_rollout():
            for func in self.funcs:
                name = func.__name__
                try:
                    kwargs = {n: ARGUMENTS[n](self, state) for n in self.arguments(func)}
                    out[name] = float(func(**kwargs))
                except Exception as e:  # as verifiers does: the function scores 0, the run goes on
                    logger.error("Error calling reward function %s: %r", name, e)
                    out[name] = 0.0
        return out

    async def score_rollout(self, state: vf.State) -> None:
        values = self.values(state)
        weighted = zip(self.funcs, self.weights, strict=True)
        state["reward"] = sum(w * values[f.__name__] for f, w in weighted)
        state["metrics"] = values

    async def score_group(self, states: list[vf.State]) -> None:
        if not states:
            return
        for state in states:
            await self.score_rollout(state)
        mean = sum(s["reward"] for s in states) / len(states)
        for state in states:
            state["advantage"] = state["reward"] - mean
            for step in state["trajectory"]:
                if step["advantage"] is None:
                    step["advantage"] = state["advantage"]
                if step["reward"] is None:
                    step["reward"] = state["reward"]


def _argument_names(func: Callable[..., float]) -> tuple[str, ...]:
    parameters = inspect.signature(func).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return tuple(ARGUMENTS)
    names = tuple(p.name for p in parameters)
    unknown = [n for n in names if n not in ARGUMENTS]
    if unknown:
        known = ", ".join(ARGUMENTS)
        raise TypeError(f"reward function {func.__name__} asks for {unknown}; it may use {known}")
    return names
