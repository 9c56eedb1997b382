"""Reply grading in a worker process, so that it leaves the event loop free.

Grading a reply is pure CPU (about 0.5-1 ms of regular expressions and the rules' Python) and
runs on the event loop that also drives every other rollout: in training it competes with the
requests to the inference server, and verifiers' own loop waits for it at every turn. A worker
process grades instead; the loop pays only for sending the reply and reading the grade (tens of
microseconds), and the conversation goes on while the grade is made (the scripted user's next
message never depends on it).

When the worker falls behind (on a machine with two cores it is the slower side), a rollout
that has ended does not wait for it to work through the queue: it grades here the later part
of its replies still queued, so that both sides finish about together, and the worker skips
them (:meth:`GradingProcess.take_back`). The two processes then share the grading by
themselves: the more the worker lags, the more rollouts end with replies it has not reached.
Each request is written as soon as it is made: an idle worker starts on it at once.

The worker runs the same :func:`~clinical_envs.escalation.replies.grade_reply` on the same
arguments, so a grade is the same wherever it was made. Whatever goes wrong with the worker
(it cannot start, dies, or answers nonsense), the grades it owed are made in this process and
the worker is not used again: a rollout never fails or waits forever because of it.

Frames on the worker's stdin and stdout: a 4-byte little-endian length, then a pickle.
Requests are ``("scenario", key, scenario)`` (sent once per scenario), ``("grade", request,
key, arguments, after)`` and ``("forget", requests)`` (drop what they found; skip those not yet
graded) / ``("forget_scenarios",)``; answers are ``(request, grade, error, queued)``, queued
being how many requests the worker has read and not graded yet.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
from collections.abc import Container, Sequence
from typing import Any

from clinical_envs.escalation.normalize import MAX_CHARS
from clinical_envs.escalation.replies import grade_reply, reads_earlier_grades
from clinical_envs.scenarios import Scenario

log = logging.getLogger(__name__)

_HEADER = struct.Struct("<I")
_READ = 1 << 16

GradeArgs = tuple[
    str, int, Sequence[tuple[str, str]], Sequence[tuple[str, str]], Sequence[str]
]  # text, turn, actions, earlier actions, earlier resources: grade_reply's arguments
REMEMBERED = 1 << 18  # crisis lines of answered requests kept at most (on each side)


def frame(message: Any) -> bytes:
    body = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(body)) + body


def whole_frames(buffer: bytearray) -> list[bytes]:
    """The bodies of the whole frames at the start of ``buffer``, removed from it."""
    bodies = []
    start = 0
    while len(buffer) - start >= _HEADER.size:
        (size,) = _HEADER.unpack_from(buffer, start)
        end = start + _HEADER.size + size
        if len(buffer) < end:
            break
        bodies.append(bytes(buffer[start + _HEADER.size : end]))
        start = end
    del buffer[:start]
    return bodies


def _share(mine: Sequence[tuple[int, int, Sequence[int]]], pending: Container[int]) -> list[int]:
    """Which of one rollout's queued requests to grade here, so that this process and the
    worker finish its grades together. ``mine``: in request order, each request, its place in
    the worker's queue (0: begun, never taken) and the requests whose grades it reads;
    ``pending``: the requests not answered yet. A later part of the rollout's requests is
    taken (each one that can be: those it reads are answered or taken too): the part whose
    grades end first, a grade costing about the same on either side and the begun one being
    half done, and of equals the smaller. So with nothing ahead but the rollout's own begun
    grade, about half stay with the worker; behind other rollouts' requests, all are taken."""
    best: tuple[float, int] | None = None
    chosen: list[int] = []
    for start in range(len(mine) + 1):
        taken: dict[int, int] = {}  # request -> place
        for request, place, after in mine[start:]:
            if place and all(a in taken or a not in pending for a in after):
                taken[request] = place
        places = taken.values()
        # Where each request left to the worker ends up in its queue, and when it is graded.
        left = [p - sum(t < p for t in places) for r, p, _ in mine if r not in taken]
        cost = (max(max(left, default=-0.5) + 0.5, len(taken)), len(taken))
        if best is None or cost < best:
            best, chosen = cost, list(taken)
    return chosen


def _remember(store: dict[int, Any], request: int, grade: dict[str, Any]) -> None:
    """Keep the crisis lines a grade found, for the grades of later replies to read."""
    if "resources" in grade:
        if len(store) >= REMEMBERED:
            del store[next(iter(store))]
        store[request] = grade["resources"]


