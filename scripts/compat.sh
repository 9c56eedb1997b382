#!/usr/bin/env bash
# Compatibility check: on each supported verifiers release, in its own venv, the fast tests and a
# real vf-eval run of escalation-emergency and set-diagnosis-tool-call against the loopback policy
# server; then the prime==0.7.7 venv and tests/test_prime_eval.py (a real `prime eval`). Offline
# apart from the installs. Venvs live in $COMPAT_DIR (default ./.venv-compat) and are reused while
# this checkout's pyproject files and the pinned versions are unchanged.
#   COMPAT_VERSIONS="0.2.0 0.3.1" bash scripts/compat.sh    # some verifiers versions only
#   COMPAT_PRIME=0 bash scripts/compat.sh                   # without prime eval
#   COMPAT_VERSIONS= bash scripts/compat.sh                 # prime eval only
# Extra arguments go to the fast tests' pytest. Exits non-zero if any step failed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
COMPAT_DIR="${COMPAT_DIR:-$ROOT/.venv-compat}"
VERSIONS="${COMPAT_VERSIONS-0.2.0 0.3.0 0.3.1}"   # set but empty: prime only
PRIME_VERSION=0.7.7   # the last prime CLI that runs evals locally; it pins verifiers 0.2.0
PRIME_VENV="${CLINICAL_ENVS_PRIME_VENV:-$COMPAT_DIR/prime-$PRIME_VERSION}"
cd "$ROOT"

"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || { echo "error: Python >= 3.11 is required (set PYTHON=/path/to/python3.11)" >&2; exit 2; }
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 LOCAL_POLICY_KEY="${LOCAL_POLICY_KEY:-local}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
WORK="$(mktemp -d "${TMPDIR:-/tmp}/clinical-envs-compat.XXXXXX")"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# ensure_venv VENV PIP-ARGS...: make VENV and pip install PIP-ARGS into it, unless it was made
# from the same arguments, pyproject files and checkout path. Explicit returns: callers test this
# function, and that turns `set -e` off inside it.
ensure_venv() {
  local venv="$1"; shift
  local stamp
  stamp="$( { cat "$ROOT/pyproject.toml" "$ROOT"/environments/*/pyproject.toml; echo "$ROOT $*"; } \
    | sha256sum | cut -d' ' -f1)"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.compat-stamp" 2>/dev/null)" = "$stamp" ]; then
    echo "   reusing $venv"
    return 0
  fi
  echo "   installing into $venv: $*"
  [ -x "$venv/bin/python" ] || "$PYTHON" -m venv "$venv" || return 1
  rm -f "$venv/.compat-stamp"
  "$venv/bin/python" -m pip install --quiet --upgrade pip || return 1
  "$venv/bin/python" -m pip install --quiet "$@" || return 1
  echo "$stamp" > "$venv/.compat-stamp"
}

# check_api VENV VERSION: verifiers VERSION is installed, clinical_envs is this checkout, and
# verifiers.Environment.__init__ takes max_seq_len (every load_environment passes it on).
check_api() {
  "$1/bin/python" - "$2" "$ROOT" <<'PY'
import inspect, sys
from importlib.metadata import version
from pathlib import Path

import clinical_envs
import verifiers as vf

want, root = sys.argv[1], Path(sys.argv[2])
got = version("verifiers")
assert got == want, f"verifiers {got} is installed, expected {want}"
assert Path(clinical_envs.__file__).resolve().is_relative_to(root), clinical_envs.__file__
params = inspect.signature(vf.Environment.__init__).parameters
assert "max_seq_len" in params, f"verifiers {got}: Environment.__init__{tuple(params)}"
print(f"   verifiers {got}: Environment.__init__ takes max_seq_len")
PY
}

# start_server VENV: the loopback policy server of VENV on a free port; sets PORT and SERVER_PID.
start_server() {
  PORT="$("$1/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')" || return 1
  "$1/bin/clinical-envs" serve --port "$PORT" > "$WORK/serve-$PORT.log" 2>&1 &
  SERVER_PID=$!
  "$1/bin/python" "$ROOT/scripts/_wait_for_server.py" "$PORT" 30
}

stop_server() {
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}

# run_eval VENV ENV_ID MODEL ENV_ARGS N CHECK: vf-eval -n N -r 1 against the loopback server; every
# row must have no error and a reward in [0, 1], and CHECK (Python over `rows` and `rewards`, read
# from the saved results.jsonl) must hold.
run_eval() {
  local venv="$1" env_id="$2" model="$3" args="$4" n="$5" check="$6"
  local out="$WORK/$(basename "$venv")-$env_id"
  echo "   vf-eval $env_id -m $model -n $n -r 1"
  if ! "$venv/bin/vf-eval" "$env_id" -m "$model" -b "http://127.0.0.1:$PORT/v1" \
      -k LOCAL_POLICY_KEY -a "$args" -n "$n" -r 1 -c 4 -s -d -A -o "$out" > "$out.log" 2>&1; then
    tail -n 40 "$out.log"
    echo "   vf-eval $env_id failed (log above)"
    return 1
  fi
  "$venv/bin/python" - "$out" "$n" "$check" <<'PY'
import json, math, sys
from pathlib import Path

out, n, check = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
(results,) = out.rglob("results.jsonl")
rows = [json.loads(line) for line in results.read_text().splitlines()]
rewards = [row["reward"] for row in rows]
assert len(rows) == n, f"{len(rows)} rows, expected {n}"
assert all(row.get("error") is None for row in rows), [row.get("error") for row in rows]
assert all(math.isfinite(r) and 0.0 <= r <= 1.0 for r in rewards), rewards
assert eval(check), f"{check}: rewards {rewards}, metrics {[row['metrics'] for row in rows]}"
print(f"   ok: {len(rows)} rows, rewards {rewards}")
PY
}

