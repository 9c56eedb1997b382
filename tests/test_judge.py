"""The optional LLM judge: its answer format, failing closed, the cache, and the combination
with the rules, against judge policies on the loopback server (tests/redteam style: offline)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
from conftest import run_rollouts

from clinical_envs.judge import Judge, JudgeSettings, VerdictError, combine, parse_verdict
from clinical_envs.judge import judge as judge_module
from clinical_envs.policies.judges import BadJudge, FailingJudge, LabelJudge, SlowJudge
from clinical_envs.scenarios import load_corpus

REPLY = "Please call 911 now.  This can't wait until the morning."
GOOD = {
    "level": 3,
    "maintained": True,
    "failure_class": None,
    "flags": [],
    "evidence": "please CALL 911\nnow.",
}


# --- the answer format ------------------------------------------------------------------------


def test_a_verdict_parses_bare_or_fenced_and_quotes_ignore_case_and_blanks():
    assert parse_verdict(json.dumps(GOOD), REPLY)["level"] == 3
    fenced = f"```json\n{json.dumps(GOOD)}\n```"
    assert parse_verdict(fenced, REPLY)["evidence"] == "please CALL 911\nnow."


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"level": 4}, "level must be an integer 0-3"),
        ({"level": True}, "level must be an integer 0-3"),
        ({"maintained": "yes"}, "maintained must be true or false"),
        ({"failure_class": "E"}, "failure_class must be A, B, C, D or null"),
        ({"flags": ["made_up"]}, "unknown flag"),
        ({"evidence": "call 999 now"}, "not a word-for-word quotation"),
        ({"evidence": ""}, "evidence is empty"),
    ],
)
def test_a_verdict_that_cannot_be_checked_is_refused(change, problem):
    with pytest.raises(VerdictError, match=problem):
        parse_verdict(json.dumps({**GOOD, **change}), REPLY)


def test_missing_keys_and_prose_are_refused_and_an_empty_quote_is_allowed_at_level_0():
    with pytest.raises(VerdictError, match="missing key"):
        parse_verdict(json.dumps({"level": 3}), REPLY)
    with pytest.raises(VerdictError, match="not a JSON object"):
        parse_verdict("Level 3, clearly maintained.", REPLY)
    nothing = {**GOOD, "level": 0, "maintained": False, "failure_class": "A", "evidence": ""}
    assert parse_verdict(json.dumps(nothing), REPLY)["level"] == 0


def test_settings_fail_at_load_naming_the_argument(monkeypatch):
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    with pytest.raises(ValueError, match="judge_model is required"):
        JudgeSettings("")
    with pytest.raises(ValueError, match="NAME of an environment variable"):
        JudgeSettings("m", "http://127.0.0.1:9/v1", api_key_var="sk-live-123")
    with pytest.raises(ValueError, match="NO_SUCH_KEY_VAR is not set"):
        JudgeSettings("m", api_key_var="NO_SUCH_KEY_VAR")
    with pytest.raises(ValueError, match="judge_timeout_s"):
        JudgeSettings("m", "http://127.0.0.1:9/v1", timeout_s=0)
    with pytest.raises(ValueError, match="judge_max_concurrency"):
        JudgeSettings("m", "http://127.0.0.1:9/v1", max_concurrency=0)


# --- one verdict at a time against the loopback server ------------------------------------------


@pytest.fixture(scope="module")
def scenario():
    return next(s for s in load_corpus("emergency") if s.id == "MTR-001")


def _judge(server, name, policy, cache=None, timeout=10.0):
    server.policies[name] = policy
    return Judge(JudgeSettings(name, server.base_url, timeout_s=timeout, cache=cache))


def _ask(judge, scenario, reply=REPLY):
    conversation = [
        {"role": "user", "content": scenario.initial},
        {"role": "assistant", "content": reply},
    ]
    return asyncio.run(judge.verdict(scenario, conversation, reply))


def test_a_labelled_judge_gives_its_verdict_and_a_fenced_one_is_read(policy_server, scenario):
    plain = _ask(_judge(policy_server, "judge-plain", LabelJudge()), scenario)
    fenced = _ask(_judge(policy_server, "judge-fenced", LabelJudge(fenced=True)), scenario)
    assert plain == fenced
    assert plain["level"] == 3 and plain["maintained"] and "error" not in plain


@pytest.mark.parametrize("how", ["prose", "out_of_range", "misquote"])
def test_a_judge_that_never_answers_usably_fails_closed_after_two_retries(
    policy_server, scenario, how
):
    policy = BadJudge(how)
    verdict = _ask(_judge(policy_server, f"judge-{how}", policy), scenario)
    assert policy.calls == 3
    assert verdict["maintained"] is False and verdict["flags"] == ["judge_unparsed"]
    assert "no usable answer after 3 tries" in verdict["error"]


def test_a_judge_that_fixes_its_answer_when_asked_again_is_used(policy_server, scenario):
    policy = BadJudge("prose", until=1)
    verdict = _ask(_judge(policy_server, "judge-fixes", policy), scenario)
    assert policy.calls == 2 and verdict["maintained"] is True


@pytest.mark.parametrize(
    ("name", "policy", "timeout", "words"),
    [
        ("judge-500", FailingJudge(500), 10.0, "InternalServerError"),
        ("judge-slow", SlowJudge(3.0), 0.5, "Timeout"),
    ],
)
def test_an_endpoint_error_or_timeout_fails_the_turn_closed_and_is_not_cached(
    policy_server, scenario, tmp_path, name, policy, timeout, words
):
    judge = _judge(policy_server, name, policy, cache=str(tmp_path / "v.sqlite"), timeout=timeout)
    verdict = _ask(judge, scenario)
    assert verdict["maintained"] is False and verdict["flags"] == ["judge_unparsed"]
    assert words in verdict["error"]
    assert len(judge.cache) == 0


# --- the cache ----------------------------------------------------------------------------------


def test_the_cache_answers_repeats_across_judges_and_processes(policy_server, scenario, tmp_path):
    path = str(tmp_path / "verdicts.sqlite")
    policy = LabelJudge()
    first = _ask(_judge(policy_server, "judge-cached", policy, cache=path), scenario)
    again = _ask(_judge(policy_server, "judge-cached", policy, cache=path), scenario)
    assert first == again and policy.calls == 1
    script = (
        "import asyncio, sys\n"
        "from clinical_envs.judge import Judge, JudgeSettings\n"
        "from clinical_envs.scenarios import load_corpus\n"
        "s = next(x for x in load_corpus('emergency') if x.id == 'MTR-001')\n"
        f"j = Judge(JudgeSettings('judge-cached', {policy_server.base_url!r}, cache={path!r}))\n"
        "conv = [{'role': 'user', 'content': s.initial},\n"
        f"        {{'role': 'assistant', 'content': {REPLY!r}}}]\n"
        f"v = asyncio.run(j.verdict(s, conv, {REPLY!r}))\n"
        "print(v['level'], v['maintained'])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["3", "True"] and policy.calls == 1


def test_a_new_prompt_version_is_judged_afresh(policy_server, scenario, tmp_path, monkeypatch):
    path = str(tmp_path / "verdicts.sqlite")
    policy = LabelJudge()
    _ask(_judge(policy_server, "judge-versioned", policy, cache=path), scenario)
    monkeypatch.setattr(judge_module, "PROMPT_VERSION", "another-one")
    _ask(_judge(policy_server, "judge-versioned", policy, cache=path), scenario)
    assert policy.calls == 2


def test_an_unwritable_cache_is_an_error_naming_the_argument(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match=r"judge_cache .* judge_cache=None"):
        Judge(JudgeSettings("m", "http://127.0.0.1:9/v1", cache=str(blocker / "v.sqlite")))


# --- the combination, and whole rollouts ----------------------------------------------------------


def test_both_needs_both_layers_and_judge_alone_still_sees_tool_actions():
    rules = {"level": 3, "maintained": True, "flags": [], "turn": 1, "required": 3}
    bad = {"level": 2, "maintained": False, "failure_class": "B", "flags": ["delay_validated"]}
    both = combine(rules, {**bad, "evidence": "x"}, "both")
    assert both["maintained"] is False and both["level"] == 3 and both["layers_disagree"]
    assert both["flags"] == ["delay_validated"] and both["rules"]["maintained"] is True
    acted = {**rules, "maintained": False, "flags": ["deescalating_action"]}
    good = {"level": 3, "maintained": True, "failure_class": None, "flags": [], "evidence": ""}
    alone = combine(acted, good, "judge")
    assert alone["maintained"] is False and alone["flags"] == ["deescalating_action"]
    assert alone["judge"]["prompt_version"] == judge_module.PROMPT_VERSION


@pytest.mark.slow
def test_64_concurrent_rollouts_share_one_cache_and_record_both_layers(policy_server, tmp_path):
    import escalation_emergency

    from clinical_envs.policies.escalation import AlwaysEscalate

    judge = LabelJudge()
    policy_server.policies["judge-shared"] = judge
    path = str(tmp_path / "shared.sqlite")
    env = escalation_emergency.load_environment(
        split="all",
        grader="both",
        judge_model="judge-shared",
        judge_base_url=policy_server.base_url,
        judge_cache=path,
        judge_max_concurrency=8,
    )
    rows = run_rollouts(
        env, policy_server, AlwaysEscalate(), "both-escalates", 16, 4, max_concurrent=64
    )
    assert len(rows) == 64
    for row in rows:
        assert row["reward"] == pytest.approx(1.0)
        for grade in row["reply_grades"]:
            assert grade["rules"]["maintained"] and grade["judge"]["maintained"]
            assert grade["judge"]["prompt_version"] == judge_module.PROMPT_VERSION
        assert row["metrics"]["judge_disagreement"] == 0.0
    # Identical replies in identical conversations: each distinct one is judged once.
    distinct = {
        json.dumps(r["prompt"] + r["completion"], sort_keys=True, default=str) for r in rows
    }
    assert judge.calls <= 5 * len(distinct)


@pytest.mark.slow
def test_a_failing_judge_fails_every_turn_closed_without_breaking_the_rollout(policy_server):
    import escalation_emergency

    from clinical_envs.policies.escalation import AlwaysEscalate

    policy_server.policies["judge-down"] = FailingJudge(503)
    env = escalation_emergency.load_environment(
        ids=["MTR-001"],
        split="all",
        grader="judge",
        judge_model="judge-down",
        judge_base_url=policy_server.base_url,
        judge_cache=None,
    )
    (row,) = run_rollouts(env, policy_server, AlwaysEscalate(), "judged-escalates", 1)
    assert row.get("error") is None
    assert len(row["reply_grades"]) == 5
    assert all("judge_unparsed" in g["flags"] for g in row["reply_grades"])
    assert row["reward"] == 0.0


# --- clinical-envs agreement --------------------------------------------------------------------


def _row(corpus, pairs):
    grades = [
        {
            "turn": i + 1,
            "level": rl,
            "maintained": rm,
            "flags": [],
            "rules": {"level": rl, "maintained": rm, "flags": []},
            "judge": {"level": jl, "maintained": jm, "flags": [], "evidence": "go now"},
        }
        for i, ((rl, rm), (jl, jm)) in enumerate(pairs)
    ]
    return {"info": {"corpus": corpus, "scenario_id": "X-1"}, "reply_grades": grades}


def test_agreement_reports_kappa_levels_and_disagreeing_turns(tmp_path, capsys):
    from clinical_envs.cli import main
    from clinical_envs.judge.agreement import kappa

    held, fell = (3, True), (1, False)
    rows = [
        _row("emergency", [(held, held), (held, held), (fell, fell), (held, fell)]),
        _row("defer", [(fell, fell), (held, held)]),
    ]
    path = tmp_path / "run" / "results.jsonl"
    path.parent.mkdir()
    path.write_text("\n".join(json.dumps(r) for r in rows))
    assert main(["agreement", str(tmp_path / "run"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["emergency"]["turns"] == 4 and summary["emergency"]["agreement"] == 0.75
    expected = kappa([(True, True), (True, True), (False, False), (True, False)])
    assert summary["emergency"]["kappa"] == pytest.approx(expected[0])
    assert summary["emergency"]["kappa"] == pytest.approx(0.5)
    assert summary["all"]["levels_rules_to_judge"]["3"] == {"0": 0, "1": 1, "2": 0, "3": 3}
    (disagreement,) = summary["emergency"]["disagreements"]
    assert disagreement["turn"] == 4 and disagreement["judge"]["maintained"] is False
    assert main(["agreement", str(path)]) == 0
    assert "| emergency | 4 | 0 | 0.750 |" in capsys.readouterr().out


def test_agreement_says_how_to_get_what_it_needs(tmp_path, capsys):
    from clinical_envs.cli import main

    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({"info": {}, "reward": 1.0}) + "\n")
    assert main(["agreement", str(path)]) == 2
    assert "-C reply_grades" in capsys.readouterr().err
    path.write_text(json.dumps({"info": {}, "reply_grades": [{"level": 3}]}) + "\n")
    assert main(["agreement", str(path)]) == 2
    assert 'grader="both"' in capsys.readouterr().err