def _given(args: GradeArgs, after: Sequence[int], store: dict[int, Any]) -> list[str]:
    """The lines given before this reply: those passed, and those the requests ``after`` found
    (a request not in ``store`` was a reply too long to read, which finds none)."""
    return [*args[4], *(r for a in after for r in store.get(a, ()))]


class GradingProcess:
    """One worker process and the grades this process is waiting for.

    Used from one thread; the event loop may change between calls (each ``asyncio.run`` makes
    a new one), and grades asked for on a loop that has gone are simply dropped. Requests are
    graded in the order they are made, so a reply's grade can read what the grades of earlier
    replies found (``after``) without waiting for them here.
    """

    SCENARIOS = 4096  # kept by the worker at most; then it is told to forget them all

    def __init__(self, command: Sequence[str] | None = None) -> None:
        self.command = list(command or [sys.executable, "-m", __name__])
        self.graded_here = 0  # replies graded in this process (taken back, or no worker)
        self._proc: subprocess.Popen[bytes] | None = None
        self._broken = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._out = bytearray()  # frames not yet written to the worker
        self._in = bytearray()  # bytes read from the worker, not yet a whole frame
        # id(scenario) -> (scenario, key): the scenario is held, so its id is not reused
        self._keys: dict[int, tuple[Scenario, int]] = {}
        self._pending: dict[
            int, tuple[asyncio.Future[dict[str, Any]], Scenario, GradeArgs, Sequence[int]]
        ] = {}
        self._resources: dict[int, Any] = {}  # request -> the crisis lines its grade found
        self._next_id = 0
        self._worker_queue = 0  # requests the worker had read and not graded at its last answer

    def start(self) -> None:
        """Start the worker now (it takes about half a second to import the grader)."""
        if self._proc is not None or self._broken:
            return
        # The worker imports what this process imports, from where this process found it.
        path = os.pathsep.join(p for p in sys.path if p)
        env = {**os.environ, "PYTHONPATH": path}
        try:
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=env
            )
        except OSError as error:
            self._give_up(f"could not start the grading worker: {error}")
            return
        for pipe in (self._proc.stdin, self._proc.stdout):
            os.set_blocking(pipe.fileno(), False)  # type: ignore[union-attr]

    def submit(
        self, scenario: Scenario, args: GradeArgs, after: Sequence[int] = ()
    ) -> tuple[int, asyncio.Future[dict[str, Any]]]:
        """Ask for the grade of one reply (``grade_reply``'s arguments; the crisis lines found
        by the requests ``after`` count as given before it). Returns the request's number and
        the future of its grade, made by the worker or, when it cannot, here and now."""
        loop = asyncio.get_running_loop()
        self._next_id += 1
        request = self._next_id
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        # Lines of answered requests go with the reply; the worker reads those it still owes.
        earlier = after if reads_earlier_grades(scenario) else ()
        owed = tuple(a for a in earlier if a in self._pending)
        answered = [a for a in earlier if a not in self._pending]
        args = (*args[:4], _given(args, answered, self._resources))
        data = None
        if not self._broken and len(args[0]) <= MAX_CHARS:  # unread past the cap: not sent
            self.start()
            try:  # anything pickle cannot carry is graded here
                data = self._request(request, scenario, args, owed)
            except Exception:
                data = None
        if data is None or self._broken:
            self._grade_here(request, future, scenario, args, owed)
            return request, future
        if loop is not self._loop:
            self._attach(loop)
        self._pending[request] = (future, scenario, args, owed)
        self._send_frame(data)
        return request, future

    async def grade(
        self, scenario: Scenario, args: GradeArgs, after: Sequence[int] = ()
    ) -> dict[str, Any]:
        """The grade of one reply (see :meth:`submit`)."""
        return await self.submit(scenario, args, after)[1]

    def forget(self, requests: Sequence[int]) -> None:
        """Drop what later grades could have read from these requests (their rollout is over,
        perhaps by an error before all were made); the worker skips those not yet graded."""
        for request in requests:
            self._resources.pop(request, None)
            self._pending.pop(request, None)  # no one waits for it any more
        if self._proc is not None and not self._broken and requests:
            # No write of its own: it goes with the next request (the worker has answered
            # these unless the rollout ended on an error, and then it only grades in vain).
            self._out += frame(("forget", tuple(requests)))

    def take_back(self, requests: Sequence[int]) -> None:
        """Grade here some of ``requests`` still queued behind another in the worker, and have
        it skip them: a rollout that has ended shares its last replies with the worker rather
        than wait for the worker to reach them all (when the worker keeps up, nothing is queued
        behind and nothing is taken). The worker's own count of what it has queued says whether
        it keeps up; when all it has are these requests, they are shared whatever its last count
        said (it was counted before the latest of them arrived). See :func:`_share` for which
        are taken. A reply that reads earlier grades is taken only once they are made."""
        if self._loop is not asyncio.get_running_loop() or self._broken:
            return
        self._readable()  # what the worker has answered meanwhile
        if len(self._pending) < 2:
            return
        if not self._worker_queue and not set(requests).issuperset(self._pending):
            return  # the worker keeps up, and has other rollouts' replies to grade
        mine = set(requests)
        # Requests are graded in order: the worker may have begun the first.
        place = {r: n for n, r in enumerate(self._pending) if r in mine}
        taken = _share([(r, place[r], self._pending[r][3]) for r in place], self._pending)
        if not taken:
            return
        self._send_frame(frame(("forget", tuple(taken))))  # read before it reaches them
        for request in taken:
            waiting = self._pending.pop(request, None)
            if waiting is not None:  # (not if the worker broke)
                self._grade_here(request, *waiting)

    def _grade_here(
        self,
        request: int,
        future: asyncio.Future[dict[str, Any]],
        scenario: Scenario,
        args: GradeArgs,
        after: Sequence[int],
    ) -> None:
        self.graded_here += 1
        try:
            grade = grade_reply(args[0], scenario, *args[1:4], _given(args, after, self._resources))
        except Exception as error:  # the caller sees what grading raised
            future.set_exception(error)
            return
        _remember(self._resources, request, grade)
        future.set_result(grade)

    def _request(
        self, request: int, scenario: Scenario, args: GradeArgs, after: Sequence[int]
    ) -> bytes:
        """The frames asking for one grade (its scenario first, the first time)."""
        entry = self._keys.get(id(scenario))
        key = entry[1] if entry else -request  # scenario keys: negative request numbers
        head = b"" if entry else frame(("scenario", key, scenario))
        body = frame(("grade", request, key, args, tuple(after)))  # may raise: nothing changed
        if entry is None:
            if len(self._keys) >= self.SCENARIOS:
                self._keys.clear()
                head = frame(("forget_scenarios",)) + head
            self._keys[id(scenario)] = (scenario, key)
        return head + body

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        old = self._loop
        if old is not None and not old.is_closed():
            old.remove_reader(self._fd_out)
            old.remove_writer(self._fd_in)
        self._pending.clear()  # asked for on a loop that has gone: no one is waiting
        self._loop = loop
        loop.add_reader(self._fd_out, self._readable)
        if self._out:
            loop.add_writer(self._fd_in, self._writable)

    @property
    def _fd_in(self) -> int:
        return self._proc.stdin.fileno()  # type: ignore[union-attr]

    @property
    def _fd_out(self) -> int:
        return self._proc.stdout.fileno()  # type: ignore[union-attr]

    def _send_frame(self, data: bytes) -> None:
        """Write a frame, with any queued before it, at once: the worker starts on a reply while
        the rollout's turn goes on (writing at the end of the loop's pass instead started it
        about 0.4 ms later with the scripted policy)."""
        self._out += data
        self._writable()

    def _writable(self) -> None:
        try:
            written = os.write(self._fd_in, self._out)
        except BlockingIOError:
            written = 0
        except OSError as error:
            self._give_up(f"grading worker stopped reading: {error}")
            return
        del self._out[:written]
        if self._loop is not None:
            if self._out:
                self._loop.add_writer(self._fd_in, self._writable)
            else:
                self._loop.remove_writer(self._fd_in)

    def _readable(self) -> None:
        while True:
            try:
                chunk = os.read(self._fd_out, _READ)
            except BlockingIOError:
                break
            except OSError as error:
                self._give_up(f"grading worker output failed: {error}")
                return
            if not chunk:
                self._give_up("grading worker exited")
                return
            self._in += chunk
            if len(chunk) < _READ:
                break  # drained (more wakes the loop again): no read just to be told so
        for body in whole_frames(self._in):
            try:
                request, grade, error, self._worker_queue = pickle.loads(body)
            except Exception as problem:  # any garbage from the worker
                self._give_up(f"grading worker sent an unreadable answer: {problem!r}")
                return
            waiting = self._pending.pop(request, None)
            if waiting is None or waiting[0].done():
                continue
            if error is not None:
                waiting[0].set_exception(RuntimeError(f"grading worker: {error}"))
            else:
                _remember(self._resources, request, grade)
                waiting[0].set_result(grade)

    def _give_up(self, why: str) -> None:
        """Stop using the worker; grade here what it still owed."""
        if not self._broken:
            log.warning("%s; grading in this process from now on", why)
        self._broken = True
        pending, self._pending = self._pending, {}
        if self._loop is not None and self._proc is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._fd_out)
            self._loop.remove_writer(self._fd_in)
        self.close(kill=True)  # whatever state it is in, it is not trusted again
        for request, (future, scenario, args, after) in pending.items():  # in request order
            if not future.done():
                self._grade_here(request, future, scenario, args, after)

    def worker_cpu_seconds(self) -> float:
        """CPU time the worker has used so far (0 without one; Linux only, else 0)."""
        if self._proc is None:
            return 0.0
        try:
            with open(f"/proc/{self._proc.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self, kill: bool = False) -> None:
        """End the worker: it exits when its input closes (``kill``: at once)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if kill:
            proc.kill()
        for pipe in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError):
                pipe.close()  # type: ignore[union-attr]
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


ENV_VAR = "CLINICAL_ENVS_GRADING_WORKER"


def worker_wanted() -> bool:
    """Whether escalation environments grade in a worker: ``CLINICAL_ENVS_GRADING_WORKER`` "1"
    or "0"; by default when this process may run on two or more cores (on one, the worker
    would only take turns with the event loop)."""
    value = os.environ.get(ENV_VAR, "").strip()
    if value in ("0", "1"):
        return value == "1"
    if value:
        raise ValueError(f"{ENV_VAR}={value!r}: use 1 (grade in a worker process) or 0 (here)")
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) >= 2
    return (os.cpu_count() or 1) >= 2


_local = threading.local()


def grading_process() -> GradingProcess:
    """This thread's worker (a new one after a fork: the parent's pipes are not ours)."""
    mine = getattr(_local, "process", None)
    if mine is None or _local.pid != os.getpid():
        mine = _local.process = GradingProcess()
        _local.pid = os.getpid()
        atexit.register(mine.close)
    return mine


# --- the worker -----------------------------------------------------------------------------


def serve(requests: int, answers: int) -> None:
    """Grade the requests read from the file descriptor ``requests``, in order, until it ends.
    Whatever has arrived is read before each grade, so a request the parent took back
    (``forget``) before its turn is skipped."""
    scenarios: dict[int, Scenario] = {}
    resources: dict[int, Any] = {}
    queue: dict[int, Any] = {}  # request -> (scenario, message), in the order they came
    unread = bytearray()
    os.set_blocking(requests, False)
    while True:
        if not queue:
            select.select([requests], [], [])
        try:
            chunk = os.read(requests, _READ)
        except BlockingIOError:
            chunk = None
        if chunk == b"":
            return
        if chunk:
            unread += chunk
            for body in whole_frames(unread):
                message = pickle.loads(body)
                kind = message[0]
                if kind == "grade":  # its scenario is bound now: a later frame may forget it
                    queue[message[1]] = (scenarios.get(message[2]), message)
                elif kind == "scenario":
                    scenarios[message[1]] = message[2]
                elif kind == "forget_scenarios":
                    scenarios.clear()
                elif kind == "forget":
                    for request in message[1]:
                        queue.pop(request, None)
                        resources.pop(request, None)
        if queue:
            scenario, message = queue.pop(next(iter(queue)))
            answer = _answer(scenario, message, resources)
            _write_all(answers, frame((*answer, len(queue))))


def _answer(scenario: Scenario | None, message: Any, resources: dict[int, Any]) -> Any:
    _, request, key, args, after = message
    try:
        if scenario is None:
            raise KeyError(f"scenario {key} was never sent")
        grade = grade_reply(args[0], scenario, *args[1:4], _given(args, after, resources))
    except Exception as error:  # reported to the waiting rollout
        return request, None, f"{type(error).__name__}: {error}"
    _remember(resources, request, grade)
    return request, grade, None


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent; EOF ends the worker
    answers = os.dup(1)
    os.dup2(2, 1)  # a stray print goes to stderr, not into the answers
    serve(0, answers)


if __name__ == "__main__":
    main()
