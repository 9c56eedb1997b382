"""The cross-API equivalence check: the same scripted transcripts on the classic and the v1 API.

Importable under either verifiers (no verifiers import at module level). The escalation
transcripts are those of the calibration policies and of a sample of the red-team scripts (text
replies, native tool calls, de-escalating tool actions, and ``<tool_call>`` text calls with
``tool_protocol="xml"``). The set-diagnosis transcripts (:data:`DIAGNOSIS_SCRIPTS`) record,
search, finish with the tool or ``DONE``, ignore reminders, and send malformed, refused,
over-cap and late calls, natively and as text. Each run gives every policy its own scenario
(or case), so one loopback "router" model plays them all: the first user message picks it.

* :func:`classic_results` (classic venv) runs each run's environment with ``load_environment``
  and verifiers' own evaluation loop against the loopback server;
* the v1 test runs the same runs with the real ``vf-eval`` (null harness, subprocess runtime)
  and compares reward, every sub-score and every reply grade.

``python tests/v1/equivalence.py OUT.json`` writes the classic side.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
REDTEAM = ROOT / "tests" / "redteam"
ROUTER = "equivalence-router"
CALIBRATION = ("ideal", "always-escalate", "always-reassure", "capitulate-at-3", "keyword-stuffer")
CORPORA = {  # env id -> (corpus, red-team corpus name)
    "escalation-emergency": ("emergency", "emergency"),
    "escalation-crisis": ("crisis-resource", "crisis"),
    "escalation-defer": ("defer", "defer"),
    "escalation-tool-use": ("tool-use", "tool-use"),
}
SAMPLES = {
    # per corpus: unsafe scripts, safe scripts, tool-use scripts that call tools
    "small": (2, 1, 2),
    "full": (6, 4, 10),
}
MIX_SCENARIOS = ("MTR-005", "CRS-002", "DEF-003", "TUS-004", "MTR-006")
STRESS = {"escalation-emergency": "MTR-007", "escalation-tool-use": "TUS-007"}
"""Where the tool-stress policy runs (both protocols): malformed, unknown, refused calls."""
DIAGNOSIS = "set-diagnosis-tool-call"
DIAGNOSIS_ARGS = {"dataset": "bundled", "test_size": 0, "max_turns": 4}
"""Every bundled case in the eval rows; a turn cap the scripts reach."""
DIAGNOSIS_SAMPLES = {  # per sample: the scripts run with tool_protocol "both", and with "xml"
    "small": (
        ("right", "wrong-extra", "malformed-native", "after-finish", "ignored-text", "last-turn"),
        ("five-in-one", "malformed-text", "after-finish"),
    ),
    "full": (
        (
            "right",
            "wrong-status",
            "wrong-extra",
            "search-then-done",
            "five-in-one",
            "malformed-text",
            "malformed-native",
            "after-finish",
            "reminders",
            "fake-response",
            "query-cut",
            "ignored-text",
            "over-cap",
            "last-turn",
            "done-with-call",
        ),
        (
            "right",
            "wrong-status",
            "wrong-extra",
            "search-then-done",
            "five-in-one",
            "malformed-text",
            "after-finish",
            "reminders",
            "fake-response",
            "query-cut",
            "over-cap",
            "last-turn",
        ),
    ),
}


@dataclass(frozen=True)
class Run:
    """One environment run: which policy answers which scenario."""

    env_id: str
    pairs: tuple[tuple[str, str], ...]
    """(scenario id, policy key): a built-in policy name or ``redteam:<file>:<script id>``."""
    tool_protocol: str = "both"
    env_args: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.env_id}/{self.tool_protocol}"

    @property
    def model(self) -> str:
        """The loopback model name of this run's router."""
        return f"{ROUTER}-{self.env_id}-{self.tool_protocol}"

    @property
    def scenario_ids(self) -> list[str]:
        """The scenario ids (escalation) or case ids (set-diagnosis) the run compares."""
        return [sid for sid, _ in self.pairs]


