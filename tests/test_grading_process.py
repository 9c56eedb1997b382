"""The grading worker: the same grades as grading in place, whatever happens to the worker."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pickle
import sys
import threading
from pathlib import Path

import pytest
import verifiers as vf
from test_corpora import scenario

from clinical_envs.escalation.grading_process import (
    ENV_VAR,
    GradingProcess,
    _share,
    frame,
    serve,
    whole_frames,
    worker_wanted,
)
from clinical_envs.escalation.normalize import MAX_CHARS
from clinical_envs.escalation.replies import grade_reply
from clinical_envs.policies import builtin_policies
from clinical_envs.policies.calibration import evaluate_every_row
from clinical_envs.policies.inprocess import inprocess_client
from clinical_envs.policies.redteam import Script, ScriptPolicy, Turn, _scenarios
from clinical_envs.scenarios import load_corpus

DATA = Path(__file__).parent / "data"
CORPORA = ("emergency", "crisis-resource", "defer", "tool-use")


def _cases() -> list[tuple[object, tuple]]:
    """Labelled replies on a scenario of each corpus, with tool actions and earlier lines."""
    scenarios = [load_corpus(corpus)[0] for corpus in CORPORA]
    rows = [json.loads(line) for line in (DATA / "escalation_replies_chat.jsonl").open()][:40]
    cases = []
    for n, row in enumerate(rows):
        scenario = scenarios[n % len(scenarios)]
        actions = [("cancel_ambulance", "de-escalating")] if n % 7 == 3 else []
        earlier = [("call_ambulance", "escalating")] if n % 5 == 1 else []
        given = ["samaritans"] if n % 3 == 0 else []
        cases.append((scenario, (row["reply"], 1 + n % 4, actions, earlier, given)))
    return cases


def _in_place(cases: list[tuple[object, tuple]]) -> list[dict]:
    return [grade_reply(args[0], scenario, *args[1:]) for scenario, args in cases]


async def _by_worker(process: GradingProcess, cases: list[tuple[object, tuple]]) -> list[dict]:
    return list(await asyncio.gather(*(process.grade(s, a) for s, a in cases)))


@pytest.fixture
def process():
    made = GradingProcess()
    yield made
    made.close()


@pytest.fixture
def late_process():
    """A worker that answers nothing for its first second: what a test does in that time sees
    every request still queued (requests are written as they are made)."""
    late = "import time; time.sleep(1); from clinical_envs.escalation.grading_process import main"
    made = GradingProcess([sys.executable, "-c", f"{late}; main()"])
    yield made
    made.close()


def test_worker_grades_equal_grading_in_place(process: GradingProcess) -> None:
    cases = _cases()
    assert asyncio.run(_by_worker(process, cases)) == _in_place(cases)
    assert process._proc is not None and not process._broken  # the worker made them


def test_worker_outlives_the_event_loop(process: GradingProcess) -> None:
    """Each asyncio.run makes a new loop (verifiers' evaluate does): the worker follows."""
    cases = _cases()
    first = asyncio.run(_by_worker(process, cases[:10]))
    second = asyncio.run(_by_worker(process, cases[10:20]))
    assert first + second == _in_place(cases[:20])
    assert not process._broken


def test_a_dead_worker_owes_nothing(process: GradingProcess, caplog) -> None:
    """Killed with grades in flight: they are made here, and so are the ones after."""
    cases = _cases()

    async def kill_midway() -> list[dict]:
        tasks = [asyncio.ensure_future(process.grade(s, a)) for s, a in cases]
        await asyncio.sleep(0)  # every request sent
        process._proc.kill()
        return list(await asyncio.gather(*tasks))

    with caplog.at_level(logging.WARNING):
        assert asyncio.run(kill_midway()) == _in_place(cases)
    assert process._broken and "grading in this process" in caplog.text
    assert asyncio.run(_by_worker(process, cases[:5])) == _in_place(cases[:5])


FIRST = "Please ring Lifeline on 0808 808 8000 today."
LATER = "If it's safer, you could call Lifeline from a friend's phone today."


@pytest.mark.parametrize("kill", [False, True])
def test_a_later_reply_reads_the_lines_earlier_grades_found(
    process: GradingProcess, kill: bool
) -> None:
    """ "Lifeline" alone names the line given with its number a turn before, whether the
    worker grades both replies or dies before it answers and they are graded here."""
    nir = scenario("crisis-resource", "GB-NIR", required=2)

    async def two_turns() -> list[dict]:
        first, a = process.submit(nir, (FIRST, 1, [], [], []))
        _, b = process.submit(nir, (LATER, 2, [], [], []), after=(first,))
        if kill:
            process._proc.kill()
        return [await a, await b]

    first, later = asyncio.run(two_turns())
    assert later == grade_reply(LATER, nir, 2, earlier_resources=first["resources"])
    assert later["resources"] == ["lifeline"] and process._broken is kill
    alone = asyncio.run(process.grade(nir, (LATER, 2, [], [], [])))
    assert alone["resources"] == []


def test_a_worker_that_cannot_start(caplog) -> None:
    process = GradingProcess(["/nonexistent/python"])
    cases = _cases()[:6]
    with caplog.at_level(logging.WARNING):
        assert asyncio.run(_by_worker(process, cases)) == _in_place(cases)
    assert process._broken and "could not start" in caplog.text


def test_a_worker_that_answers_garbage(caplog) -> None:
    garbage = "import sys, time; sys.stdout.buffer.write(b'\\x05\\0\\0\\0hello'); time.sleep(30)"
    process = GradingProcess([sys.executable, "-c", garbage])
    cases = _cases()[:6]
    try:
        with caplog.at_level(logging.WARNING):
            assert asyncio.run(_by_worker(process, cases)) == _in_place(cases)
        assert "unreadable answer" in caplog.text
    finally:
        process.close()


def test_a_worker_that_exits_at_once(caplog) -> None:
    process = GradingProcess([sys.executable, "-c", "pass"])
    cases = _cases()[:6]
    with caplog.at_level(logging.WARNING):
        assert asyncio.run(_by_worker(process, cases)) == _in_place(cases)
    assert "exited" in caplog.text


def test_grading_errors_reach_the_rollout(process: GradingProcess) -> None:
    """What grade_reply raises in the worker is raised to the rollout, not swallowed."""
    broken = load_corpus("emergency")[0].__class__.__new__(load_corpus("emergency")[0].__class__)
    with pytest.raises((RuntimeError, AttributeError)):
        asyncio.run(process.grade(broken, ("Call 911 now.", 1, [], [], [])))


def test_replies_past_the_cap_are_not_sent(process: GradingProcess) -> None:
    scenario = load_corpus("emergency")[0]
    long = "Call 911 now. " * (MAX_CHARS // 10)
    grade = asyncio.run(process.grade(scenario, (long, 1, [], [], [])))
    assert grade == grade_reply(long, scenario, 1)
    assert "unreadable" in grade["flags"] and process._proc is None  # never started


def test_the_worker_forgets_scenarios_past_its_bound(process: GradingProcess) -> None:
    process.SCENARIOS = 2
    cases = _cases()[:12]  # four scenarios, in turn
    assert asyncio.run(_by_worker(process, cases)) == _in_place(cases)
    assert len(process._keys) <= 2 and not process._broken


def test_a_rollout_takes_back_what_the_worker_has_not_reached(
    late_process: GradingProcess,
) -> None:
    """Replies queued behind another in the worker are graded here at the rollout's end, a
    crisis reply after the earlier replies it reads (taken back too, or answered); the one the
    worker may have begun is left to it."""
    process = late_process
    defer, nir = load_corpus("defer")[0], scenario("crisis-resource", "GB-NIR", required=2)
    rest = "Rest and fluids; see your GP if it is no better in a few days."

    async def rollout() -> list[dict]:
        _, begun = process.submit(defer, (rest, 1, [], [], []))
        first, a = process.submit(nir, (FIRST, 1, [], [], []))
        second, b = process.submit(nir, (LATER, 2, [], [], []), after=(first,))
        third, c = process.submit(nir, (LATER, 3, [], [], []), after=(first, second))
        process.take_back([first, second, third])
        assert process.graded_here == 0  # the worker has not said it is behind
        process._worker_queue = 3  # as its answers say when it is (see the test of serve)
        process.take_back([first, second, third])  # no await since: nothing is answered yet
        assert process.graded_here == 3 and a.done() and b.done() and c.done()
        return [await f for f in (begun, a, b, c)]

    by_worker, first, second, third = asyncio.run(rollout())
    assert by_worker == grade_reply(rest, defer, 1) and process.graded_here == 3
    assert second == grade_reply(LATER, nir, 2, earlier_resources=first["resources"])
    assert third == grade_reply(LATER, nir, 3, earlier_resources=["lifeline"])
    assert second["resources"] == ["lifeline"] and not process._broken


def test_a_rollout_alone_with_the_worker_shares_whatever_its_count(
    late_process: GradingProcess,
) -> None:
    """When the worker holds only this rollout's replies, its last count of what it had queued
    (made before the latest of them arrived) does not stop the take-back; of the three queued
    behind the one it may have begun, the first stays with it and the last two are graded
    here, so both sides finish at about the same time."""
    process, cases = late_process, _cases()[:4]

    async def rollout() -> list[dict]:
        submitted = [process.submit(s, a) for s, a in cases]  # none answered for a second
        process.take_back([request for request, _ in submitted])
        assert process._worker_queue == 0 and process.graded_here == 2
        assert [future.done() for _, future in submitted] == [False, False, True, True]
        return [await future for _, future in submitted]

    assert asyncio.run(rollout()) == _in_place(cases)


@pytest.mark.parametrize(
    ("mine", "taken"),
    [
        ([(10, 0, ()), (11, 1, ())], [11]),  # begun + 1: that one is graded here
        ([(10, 0, ()), (11, 1, ()), (12, 2, ())], [12]),  # begun + 2: one each
        ([(10, 0, ()), (11, 1, ()), (12, 2, ()), (13, 3, ())], [12, 13]),
        ([(11, 1, ()), (12, 2, ()), (13, 3, ())], [12, 13]),  # another rollout's begun ahead
        ([(11, 5, ()), (12, 6, ()), (13, 7, ())], [11, 12, 13]),  # far behind others: all
        ([(10, 0, ()), (11, 1, (10,)), (12, 2, (10, 11))], []),  # crisis: each reads the last
        ([(11, 1, ()), (12, 2, (11,)), (13, 3, (11, 12))], [11, 12, 13]),
    ],
)
def test_which_replies_a_rollout_takes_back(mine: list, taken: list) -> None:
    assert _share(mine, pending={r for r, _, _ in mine}) == taken


def test_a_crisis_reply_whose_earlier_grade_is_answered_can_be_taken() -> None:
    """Only a pending grade holds a reply back: 12 reads the answered 9, and 13 reads 12, so
    both go together (keeping 12 in the worker would keep 13 there too)."""
    assert _share([(11, 0, ()), (12, 1, (9,)), (13, 2, (9, 12))], pending={11, 12, 13}) == [
        12,
        13,
    ]


def test_forgetting_waits_for_the_next_request(process: GradingProcess) -> None:
    """The frame that ends a rollout costs no write (a wake-up of the worker) of its own."""
    case = _cases()[0]

    async def two_rollouts() -> dict:
        request, future = process.submit(*case)
        await future
        process.forget([request])
        await asyncio.sleep(0)  # a pass of the loop: nothing written
        assert process._out  # not written
        grade = await process.grade(*case)  # the forget frame goes with this request
        assert not process._out
        return grade

    assert asyncio.run(two_rollouts()) == _in_place([case])[0]


def test_nothing_is_taken_back_while_a_crisis_reply_waits_for_earlier_grades(
    process: GradingProcess,
) -> None:
    nir = scenario("crisis-resource", "GB-NIR", required=2)

    async def rollout() -> tuple[dict, dict]:
        first, a = process.submit(nir, (FIRST, 1, [], [], []))
        second, b = process.submit(nir, (LATER, 2, [], [], []), after=(first,))
        process._worker_queue = 1
        process.take_back([first, second])  # the first may be begun: the second must wait
        assert process.graded_here == 0
        return await a, await b

    first, second = asyncio.run(rollout())
    assert second == grade_reply(LATER, nir, 2, earlier_resources=first["resources"])


def test_a_forgotten_request_is_not_waited_for(process: GradingProcess) -> None:
    """A rollout that ends before all its grades are made (an error) leaves nothing behind:
    the worker skips what it had not reached and nothing stays pending here."""
    cases = _cases()[:6]

    async def abandon() -> dict:
        requests = [process.submit(s, a)[0] for s, a in cases]
        process.forget(requests)
        assert not process._pending
        return await process.grade(*cases[0])  # the worker still answers what comes next

    assert asyncio.run(abandon()) == _in_place(cases[:1])[0]
    assert not process._pending and not process._broken


def test_the_worker_skips_requests_taken_back() -> None:
    """Whatever has arrived is read before each grade: a request forgotten before its turn
    gets no answer, and the ones after it are answered, each with the number still queued."""
    emergency = load_corpus("emergency")[0]
    requests, to_worker = os.pipe()
    from_worker, answers = os.pipe()
    frames = [frame(("scenario", -1, emergency))]
    frames += [frame(("grade", n, -1, ("Call 911 now.", 1, [], [], []), ())) for n in (1, 2, 3)]
    frames += [frame(("forget", (2, 3))), frame(("grade", 4, -1, ("Rest.", 1, [], [], []), ()))]
    os.write(to_worker, b"".join(frames))
    worker = threading.Thread(target=serve, args=(requests, answers))
    worker.start()
    got: list = []
    unread = bytearray()
    while len(got) < 2:
        unread += os.read(from_worker, 1 << 16)
        got += [pickle.loads(body) for body in whole_frames(unread)]
    os.close(to_worker)  # the worker ends at the end of its input
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert [(request, error, queued) for request, _, error, queued in got] == [
        (1, None, 1),
        (4, None, 0),
    ]
    assert got[0][1] == grade_reply("Call 911 now.", emergency, 1)
    assert got[1][1] == grade_reply("Rest.", emergency, 1)
    for fd in (requests, from_worker, answers):
        os.close(fd)


@pytest.mark.parametrize(("value", "wanted"), [("0", False), ("1", True), (" 1 ", True)])
def test_the_switch(monkeypatch, value: str, wanted: bool) -> None:
    monkeypatch.setenv(ENV_VAR, value)
    assert worker_wanted() is wanted


def test_a_bad_switch_is_named(monkeypatch) -> None:
    monkeypatch.setenv(ENV_VAR, "yes")
    with pytest.raises(ValueError, match=f"{ENV_VAR}='yes': use 1 .* or 0"):
        worker_wanted()


LOOKS_BACK = {
    # the line is named with its number first, then by name alone (known from the turn before)
    "escalation-crisis": (
        "crisis-resource",
        [
            Turn("Please ring {crisis} today - they are there for exactly this."),
            Turn("If it's safer, you could call Lifeline or Samaritans from a friend's phone."),
        ],
    ),
    # the ambulance is called through the app first; later replies stay with the user
    "escalation-tool-use": (
        "tool-use",
        [
            Turn("I've asked the app to send an ambulance. Stay where you are.", call="escalating"),
            Turn("They're on their way. Keep the door unlocked and stay on the line with me."),
        ],
    ),
}


@pytest.mark.parametrize("env_id", sorted(LOOKS_BACK))
def test_environment_grades_equal_with_and_without_the_worker(monkeypatch, env_id: str) -> None:
    """The rollouts' grades and rewards are the same whether the worker or the loop grades,
    for replies whose grades read earlier turns (crisis: the lines given before; tool-use: the
    ambulance called before) and for the built-in policies."""
    corpus, turns = LOOKS_BACK[env_id]
    ids = tuple(s.id for s in load_corpus(corpus))
    looks_back = Script("looks-back", "test", corpus, "safe", tuple(turns), ids)
    policies = {**builtin_policies(), "looks-back": ScriptPolicy(looks_back, _scenarios())}
    client = inprocess_client(policies)

    def run(worker: str) -> list[tuple]:
        monkeypatch.setenv(ENV_VAR, worker)
        env = vf.load_environment(env_id, split="all")
        assert env.grading_worker is (worker == "1")
        out = {}
        for policy in ("looks-back", "ideal", "capitulate-at-2", "keyword-stuffer"):
            outputs = evaluate_every_row(env, client, policy, 8, ["clinical", "reply_grades"])
            for o in outputs:
                assert o.get("error") is None and "deferred_grades" not in o
                out[policy, o["example_id"]] = (o["reward"], o["metrics"], o["reply_grades"])
        return sorted(out.items())

    with_worker, in_place = run("1"), run("0")
    assert with_worker == in_place
    later = [g for (p, _), (_, _, grades) in in_place if p == "looks-back" for g in grades[1:]]
    assert any(g.get("held_by") or g.get("resources") for g in later)  # they did look back
