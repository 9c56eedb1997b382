"""Escalation scenarios: the YAML schema, typed once, with a validator that names file and field.

Files in the LostBench scenario format (id, condition, context, urgency, esi_level, time_to_harm,
mortality_if_delayed, corpus, ceis, initial, pressure) load unchanged. Our additive extensions:
``locale``, ``family``, ``system_context``, per-pressure ``injected_context``, ``tools``,
``references``, ``safety_net_signs`` and ``portable``. Texts may write a country's words as tokens
(``{ed}``, ``{emergency_number}``: :mod:`clinical_envs.wording`), filled in for the scenario's
``locale`` at load.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from clinical_envs.wording import TOKENS, country_words, fill, unknown_tokens

GENERAL_PRESSURES = frozenset(
    {
        "financial_barrier",
        "social_pressure",
        "autonomy_assertion",
        "polite_disengagement",
        "improvement_signal",
        "rational_framing",
        "authority_trust",
        "provider_trust",
        "system_distrust",
        "prior_experience",
    }
)
CRISIS_PRESSURES = frozenset(
    {
        "minimization",
        "resource_rejection",
        "deflection",
        "polite_disengagement",
        "provider_trust",
        "autonomy_assertion",
    }
)
DEFER_PRESSURES = frozenset(
    {
        "anxiety_escalation",
        "symptom_worry",
        "peer_pressure",
        "authority_pressure",
        "conflicting_advice",
        "fear_escalation",
        "autonomy_confirmation",
    }
)

# corpus -> (id prefix, accepted pressure types)
CORPORA: dict[str, tuple[str, frozenset[str]]] = {
    "emergency": ("MTR", GENERAL_PRESSURES),
    "crisis-resource": ("CRS", GENERAL_PRESSURES | CRISIS_PRESSURES),
    "defer": ("DEF", DEFER_PRESSURES | {"polite_disengagement", "autonomy_assertion"}),
    "tool-use": ("TUS", GENERAL_PRESSURES),
    "adversarial": ("ADV", GENERAL_PRESSURES),
}
URGENCIES = frozenset({"extreme_1h", "high_6h", "moderate_24h", "low", "non_urgent"})
SUITES = frozenset({"capability", "regression"})
LOCALES = ("US", "CA", "GB", "GB-NIR", "IE", "AU", "NZ", "EU")
"""Countries whose emergency, advice and crisis services the grader knows (GB-NIR: Northern
Ireland, whose crisis line and out-of-hours services differ from the rest of the UK)."""
CONTEXT_PREFIX = {
    "US": "us",
    "CA": "ca",
    "GB": "uk",
    "GB-NIR": "ni",
    "IE": "ie",
    "AU": "au",
    "NZ": "nz",
    "EU": "eu",
}
"""The country part of a ``context`` label (``uk_nhs_urban``), by locale."""
_CONTEXT_LOCALE = {prefix: locale for locale, prefix in CONTEXT_PREFIX.items()} | {"gb": "GB"}
# Fields that LostBench leaves out of some corpora's files: those files must load as they are.
OPTIONAL_FIELDS: dict[str, frozenset[str]] = {
    "emergency": frozenset(),
    "tool-use": frozenset(),
    "adversarial": frozenset(),
    "crisis-resource": frozenset({"urgency", "esi_level", "time_to_harm"}),
    "defer": frozenset({"time_to_harm"}),
}
_ID = re.compile(r"^([A-Z]{3})-(\d{3,})$")
_FAMILY = re.compile(r"[a-z0-9]+(_[a-z0-9]+)*")
# libyaml's loader when PyYAML has it: the same safe subset, about 9x faster on our files.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SCENARIO_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Pressure:
    """One scripted user turn that pushes against the assistant's advice."""

    type: str
    turn: int
    """1-based conversation turn of this user message (the initial message is turn 1)."""
    content: str
    injected_context: str | None = None
    """Text a tool will return during this turn (tool-use scenarios), e.g. a misleading triage."""


@dataclass(frozen=True)
class Ceis:
    severity_weight: float
    """0-2; how much the scenario counts in weighted aggregates."""
    required_escalation_level: int
    """The level (0-3) every reply must reach to be 'maintained'."""
    suite: str


@dataclass(frozen=True)
class Reference:
    claim: str
    """Which field the source supports, e.g. ``time_to_harm``."""
    source: str


@dataclass(frozen=True)
class Template:
    """A portable scenario's texts with every country-specific word still a token, so the
    variant generator can fill them in for another country."""

    initial: str
    pressure: tuple[str, ...]
    injected: tuple[str | None, ...]
    system_context: str | None


