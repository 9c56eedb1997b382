"""Training variants of the hand-written escalation scenarios, made at load time.

GRPO on 126 hand-written scenarios repeated many times teaches their wording. A variant keeps what
makes a scenario itself (first message, condition, required level, tools) and changes what a
policy could learn by heart: the order of the pressure turns, and about half of them replaced by
a turn of the same pressure type from a library of condition-agnostic turns
(``data/pressure_turns.yaml``, written for this project), worded for the scenario's country. A
scenario marked ``portable`` (its country's words written as tokens) may also move: about half
of its variants are set in another supported country, with that country's services and words.
Variants come from training scenarios only, so none reaches the eval split; the same seed gives
the same variants in every process.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

import yaml

from clinical_envs.scenarios import CONTEXT_PREFIX, CORPORA, LOCALES, Pressure, Scenario
from clinical_envs.wording import TOKEN, TOKENS, fill

VARIANT_MARK = "~v"
"""A variant's id is its scenario's id, this mark and a number: ``MTR-004~v003``."""
REPLACE_SHARE = 0.5
MOVE_SHARE = 0.5
# Which library section serves which corpus (a tool-use user pushes back like an emergency one).
LIBRARY_SECTION = {
    "emergency": "emergency",
    "tool-use": "emergency",
    "crisis-resource": "crisis",
    "defer": "defer",
}


@dataclass(frozen=True)
class LibraryTurn:
    content: str
    locales: frozenset[str]


Library = Mapping[str, Mapping[str, Sequence[LibraryTurn]]]


@lru_cache(maxsize=1)
def pressure_library() -> Library:
    """The packaged library, checked once per process (immutable, shared by every rollout)."""
    path = resources.files("clinical_envs") / "data" / "pressure_turns.yaml"
    return parse_library(yaml.safe_load(path.read_text(encoding="utf-8")), str(path))


def parse_library(data: object, where: str) -> Library:
    """Check every section, type, token and locale; raise naming the entry that is wrong."""
    if not isinstance(data, Mapping) or set(data) != set(LIBRARY_SECTION.values()):
        raise ValueError(f"{where}: expected sections {sorted(set(LIBRARY_SECTION.values()))}")
    allowed = {LIBRARY_SECTION[c]: CORPORA[c][1] for c in LIBRARY_SECTION}
    library: dict[str, dict[str, tuple[LibraryTurn, ...]]] = {}
    for section, types in data.items():
        library[section] = {}
        for kind, entries in types.items():
            at = f"{where}: {section}.{kind}"
            if kind not in allowed[section]:
                raise ValueError(f"{at}: not a pressure type of that corpus")
            turns = []
            for i, entry in enumerate(entries):
                content = str(entry.get("content", "")).strip()
                locales = frozenset(entry.get("locales", LOCALES))
                tokens = set(TOKEN.findall(content))
                if not content or not locales <= set(LOCALES) or not tokens <= TOKENS:
                    raise ValueError(
                        f"{at}[{i}]: needs content, known locales and tokens from "
                        f"{', '.join(sorted(TOKENS))}"
                    )
                turns.append(LibraryTurn(content, locales))
            library[section][kind] = tuple(turns)
    return library


def render(turn: LibraryTurn, locale: str) -> str:
    return fill(turn.content, locale)


def make_variants(
    scenario: Scenario, count: int, seed: int, library: Library | None = None
) -> list[Scenario]:
    """Up to ``count`` distinct variants (fewer only if the scenario cannot give that many)."""
    library = pressure_library() if library is None else library
    options = library[LIBRARY_SECTION[scenario.corpus]]
    rng = random.Random(f"{seed}/{scenario.id}")
    seen = {(scenario.locale, tuple(p.content for p in scenario.pressure))}
    elsewhere = [locale for locale in LOCALES if locale != scenario.locale]
    variants: list[Scenario] = []
    for _ in range(count * 20):
        if len(variants) == count:
            break
        base = scenario
        if scenario.portable and rng.random() < MOVE_SHARE:
            base = move(scenario, rng.choice(elsewhere))
        pressure = _vary(base, options, rng)
        key = (base.locale, tuple(p.content for p in pressure))
        if key in seen:
            continue
        seen.add(key)
        number = len(variants) + 1
        variants.append(
            replace(base, id=f"{scenario.id}{VARIANT_MARK}{number:03d}", pressure=pressure)
        )
    return variants


def move(scenario: Scenario, locale: str) -> Scenario:
    """A portable scenario set in another country: its texts filled in with that country's
    words, so the grader expects that country's services."""
    t = scenario.template
    if t is None:
        raise ValueError(f"{scenario.id} is not portable (its file does not say portable: true)")
    pressure = tuple(
        Pressure(p.type, p.turn, fill(content, locale), None if inj is None else fill(inj, locale))
        for p, content, inj in zip(scenario.pressure, t.pressure, t.injected, strict=True)
    )
    return replace(
        scenario,
        locale=locale,
        # "ie_moved_from_us": derive_locale reads the first part.
        context=f"{CONTEXT_PREFIX[locale]}_moved_from_{CONTEXT_PREFIX[scenario.locale]}",
        initial=fill(t.initial, locale),
        pressure=pressure,
        system_context=None if t.system_context is None else fill(t.system_context, locale),
    )


def _vary(
    scenario: Scenario, options: Mapping[str, Sequence[LibraryTurn]], rng: random.Random
) -> tuple[Pressure, ...]:
    order = rng.sample(scenario.pressure, len(scenario.pressure))
    out = []
    for slot, pressure in zip(scenario.pressure, order, strict=True):
        content = pressure.content
        # A turn that carries an app notice (tool-use) keeps its words: the notice answers them.
        if pressure.injected_context is None and rng.random() < REPLACE_SHARE:
            fits = [t for t in options.get(pressure.type, ()) if scenario.locale in t.locales]
            if fits:
                content = render(rng.choice(fits), scenario.locale)
        out.append(Pressure(pressure.type, slot.turn, content, pressure.injected_context))
    return tuple(out)


def with_variants(
    scenarios: Sequence[Scenario], per_scenario: int, seed: int
) -> tuple[list[Scenario], list[str]]:
    """The variants of ``scenarios`` and a schedule of every original then every variant, in
    rounds (each scenario's first variant, then each one's second, ...) so any prefix is diverse."""
    if isinstance(per_scenario, bool) or not isinstance(per_scenario, int) or per_scenario < 0:
        raise ValueError(f"variants_per_scenario must be an integer >= 0, got {per_scenario!r}")
    made = [make_variants(s, per_scenario, seed) for s in scenarios]
    schedule = [s.id for s in scenarios]
    for k in range(per_scenario):
        schedule.extend(v[k].id for v in made if k < len(v))
    return [v for vs in made for v in vs], schedule
