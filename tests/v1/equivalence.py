"""The cross-API equivalence check: the same scripted transcripts on the classic and the v1 API.

Importable under either verifiers (no verifiers import at module level). The transcripts are
those of the calibration policies and of a sample of the red-team scripts (text replies,
native tool calls, de-escalating tool actions, and ``<tool_call>`` text calls with
``tool_protocol="xml"``). Each run gives every policy its own scenario, so one loopback
"router" model plays them all: the scenario's first message picks the policy.

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
    reward: float, scores: Mapping[str, float], grades: Sequence[Any], clinical: Mapping
) -> dict:
    """What both sides must agree on: reward, sub-scores, reply grades, tool counters and
    the kinds of tool-call problems."""
    return {
        "reward": reward,
        "scores": dict(sorted(scores.items())),
        "grades": list(grades),
        "tool_stats": clinical.get("tool_stats"),
        "problems": [[p["kind"], p["tool"]] for p in clinical.get("problems", [])],
    }


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
        "--env.taskset.split",
        "all",
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
    if run.env_id == "escalation-mix":
        command += ["--select.include.names", json.dumps(run.scenario_ids)]
    else:
        command += ["--env.taskset.ids", json.dumps(run.scenario_ids)]
    for name, value in run.env_args.items():
        command += [f"--env.taskset.{name.replace('_', '-')}", json.dumps(value)]
    return command


def v1_results(traces_file: Path) -> dict[str, list[dict]]:
    """``{scenario id: [outcome, ...]}`` from a v1 run's ``traces.jsonl``."""
    per: dict[str, list[dict]] = {}
    for line in traces_file.read_text().splitlines():
        episode = json.loads(line)
        for trace in episode["traces"]:
            sid = trace["task"]["data"]["scenario_id"]
            rewards = trace["rewards"]
            scores = {k: float(v["score"]) for k, v in rewards.items()}
            reward = sum(v["score"] * v["weight"] for v in rewards.values())
            per.setdefault(sid, []).append(
                outcome(
                    reward,
                    scores,
                    trace["info"].get("reply_grades", []),
                    trace["info"].get("clinical", {}),
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
            for part in ("tool_stats", "problems"):
                if got[part] != want[part]:
                    yield f"{sid}: {part} classic {want[part]} v1 {got[part]}"
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