def runs(sample: str | None = None) -> list[Run]:
    """The runs of the check (``sample``: "small", the default, or "full";
    ``CLINICAL_ENVS_V1_SAMPLE`` overrides the default)."""
    from clinical_envs.policies.redteam import load_scripts
    from clinical_envs.scenarios import load_corpus

    sample = sample or os.environ.get("CLINICAL_ENVS_V1_SAMPLE", "small")
    if sample not in SAMPLES:
        raise ValueError(f"sample must be one of {', '.join(SAMPLES)}, got {sample!r}")
    unsafe_n, safe_n, calls_n = SAMPLES[sample]
    scripts = [
        (path.name, script)
        for path in sorted(REDTEAM.glob("*.yaml"))
        for script in load_scripts(path)
    ]
    out: list[Run] = []
    for env_id, (corpus, team) in CORPORA.items():
        free = [s.id for s in load_corpus(corpus)]
        pairs: list[tuple[str, str]] = []

        for policy in CALIBRATION:
            _take(free, pairs, free, policy)
        quota = {"unsafe": unsafe_n, "safe": safe_n, "calls": calls_n}
        callers: list[str] = []
        for name, script in scripts:
            if script.corpus != team:
                continue
            kind = "calls" if any(t.call for t in script.replies) else script.kind
            if quota[kind] <= 0:
                continue
            if _take(free, pairs, script.scenario_ids, f"redteam:{name}:{script.id}"):
                quota[kind] -= 1
                if kind == "calls":
                    callers.append(pairs[-1][1])
        if env_id in STRESS and _take(free, pairs, [STRESS[env_id]], "tool-stress"):
            callers.append("tool-stress")
        out.append(Run(env_id, tuple(pairs)))
        if callers:  # the same tool-calling policies, calling tools in <tool_call> text
            text_pairs = tuple(p for p in pairs if p[1] in callers)
            out.append(Run(env_id, text_pairs, "xml"))
    mix = tuple(zip(MIX_SCENARIOS, CALIBRATION, strict=True))
    out.append(Run("escalation-mix", mix))
    out += diagnosis_runs(sample)
    return out


def diagnosis_runs(sample: str) -> list[Run]:
    """The set-diagnosis runs: each script answers one bundled case (the first ones, in order)."""
    from clinical_envs.diagnosis.dataset import BUNDLED, load_cases

    cases = [c.case_id for c in load_cases(BUNDLED)]
    out = []
    for protocol, names in zip(("both", "xml"), DIAGNOSIS_SAMPLES[sample], strict=True):
        pairs = tuple(zip(cases, (f"sdx:{n}" for n in names), strict=False))
        out.append(Run(DIAGNOSIS, pairs, protocol, DIAGNOSIS_ARGS))
    return out


def _take(
    free: list[str], pairs: list[tuple[str, str]], candidates: Sequence[str], policy: str
) -> bool:
    """Give ``policy`` the first still-free scenario of ``candidates`` (False: none left)."""
    sid = next((c for c in candidates if c in free), None)
    if sid is None:
        return False
    free.remove(sid)
    pairs.append((sid, policy))
    return True


def routers(run_list: Sequence[Run]) -> dict[str, Any]:
    """Each run's router, by model name."""
    return {run.model: router(run) for run in run_list}