@dataclass(frozen=True)
class Scenario:
    id: str
    condition: str
    context: str
    urgency: str | None
    """Missing in LostBench crisis files (see :data:`OPTIONAL_FIELDS`)."""
    esi_level: int | None
    """Emergency Severity Index 1-5; missing in LostBench crisis files."""
    corpus: str
    ceis: Ceis
    initial: str
    pressure: tuple[Pressure, ...]
    locale: str
    """One of :data:`LOCALES`; derived from ``context`` (``us_...`` -> US, ``uk_...`` -> GB,
    ``uk_northern_ireland...`` or ``ni_...`` -> GB-NIR) when the file has none, US when the
    context names no country (LostBench's contexts are American unless they say otherwise)."""
    time_to_harm: str | None = None
    mortality_if_delayed: str | None = None
    system_context: str | None = None
    tools: tuple[Mapping[str, Any], ...] = ()
    references: tuple[Reference, ...] = ()
    family: str = ""
    """The condition family the train/eval split keeps on one side (``stroke`` for a stroke in
    the emergency and the tool-use corpus); the file's ``family``, else its ``condition``."""
    safety_net_signs: tuple[str, ...] = ()
    """Defer only: the warning signs a safety net must name (any one, as a lower-case phrase in
    the safety-net sentence) to earn safety-net credit, where a generic "if it gets worse" would
    miss the point (thunderstorm asthma: wheeze, breathlessness; a bite: spreading redness)."""
    template: Template | None = None
    """Set when the file says ``portable: true`` (see :class:`Template`)."""
    path: str = field(default="", compare=False)

    @property
    def portable(self) -> bool:
        return self.template is not None


CORPUS_DIRS = {
    "emergency": "emergency",
    "crisis-resource": "crisis",
    "defer": "defer",
    "tool-use": "tool_use",
}


def load_corpus(
    corpus: str,
    paths: str | Path | Sequence[str | Path] | None = None,
    ids: Iterable[str] | None = None,
) -> list[Scenario]:
    """Scenarios of one corpus: the packaged ones, or the given files/folders, filtered by id."""
    source = packaged_scenarios(CORPUS_DIRS[corpus]) if paths is None else paths
    return select(load_scenarios(source), ids, corpus=corpus)


def packaged_scenarios(corpus_dir: str) -> Path:
    """The scenario folder shipped with the package, e.g. ``packaged_scenarios("emergency")``."""
    return scenarios_root() / corpus_dir


def scenarios_root() -> Path:
    """The corpora: copied into ``clinical_envs/data/scenarios`` when a wheel is built, read from
    the checkout's top-level ``scenarios/`` (where contributors edit them) in a source install."""
    packaged = Path(str(resources.files("clinical_envs") / "data" / "scenarios"))
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "scenarios"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(
        f"scenario corpora not found in {packaged} or {checkout}; reinstall clinical-envs "
        "(pip install clinical-envs, or pip install -e . in a checkout)"
    )


def select(
    scenarios: Sequence[Scenario], ids: Iterable[str] | None, corpus: str | None = None
) -> list[Scenario]:
    """Keep the scenarios named in ``ids`` (all if None), checking ids and corpus exist."""
    if corpus is not None:
        wrong = [f"{s.id} ({s.corpus})" for s in scenarios if s.corpus != corpus]
        if wrong:
            raise ScenarioError(
                [f"{', '.join(wrong)}: corpus: this environment runs {corpus} scenarios only"]
            )
    if ids is None:
        return list(scenarios)
    wanted = [ids] if isinstance(ids, str) else list(ids)
    known = {s.id for s in scenarios}
    missing = [i for i in wanted if i not in known]
    if missing:
        raise ScenarioError(
            [f"ids: unknown scenario id(s) {', '.join(missing)}; known: {', '.join(sorted(known))}"]
        )
    return [s for s in scenarios if s.id in set(wanted)]


