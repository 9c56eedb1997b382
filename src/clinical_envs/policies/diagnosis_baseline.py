"""Retrieval baseline for set-diagnosis: search with the case text, record the top hit, finish.

It reads only what the environment shows it (the case and the tool results), so its score is an
honest floor for a model that does no clinical reasoning.
"""

from __future__ import annotations

import re

from clinical_envs.policies.base import ChatRequest, Protocol, Reply

_HIT = re.compile(r"^([A-Z][0-9][0-9A-Z](?:\.[0-9A-Z]{1,4})?) \| (.+?) \| billable$", re.M)
_CHRONIC = re.compile(r"\b(chronic|years?|long-?standing|progressive|since childhood)\b", re.I)
_ACUTE = re.compile(r"\b(acute|sudden|hours?|abrupt|emergency|today|overnight)\b", re.I)


def guess_status(case_text: str) -> str:
    """``acute`` unless the case talks more about duration than about abrupt onset."""
    chronic, acute = len(_CHRONIC.findall(case_text)), len(_ACUTE.findall(case_text))
    return "chronic" if chronic > acute else "acute"


def case_text(user_message: str) -> str:
    """The case report without the environment's framing lines."""
    text = user_message.removeprefix("Case report:").strip()
    return text.removesuffix("Record the primary diagnosis.").strip()


class RetrievalBaseline:
    def __init__(self, protocol: Protocol = "auto", limit: int = 5) -> None:
        self.protocol = protocol
        self.limit = limit

    def __call__(self, request: ChatRequest) -> Reply:
        case = case_text(request.first_user_text)
        turn = request.assistant_turns
        if turn == 0:
            args = {"query": case, "limit": self.limit}
            return Reply(None, [("search_diagnosis_codes", args)], self.protocol)
        if turn == 1:
            hit = _HIT.search(request.last_text)
            if hit is not None:
                code, description = hit.groups()
                args = {
                    "icd10_code": code,
                    "description": description,
                    "status": guess_status(case),
                }
                return Reply(None, [("set_diagnosis", args)], self.protocol)
        reason = {"reason": "recorded the best catalog match"}
        return Reply(None, [("finish_setting_diagnoses", reason)], self.protocol)