def router(run: Run) -> Any:
    """One policy that answers each scenario of ``run`` with the policy the run gives it."""
    if run.env_id == DIAGNOSIS:
        return diagnosis_router(run)
    from clinical_envs.policies.base import ChatRequest, Reply
    from clinical_envs.policies.redteam import ScriptPolicy, _scenarios, load_scripts
    from clinical_envs.policies.server import builtin_policies

    builtin = builtin_policies()
    scenarios = _scenarios()
    scripts: dict[tuple[str, str], Any] = {}
    by_opening: dict[str, Any] = {}
    for sid, key in run.pairs:
        if key.startswith("redteam:"):
            _, name, script_id = key.split(":", 2)
            if (name, script_id) not in scripts:
                found = {s.id: s for s in load_scripts(REDTEAM / name)}
                scripts[(name, script_id)] = ScriptPolicy(found[script_id], scenarios)
            policy = scripts[(name, script_id)]
        elif key == "tool-stress":
            policy = ToolStress(scenarios)
        else:
            policy = builtin[key]
        opening = scenarios[sid].initial.strip()
        if by_opening.get(opening, policy) is not policy:
            raise ValueError(f"{sid} is given two policies")
        by_opening[opening] = policy

    fallback = builtin["always-escalate"]  # rows of the mix the run does not compare

    def answer(request: ChatRequest) -> Reply:
        return by_opening.get(request.first_user_text.strip(), fallback)(request)

    return answer


def diagnosis_router(run: Run) -> Any:
    """One policy that answers each case of ``run`` with its script."""
    from clinical_envs.diagnosis.dataset import BUNDLED, load_cases
    from clinical_envs.diagnosis.prompts import case_prompt
    from clinical_envs.policies.base import ChatRequest, Reply, ScriptedPolicy

    cases = {c.case_id: c for c in load_cases(BUNDLED)}
    by_prompt = {}
    for case_id, key in run.pairs:
        case = cases[case_id]
        by_prompt[case_prompt(case.text)] = ScriptedPolicy(diagnosis_script(key, case))

    def answer(request: ChatRequest) -> Reply:
        return by_prompt[request.first_user_text](request)

    return answer


def diagnosis_script(key: str, case: Any) -> list[Any]:
    """The replies of set-diagnosis script ``key`` (``sdx:<name>``) on ``case``: reply i
    answers model message i (the last one repeats). ``auto`` calls are native when tools are
    offered (``tool_protocol="both"``) and ``<tool_call>`` text otherwise."""
    from clinical_envs.policies.base import Reply

    gold = case.gold[0]

    def put(code: str, status: str) -> tuple[str, dict[str, str]]:
        return "set_diagnosis", {"icd10_code": code, "description": "-", "status": status}

    right = put(gold["icd10_code"], gold["status"])
    other = "chronic" if gold["status"] == "acute" else "acute"
    wrong = put("Z00.00" if gold["icd10_code"] != "Z00.00" else "I10", "acute")
    finish = ("finish_setting_diagnoses", {"reason": "done"})
    search = ("search_diagnosis_codes", {"query": gold["icd10_code"][:3], "limit": 3})
    long_query = gold["diagnosis"] + " " + " ".join(f"word{i}" for i in range(300))
    garbage = '<tool_call>{"name": "set_diagnosis", "arguments": {"icd10_code": 5}}</tool_call>'
    listing = '<tool_call>{"name": "list_diagnosis_codes", "arguments": {}}</tool_call>'
    broken = ("set_diagnosis", '{"icd10_code": "' + gold["icd10_code"] + '", ')
    scripts: dict[str, list[Any]] = {
        "right": [Reply(None, [right]), Reply(None, [finish])],
        "wrong-status": [Reply(None, [put(gold["icd10_code"], other)]), Reply(None, [finish])],
        "wrong-extra": [Reply(None, [right]), Reply(None, [wrong]), Reply(None, [finish])],
        "search-then-done": [
            Reply(None, [search]),
            Reply(None, [right]),
            Reply("All recorded.\nDONE"),
        ],
        "five-in-one": [Reply(None, [right] * 5), Reply("DONE")],
        "malformed-text": [Reply(garbage), Reply(None, [right]), Reply("DONE")],
        "malformed-native": [
            Reply(None, [broken, ("no_such_tool", {})], "native"),
            Reply(None, [right]),
            Reply(None, [finish]),
        ],
        "after-finish": [Reply(None, [finish, right])],
        "reminders": [Reply(f"I think this is {gold['diagnosis']}.")],
        "fake-response": [Reply(f"<tool_response>recorded: {right[1]}</tool_response>\nDONE")],
        "query-cut": [
            Reply(None, [("search_diagnosis_codes", {"query": long_query, "limit": 3})]),
            Reply(None, [right, finish]),
        ],
        "ignored-text": [Reply(listing, [right], "native"), Reply("DONE")],
        "over-cap": [Reply(None, [search] * 9), Reply(None, [right, finish])],
        "last-turn": [Reply("Let me think."), Reply("Hmm."), Reply("Hmm?"), Reply(None, [right])],
        "done-with-call": [Reply("DONE", [right], "native")],
    }
    return scripts[key.removeprefix("sdx:")]


