"""Training variants: many distinct, valid rows from the hand-written scenarios, none in eval."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import asdict

import escalation_emergency
import escalation_mix
import escalation_tool_use
import pytest
from conftest import run_rollouts

from clinical_envs.envs.escalation import EscalationEnv
from clinical_envs.policies.escalation import AlwaysEscalate
from clinical_envs.scenarios import LOCALES, parse_mapping
from clinical_envs.variants import (
    LIBRARY_SECTION,
    VARIANT_MARK,
    make_variants,
    move,
    parse_library,
    pressure_library,
    render,
)
from clinical_envs.wording import TOKEN, WORDING, country_words


def rows(dataset) -> list[dict]:
    return [json.loads(row["info"]) for row in dataset]


def as_file(scenario) -> dict:
    """A scenario as the mapping its YAML file would hold."""
    data = asdict(scenario) | {"ceis": asdict(scenario.ceis)}
    data["pressure"] = [asdict(p) for p in scenario.pressure]
    data["references"] = [asdict(r) for r in scenario.references]
    data["tools"] = [dict(t) for t in scenario.tools]
    del data["path"], data["template"]
    return data


def run_only(env, ids, policy_server, name) -> list[dict]:
    """Roll out just the scenarios ``ids`` of ``env`` (variants included) with AlwaysEscalate."""
    runner = EscalationEnv(
        scenarios=list(env.scenarios.values()), schedule=ids, eval_schedule=ids, rubric=env.rubric
    )
    return run_rollouts(runner, policy_server, AlwaysEscalate(), name)


def test_one_seed_gives_over_1500_distinct_training_rows_and_none_in_eval():
    env = escalation_mix.load_environment(variants_per_scenario=24)
    train = {r["scenario_id"] for r in rows(env.get_dataset())}
    held = {r["scenario_id"] for r in rows(env.get_eval_dataset())}
    assert len(train) >= 1500
    distinct = {
        (env.scenarios[i].locale, env.scenarios[i].initial, env.scenarios[i].pressure)
        for i in train
    }
    assert len(distinct) == len(train)
    assert not any(VARIANT_MARK in i for i in held)
    bases = {i.split(VARIANT_MARK)[0] for i in train}
    assert not {env.scenarios[i].family for i in bases} & {env.scenarios[i].family for i in held}


def test_variants_are_valid_scenarios_that_keep_what_defines_them():
    env = escalation_tool_use.load_environment(split="all", variants_per_scenario=6)
    variants = [s for s in env.scenarios.values() if VARIANT_MARK in s.id]
    assert len(variants) == 6 * len([s for s in env.scenarios.values() if VARIANT_MARK not in s.id])
    for variant in variants:
        base = env.scenarios[variant.id.split(VARIANT_MARK)[0]]
        parsed, problems = parse_mapping(as_file(variant) | {"id": base.id})
        assert problems == [] and parsed is not None, (variant.id, problems)
        same = ("initial", "condition", "family", "locale", "ceis", "tools", "system_context")
        assert all(getattr(variant, f) == getattr(base, f) for f in same)
        assert [p.turn for p in variant.pressure] == [p.turn for p in base.pressure]
        assert Counter(p.type for p in variant.pressure) == Counter(p.type for p in base.pressure)
        # A turn carrying an app notice keeps the words the notice answers.
        noticed = {p.injected_context: p.content for p in base.pressure if p.injected_context}
        for p in variant.pressure:
            if p.injected_context:
                assert p.content == noticed[p.injected_context]
        assert not any(TOKEN.search(p.content) for p in variant.pressure)


def test_the_same_seed_gives_the_same_rows_and_another_seed_others():
    def contents(seed):
        env = escalation_emergency.load_environment(variants_per_scenario=3, seed=seed)
        return [[m["content"] for m in row["prompt"]] for row in env.get_dataset()], {
            i: s.pressure for i, s in env.scenarios.items()
        }

    assert contents(7) == contents(7)
    assert contents(7)[1] != contents(8)[1]


def test_library_turns_are_worded_for_each_country():
    library = pressure_library()
    assert set(library) == set(LIBRARY_SECTION.values())
    for types in library.values():
        for turns in types.values():
            assert sum(1 for t in turns if t.locales == frozenset(LOCALES)) >= 3
            for turn in turns:
                for locale in turn.locales:
                    text = render(turn, locale)
                    assert "{" not in text and "}" not in text
                    others = {w["emergency_number"] for w in WORDING.values()}
                    others -= {WORDING[locale]["emergency_number"]}
                    if "{emergency_number}" in turn.content:
                        assert not any(f" {n}" in text for n in others - {"112"}), (locale, text)


def test_a_variant_runs_with_its_own_pressure_turns(policy_server, request):
    env = escalation_emergency.load_environment(
        split="all", ids=["MTR-004"], variants_per_scenario=2
    )
    variant_ids = [i for i in env.schedule if VARIANT_MARK in i]
    outputs = run_only(env, variant_ids, policy_server, request.node.name)
    assert {o["info"]["scenario_id"] for o in outputs} == set(variant_ids)
    for out in outputs:
        users = [m["content"] for m in out["completion"] if m["role"] == "user"]
        pressure = env.scenarios[out["info"]["scenario_id"]].pressure
        assert all(u.startswith(p.content) for u, p in zip(users, pressure, strict=True))
        assert out["reward"] == 1.0


def test_a_scenario_gives_at_most_what_it_has():
    one = escalation_emergency.load_environment(split="all").scenarios["MTR-001"]
    empty = {section: {} for section in LIBRARY_SECTION.values()}
    # With nothing to swap in, only the other 23 orders of its four turns are new.
    variants = make_variants(one, 100, seed=1, library=empty)
    assert len(variants) == 23 and len({v.pressure for v in variants}) == 23


@pytest.mark.parametrize("bad", [-1, "3", True])
def test_bad_variant_counts_name_the_argument(bad):
    with pytest.raises(ValueError, match="variants_per_scenario must be an integer >= 0"):
        escalation_emergency.load_environment(variants_per_scenario=bad)


def test_a_bad_library_entry_is_named():
    data = {section: {} for section in LIBRARY_SECTION.values()}
    data["defer"] = {"symptom_worry": [{"content": "Call {nurse} now?"}]}
    with pytest.raises(ValueError, match=r"lib.yaml: defer.symptom_worry\[0\]: needs content"):
        parse_library(data, "lib.yaml")
    data["defer"] = {"financial_barrier": [{"content": "Too dear."}]}
    with pytest.raises(ValueError, match="not a pressure type of that corpus"):
        parse_library(data, "lib.yaml")


def portable_variants(env) -> list:
    return [
        s
        for s in env.scenarios.values()
        if VARIANT_MARK in s.id and env.scenarios[s.id.split(VARIANT_MARK)[0]].portable
    ]


def test_portable_scenarios_move_to_other_countries_with_their_words():
    env = escalation_mix.load_environment(split="all", variants_per_scenario=8)
    originals = [s for s in env.scenarios.values() if VARIANT_MARK not in s.id]
    assert sum(s.portable for s in originals) >= 20
    assert {s.corpus for s in originals if s.portable} >= {"emergency", "crisis-resource", "defer"}
    moved = [s for s in portable_variants(env) if s.locale != env.scenarios[s.id[:7]].locale]
    assert len(moved) >= 40 and len({s.locale for s in moved}) == len(LOCALES)
    for variant in env.scenarios.values():
        base = env.scenarios[variant.id.split(VARIANT_MARK)[0]]
        if not base.portable:
            assert variant.locale == base.locale  # only a portable scenario moves
    for s in moved:
        texts = [s.initial, *(p.content for p in s.pressure)]
        assert not any(TOKEN.search(t) for t in texts)
        assert s.context.startswith(f"{s.locale.lower().replace('gb-nir', 'ni')}_") or (
            s.locale == "GB" and s.context.startswith("uk_")
        )
        template = env.scenarios[s.id[:7]].template
        if "{ed}" in template.initial:
            assert WORDING[s.locale]["ed"] in s.initial, (s.id, s.locale)
        # The grader expects the new country's services: the local number reaches them.
        assert move(s, s.locale).initial == s.initial


def test_a_moved_variant_is_graded_for_its_new_country(policy_server, request):
    env = escalation_emergency.load_environment(
        split="all", ids=["MTR-031"], variants_per_scenario=6
    )
    moved = [i for i in env.schedule if VARIANT_MARK in i and env.scenarios[i].locale != "US"]
    assert moved
    outputs = run_only(env, moved, policy_server, request.node.name)
    for out in outputs:
        assert out["info"]["locale"] == env.scenarios[out["info"]["scenario_id"]].locale
        assert out["reward"] == 1.0  # the ideal reply names the new country's number


def test_packaged_portable_scenarios_read_cleanly_in_every_country():
    env = escalation_mix.load_environment(split="all")
    for scenario in (s for s in env.scenarios.values() if s.portable):
        for locale in LOCALES:
            moved = move(scenario, locale)
            for text in (moved.initial, *(p.content for p in moved.pressure)):
                assert "{" not in text and "}" not in text
                words = country_words(text.replace(WORDING[locale]["ed"], ""))
                local = set(WORDING[locale].values())
                assert all(any(w in v for v in local) for w in words), (scenario.id, locale, words)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            {"portable": True, "initial": "My chest hurts. Should I go to A&E?"},
            r"initial: 'A&E' fits only some countries, but the scenario is portable",
        ),
        ({"initial": "Should I ring {nhs}?"}, r"initial: unknown token \{nhs\} \(known: "),
        ({"portable": "yes"}, "portable: must be true or false"),
    ],
)
def test_portable_and_token_mistakes_are_named(edit, message):
    one = escalation_emergency.load_environment(split="all").scenarios["MTR-001"]
    _, problems = parse_mapping(as_file(one) | edit)
    assert any(re.search(message, p) for p in problems), problems
