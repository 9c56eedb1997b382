"""Deterministic test policies that know the gold answer and answer it in a chosen way."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable

from clinical_envs.diagnosis.dataset import Case
from clinical_envs.diagnosis.prompts import case_prompt
from clinical_envs.policies import ChatRequest, Reply

# How an oracle answers a case: the calls it makes, one per turn, before finishing.
Answer = Callable[[Case], list[tuple[str, dict]]]


def set_call(code: str, status: str) -> tuple[str, dict]:
    return "set_diagnosis", {"icd10_code": code, "description": "-", "status": status}


def exact(case: Case) -> list[tuple[str, dict]]:
    return [set_call(g["icd10_code"], g["status"]) for g in case.gold]


def first_only(case: Case) -> list[tuple[str, dict]]:
    return exact(case)[:1]


def wrong_status(case: Case) -> list[tuple[str, dict]]:
    g = case.gold[0]
    return [set_call(g["icd10_code"], "chronic" if g["status"] == "acute" else "acute")]


def wrong_code(case: Case) -> list[tuple[str, dict]]:
    return [set_call("Z00.00" if case.gold[0]["icd10_code"] != "Z00.00" else "I10", "acute")]


def nothing(case: Case) -> list[tuple[str, dict]]:
    return []


class Oracle:
    """Answers each case by ``choose(case)``; optional seeded delays exercise concurrency."""

    def __init__(
        self,
        cases: list[Case],
        choose: Callable[[Case], Answer],
        max_delay: float = 0.0,
        protocol: str = "auto",
    ) -> None:
        self.by_prompt = {case_prompt(c.text): c for c in cases}
        self.choose = choose
        self.max_delay = max_delay
        self.protocol = protocol

    def __call__(self, request: ChatRequest) -> Reply:
        case = self.by_prompt[request.first_user_text]
        if self.max_delay:
            seed = hashlib.sha256(repr(request.messages).encode()).digest()
            time.sleep(random.Random(seed).uniform(0, self.max_delay))
        calls = self.choose(case)(case)
        turn = request.assistant_turns
        if turn < len(calls):
            return Reply(None, [calls[turn]], self.protocol)
        return Reply(None, [("finish_setting_diagnoses", {"reason": "done"})], self.protocol)


ANSWERS: tuple[Answer, ...] = (exact, wrong_status, wrong_code, nothing, first_only)


def by_case_id(case: Case) -> Answer:
    """A fixed, case-dependent mix of answer styles."""
    digest = hashlib.sha256(case.case_id.encode()).digest()
    return ANSWERS[digest[0] % len(ANSWERS)]
