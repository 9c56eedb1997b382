"""The set-diagnosis environment on the classic API: the four tools of
:mod:`clinical_envs.diagnosis.tools` and their per-rollout ledger, wired into verifiers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import verifiers as vf
from datasets import Dataset

from clinical_envs.diagnosis.dataset import Case
from clinical_envs.diagnosis.prompts import REMINDER, case_prompt
from clinical_envs.diagnosis.tools import (
    LIST_MAX,
    SEARCH_MAX,
    TOOLS,
    CallContext,
    after_message,
    finish_setting_diagnoses,
    list_diagnosis_codes,
    refusal,
    search_diagnosis_codes,
    set_diagnosis,
    start_ledger,
)
from clinical_envs.envs.tool_env import DualProtocolEnv, clinical_state
from clinical_envs.rewards import fail_closed
from clinical_envs.rewards.diagnosis import REWARD_FUNCS
from clinical_envs.rewards.rubric import DirectRubric
from clinical_envs.toolcalls import ParsedTurn, ToolCall

__all__ = [
    "LIST_MAX",
    "SEARCH_MAX",
    "TOOLS",
    "SetDiagnosisEnv",
    "cases_to_dataset",
    "diagnosis_rubric",
    "finish_setting_diagnoses",
    "list_diagnosis_codes",
    "search_diagnosis_codes",
    "set_diagnosis",
]


def cases_to_dataset(cases: list[Case]) -> Dataset:
    """Rows verifiers can format: ``question`` becomes the user turn; ``info`` holds the gold."""
    return Dataset.from_list(
        [
            {
                "question": case_prompt(c.text),
                "answer": c.answer(),
                "info": c.info(),
            }
            for c in cases
        ]
    )


def diagnosis_rubric(weights: Mapping[str, float]) -> vf.Rubric:
    funcs = [fail_closed(f) for f in REWARD_FUNCS]
    return DirectRubric(funcs, [weights[f.__name__] for f in funcs])


class SetDiagnosisEnv(DualProtocolEnv):
    """Ends on finish_setting_diagnoses or DONE; reminds the model when it calls no tool."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(tools=TOOLS, **kwargs)

    async def setup_state(self, state: vf.State) -> vf.State:
        state = await super().setup_state(state)
        start_ledger(clinical_state(state))
        return state

    def call_allowed(self, call: ToolCall, state: vf.State) -> str | None:
        return refusal(clinical_state(state), call)

    def tool_state(self, state: vf.State) -> CallContext:
        return CallContext(clinical_state(state), len(state["trajectory"]))

    async def next_messages(
        self,
        assistant_message: Any,
        parsed: ParsedTurn,
        tool_replies: vf.Messages,
        state: vf.State,
    ) -> vf.Messages:
        turn = len(state["trajectory"])
        step = after_message(clinical_state(state), assistant_message, parsed, turn)
        if step == "finished":
            state["final_env_response"] = tool_replies
            return tool_replies
        if step == "remind":
            return [vf.UserMessage(content=REMINDER)]
        return tool_replies
