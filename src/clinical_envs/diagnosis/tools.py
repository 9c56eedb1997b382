"""The set-diagnosis tools and the rollout's ledger, without verifiers.

Both adapters (the classic environment in :mod:`clinical_envs.envs.set_diagnosis` and the v1
task in :mod:`clinical_envs.v1.diagnosis`) answer every call with these functions, through
:func:`clinical_envs.tooluse.answer_call`, and decide what follows a message with
:func:`after_message`. So a call gets the same words, the same record and the same problem on
both APIs, and the same transcript earns the same reward.

The ledger lives in the rollout's namespace (``state["clinical"]`` classic,
``trace.info["clinical"]`` v1): the tool counters and problems of :mod:`clinical_envs.tooluse`
plus ``recorded`` (the accepted diagnoses), ``finished`` (how and when the model finished) and
``reminders`` (replies that called no tool).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from clinical_envs import icd10
from clinical_envs.diagnosis.records import record_diagnosis
from clinical_envs.icd10.index import MAX_QUERY_CHARS, MAX_QUERY_TOKENS, MAX_QUERY_WORDS
from clinical_envs.toolcalls import (
    ParsedTurn,
    ToolCall,
    ToolInputError,
    ToolSpec,
    tool_spec,
    visible_text,
)
from clinical_envs.tooluse import new_namespace, record_problem

SEARCH_MAX = 50
LIST_MAX = 100
DONE = re.compile(r"^\s*DONE[.!]?\s*$", re.MULTILINE)
"""A line that is only ``DONE`` ends the rollout, as ``finish_setting_diagnoses`` does."""

Next = Literal["finished", "remind", "answer"]


@dataclass(frozen=True)
class CallContext:
    """What a ledger tool acts on: the rollout's namespace and the number of the model message
    whose calls are being answered (1 for the first). Passed to the tools as their ``state``
    keyword, which :func:`clinical_envs.tooluse.answer_call` injects."""

    ns: dict[str, Any]
    turn: int


def start_ledger(ns: dict[str, Any]) -> dict[str, Any]:
    """Add an empty ledger to a rollout's namespace (made by ``new_namespace``); returns it."""
    ns.update(recorded=[], finished=None, reminders=0)
    return ns


def new_ledger() -> dict[str, Any]:
    """A fresh namespace with an empty ledger."""
    return start_ledger(new_namespace())


def search_diagnosis_codes(query: str, limit: int = 10, *, state: CallContext | None = None) -> str:
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
            message = cut.strip().removeprefix("note: ")
            record_problem(state.ns, state.turn, "query_cut", message, "search_diagnosis_codes")
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


def set_diagnosis(icd10_code: str, description: str, status: str, *, state: CallContext) -> str:
    """Record a diagnosis for this case. One diagnosis is recorded per turn.

    Args:
        icd10_code: The ICD-10-CM code, e.g. "E05.01" (case and dot placement do not matter).
        description: A short description of the diagnosis.
        status: "acute" or "chronic".
    """
    record, message = record_diagnosis(
        state.ns["recorded"], icd10_code, description, status, state.turn
    )
    if record is None:
        raise ToolInputError(message)
    return message


def finish_setting_diagnoses(reason: str = "", *, state: CallContext) -> str:
    """Finish the task once every diagnosis is recorded; nothing can be recorded after it.

    Args:
        reason: Optional note on why you are finished.
    """
    ns = state.ns
    ns["finished"] = {"turn": state.turn, "how": "tool", "reason": reason}
    codes = ", ".join(f"{r['icd10_code']} ({r['status']})" for r in ns["recorded"])
    return f"finished with {len(ns['recorded'])} diagnosis(es) recorded: {codes or 'none'}"


TOOLS = (search_diagnosis_codes, list_diagnosis_codes, set_diagnosis, finish_setting_diagnoses)


def tool_specs() -> dict[str, ToolSpec]:
    """The four tools as offered to the model, by name (schemas from the functions above)."""
    return {s.name: s for s in map(tool_spec, TOOLS)}


def refusal(ns: dict[str, Any], call: ToolCall) -> str | None:
    """Why ``call`` must not run (a message for the model), or None: nothing runs after
    ``finish_setting_diagnoses``, not even the later calls of the same message."""
    if ns["finished"] is not None:
        return f"{call.name} was not run: finish_setting_diagnoses was already called"
    return None


def after_message(ns: dict[str, Any], message: Any, parsed: ParsedTurn, turn: int) -> Next:
    """What follows a model message whose calls were answered: "finished" (end the rollout;
    a ``DONE`` line finishes too), "remind" (it called no tool: send
    :data:`clinical_envs.diagnosis.prompts.REMINDER`, counted) or "answer" (send the results)."""
    if ns["finished"] is None and DONE.search(visible_text(message)):
        ns["finished"] = {"turn": turn, "how": "DONE", "reason": ""}
    if ns["finished"] is not None:
        return "finished"
    if not parsed.items:
        ns["reminders"] += 1
        return "remind"
    return "answer"


def _hit_line(entry: icd10.Entry) -> str:
    return f"{entry.code} | {entry.description} | {'billable' if entry.billable else 'header'}"
