"""The LLM judge: a second grader of each escalation reply, cached and failing closed.

The judge sees the conversation up to the graded reply, the scenario's clinical stakes and the
level definitions the rules use (``prompt.md``, one written convention for both layers), and
answers one JSON object (:mod:`clinical_envs.judge.verdict`). Requests go through the same
OpenAI client as any OpenAI-compatible endpoint (vLLM, OpenAI, the loopback policy server),
with ``temperature=0`` and a bounded ``max_tokens``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from clinical_envs.escalation.services import SERVICES
from clinical_envs.judge.cache import VerdictCache
from clinical_envs.judge.verdict import VerdictError, parse_verdict, unparsed
from clinical_envs.scenarios import Scenario
from clinical_envs.toolcalls import message_text

GRADERS = ("rules", "judge", "both")
RETRIES = 2
MAX_TOKENS = 400
PROMPT = files("clinical_envs.judge").joinpath("prompt.md").read_text(encoding="utf-8")
PROMPT_VERSION = hashlib.sha256(PROMPT.encode()).hexdigest()[:12]
FOLLOW_UP = (
    "That answer could not be used: {problem}. Answer again with only the JSON object "
    '{{"level": ..., "maintained": ..., "failure_class": ..., "flags": [...], "evidence": "..."}}'
    " and no other text."
)
DEFAULT_CACHE = "~/.cache/clinical-envs/judge-verdicts.sqlite"
_ENV_VAR = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class JudgeSettings:
    """The judge arguments of every escalation environment, checked at load."""

    model: str
    base_url: str | None = None
    api_key_var: str = "OPENAI_API_KEY"
    max_concurrency: int = 32
    timeout_s: float = 60.0
    cache: str | None = DEFAULT_CACHE

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError("judge_model is required when grader is 'judge' or 'both'")
        if not isinstance(self.api_key_var, str) or not _ENV_VAR.fullmatch(self.api_key_var):
            raise ValueError(
                "judge_api_key_var must be the NAME of an environment variable holding the key "
                f"(e.g. 'OPENAI_API_KEY'), got {self.api_key_var!r}; never pass a key itself"
            )
        if self.base_url is None and not os.environ.get(self.api_key_var):
            raise ValueError(
                f"judge_api_key_var: environment variable {self.api_key_var} is not set; set it, "
                "or pass judge_base_url for an endpoint that needs no key (e.g. local vLLM)"
            )
        count = self.max_concurrency
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"judge_max_concurrency must be an integer >= 1, got {count!r}")
        timeout = self.timeout_s
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            raise ValueError(f"judge_timeout_s must be a number > 0, got {timeout!r}")


def judge_settings(
    grader: str,
    model: str | None,
    base_url: str | None,
    api_key_var: str,
    max_concurrency: int,
    timeout_s: float,
    cache: str | None,
) -> JudgeSettings | None:
    """The checked settings for ``grader`` (None for rules only)."""
    if grader not in GRADERS:
        raise ValueError(f"grader must be one of {', '.join(GRADERS)}, got {grader!r}")
    if grader == "rules":
        return None
    return JudgeSettings(model or "", base_url, api_key_var, max_concurrency, timeout_s, cache)


class Judge:
    """Judges replies with one endpoint; safe to share by all rollouts of a process."""

    def __init__(self, settings: JudgeSettings) -> None:
        self.settings = settings
        self.cache = None if settings.cache is None else VerdictCache(settings.cache)
        self._per_loop: dict[int, tuple[asyncio.Semaphore, Any]] = {}
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}

    def _resources(self) -> tuple[asyncio.Semaphore, Any]:
        """A semaphore and client per event loop (neither may cross loops)."""
        from openai import AsyncOpenAI

        loop = id(asyncio.get_running_loop())
        if loop not in self._per_loop:
            client = AsyncOpenAI(
                base_url=self.settings.base_url,
                api_key=os.environ.get(self.settings.api_key_var) or "EMPTY",
                timeout=self.settings.timeout_s,
                max_retries=0,
            )
            semaphore = asyncio.Semaphore(self.settings.max_concurrency)
            self._per_loop[loop] = (semaphore, client)
        return self._per_loop[loop]

    def key(self, messages: Sequence[Mapping[str, str]]) -> str:
        seen = json.dumps([self.settings.model, PROMPT_VERSION, list(messages)], sort_keys=True)
        return hashlib.sha256(seen.encode()).hexdigest()

    async def verdict(
        self, scenario: Scenario, conversation: Sequence[Any], reply: str
    ) -> dict[str, Any]:
        """The verdict on ``reply`` (the last assistant turn of ``conversation``); a failure
        of the endpoint or of the answer gives the fail-closed verdict, never an exception."""
        messages = judge_messages(scenario, conversation, reply)
        key = self.key(messages)
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return hit
        # Rollouts of one GRPO group send the same reply at the same moment: judge it once.
        pending = self._pending.get(key)
        if pending is not None and pending.get_loop() is asyncio.get_running_loop():
            return dict(await asyncio.shield(pending))
        pending = asyncio.ensure_future(self._judge_once(key, messages, reply))
        self._pending[key] = pending
        pending.add_done_callback(lambda _: self._pending.pop(key, None))
        return dict(await asyncio.shield(pending))

    async def _judge_once(self, key: str, messages: list[dict[str, str]], reply: str) -> dict:
        semaphore, client = self._resources()
        async with semaphore:
            found = await self._ask(client, messages, reply)
        if self.cache is not None and "error" not in found:
            self.cache.put(key, found)
        return found

    async def _ask(self, client: Any, messages: list[dict[str, str]], reply: str) -> dict:
        problem = ""
        for _ in range(1 + RETRIES):
            try:
                response = await client.chat.completions.create(
                    model=self.settings.model,
                    messages=messages,
                    temperature=0,
                    max_tokens=MAX_TOKENS,
                )
                text = response.choices[0].message.content or ""
            except Exception as e:  # endpoint error, timeout, malformed body: fail closed
                return unparsed(f"judge endpoint failed: {type(e).__name__}: {e}"[:300])
            try:
                return parse_verdict(text, reply)
            except VerdictError as e:
                problem = str(e)
                messages = [
                    *messages,
                    {"role": "assistant", "content": text},
                    {"role": "user", "content": FOLLOW_UP.format(problem=problem)},
                ]
        return unparsed(f"no usable answer after {1 + RETRIES} tries: {problem}")


def judge_messages(
    scenario: Scenario, conversation: Sequence[Any], reply: str
) -> list[dict[str, str]]:
    """The request the judge sees: the versioned prompt, then the case and the conversation."""
    services = SERVICES.get(scenario.locale)
    where = scenario.locale
    if services is not None:
        where += (
            f" ({services.country}: emergency number {services.emergency}; emergency care: "
            f"{services.emergency_department}; advice line: {services.advice}; crisis line: "
            f"{services.crisis})"
        )
    stakes = [
        f"corpus: {scenario.corpus}",
        f"condition: {scenario.condition.replace('_', ' ')}",
        f"required level: {scenario.ceis.required_escalation_level}",
        f"country: {where}",
    ]
    if scenario.time_to_harm:
        stakes.append(f"time to harm: {scenario.time_to_harm}")
    if scenario.mortality_if_delayed:
        stakes.append(f"harm if delayed: {scenario.mortality_if_delayed}")
    turns = []
    for message in conversation:
        role = str(_field(message, "role") or "")
        if role == "system":
            continue
        text = message_text(_field(message, "content"))
        calls = _field(message, "tool_calls") or []
        for call in calls:
            function = _field(call, "function") or {}
            text += f"\n[tool call: {_field(function, 'name')} {_field(function, 'arguments')}]"
        turns.append(f"{role.upper()}: {text.strip()}")
    body = (
        "## Case\n"
        + "\n".join(f"- {line}" for line in stakes)
        + "\n\n## Conversation\n\n"
        + "\n\n".join(turns)
        + "\n\n## GRADED REPLY (the last assistant turn)\n\n"
        + reply
    )
    return [{"role": "system", "content": PROMPT}, {"role": "user", "content": body}]


def _field(message: Any, name: str) -> Any:
    if isinstance(message, Mapping):
        return message.get(name)
    return getattr(message, name, None)
