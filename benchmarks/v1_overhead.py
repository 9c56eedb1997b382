"""What a rollout costs on the v1 path (verifiers 0.4) against the classic path (0.2-0.3).

    python benchmarks/v1_overhead.py [--rows 4] [--classic-repeats 40] [--envs ...]
        [--classic-venv .venv] [--v1-venv .venv-compat/verifiers-0.4.0]
        [--wheels .venv-compat/v1-chat-wheels]

Both sides run the real ``vf-eval`` of their verifiers against one loopback policy server
(``clinical-envs serve``), with the same policy, the same rows (the first N of the eval split,
checked by id) and one rollout at a time. After a warm-up run, each side runs twice: one
rollout, then every one of the N rows (the classic side repeats each row, as its rollouts take
milliseconds), so the per-rollout figure is the difference divided by the extra rollouts
(start-up, imports and data loading cancel out) and the start-up is what is left of the single
run. CPU time is every process
vf-eval started and waited for (the null harness's chat programs, the MCP tool servers), read
from ``getrusage(RUSAGE_CHILDREN)``; the policy server's own time is not counted on either side.

Prints JSON: wall and CPU seconds per rollout and at start-up for each side, v1/classic ratios,
and each side's mean reward (the same policy on the same rows must score the same). The venvs
are the ones ``scripts/test.sh`` and ``scripts/compat_v1.sh`` make; the v1 side installs the
null harness's chat program from the wheel directory compat_v1.sh fills (no package index).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KEY_VAR = "LOCAL_POLICY_KEY"
ENVIRONMENTS: dict[str, dict[str, Any]] = {
    # env id -> policy and the settings both sides are given
    "escalation-emergency": {"policy": "ideal", "settings": {}},
    "escalation-tool-use": {"policy": "ideal", "settings": {}},
    "set-diagnosis-tool-call": {"policy": "retrieval-baseline", "settings": {"dataset": "bundled"}},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def classic_command(venv: Path, env_id: str, url: str, n: int, r: int, out: Path) -> list[str]:
    spec = ENVIRONMENTS[env_id]
    command = [str(venv / "bin" / "vf-eval"), env_id, "-m", spec["policy"], "-b", url]
    command += ["-k", KEY_VAR, "-n", str(n), "-r", str(r), "-c", "1", "-s", "-o", str(out)]
    return [*command, "-a", json.dumps(spec["settings"])] if spec["settings"] else command


def v1_command(venv: Path, env_id: str, url: str, n: int, r: int, out: Path) -> list[str]:
    spec = ENVIRONMENTS[env_id]
    command = [str(venv / "bin" / "vf-eval"), env_id, "-m", spec["policy"]]
    command += ["--client.base-url", url, "--client.api-key-var", KEY_VAR]
    command += ["--env.agent.harness.id", "null", "--env.agent.runtime.type", "subprocess"]
    for name, value in spec["settings"].items():
        command += [f"--env.taskset.{name.replace('_', '-')}", str(value)]
    return [
        *command,
        "-n",
        str(n),
        "-r",
        str(r),
        "-c",
        "1",
        "--no-push",
        "--no-rich",
        "-o",
        str(out),
    ]


def classic_results(out: Path) -> tuple[list[str], list[float]]:
    (results,) = out.rglob("results.jsonl")
    rows = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    return [row_id(r["info"]) for r in rows], [float(r["reward"]) for r in rows]


def v1_results(out: Path) -> tuple[list[str], list[float]]:
    (traces,) = out.rglob("traces.jsonl")
    episodes = [json.loads(line) for line in traces.read_text().splitlines() if line.strip()]
    ids, rewards = [], []
    for episode in episodes:
        for trace in episode["traces"]:
            if not trace["ok"] or trace["errors"]:
                raise SystemExit(f"a v1 rollout failed: {trace['errors']}")
            ids.append(episode["task"]["data"]["name"])  # the v1 task's name is the row id
            rewards.append(sum(r["score"] * r["weight"] for r in trace["rewards"].values()))
    return ids, rewards


def row_id(info: Any) -> str:
    """The scenario id (escalation) or case id (set-diagnosis) a classic row carries."""
    if isinstance(info, str):
        info = json.loads(info)
    for key in ("scenario_id", "case_id"):
        if key in info:
            return str(info[key])
    raise SystemExit(f"no row id in the row's info (keys: {sorted(info)})")


def timed(command: list[str], env: dict[str, str], log: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one vf-eval and everything it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with log.open("w") as handle:
        done = subprocess.run(command, env=env, stdout=handle, stderr=subprocess.STDOUT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        tail = log.read_text()[-3000:]
        raise SystemExit(f"{' '.join(command)}\nexited {done.returncode}; log {log}:\n{tail}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(
    side: str, venv: Path, env_id: str, url: str, n: int, repeats: int, work: Path
) -> dict[str, Any]:
    """One rollout of the first row, then ``repeats`` rollouts of each of the first n rows
    (after an unmeasured warm-up rollout)."""
    build, read = (
        (classic_command, classic_results) if side == "classic" else (v1_command, v1_results)
    )
    env = {**os.environ, KEY_VAR: "local", "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    runs = []
    # A warm-up first (file caches, the chat program's uv environment), then the two measured runs.
    for count, r in ((1, 1), (1, 1), (n, repeats)):
        out = work / f"{side}-{env_id}-{count}x{r}-{len(runs)}"
        wall, cpu = timed(build(venv, env_id, url, count, r, out), env, work / f"{out.name}.log")
        runs.append((wall, cpu, *read(out)))
    _, (wall1, cpu1, _, _), (wall_n, cpu_n, ids, rewards) = runs
    extra = n * repeats - 1
    wall_each, cpu_each = (wall_n - wall1) / extra, (cpu_n - cpu1) / extra
    return {
        "rows": list(dict.fromkeys(ids)),
        "rollouts": len(rewards),
        "mean_reward": round(sum(rewards) / len(rewards), 4),
        "per_rollout_wall_s": round(wall_each, 4),
        "per_rollout_cpu_s": round(cpu_each, 4),
        "startup_wall_s": round(wall1 - wall_each, 2),
        "startup_cpu_s": round(cpu1 - cpu_each, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=4, help="N, at least 2")
    parser.add_argument(
        "--classic-repeats",
        type=int,
        default=40,
        help="rollouts per row on the classic side (its rollouts take milliseconds, so it needs "
        "many for the difference to stand above the start-up's noise)",
    )
    parser.add_argument("--envs", nargs="+", default=list(ENVIRONMENTS), choices=ENVIRONMENTS)
    parser.add_argument("--classic-venv", type=Path, default=ROOT / ".venv")
    parser.add_argument("--v1-venv", type=Path, default=ROOT / ".venv-compat" / "verifiers-0.4.0")
    parser.add_argument("--wheels", type=Path, default=ROOT / ".venv-compat" / "v1-chat-wheels")
    args = parser.parse_args(argv)
    if args.rows < 2 or args.classic_repeats < 1:
        parser.error("--rows must be at least 2 and --classic-repeats at least 1")
    for venv, made_by in (
        (args.classic_venv, "scripts/test.sh"),
        (args.v1_venv, "scripts/compat_v1.sh"),
    ):
        if not (venv / "bin" / "vf-eval").is_file():
            parser.error(f"{venv}/bin/vf-eval is missing: make that venv with `bash {made_by}`")
    if not any(args.wheels.glob("mcp-*.whl")):
        parser.error(f"{args.wheels} holds no chat-program wheels: run `bash scripts/compat_v1.sh`")
    os.environ.update(UV_NO_INDEX="1", UV_FIND_LINKS=str(args.wheels))
    os.environ.setdefault("UV_CACHE_DIR", str(args.v1_venv.parent / "v1-uv-cache"))

    port = free_port()
    server = subprocess.Popen(
        [
            str(args.classic_venv / "bin" / "python"),
            "-m",
            "clinical_envs.cli",
            "serve",
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    report: dict[str, Any] = {"rows": args.rows, "cores": os.cpu_count(), "envs": {}}
    try:
        python = str(args.classic_venv / "bin" / "python")
        waited = subprocess.run(
            [python, str(ROOT / "scripts" / "_wait_for_server.py"), str(port), "60"]
        )
        if waited.returncode:
            raise SystemExit(waited.returncode)
        url = f"http://127.0.0.1:{port}/v1"
        with tempfile.TemporaryDirectory(prefix="v1-overhead-") as name:
            tmp = Path(name)
            for env_id in args.envs:
                classic = measure(
                    "classic", args.classic_venv, env_id, url, args.rows, args.classic_repeats, tmp
                )
                v1 = measure("v1", args.v1_venv, env_id, url, args.rows, 1, tmp)
                report["envs"][env_id] = {
                    "policy": ENVIRONMENTS[env_id]["policy"],
                    "same_rows": classic.pop("rows") == v1.pop("rows"),
                    "classic": classic,
                    "v1": v1,
                    "v1_over_classic_cpu": round(
                        v1["per_rollout_cpu_s"] / max(classic["per_rollout_cpu_s"], 1e-3), 1
                    ),
                    "v1_over_classic_wall": round(
                        v1["per_rollout_wall_s"] / max(classic["per_rollout_wall_s"], 1e-3), 1
                    ),
                }
                print(json.dumps({env_id: report["envs"][env_id]}), file=sys.stderr, flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