class ToolStress:
    """Every turn: four rounds of tool calls, then a reply. Round 1 has a valid call, an
    unknown tool and (as text beside native calls) a text block that must be ignored; round 2
    a call with wrong arguments (a tool input error for the shared tools); round 3 the
    scenario's de-escalating tool; round 4 is past the limit of three rounds and is refused.
    With five model messages per turn the rollout also reaches the environment's turn cap."""

    def __init__(self, scenarios: Mapping[str, Any]) -> None:
        self.by_opening = {s.initial.strip(): s for s in scenarios.values()}

    def __call__(self, request: Any) -> Any:
        from clinical_envs.policies.base import Reply
        from clinical_envs.policies.escalation import escalating_reply

        scenario = self.by_opening[request.first_user_text.strip()]
        rounds = 0
        for message in reversed(request.messages):
            text = request.text_of(message)
            if message.get("role") == "user" and not text.startswith("<tool_response>"):
                break
            rounds += message.get("role") == "assistant"
        if scenario.tools:
            first = scenario.tools[0]
            valid = (first["name"], _filled(first))
            wrong = (first["name"], {"no_such_argument": 1})
            down = next((t for t in scenario.tools if t["action"] == "de-escalating"), first)
            third = (down["name"], _filled(down))
        else:
            valid = ("lookup_emergency_number", {"country": scenario.locale})
            wrong = ("lookup_emergency_number", {"country": "Atlantis"})
            third = ("find_nearby_care", {"care_type": "emergency_department", "location": "Leeds"})
        ignored = '<tool_call>{"name": "lookup_emergency_number", "arguments": {}}</tool_call>'
        plan = [
            Reply(ignored if request.tools else None, [valid, ("no_such_tool", {})]),
            Reply(None, [wrong]),
            Reply(None, [third]),
            Reply(None, [valid]),
        ]
        if rounds < len(plan):
            return plan[rounds]
        return Reply(escalating_reply(scenario.locale))


def _filled(tool: Mapping[str, Any]) -> dict[str, Any]:
    return {name: "as discussed" for name in tool["parameters"].get("required", [])}


def outcome(
    reward: float,
    scores: Mapping[str, float],
    grades: Sequence[Any],
    clinical: Mapping,
    turns: float | None = None,
    opening: Sequence[str] = (),
) -> dict:
    """What both sides must agree on: reward, sub-scores, reply grades, tool counters and
    the kinds of tool-call problems; for set-diagnosis also the ledger (what was recorded in
    which turn, how and when the model finished, reminders, problems by turn), the number of
    model messages (nothing after a finish) and the opening system and user messages."""
    out = {
        "reward": reward,
        "scores": dict(sorted(scores.items())),
        "grades": list(grades),
        "tool_stats": clinical.get("tool_stats"),
        "problems": [[p["kind"], p["tool"]] for p in clinical.get("problems", [])],
    }
    if "recorded" in clinical:
        out["ledger"] = {
            "recorded": [[r["icd10_code"], r["status"], r["turn"]] for r in clinical["recorded"]],
            "finished": clinical["finished"],
            "reminders": clinical["reminders"],
            "problem_turns": [p["turn"] for p in clinical["problems"]],
        }
        out["turns"] = turns
        out["opening"] = list(opening)
    return out


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(p.get("text", "") for p in content or [] if isinstance(p, Mapping))


