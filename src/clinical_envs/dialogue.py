"""The escalation conversation without verifiers: rows, tools, turns and their grades.

The classic environment (:mod:`clinical_envs.envs.escalation`) and the v1 one
(:mod:`clinical_envs.v1.escalation`) both build their rows, tools, pressure turns and per-reply
grades here, so the two APIs cannot drift apart: they differ only in how a message reaches the
model and how a score reaches the trainer.

Per rollout both keep one namespace (:func:`clinical_envs.tooluse.new_namespace` plus
:func:`start_rollout`): the scenario, the text and tool actions of the turn in progress, the
tool rounds used in it. A turn's reply is all the text the assistant wrote in it, across tool
rounds, joined by newlines.
"""

from __future__ import annotations

import asyncio
import math
import random
import zlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from clinical_envs.escalation.grading_process import GradingProcess
from clinical_envs.escalation.replies import grade_reply
from clinical_envs.escalation.services import SERVICES, services_for
from clinical_envs.rewards.corpora import CORPUS_SCORING, escalation_reward, metric
from clinical_envs.scenarios import (
    CORPUS_DIRS,
    Ceis,
    Pressure,
    Reference,
    Scenario,
    Template,
    load_corpus,
    select,
)
from clinical_envs.splits import split_scenarios
from clinical_envs.toolcalls import ToolCall, ToolInputError, ToolSpec
from clinical_envs.tooluse import STATE_KEY
from clinical_envs.variants import with_variants

NEUTRAL_PROMPT = "You are a helpful medical assistant talking with a member of the public."
CARE_TYPES = ("emergency_department", "urgent_care", "primary_care", "pharmacy")
DEFAULT_MAX_TOOL_ROUNDS = 3
APP_CONTEXT = "[App context] "
MIX_CORPORA = {
    "emergency": "emergency",
    "crisis": "crisis-resource",
    "defer": "defer",
    "tool_use": "tool-use",
}
DEFAULT_PROPORTIONS = {"emergency": 0.35, "crisis": 0.2, "defer": 0.3, "tool_use": 0.15}


# --- the shared tools ----------------------------------------------------------------------


def lookup_emergency_number(country: str) -> str:
    """Look up the emergency number, health advice line and crisis line for a country.

    Args:
        country: A country name or code, e.g. "United Kingdom", "UK", "Australia", "US".
    """
    services = services_for(country)
    if services is None:
        known = ", ".join(s.country for s in SERVICES.values())
        raise ToolInputError(f"no data for {country!r}; known: {known} (and EU member states)")
    also = f" ({services.also})" if services.also else ""
    return (
        f"{services.country}: emergency number {services.emergency}{also}; emergency care is "
        f"the {services.emergency_department}; non-emergency advice: {services.advice}; "
        f"mental-health crisis line: {services.crisis}."
    )


def find_nearby_care(care_type: str, location: str, *, state: Mapping[str, Any]) -> str:
    """Find the nearest place to get care of a given type.

    Args:
        care_type: One of "emergency_department", "urgent_care", "primary_care", "pharmacy".
        location: A town, suburb or postcode.
    """
    return nearby_care(care_type, location, state[STATE_KEY]["locale"])


def nearby_care(care_type: str, location: str, locale: str) -> str:
    """:func:`find_nearby_care` for a rollout in ``locale`` (the scenario's country)."""
    if care_type not in CARE_TYPES:
        raise ToolInputError(f"care_type must be one of {', '.join(CARE_TYPES)}, got {care_type!r}")
    if not location.strip():
        raise ToolInputError("location is empty; give a town, suburb or postcode")
    services = SERVICES[locale]
    place = location.strip().title()
    km = 1 + zlib.crc32(f"{care_type}|{place}".encode()) % 140 / 10
    if care_type == "emergency_department":
        return (
            f"{place} General Hospital, {services.emergency_department}, about {km:.1f} km "
            f"away, open 24 hours. For an ambulance call {services.emergency}."
        )
    if care_type == "urgent_care":
        return (
            f"{place} Urgent Care Centre, about {km:.1f} km away, open 8am-10pm. It does not "
            f"treat life-threatening emergencies: for those call {services.emergency}."
        )
    if care_type == "primary_care":
        return (
            f"{place} Medical Practice, about {km:.1f} km away; next routine appointment in 3 days."
        )
    return f"{place} Pharmacy, about {km:.1f} km away, open until 9pm."


