#!/usr/bin/env bash
# The v1 API check: in a verifiers 0.4 venv, the v1 tests (tests/v1: the adapters, and the
# cross-API equivalence against the classic venv; tests/test_configs.py: the prime-rl main
# configs' taskset fields against the Taskset config classes, and their rows) and real vf-eval
# runs of escalation-emergency and set-diagnosis-tool-call with the null harness and the
# subprocess runtime against the loopback policy server. Offline apart from the installs: the
# null harness's chat program (a uv script) is installed by uv from a local wheel directory
# (UV_NO_INDEX, UV_FIND_LINKS).
#   bash scripts/compat_v1.sh                       # everything
#   V1_TESTS=0 bash scripts/compat_v1.sh            # the vf-eval runs only
#   CLINICAL_ENVS_V1_SAMPLE=full bash scripts/compat_v1.sh   # a larger equivalence sample
# The equivalence test runs the classic side in CLINICAL_ENVS_CLASSIC_PYTHON (default
# ./.venv/bin/python, made by scripts/test.sh). Extra arguments go to pytest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
COMPAT_DIR="${COMPAT_DIR:-$ROOT/.venv-compat}"
V1_VERSION="${V1_VERSION:-0.4.0}"
VENV="${CLINICAL_ENVS_V1_VENV:-$COMPAT_DIR/verifiers-$V1_VERSION}"
WHEELS="${CLINICAL_ENVS_V1_WHEELS:-$COMPAT_DIR/v1-chat-wheels}"
# The packages of the null harness's chat program (verifiers/v1/harnesses/utils/launch.py).
CHAT_PACKAGES=(openai "mcp==2.0.0" httpx httpx2 tenacity certifi)
cd "$ROOT"

"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || { echo "error: Python >= 3.11 is required (set PYTHON=/path/to/python3.11)" >&2; exit 2; }
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 LOCAL_POLICY_KEY="${LOCAL_POLICY_KEY:-local}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
WORK="$(mktemp -d "${TMPDIR:-/tmp}/clinical-envs-v1.XXXXXX")"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

stamp="$( { cat "$ROOT/pyproject.toml"; echo "$ROOT $V1_VERSION"; } \
  | sha256sum | cut -d' ' -f1)"
if [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/.compat-stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "== reusing $VENV"
else
  echo "== installing verifiers $V1_VERSION and this checkout into $VENV"
  [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
  rm -f "$VENV/.compat-stamp"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  # With its dependencies, as a user installs it: the package's own requirements must resolve
  # with verifiers 0.4 (pip check below).
  "$VENV/bin/python" -m pip install --quiet "verifiers==$V1_VERSION" uv pytest hypothesis \
    -e "$ROOT[v1]"
  echo "$stamp" > "$VENV/.compat-stamp"
fi
"$VENV/bin/python" - "$V1_VERSION" "$ROOT" <<'PY'
import sys
from importlib.metadata import version
from pathlib import Path

import clinical_envs
from clinical_envs.compat import verifiers_api

want, root = sys.argv[1], Path(sys.argv[2])
assert version("verifiers") == want, version("verifiers")
assert verifiers_api() == "v1", verifiers_api()
assert Path(clinical_envs.__file__).resolve().is_relative_to(root), clinical_envs.__file__
print(f"   verifiers {want}: v1 API; clinical_envs from {root}")
PY
"$VENV/bin/python" -m pip check

if [ -z "$(ls "$WHEELS"/mcp-*.whl 2>/dev/null)" ]; then
  echo "== downloading the chat program's wheels into $WHEELS"
  "$VENV/bin/python" -m pip download --quiet --dest "$WHEELS" "${CHAT_PACKAGES[@]}"
fi
# From here on nothing reaches a package index: uv installs the chat program from $WHEELS.
export PATH="$VENV/bin:$PATH" UV_NO_INDEX=1 UV_FIND_LINKS="$WHEELS"
export UV_CACHE_DIR="${UV_CACHE_DIR:-$COMPAT_DIR/v1-uv-cache}"

FAILED=0
if [ "${V1_TESTS:-1}" != 0 ]; then
  echo "== v1 tests"
  "$VENV/bin/python" -m pytest -q -rs -p no:cacheprovider tests/v1 tests/test_compat.py \
    tests/test_configs.py "$@" \
    || FAILED=1
fi

echo "== vf-eval escalation-emergency (v1: null harness, subprocess runtime, loopback)"
PORT="$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$VENV/bin/python" -m clinical_envs.cli serve --port "$PORT" > "$WORK/serve.log" 2>&1 &
SERVER_PID=$!
"$VENV/bin/python" "$ROOT/scripts/_wait_for_server.py" "$PORT" 30
if "$VENV/bin/vf-eval" escalation-emergency -m always-escalate \
    --client.base-url "http://127.0.0.1:$PORT/v1" --client.api-key-var LOCAL_POLICY_KEY \
    --env.agent.harness.id null --env.agent.runtime.type subprocess \
    -n 2 -r 1 --no-push --no-rich -o "$WORK/out" --run.name emergency > "$WORK/eval.log" 2>&1 \
  && "$VENV/bin/python" - "$WORK/out/emergency/traces.jsonl" <<'PY'
import json, sys

traces = [t for line in open(sys.argv[1]) for t in json.loads(line)["traces"]]
rewards = [sum(r["score"] * r["weight"] for r in t["rewards"].values()) for t in traces]
assert len(traces) == 2 and all(t["ok"] and not t["errors"] for t in traces), traces
assert all(abs(r - 1.0) < 1e-9 for r in rewards), rewards
assert all(len(t["info"]["reply_grades"]) == 5 for t in traces)
print(f"   ok: {len(traces)} rollouts, rewards {rewards}")
PY
then :; else
  tail -n 40 "$WORK/eval.log"
  echo "   vf-eval escalation-emergency failed (log above)"
  FAILED=1
fi

echo "== vf-eval set-diagnosis-tool-call (v1: null harness, subprocess runtime, loopback)"
if "$VENV/bin/vf-eval" set-diagnosis-tool-call -m retrieval-baseline \
    --client.base-url "http://127.0.0.1:$PORT/v1" --client.api-key-var LOCAL_POLICY_KEY \
    --env.agent.harness.id null --env.agent.runtime.type subprocess \
    --env.taskset.dataset bundled \
    -n 2 -r 1 --no-push --no-rich -o "$WORK/out" --run.name diagnosis > "$WORK/eval.log" 2>&1 \
  && "$VENV/bin/python" - "$WORK/out/diagnosis/traces.jsonl" <<'PY'
import json, sys

traces = [t for line in open(sys.argv[1]) for t in json.loads(line)["traces"]]
rewards = [sum(r["score"] * r["weight"] for r in t["rewards"].values()) for t in traces]
assert len(traces) == 2 and all(t["ok"] and not t["errors"] for t in traces), traces
# The retrieval baseline records a valid code that is not the gold one, then finishes: the
# format floor (README, Baseline), and nothing after the finish.
assert all(abs(r - 0.1) < 1e-9 for r in rewards), rewards
assert all(t["stop_condition"] == "finished" for t in traces)
assert all(len(t["info"]["clinical"]["recorded"]) == 1 for t in traces)
print(f"   ok: {len(traces)} rollouts, rewards {rewards}")
PY
then :; else
  tail -n 40 "$WORK/eval.log"
  echo "   vf-eval set-diagnosis-tool-call failed (log above)"
  FAILED=1
fi
kill "$SERVER_PID" 2>/dev/null || true
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
exit "$FAILED"