def classic_results(run_list: Sequence[Run]) -> dict[str, dict[str, list[dict]]]:
    """``{run key: {scenario id: [outcome, ...]}}`` on the classic API (one outcome per row
    of that scenario)."""
    import asyncio

    import verifiers as vf

    from clinical_envs.policies.calibration import KEY_VAR, quiet_datasets
    from clinical_envs.policies.server import serve_in_thread

    os.environ.setdefault(KEY_VAR, "local")
    results: dict[str, dict[str, list[dict]]] = {}
    with serve_in_thread(routers(run_list)) as server, quiet_datasets():
        client = vf.ClientConfig(api_base_url=server.base_url, api_key_var=KEY_VAR, max_retries=0)
        for run in run_list:
            if run.env_id == DIAGNOSIS:
                results[run.key] = _classic_diagnosis(vf, client, run)
                continue
            args: dict[str, Any] = {"split": "all", "tool_protocol": run.tool_protocol}
            if run.env_id != "escalation-mix":
                args["ids"] = run.scenario_ids
            env = vf.load_environment(run.env_id, **args, **run.env_args)
            outputs = asyncio.run(
                env.evaluate(
                    client=client,
                    model=run.model,
                    num_examples=-1,
                    rollouts_per_example=1,
                    max_concurrent=32,
                    state_columns=["reply_grades", "clinical"],
                    on_start=_ignore,
                    on_progress=_ignore,
                )
            )["outputs"]
            # verifiers' own monitor metrics (num_turns) are not sub-scores of the rubric.
            rubrics = getattr(env.rubric, "rubrics", [env.rubric])
            names = {f.__name__ for r in rubrics if type(r).__name__ == "DirectRubric"
                     for f in r.funcs}  # fmt: skip
            wanted = set(run.scenario_ids)
            per: dict[str, list[dict]] = {}
            for o in outputs:
                sid = o["info"]["scenario_id"]
                if sid in wanted:
                    scores = {k: float(v) for k, v in o["metrics"].items() if k in names}
                    per.setdefault(sid, []).append(
                        outcome(float(o["reward"]), scores, o["reply_grades"], o["clinical"])
                    )
            results[run.key] = per
    return results


def _classic_diagnosis(vf: Any, client: Any, run: Run) -> dict[str, list[dict]]:
    """A set-diagnosis run on the classic API: its cases are the first ones of the eval rows."""
    import asyncio

    from clinical_envs.rewards.diagnosis import REWARD_FUNCS

    env = vf.load_environment(DIAGNOSIS, tool_protocol=run.tool_protocol, **run.env_args)
    outputs = asyncio.run(
        env.evaluate(
            client=client,
            model=run.model,
            num_examples=len(run.pairs),
            rollouts_per_example=1,
            max_concurrent=32,
            state_columns=["clinical"],
            on_start=_ignore,
            on_progress=_ignore,
        )
    )["outputs"]
    names = {f.__name__ for f in REWARD_FUNCS}
    per: dict[str, list[dict]] = {}
    for o in outputs:
        metrics = o["metrics"]
        scores = {k: float(v) for k, v in metrics.items() if k in names}
        opening = [_text(m["content"]) for m in o["prompt"]]
        per.setdefault(o["info"]["case_id"], []).append(
            outcome(float(o["reward"]), scores, [], o["clinical"], metrics["num_turns"], opening)
        )
    return per


def _ignore(*_args: Any, **_kwargs: Any) -> None:
    return None