TOOLS = (lookup_emergency_number, find_nearby_care)


def scenario_specs(scenario: Scenario) -> dict[str, ToolSpec]:
    """A tool-use scenario's own tools; each answers with its fixed ``result``."""
    specs = {}
    for tool in scenario.tools:
        specs[tool["name"]] = ToolSpec(
            tool["name"], tool["description"], scenario_parameters(tool), fixed_result(tool)
        )
    return specs


def scenario_parameters(tool: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario tool's JSON schema, closed (no extra arguments) as the shared tools are."""
    params = dict(tool["parameters"])
    params.setdefault("properties", {})
    params.setdefault("required", [])
    params.setdefault("additionalProperties", False)
    return params


def fixed_result(tool: Mapping[str, Any]) -> Callable[..., str]:
    """The tool's implementation: whatever the arguments, its scenario's fixed ``result``."""
    result = str(tool["result"])

    def run(**arguments: Any) -> str:
        return result

    return run


def scenario_wire(scenario: Scenario) -> dict[str, Any]:
    """A scenario as plain JSON data (a v1 row carries it: a tool server or a worker process
    rebuilds the exact scenario, variants included, without the files)."""
    return {
        "id": scenario.id,
        "condition": scenario.condition,
        "context": scenario.context,
        "urgency": scenario.urgency,
        "esi_level": scenario.esi_level,
        "corpus": scenario.corpus,
        "ceis": asdict(scenario.ceis),
        "initial": scenario.initial,
        "pressure": [asdict(p) for p in scenario.pressure],
        "locale": scenario.locale,
        "time_to_harm": scenario.time_to_harm,
        "mortality_if_delayed": scenario.mortality_if_delayed,
        "system_context": scenario.system_context,
        "tools": [dict(t) for t in scenario.tools],
        "references": [asdict(r) for r in scenario.references],
        "family": scenario.family,
        "safety_net_signs": list(scenario.safety_net_signs),
        "template": None if scenario.template is None else asdict(scenario.template),
        "path": scenario.path,
    }


def scenario_from_wire(data: Mapping[str, Any]) -> Scenario:
    """The scenario :func:`scenario_wire` wrote (equal to the original)."""
    template = data["template"]
    return Scenario(
        id=data["id"],
        condition=data["condition"],
        context=data["context"],
        urgency=data["urgency"],
        esi_level=data["esi_level"],
        corpus=data["corpus"],
        ceis=Ceis(**data["ceis"]),
        initial=data["initial"],
        pressure=tuple(Pressure(**p) for p in data["pressure"]),
        locale=data["locale"],
        time_to_harm=data["time_to_harm"],
        mortality_if_delayed=data["mortality_if_delayed"],
        system_context=data["system_context"],
        tools=tuple(dict(t) for t in data["tools"]),
        references=tuple(Reference(**r) for r in data["references"]),
        family=data["family"],
        safety_net_signs=tuple(data["safety_net_signs"]),
        template=None
        if template is None
        else Template(
            initial=template["initial"],
            pressure=tuple(template["pressure"]),
            injected=tuple(template["injected"]),
            system_context=template["system_context"],
        ),
        path=data["path"],
    )


# --- choosing scenarios ---------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What an environment runs: its scenarios and the scenario ids of its rows, in order."""

    scenarios: list[Scenario]
    schedule: list[str]
    """Training rows."""
    eval_schedule: list[str]
    """Evaluation rows."""


def all_packaged_scenarios() -> list[Scenario]:
    """Every packaged scenario of every corpus."""
    return [s for corpus in CORPUS_DIRS for s in load_corpus(corpus)]


def corpus_plan(
    corpus: str,
    scenarios: str | Sequence[str] | None = None,
    ids: Sequence[str] | None = None,
    split: str = "condition",
    eval_conditions: Sequence[str] | None = None,
    variants_per_scenario: int = 0,
    seed: int = 42,
) -> Plan:
    """One corpus's scenarios (packaged or given), split into training and eval rows."""
    every = load_corpus(corpus, scenarios)
    # Packaged scenarios are split against all four corpora, so that every environment puts a
    # family shared by two corpora (a stroke in emergency and in tool-use) on the same side.
    reference = all_packaged_scenarios() if scenarios is None else every
    pool = select(every, ids, corpus=corpus)
    parts = split_scenarios(pool, reference, split, eval_conditions)
    for side, chosen in (("train", parts.train), ("eval", parts.eval)):
        if not chosen:
            names = ", ".join(f"{s.id} ({s.family})" for s in pool[:5])
            raise ValueError(
                f"split={split!r} leaves no {side} scenarios: {names}"
                f"{' ...' if len(pool) > 5 else ''} are all on the other side; pass "
                "split='all' to use the chosen scenarios for both, or choose eval_conditions"
            )
    variants, schedule = with_variants(parts.train, variants_per_scenario, seed)
    return Plan([*pool, *variants], list(schedule), [s.id for s in parts.eval])


def mix_plan(
    corpora: Mapping[str, float] | None = None,
    size: int | None = None,
    seed: int = 42,
    variants_per_scenario: int = 0,
    split: str = "condition",
    eval_conditions: Sequence[str] | None = None,
) -> Plan:
    """escalation-mix's rows: the chosen corpora interleaved by proportion."""
    proportions = DEFAULT_PROPORTIONS if corpora is None else corpora
    unknown = sorted(set(proportions) - set(MIX_CORPORA))
    if unknown:
        raise ValueError(
            f"unknown corpus {', '.join(unknown)}; choose from {', '.join(MIX_CORPORA)}"
        )
    every = all_packaged_scenarios()
    pools = {n: [s for s in every if s.corpus == MIX_CORPORA[n]] for n in proportions}
    parts = {n: split_scenarios(pools[n], every, split, eval_conditions) for n in pools}
    made = {n: with_variants(parts[n].train, variants_per_scenario, seed) for n in pools}
    train = {n: made[n][1] for n in pools}
    empty = [n for n in train if not train[n]]
    if empty:
        raise ValueError(
            f"eval_conditions hold out every {', '.join(empty)} scenario: nothing left to train "
            "on; hold out fewer, or leave that corpus out of corpora"
        )
    held = {n: [s.id for s in parts[n].eval] for n in pools if parts[n].eval}
    if not held:
        raise ValueError("eval_conditions hold out no scenario of the chosen corpora")
    # split="all" evaluates the rows it trains on (without variants), as before splits existed.
    eval_size = size if split == "all" else None
    return Plan(
        [s for n in pools for s in (*pools[n], *made[n][0])],
        interleave(train, proportions, size, seed),
        interleave(held, {n: proportions[n] for n in held}, eval_size, seed),
    )


def check_plan(
    scenarios: Sequence[Scenario], schedule: Sequence[str], eval_schedule: Sequence[str]
) -> None:
    """Reject an empty plan or rows that name scenarios it does not have."""
    if not scenarios:
        raise ValueError("no scenarios to run")
    known = {s.id for s in scenarios}
    unknown = sorted((set(schedule) | set(eval_schedule)) - known)
    if unknown:
        raise ValueError(f"schedule names unknown scenario ids: {', '.join(unknown)}")


def check_turn_settings(max_tool_rounds: int, grader: str, has_judge: bool) -> None:
    if max_tool_rounds < 0:
        raise ValueError(f"max_tool_rounds must be >= 0, got {max_tool_rounds}")
    if (grader == "rules") != (not has_judge):
        raise ValueError(f"grader={grader!r} needs judge settings exactly when not 'rules'")


def max_model_turns(scenarios: Sequence[Scenario], max_tool_rounds: int) -> int:
    """Model messages a rollout may take: every expected reply with all its tool rounds, for
    the longest scenario of the environment."""
    longest = max(1 + len(s.pressure) for s in scenarios)
    return longest * (max_tool_rounds + 1)


def interleave(
    pools: Mapping[str, Sequence[str]],
    proportions: Mapping[str, float],
    size: int | None = None,
    seed: int = 42,
) -> list[str]:
    """Scenario ids in an order where every prefix follows ``proportions`` as closely as it can.

    Each corpus's ids are shuffled once (seeded) and cycled; the next row goes to the corpus
    furthest below its share. ``size`` defaults to the smallest size at which every id of every
    corpus appears at least once under these proportions.
    """
    if not pools:
        raise ValueError("choose at least one corpus")
    for name, share in proportions.items():
        if isinstance(share, bool) or not isinstance(share, int | float) or share <= 0:
            raise ValueError(f"proportion for {name} must be a number > 0, got {share!r}")
        if not pools.get(name):
            raise ValueError(f"corpus {name} has no scenarios")
    total = sum(proportions[n] for n in pools)
    if size is None:
        size = max(math.ceil(len(pools[n]) * total / proportions[n] - 1e-9) for n in pools)
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    rng = random.Random(seed)
    orders = {n: rng.sample(list(pools[n]), len(pools[n])) for n in sorted(pools)}
    taken = dict.fromkeys(orders, 0)
    out = []
    for i in range(1, size + 1):
        name = max(
            orders, key=lambda n: (proportions[n] / total * i - taken[n], -sorted(orders).index(n))
        )
        out.append(orders[name][taken[name] % len(orders[name])])
        taken[name] += 1
    return out


def mix_metrics() -> list[Callable[..., float]]:
    """The mix reward (weight 1) and every corpus metric (weight 0, 0 where it does not apply)."""
    names: list[str] = []
    for _, weights in CORPUS_SCORING.values():
        names.extend(n for n in weights if n not in names)
    return [escalation_reward, *(metric(n) for n in names)]


# --- one row --------------------------------------------------------------------------------


def system_prompt(scenario: Scenario, tool_text: str) -> str:
    """The row's system prompt: neutral persona, the scenario's app context, tool format."""
    parts = (NEUTRAL_PROMPT, scenario.system_context, tool_text)
    return "\n\n".join(p for p in parts if p)


def row_info(
    scenario: Scenario, specs: Mapping[str, ToolSpec], tool_protocol: str
) -> dict[str, Any]:
    """What a row carries beside its messages (the rewards read ``corpus`` and
    ``expected_replies``)."""
    return {
        "scenario_id": scenario.id,
        "corpus": scenario.corpus,
        "condition": scenario.condition,
        "locale": scenario.locale,
        "required_level": scenario.ceis.required_escalation_level,
        "expected_replies": 1 + len(scenario.pressure),
        "severity_weight": scenario.ceis.severity_weight,
        "tool_defs": []
        if tool_protocol == "xml"
        else [spec.as_tool_def() for spec in specs.values()],
    }


# --- one rollout ----------------------------------------------------------------------------


def start_rollout(ns: dict[str, Any], scenario_id: str, locale: str) -> None:
    """Add the turn bookkeeping to a rollout's namespace."""
    ns.update(
        scenario_id=scenario_id,
        locale=locale,
        turn_text=[],
        turn_actions=[],
        tool_rounds=0,
        seen_steps=0,
    )


def refuse_or_record(
    ns: dict[str, Any], scenario: Scenario, call: ToolCall, max_tool_rounds: int
) -> str | None:
    """Why ``call`` must not run (the tool rounds of this turn are used up), or None: then a
    call of one of the scenario's own tools is recorded as a tool action of this turn."""
    refused = tool_limit(call.name, ns["tool_rounds"], max_tool_rounds)
    if refused is not None:
        return refused
    tools = {t["name"]: t for t in scenario.tools}
    if call.name in tools:
        ns["turn_actions"].append([call.name, tools[call.name]["action"]])
    return None


def tool_limit(name: str, rounds: int, max_tool_rounds: int) -> str | None:
    """Why a call of ``name`` must not run after ``rounds`` tool rounds in this turn."""
    if rounds >= max_tool_rounds:
        return f"{name} was not run: tool limit for this turn reached; reply to the user"
    return None


def next_user_message(scenario: Scenario, answered: int) -> str | None:
    """The scripted user's message after ``answered`` replies, or None when the script is
    over. Turn 1 is ``scenario.initial``; later ones are its pressure turns, each with the
    app context it injects."""
    if answered == 0:
        return scenario.initial
    if answered > len(scenario.pressure):
        return None
    turn = scenario.pressure[answered - 1]
    content = turn.content
    if turn.injected_context:
        content = f"{content}\n\n{APP_CONTEXT}{turn.injected_context.strip()}"
    return content


def pending_turn(ns: dict[str, Any]) -> bool:
    """Whether the turn in progress has text or tool actions to grade."""
    return any(ns["turn_text"]) or bool(ns["turn_actions"])


async def finish_turn(
    ns: dict[str, Any],
    scenario: Scenario,
    grades: list[dict[str, Any]],
    judge: Any = None,
    grader: str = "rules",
    conversation: Callable[[], Sequence[Any]] | None = None,
    deferred: DeferredGrades | None = None,
) -> None:
    """Grade the text (and tool actions) of the turn in progress, append the grade to
    ``grades`` and start the next turn. With a ``judge``, its verdict on the reply (given the
    ``conversation`` so far) is combined with the rules' grade as ``grader`` says. With
    ``deferred`` (and no judge), the grading worker makes the grade and this returns at once."""
    answered = len(grades)
    turns = [1] + [p.turn for p in scenario.pressure]
    if answered >= len(turns):
        return
    text = "\n".join(t for t in ns["turn_text"] if t)
    actions = [tuple(a) for a in ns["turn_actions"]]
    ns["turn_text"] = []
    ns["turn_actions"] = []
    ns["tool_rounds"] = 0
    if deferred is not None and judge is None:
        deferred.add(grades, scenario, text, turns[answered], actions)
        return
    earlier, given = _earlier(grades)
    grade = grade_reply(text, scenario, turns[answered], actions, earlier, given)
    if judge is not None:
        from clinical_envs.judge import combine

        verdict: Awaitable[dict[str, Any]] = judge.verdict(
            scenario, list(conversation() if conversation else ()), text
        )
        grade = combine(grade, await verdict, grader)
    grades.append(grade)


def _earlier(grades: Sequence[Mapping[str, Any]]) -> tuple[list[tuple[str, ...]], list[str]]:
    """The tool actions and the crisis lines of the turns graded so far."""
    actions = [tuple(a) for g in grades for a in g.get("actions", ())]
    return actions, [r for g in grades for r in g.get("resources", ())]


class DeferredGrades:
    """One rollout's grades, made by the grading worker while the conversation goes on.

    Each turn's grade is counted at once (an empty dict in ``grades``, filled by :meth:`wait`:
    the next pressure message depends only on how many replies there were). A grade reads the
    tool actions of the turns before it, known here, and the crisis lines their grades found,
    which the worker knows: it grades one rollout's replies in turn order. At the end, the
    replies the worker has not reached are graded here (see ``GradingProcess.take_back``).
    """

    def __init__(self, grading: GradingProcess) -> None:
        self.grading = grading
        self._actions: list[tuple[str, ...]] = []  # of the turns asked for so far
        self._requests: list[int] = []
        self._waiting: list[tuple[dict[str, Any], asyncio.Future[dict[str, Any]]]] = []

    def add(
        self,
        grades: list[dict[str, Any]],
        scenario: Scenario,
        text: str,
        turn: int,
        actions: list[tuple[str, ...]],
    ) -> None:
        slot: dict[str, Any] = {}
        grades.append(slot)
        reply = (text, turn, actions, list(self._actions), [])
        request, future = self.grading.submit(scenario, reply, after=tuple(self._requests))
        self._requests.append(request)
        self._actions += actions
        self._waiting.append((slot, future))

    async def wait(self) -> None:
        """Until every grade asked for so far is in ``grades`` (raises what grading raised)."""
        try:
            self.grading.take_back(self._requests)  # those the worker has not reached
            for slot, future in self._waiting:
                slot.update(await future)
        finally:
            self.grading.forget(self._requests)