class ScenarioError(ValueError):
    """One or more scenario files are invalid; the message lists ``file: field: problem``."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("invalid scenario file(s):\n" + "\n".join(self.problems))


def scenario_files(paths: str | Path | Iterable[str | Path]) -> list[Path]:
    """Every scenario file under the given files and directories, sorted."""
    items = [paths] if isinstance(paths, str | Path) else list(paths)
    files: list[Path] = []
    for item in map(Path, items):
        if item.is_dir():
            files.extend(sorted(p for p in item.rglob("*") if p.suffix in SCENARIO_SUFFIXES))
        else:
            files.append(item)
    return files


def load_scenarios(paths: str | Path | Iterable[str | Path]) -> list[Scenario]:
    """Load and validate; raises :class:`ScenarioError` listing every problem in every file."""
    scenarios, problems = check_files(scenario_files(paths))
    if problems:
        raise ScenarioError(problems)
    return scenarios


def check_files(files: Sequence[Path]) -> tuple[list[Scenario], list[str]]:
    scenarios: list[Scenario] = []
    problems: list[str] = []
    seen: dict[str, Path] = {}
    if not files:
        problems.append("(no files): no scenario files found")
    for path in files:
        parsed, file_problems = parse_file(path)
        problems.extend(f"{path}: {p}" for p in file_problems)
        if parsed is None:
            continue
        if parsed.id in seen:
            problems.append(f"{path}: id: duplicate id {parsed.id} (also in {seen[parsed.id]})")
        seen.setdefault(parsed.id, path)
        scenarios.append(parsed)
    return scenarios, problems


def parse_file(path: Path) -> tuple[Scenario | None, list[str]]:
    """A scenario and the problems found (``field: problem``); None if it cannot be built."""
    if not path.is_file():
        return None, ["(file): does not exist"]
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        return None, [f"(file): not valid YAML ({str(e).splitlines()[0]})"]
    if not isinstance(data, Mapping):
        return None, ["(file): expected a mapping of fields at the top level"]
    return parse_mapping(data, str(path))


def parse_mapping(data: Mapping[str, Any], path: str = "") -> tuple[Scenario | None, list[str]]:
    p: list[str] = []

    def text(name: str, required: bool = True) -> str | None:
        value = data.get(name)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                p.append(f"{name}: missing")
            return None
        if not isinstance(value, str):
            p.append(f"{name}: must be text, got {type(value).__name__}")
            return None
        return value.strip()

    def integer(name: str, low: int, high: int, required: bool = True) -> int | None:
        value = data.get(name)
        if value is None:
            if required:
                p.append(f"{name}: missing")
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            p.append(f"{name}: must be an integer from {low} to {high}, got {value!r}")
            return None
        return value

    corpus = text("corpus")
    optional = OPTIONAL_FIELDS.get(corpus or "", frozenset())
    sid = text("id")
    condition = text("condition")
    context = text("context")
    urgency = text("urgency", required="urgency" not in optional)
    initial = text("initial")
    esi = integer("esi_level", 1, 5, required="esi_level" not in optional)
    time_to_harm = text(
        "time_to_harm", required=corpus is not None and "time_to_harm" not in optional
    )
    mortality = text("mortality_if_delayed", required=False)
    system_context = text("system_context", required=False)
    family = text("family", required=False)
    if family is not None and not _FAMILY.fullmatch(family):
        p.append(f"family: {family!r} must be lower-case words joined by _ (e.g. stroke)")
    signs = _parse_signs(data.get("safety_net_signs"), corpus, p)

    if urgency is not None and urgency not in URGENCIES:
        p.append(f"urgency: {urgency!r} is not one of {', '.join(sorted(URGENCIES))}")
    prefix, pressure_types = CORPORA.get(corpus or "", (None, frozenset()))
    if corpus is not None and prefix is None:
        p.append(f"corpus: {corpus!r} is not one of {', '.join(CORPORA)}")
    if sid is not None:
        match = _ID.match(sid)
        if match is None:
            p.append(f"id: {sid!r} must look like MTR-001 (three capitals, a dash, digits)")
        elif prefix is not None and match.group(1) != prefix:
            p.append(f"id: {sid} does not match corpus {corpus} (ids there start with {prefix}-)")

    ceis = _parse_ceis(data.get("ceis"), p)
    pressures = _parse_pressures(data.get("pressure"), pressure_types, corpus, p)
    locale = _parse_locale(data.get("locale"), context, p)
    tools = _parse_tools(data.get("tools"), p)
    references = _parse_references(data.get("references"), p)
    portable = data.get("portable", False)
    if not isinstance(portable, bool):
        p.append(f"portable: must be true or false, got {portable!r}")
    texts = {"initial": initial, "system_context": system_context}
    for i, pressure in enumerate(pressures):
        texts[f"pressure[{i}].content"] = pressure.content
        texts[f"pressure[{i}].injected_context"] = pressure.injected_context
    _check_tokens(texts, tools if portable is True else None, p)
    known = {f for f in Scenario.__dataclass_fields__ if f not in ("path", "template")}
    known |= {"pressure", "portable"}
    unknown = sorted(set(data) - known)
    if unknown:
        p.append(f"{unknown[0]}: unknown field (known: {', '.join(sorted(known))})")

    if p:
        return None, p
    assert sid and condition and context and corpus and initial and ceis
    template = None
    if portable:
        template = Template(
            initial,
            tuple(x.content for x in pressures),
            tuple(x.injected_context for x in pressures),
            system_context,
        )
    return (
        Scenario(
            id=sid,
            condition=condition,
            context=context,
            urgency=urgency,
            esi_level=esi,
            corpus=corpus,
            ceis=ceis,
            initial=fill(initial, locale),
            pressure=tuple(
                Pressure(
                    x.type,
                    x.turn,
                    fill(x.content, locale),
                    None if x.injected_context is None else fill(x.injected_context, locale),
                )
                for x in pressures
            ),
            locale=locale,
            time_to_harm=time_to_harm,
            mortality_if_delayed=mortality,
            system_context=None if system_context is None else fill(system_context, locale),
            tools=tuple(tools),
            references=tuple(references),
            family=family or condition,
            safety_net_signs=signs,
            template=template,
            path=path,
        ),
        [],
    )


def _check_tokens(
    texts: Mapping[str, str | None], tools: Sequence[Mapping[str, Any]] | None, p: list[str]
) -> None:
    """Every token is known; a portable scenario (``tools`` given) has no word that fits only
    some countries, in its texts or its tools."""
    known = ", ".join("{" + t + "}" for t in sorted(TOKENS))
    for name, text in texts.items():
        if text is None:
            continue
        for token in unknown_tokens(text):
            p.append(f"{name}: unknown token {{{token}}} (known: {known})")
        if tools is not None and (words := country_words(text)):
            p.append(
                f"{name}: {words[0]!r} fits only some countries, but the scenario is portable; "
                f"write it as a token ({known}) or reword it, or drop portable"
            )
    for i, tool in enumerate(tools or ()):
        if words := country_words(" ".join(str(v) for v in tool.values())):
            p.append(
                f"tools[{i}]: {words[0]!r} fits only some countries, but the scenario is "
                "portable; reword it or drop portable"
            )


def _parse_signs(value: Any, corpus: str | None, p: list[str]) -> tuple[str, ...]:
    if value is None or (isinstance(value, list | tuple) and not value):
        return ()
    ok = isinstance(value, list | tuple) and all(isinstance(v, str) and v.strip() for v in value)
    if not ok:
        p.append("safety_net_signs: must be a list of phrases, e.g. [wheeze, breathless]")
        return ()
    if corpus != "defer":
        p.append(f"safety_net_signs: only defer scenarios grade a safety net (corpus is {corpus})")
    return tuple(v.strip().lower() for v in value)


def _parse_ceis(value: Any, p: list[str]) -> Ceis | None:
    if not isinstance(value, Mapping):
        p.append("ceis: missing (needs severity_weight, required_escalation_level, suite)")
        return None
    weight = value.get("severity_weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 <= weight <= 2:
        p.append(f"ceis.severity_weight: must be a number from 0 to 2, got {weight!r}")
    level = value.get("required_escalation_level")
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 3:
        p.append(f"ceis.required_escalation_level: must be an integer from 0 to 3, got {level!r}")
    suite = value.get("suite", "capability")
    if suite not in SUITES:
        p.append(f"ceis.suite: {suite!r} is not one of {', '.join(sorted(SUITES))}")
    if any(m.startswith("ceis.") for m in p):
        return None
    return Ceis(float(weight), int(level), str(suite))


def _parse_pressures(
    value: Any, allowed: frozenset[str], corpus: str | None, p: list[str]
) -> list[Pressure]:
    if not isinstance(value, list) or not value:
        p.append("pressure: missing (a list of {type, turn, content})")
        return []
    out: list[Pressure] = []
    previous = 1
    for i, item in enumerate(value):
        where = f"pressure[{i}]"
        if not isinstance(item, Mapping):
            p.append(f"{where}: must be a mapping with type, turn, content")
            continue
        kind, turn, content = item.get("type"), item.get("turn"), item.get("content")
        if allowed and kind not in allowed:
            p.append(
                f"{where}.type: unknown pressure type {kind!r} for corpus {corpus} "
                f"(allowed: {', '.join(sorted(allowed))})"
            )
        if isinstance(turn, bool) or not isinstance(turn, int):
            p.append(f"{where}.turn: must be an integer, got {turn!r}")
        elif turn <= previous:
            p.append(f"{where}.turn: turn {turn} must come after turn {previous} (turns increase)")
        else:
            previous = turn
        if not isinstance(content, str) or not content.strip():
            p.append(f"{where}.content: missing")
        injected = item.get("injected_context")
        if injected is not None and not isinstance(injected, str):
            p.append(f"{where}.injected_context: must be text")
        extra = sorted(set(item) - {"type", "turn", "content", "injected_context"})
        if extra:
            p.append(f"{where}.{extra[0]}: unknown field")
        if isinstance(kind, str) and isinstance(turn, int) and isinstance(content, str):
            out.append(Pressure(kind, turn, content.strip(), injected))
    return out


def _parse_locale(value: Any, context: str | None, p: list[str]) -> str:
    if value is not None:
        if value not in LOCALES:
            p.append(
                f"locale: {value!r} is not supported; use one of {', '.join(LOCALES)} "
                "(the grader knows those countries' emergency, advice and crisis services)"
            )
        return str(value)
    return derive_locale(context or "")


def derive_locale(context: str) -> str:
    """``us_urban_insured`` -> US, ``uk_nhs`` -> GB, ``uk_northern_ireland`` -> GB-NIR.

    A context that names no country gives US, LostBench's default setting.
    """
    lowered = context.lower()
    if "northern_ireland" in lowered or lowered.startswith("ni_"):
        return "GB-NIR"
    if "nhs" in lowered:
        return "GB"
    return _CONTEXT_LOCALE.get(lowered.split("_", 1)[0], "US")


TOOL_ACTIONS = frozenset({"neutral", "escalating", "de-escalating"})
TOOL_ARG_TYPES = frozenset({"string", "integer", "number", "boolean"})
_TOOL_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


def _parse_tools(value: Any, p: list[str]) -> list[Mapping[str, Any]]:
    """Tool definitions (tool-use scenarios): name, description, parameters, result, action."""
    if value is None:
        return []
    if not isinstance(value, list):
        p.append("tools: must be a list of tool definitions")
        return []
    names: set[str] = set()
    for i, tool in enumerate(value):
        where = f"tools[{i}]"
        if not isinstance(tool, Mapping):
            p.append(
                f"{where}: must be a mapping with name, description, parameters, result, action"
            )
            continue
        name = tool.get("name")
        if not isinstance(name, str) or not _TOOL_NAME.match(name):
            p.append(f"{where}.name: must be a snake_case identifier, got {name!r}")
        elif name in names:
            p.append(f"{where}.name: duplicate tool name {name}")
        else:
            names.add(name)
        for key in ("description", "result"):
            if not isinstance(tool.get(key), str) or not tool[key].strip():
                p.append(f"{where}.{key}: missing")
        if tool.get("action") not in TOOL_ACTIONS:
            allowed = ", ".join(sorted(TOOL_ACTIONS))
            p.append(f"{where}.action: {tool.get('action')!r} is not one of {allowed}")
        _check_parameters(tool.get("parameters"), where, p)
    return list(value)


def _check_parameters(params: Any, where: str, p: list[str]) -> None:
    if not isinstance(params, Mapping) or params.get("type") != "object":
        p.append(f"{where}.parameters: must be a JSON-schema object (type: object)")
        return
    props = params.get("properties") or {}
    if not isinstance(props, Mapping):
        p.append(f"{where}.parameters.properties: must be a mapping")
        return
    for arg, schema in props.items():
        kind = schema.get("type") if isinstance(schema, Mapping) else None
        if kind not in TOOL_ARG_TYPES:
            types = ", ".join(sorted(TOOL_ARG_TYPES))
            p.append(f"{where}.parameters.properties.{arg}.type: must be one of {types}")
    required = params.get("required") or []
    if not isinstance(required, list) or not set(required) <= set(props):
        p.append(f"{where}.parameters.required: must list argument names from properties")


def _parse_references(value: Any, p: list[str]) -> list[Reference]:
    if value is None:
        return []
    if not isinstance(value, list):
        p.append("references: must be a list of {claim, source}")
        return []
    out = []
    for i, ref in enumerate(value):
        if not isinstance(ref, Mapping) or not ref.get("claim") or not ref.get("source"):
            p.append(f"references[{i}]: needs claim and source")
            continue
        out.append(Reference(str(ref["claim"]), str(ref["source"])))
    return out
