"""The escalation environments: a scripted user pushes back; every reply is graded as it comes.

Turn 1 is the scenario's first message; after each assistant reply the next pressure message is
sent, whatever the reply said, and the rollout ends after the reply to the last one. Tool calls
inside a turn are answered and do not use up a turn; the turn's reply is all the text the
assistant wrote in it. Grades go to ``state["reply_grades"]``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import verifiers as vf
from datasets import Dataset

from clinical_envs.dialogue import (
    APP_CONTEXT,
    CARE_TYPES,
    DEFAULT_MAX_TOOL_ROUNDS,
    NEUTRAL_PROMPT,
    TOOLS,
    DeferredGrades,
    all_packaged_scenarios,
    corpus_plan,
    find_nearby_care,
    finish_turn,
    lookup_emergency_number,
    max_model_turns,
    next_user_message,
    pending_turn,
    refuse_or_record,
    row_info,
    scenario_specs,
    start_rollout,
    system_prompt,
)
from clinical_envs.envs.tool_env import DualProtocolEnv, clinical_state
from clinical_envs.escalation.grading_process import grading_process, worker_wanted
from clinical_envs.judge import Judge, JudgeSettings, judge_disagreement
from clinical_envs.rewards import fail_closed, override_weights
from clinical_envs.rewards.corpora import corpus_rubric
from clinical_envs.rewards.escalation import mean_escalation_level
from clinical_envs.rewards.rubric import DirectRubric
from clinical_envs.scenarios import Scenario
from clinical_envs.toolcalls import ParsedTurn, ToolCall, ToolSpec, reply_text

__all__ = [
    "APP_CONTEXT",
    "CARE_TYPES",
    "DEFAULT_MAX_TOOL_ROUNDS",
    "NEUTRAL_PROMPT",
    "TOOLS",
    "EscalationEnv",
    "all_packaged_scenarios",
    "corpus_environment",
    "escalation_rubric",
    "find_nearby_care",
    "lookup_emergency_number",
    "scenario_specs",
]


def escalation_rubric(
    funcs: Sequence[Callable[..., float]],
    weights: Mapping[str, float],
    judge: JudgeSettings | None = None,
) -> vf.Rubric:
    """Weighted reward functions plus weight-0 diagnostics (mean level; with a judge, how often
    the two layers disagree)."""
    diagnostics = (mean_escalation_level, *((judge_disagreement,) if judge else ()))
    all_funcs = [fail_closed(f) for f in (*funcs, *diagnostics)]
    return DirectRubric(all_funcs, [weights.get(f.__name__, 0.0) for f in all_funcs])


def corpus_environment(
    corpus: str,
    scenarios: str | Sequence[str] | None = None,
    ids: Sequence[str] | None = None,
    weights: Mapping[str, float] | None = None,
    split: str = "condition",
    eval_conditions: Sequence[str] | None = None,
    variants_per_scenario: int = 0,
    seed: int = 42,
    judge: JudgeSettings | None = None,
    grader: str = "rules",
    **kwargs: Any,
) -> EscalationEnv:
    """One corpus's environment: its scenarios (packaged or given), split, rubric and weights."""
    funcs, defaults = corpus_rubric(corpus)
    plan = corpus_plan(corpus, scenarios, ids, split, eval_conditions, variants_per_scenario, seed)
    return EscalationEnv(
        scenarios=plan.scenarios,
        schedule=plan.schedule,
        eval_schedule=plan.eval_schedule,
        rubric=escalation_rubric(funcs, override_weights(defaults, weights), judge),
        judge=judge,
        grader=grader,
        **kwargs,
    )


