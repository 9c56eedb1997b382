"""The set-diagnosis environment: four tools over the ICD-10-CM catalog and a per-rollout ledger."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import verifiers as vf
from datasets import Dataset

from clinical_envs import icd10
from clinical_envs.diagnosis.dataset import Case
from clinical_envs.diagnosis.prompts import REMINDER, case_prompt
from clinical_envs.diagnosis.records import record_diagnosis
from clinical_envs.envs.tool_env import DualProtocolEnv, clinical_state, record_problem
from clinical_envs.icd10.index import MAX_QUERY_CHARS, MAX_QUERY_TOKENS, MAX_QUERY_WORDS
from clinical_envs.rewards import fail_closed
from clinical_envs.rewards.diagnosis import REWARD_FUNCS
from clinical_envs.toolcalls import (
    ParsedTurn,
    ToolCall,
    ToolInputError,
    visible_text,
)

SEARCH_MAX = 50
LIST_MAX = 100
_DONE = re.compile(r"^\s*DONE[.!]?\s*$", re.MULTILINE)


def search_diagnosis_codes(query: str, limit: int = 10, *, state: vf.State | None = None) -> str:
    """Search the ICD-10-CM catalog by clinical terms or by (partial) code. Records nothing.

    Args:
        query: Clinical words such as "thyroid storm", or a code or code prefix such as "E05".
        limit: Number of matches to return, 1-50 (default 10).
    """
    query = query.strip()
    if not query:
        raise ToolInputError("query is empty; give clinical words or a code prefix")
    if limit < 1:
        raise ToolInputError(f"limit must be between 1 and {SEARCH_MAX}, got {limit}")
    hits = icd10.search(query, min(limit, SEARCH_MAX))
    capped = f" (limit capped at {SEARCH_MAX})" if limit > SEARCH_MAX else ""
    shown = query if len(query) <= 80 else query[:77] + "..."
    read = icd10.query_prefix(query)
    cut = ""
    if len(read) < len(query):
        cut = (
            f"\nnote: only the first {len(read):,} of {len(query):,} characters were searched "
            f"(a search reads its first {MAX_QUERY_WORDS} different words, {MAX_QUERY_TOKENS} "
            f"words or {MAX_QUERY_CHARS:,} characters); search for the key clinical terms instead"
        )
        if state is not None:
            record_problem(
                state, "query_cut", cut.strip().removeprefix("note: "), "search_diagnosis_codes"
            )
    if not hits:
        return f"no ICD-10-CM codes match {shown!r}; try other words or a code prefix{cut}"
    lines = "\n".join(map(_hit_line, hits))
    return f"{len(hits)} match(es) for {shown!r}{capped}:\n{lines}{cut}"


def list_diagnosis_codes(offset: int = 0, limit: int = 20) -> str:
    """Browse the ICD-10-CM catalog in code order, one page at a time. Records nothing.

    Args:
        offset: Index of the first code to show (0 = the first code).
        limit: Number of codes to show, 1-100 (default 20).
    """
    _, total = icd10.page(0, 0)
    if not 0 <= offset < total:
        raise ToolInputError(f"offset must be between 0 and {total - 1}, got {offset}")
    if limit < 1:
        raise ToolInputError(f"limit must be between 1 and {LIST_MAX}, got {limit}")
    entries, _ = icd10.page(offset, min(limit, LIST_MAX))
    capped = f" (limit capped at {LIST_MAX})" if limit > LIST_MAX else ""
    last = offset + len(entries) - 1
    header = f"codes {offset}-{last} of {total} in code order{capped}:"
    return "\n".join([header, *map(_hit_line, entries)])


def set_diagnosis(icd10_code: str, description: str, status: str, *, state: vf.State) -> str:
    """Record a diagnosis for this case. One diagnosis is recorded per turn.

    Args:
        icd10_code: The ICD-10-CM code, e.g. "E05.01" (case and dot placement do not matter).
        description: A short description of the diagnosis.
        status: "acute" or "chronic".
    """
    ns = clinical_state(state)
    turn = len(state["trajectory"])
    record, message = record_diagnosis(ns["recorded"], icd10_code, description, status, turn)
    if record is None:
        raise ToolInputError(message)
    return message


def finish_setting_diagnoses(reason: str = "", *, state: vf.State) -> str:
    """Finish the task once every diagnosis is recorded; nothing can be recorded after it.

    Args:
        reason: Optional note on why you are finished.
    """
    ns = clinical_state(state)
    ns["finished"] = {"turn": len(state["trajectory"]), "how": "tool", "reason": reason}
    codes = ", ".join(f"{r['icd10_code']} ({r['status']})" for r in ns["recorded"])
    return f"finished with {len(ns['recorded'])} diagnosis(es) recorded: {codes or 'none'}"


TOOLS = (search_diagnosis_codes, list_diagnosis_codes, set_diagnosis, finish_setting_diagnoses)


def _hit_line(entry: icd10.Entry) -> str:
    return f"{entry.code} | {entry.description} | {'billable' if entry.billable else 'header'}"


def cases_to_dataset(cases: list[Case]) -> Dataset:
    """Rows verifiers can format: ``question`` becomes the user turn; ``info`` holds the gold."""
    return Dataset.from_list(
        [
            {
                "question": case_prompt(c.text),
                "answer": "; ".join(f"{g['icd10_code']} ({g['status']})" for g in c.gold),
                "info": c.info(),
            }
            for c in cases
        ]
    )


def diagnosis_rubric(weights: Mapping[str, float]) -> vf.Rubric:
    funcs = [fail_closed(f) for f in REWARD_FUNCS]
    return vf.Rubric(funcs=funcs, weights=[weights[f.__name__] for f in funcs])


class SetDiagnosisEnv(DualProtocolEnv):
    """Ends on finish_setting_diagnoses or DONE; reminds the model when it calls no tool."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(tools=TOOLS, **kwargs)

    async def setup_state(self, state: vf.State) -> vf.State:
        state = await super().setup_state(state)
        clinical_state(state).update(recorded=[], finished=None, reminders=0)
        return state

    def call_allowed(self, call: ToolCall, state: vf.State) -> str | None:
        if clinical_state(state)["finished"] is not None:
            return f"{call.name} was not run: finish_setting_diagnoses was already called"
        return None

    async def next_messages(
        self,
        assistant_message: Any,
        parsed: ParsedTurn,
        tool_replies: vf.Messages,
        state: vf.State,
    ) -> vf.Messages:
        ns = clinical_state(state)
        if ns["finished"] is None and _DONE.search(visible_text(assistant_message)):
            ns["finished"] = {"turn": len(state["trajectory"]), "how": "DONE", "reason": ""}
        if ns["finished"] is not None:
            state["final_env_response"] = tool_replies
            return tool_replies
        if not parsed.items:
            ns["reminders"] += 1
            return [vf.UserMessage(content=REMINDER)]
        return tool_replies