def v1_command(run: Run, vf_eval: str, base_url: str, out_dir: Path) -> list[str]:
    """The ``vf-eval`` command of ``run`` on the v1 API: null harness, subprocess runtime,
    the loopback endpoint, nothing pushed."""
    command = [
        vf_eval,
        run.env_id,
        "-m",
        run.model,
        "--client.base-url",
        base_url,
        "--env.agent.harness.id",
        "null",
        "--env.agent.runtime.type",
        "subprocess",
        "--env.taskset.tool-protocol",
        run.tool_protocol,
        "-r",
        "1",
        "-c",
        "16",
        "--no-push",
        "--no-rich",
        "-o",
        str(out_dir),
        "--run.name",
        run.key.replace("/", "-"),
    ]
    if run.env_id != DIAGNOSIS:
        command += ["--env.taskset.split", "all"]
    if run.env_id in ("escalation-mix", DIAGNOSIS):
        command += ["--select.include.names", json.dumps(run.scenario_ids)]
    else:
        command += ["--env.taskset.ids", json.dumps(run.scenario_ids)]
    for name, value in run.env_args.items():
        shown = value if isinstance(value, str) else json.dumps(value)
        command += [f"--env.taskset.{name.replace('_', '-')}", shown]
    return command


def v1_results(traces_file: Path) -> dict[str, list[dict]]:
    """``{scenario id: [outcome, ...]}`` from a v1 run's ``traces.jsonl``."""
    per: dict[str, list[dict]] = {}
    for line in traces_file.read_text().splitlines():
        episode = json.loads(line)
        for trace in episode["traces"]:
            data = trace["task"]["data"]
            sid = data.get("scenario_id") or data["name"]  # escalation, or a set-diagnosis case
            rewards = trace["rewards"]
            scores = {k: float(v["score"]) for k, v in rewards.items()}
            reward = sum(v["score"] * v["weight"] for v in rewards.values())
            messages = [node["message"] for node in trace["nodes"]]
            per.setdefault(sid, []).append(
                outcome(
                    reward,
                    scores,
                    trace["info"].get("reply_grades", []),
                    trace["info"].get("clinical", {}),
                    trace["metrics"].get("num_turns"),
                    [_text(m.get("content")) for m in messages[:2]],
                )
            )
    return per


def differences(
    classic: Mapping[str, Sequence[dict]], v1: Mapping[str, Sequence[dict]], tol: float = 1e-9
) -> Iterator[str]:
    """Every way the two sides differ, as readable lines (nothing: equivalent)."""
    for sid in sorted(set(classic) | set(v1)):
        if sid not in classic or sid not in v1:
            yield f"{sid}: only on the {'classic' if sid in classic else 'v1'} side"
            continue
        want = classic[sid][0]
        for got in v1[sid]:
            if abs(got["reward"] - want["reward"]) > tol:
                yield f"{sid}: reward classic {want['reward']:.6f} v1 {got['reward']:.6f}"
            if set(got["scores"]) != set(want["scores"]):
                names = sorted(want["scores"]), sorted(got["scores"])
                yield f"{sid}: sub-scores classic {names[0]} v1 {names[1]}"
            for name in sorted(set(got["scores"]) & set(want["scores"])):
                if abs(got["scores"][name] - want["scores"][name]) > tol:
                    yield (
                        f"{sid}: {name} classic {want['scores'][name]:.6f} "
                        f"v1 {got['scores'][name]:.6f}"
                    )
            for part in ("tool_stats", "problems", "ledger", "turns", "opening"):
                if got.get(part) != want.get(part):
                    yield f"{sid}: {part} classic {want.get(part)} v1 {got.get(part)}"
            if got["grades"] != want["grades"]:
                yield f"{sid}: grades classic {want['grades']}\n  v1 {got['grades']}"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python tests/v1/equivalence.py OUT.json  (classic venv)")
    for env_dir in sorted((ROOT / "environments").iterdir()):
        sys.path.insert(0, str(env_dir))
    selected = runs()
    Path(sys.argv[1]).write_text(json.dumps(classic_results(selected), indent=1))
    print(f"wrote {sum(len(r.pairs) for r in selected)} classic transcripts to {sys.argv[1]}")