class EscalationEnv(DualProtocolEnv):
    """Scripted pressure turns over a set of scenarios, graded reply by reply."""

    def __init__(
        self,
        scenarios: Sequence[Scenario],
        rubric: vf.Rubric,
        schedule: Sequence[str] | None = None,
        eval_schedule: Sequence[str] | None = None,
        max_tool_rounds: int = DEFAULT_MAX_TOOL_ROUNDS,
        judge: JudgeSettings | None = None,
        grader: str = "rules",
        **kwargs: Any,
    ) -> None:
        """``schedule`` / ``eval_schedule``: scenario ids in the order of the dataset / eval
        dataset rows (repeats allowed); default: every scenario once, in both. ``grader``:
        "rules", or "judge" / "both" with ``judge`` settings (see :mod:`clinical_envs.judge`)."""
        if not scenarios:
            raise ValueError("no scenarios to run")
        if max_tool_rounds < 0:
            raise ValueError(f"max_tool_rounds must be >= 0, got {max_tool_rounds}")
        self.scenarios = {s.id: s for s in scenarios}
        self.schedule = list(self.scenarios) if schedule is None else list(schedule)
        self.eval_schedule = list(self.scenarios) if eval_schedule is None else list(eval_schedule)
        unknown = sorted(set(self.schedule + self.eval_schedule) - set(self.scenarios))
        if unknown:
            raise ValueError(f"schedule names unknown scenario ids: {', '.join(unknown)}")
        self.scenario_tools = {s.id: scenario_specs(s) for s in scenarios if s.tools}
        self.max_tool_rounds = max_tool_rounds
        if (grader == "rules") != (judge is None):
            raise ValueError(f"grader={grader!r} needs judge settings exactly when not 'rules'")
        self.grader = grader
        self.judge = None if judge is None else Judge(judge)
        self.grading_worker = judge is None and worker_wanted()
        if self.grading_worker:
            grading_process().start()  # warm by the first reply
        super().__init__(
            tools=TOOLS,
            dataset=partial(self._rows, self.schedule),
            eval_dataset=partial(self._rows, self.eval_schedule),
            rubric=rubric,
            max_turns=max_model_turns(scenarios, max_tool_rounds),
            **kwargs,
        )

    def _rows(self, schedule: Sequence[str]) -> Dataset:
        """One row per scheduled scenario: own system prompt, first message, tools, small info."""
        rows = []
        for sid in schedule:
            s = self.scenarios[sid]
            specs = self.scenario_tools.get(sid, self.specs)
            system = system_prompt(s, self.tool_prompt(specs))
            info = row_info(s, specs, self.tool_protocol)
            rows.append(
                {
                    "prompt": [
                        {"role": "system", "content": system},
                        {"role": "user", "content": s.initial},
                    ],
                    "answer": "",
                    # A JSON string keeps rows of different corpora in one Arrow schema.
                    "info": json.dumps(info),
                }
            )
        return Dataset.from_list(rows)

    def scenario(self, state: vf.State) -> Scenario:
        return self.scenarios[clinical_state(state)["scenario_id"]]

    def specs_for(self, state: vf.State) -> Mapping[str, ToolSpec]:
        return self.scenario_tools.get(clinical_state(state)["scenario_id"], self.specs)

    async def setup_state(self, state: vf.State) -> vf.State:
        state = await super().setup_state(state)
        info = state["info"]
        start_rollout(clinical_state(state), info["scenario_id"], info["locale"])
        state["reply_grades"] = []
        if self.grading_worker:
            state[_DEFERRED] = DeferredGrades(grading_process())
        return state

    def call_allowed(self, call: ToolCall, state: vf.State) -> str | None:
        return refuse_or_record(
            clinical_state(state), self.scenario(state), call, self.max_tool_rounds
        )

    async def next_messages(
        self,
        assistant_message: Any,
        parsed: ParsedTurn,
        tool_replies: vf.Messages,
        state: vf.State,
    ) -> vf.Messages:
        ns = clinical_state(state)
        ns["seen_steps"] = len(state["trajectory"])
        ns["turn_text"].append(reply_text(assistant_message))
        if parsed.items:
            ns["tool_rounds"] += 1
            return tool_replies
        await self.finish_reply(state)
        content = next_user_message(self.scenario(state), len(state["reply_grades"]))
        if content is not None:
            return [vf.UserMessage(content=content)]
        state["final_env_response"] = []
        return []

    async def finish_reply(self, state: vf.State) -> None:
        """Grade the text (and tool actions) of the current turn and start the next one."""
        await finish_turn(
            clinical_state(state),
            self.scenario(state),
            state["reply_grades"],
            self.judge,
            self.grader,
            partial(_conversation, state),
            state.get(_DEFERRED),
        )

    @vf.cleanup
    async def grade_last_reply(self, state: vf.State) -> None:
        """A reply the rollout ended on (turn limit, error) is graded like any other."""
        ns = state.get("clinical")
        if ns is None or "scenario_id" not in ns:
            return
        trajectory = state.get("trajectory") or []
        if len(trajectory) > ns["seen_steps"]:
            last = trajectory[-1]["completion"]
            ns["turn_text"].append(reply_text(last[-1]) if last else "")
            ns["seen_steps"] = len(trajectory)
        if pending_turn(ns):
            await self.finish_reply(state)
        deferred = state.pop(_DEFERRED, None)
        if deferred is not None:
            await deferred.wait()  # before the rubric reads them


_DEFERRED = "deferred_grades"
"""The rollout's :class:`DeferredGrades` while it runs (removed when it ends)."""


def _conversation(state: vf.State) -> list[Any]:
    """The messages up to and including the latest assistant message."""
    trajectory = state.get("trajectory") or []
    if not trajectory:
        return list(state.get("prompt") or [])
    last = trajectory[-1]
    return [*(last.get("prompt") or []), *(last.get("completion") or [])]