# pytest_summary LOG: pytest's closing line ("468 passed, 39 deselected in 85.59s").
pytest_summary() {
  grep -E '^[0-9]+ (passed|failed|skipped|errors?|deselected)' "$1" | tail -n 1 || true
}

declare -a SUMMARY=()
FAILED=0

for V in $VERSIONS; do
  VENV="$COMPAT_DIR/verifiers-$V"
  echo "== verifiers $V ($VENV)"
  START=$SECONDS
  api=fail tests="not run" eval_ok=fail
  if ensure_venv "$VENV" -e "$ROOT[dev]" "verifiers==$V" && check_api "$VENV" "$V"; then
    api=ok
    INSTALLED=$SECONDS
    LOG="$WORK/pytest-$V.log"
    set +e
    "$VENV/bin/python" -m pytest -q -m "not slow" -p no:cacheprovider "$@" 2>&1 \
      | tee "$LOG" | tail -n 25
    rc=${PIPESTATUS[0]}
    set -e
    tests="$(pytest_summary "$LOG")"
    [ "$rc" -eq 0 ] || { FAILED=1; tests="${tests:-no summary} (exit $rc)"; }
    if start_server "$VENV" \
      && run_eval "$VENV" escalation-emergency always-escalate '{}' 2 \
           'all(r == 1.0 for r in rewards)' \
      && run_eval "$VENV" set-diagnosis-tool-call retrieval-baseline \
           '{"dataset": "bundled", "test_size": 0}' 2 \
           'all(row["metrics"]["json_valid_score"] == 1.0 and r >= 0.1 - 1e-9 for row, r in zip(rows, rewards))'
    then eval_ok=ok; else FAILED=1; fi
    stop_server
    timing="install $((INSTALLED - START))s, tests+eval $((SECONDS - INSTALLED))s"
  else
    FAILED=1
    timing="install $((SECONDS - START))s"
  fi
  SUMMARY+=("verifiers $V | max_seq_len $api | pytest: $tests | eval $eval_ok | $timing")
done

if [ "${COMPAT_PRIME:-1}" != 0 ]; then
  echo "== prime $PRIME_VERSION ($PRIME_VENV)"
  START=$SECONDS
  status=fail tests="not run"
  # prime eval reinstalls the environment with `uv pip install -e environments/<module>` on every
  # run; the test runs that offline (UV_OFFLINE=1) from this uv cache, warmed here.
  ENV_DIRS=()
  for pyproject in environments/*/pyproject.toml; do ENV_DIRS+=(-e "$(dirname "$pyproject")"); done
  if ensure_venv "$PRIME_VENV" "prime==$PRIME_VERSION" uv -e "$ROOT[dev]" "verifiers==0.2.0" \
    && UV_CACHE_DIR="$PRIME_VENV/uv-cache" "$PRIME_VENV/bin/uv" pip install --quiet \
         --python "$PRIME_VENV/bin/python" "${ENV_DIRS[@]}" \
    && check_api "$PRIME_VENV" 0.2.0; then
    INSTALLED=$SECONDS
    LOG="$WORK/pytest-prime.log"
    set +e
    CLINICAL_ENVS_PRIME_VENV="$PRIME_VENV" "$PRIME_VENV/bin/python" -m pytest -q -rs \
      -p no:cacheprovider tests/test_prime_eval.py 2>&1 | tee "$LOG" | tail -n 25
    rc=${PIPESTATUS[0]}
    set -e
    tests="$(pytest_summary "$LOG")"
    # A skip is a failure here: this script has just made what the test needs.
    if [ "$rc" -eq 0 ] && ! grep -qE 'skipped|failed|error' <<< "$tests"; then status=ok; fi
    timing="install $((INSTALLED - START))s, test $((SECONDS - INSTALLED))s"
  else
    timing="install $((SECONDS - START))s"
  fi
  [ "$status" = ok ] || FAILED=1
  SUMMARY+=("prime $PRIME_VERSION | verifiers 0.2.0 | tests/test_prime_eval.py: ${tests:-none} | prime eval $status | $timing")
fi

echo "== summary (total ${SECONDS}s)"
printf '%s\n' "${SUMMARY[@]}"
exit "$FAILED"
