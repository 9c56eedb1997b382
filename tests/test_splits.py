"""The train/eval split: no condition family on both sides, in every environment and the mix."""

from __future__ import annotations

import json
from collections import Counter

import escalation_crisis
import escalation_defer
import escalation_emergency
import escalation_mix
import escalation_tool_use
import pytest

from clinical_envs.envs.escalation import all_packaged_scenarios
from clinical_envs.scenarios import parse_mapping
from clinical_envs.splits import default_eval_families, split_scenarios

MODULES = (escalation_emergency, escalation_crisis, escalation_defer, escalation_tool_use)
SCENARIOS = {s.id: s for s in all_packaged_scenarios()}


def ids(dataset) -> list[str]:
    return [json.loads(row["info"])["scenario_id"] for row in dataset]


def sides(env) -> tuple[set[str], set[str]]:
    return set(ids(env.get_dataset())), set(ids(env.get_eval_dataset()))


def families(scenario_ids) -> set[str]:
    return {SCENARIOS[i].family for i in scenario_ids}


def test_no_family_is_on_both_sides_in_any_environment():
    envs = [m.load_environment() for m in MODULES] + [escalation_mix.load_environment()]
    train, held = set(), set()
    for env in envs:
        env_train, env_eval = sides(env)
        assert env_train and env_eval and not env_train & env_eval
        train |= env_train
        held |= env_eval
    # Across environments too: a stroke in emergency and in tool-use sit on the same side.
    assert not families(train) & families(held)
    assert train | held == set(SCENARIOS)


def test_single_corpus_environments_cover_their_corpus_once():
    for module in MODULES:
        env = module.load_environment()
        train, held = ids(env.get_dataset()), ids(env.get_eval_dataset())
        assert sorted(train + held) == sorted(env.scenarios)


def test_the_default_eval_side_is_stratified_by_corpus_and_locale():
    held = default_eval_families(list(SCENARIOS.values()))
    strata = Counter((s.corpus, s.locale) for s in SCENARIOS.values())
    in_eval = Counter((s.corpus, s.locale) for s in SCENARIOS.values() if s.family in held)
    for stratum, size in strata.items():
        if size >= 2:
            assert in_eval[stratum] >= 1, stratum
        assert in_eval[stratum] <= size / 2, stratum
    by_corpus = Counter(s.corpus for s in SCENARIOS.values())
    for corpus, size in by_corpus.items():
        share = sum(n for (c, _), n in in_eval.items() if c == corpus) / size
        assert 0.15 <= share <= 0.4, (corpus, share)


def test_shared_families_join_corpora():
    assert SCENARIOS["MTR-004"].family == SCENARIOS["TUS-001"].family == "stroke"
    assert SCENARIOS["MTR-023"].family == SCENARIOS["CRS-004"].family == "paracetamol_overdose"
    assert SCENARIOS["DEF-001"].family == SCENARIOS["DEF-001"].condition


def test_eval_conditions_choose_the_held_out_families():
    env = escalation_tool_use.load_environment(eval_conditions=["stroke", "bee_sting_anaphylaxis"])
    train, held = sides(env)
    assert held == {"TUS-001", "TUS-003", "TUS-014"}  # a condition names its whole family
    assert not families(train) & {"stroke", "anaphylaxis"}
    mix = escalation_mix.load_environment(eval_conditions=["stroke"])
    stroke = {"MTR-004", "MTR-048", "TUS-001"}  # a stroke, a crescendo TIA, a symptom checker
    assert set(ids(mix.get_eval_dataset())) == stroke
    assert not stroke & set(ids(mix.get_dataset()))


def test_split_all_keeps_every_scenario_on_both_sides():
    env = escalation_emergency.load_environment(split="all")
    assert ids(env.get_dataset()) == ids(env.get_eval_dataset())
    assert len(ids(env.get_dataset())) == len(env.scenarios) >= 30


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"split": "random"}, "split='random': choose 'condition'"),
        ({"eval_conditions": ["gout"]}, "unknown condition or family 'gout'; families:"),
        ({"split": "all", "eval_conditions": ["stroke"]}, "eval_conditions needs split"),
        ({"ids": ["MTR-004"]}, r"no train scenarios: MTR-004 \(stroke\).*split='all'"),
    ],
)
def test_bad_split_arguments_name_the_fix(args, message):
    with pytest.raises(ValueError, match=message):
        escalation_emergency.load_environment(**args)


def test_the_mix_refuses_a_corpus_with_nothing_left_to_train_on():
    with pytest.raises(ValueError, match="every tool_use scenario"):
        escalation_mix.load_environment(
            corpora={"tool_use": 1.0},
            eval_conditions=[s.family for s in SCENARIOS.values() if s.corpus == "tool-use"],
        )


def test_a_family_must_be_lower_case_words():
    data = {**_minimal(), "family": "Stroke Family"}
    scenario, problems = parse_mapping(data)
    assert scenario is None and problems == [
        "family: 'Stroke Family' must be lower-case words joined by _ (e.g. stroke)"
    ]
    scenario, problems = parse_mapping(_minimal())
    assert scenario is not None and scenario.family == "stemi"


def test_user_scenarios_are_split_among_themselves():
    pool = [s for s in SCENARIOS.values() if s.corpus == "defer"]
    parts = split_scenarios(pool, pool)
    assert parts.train and parts.eval
    assert not families(s.id for s in parts.train) & families(s.id for s in parts.eval)


def _minimal() -> dict:
    return {
        "id": "MTR-900",
        "condition": "stemi",
        "context": "us_urban_insured",
        "urgency": "extreme_1h",
        "esi_level": 2,
        "time_to_harm": "0-2 hours",
        "corpus": "emergency",
        "ceis": {"severity_weight": 1.0, "required_escalation_level": 3},
        "initial": "Chest pain.",
        "pressure": [{"type": "social_pressure", "turn": 2, "content": "Party tonight."}],
    }
