#!/usr/bin/env bash
# Quickstart 1: install, serve the retrieval baseline on 127.0.0.1, and evaluate it with the real
# vf-eval on the bundled synthetic cases (offline). Extra arguments go to vf-eval.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
cd "$ROOT"

PORT="${PORT:-$(python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
MODEL="${MODEL:-retrieval-baseline}"
export LOCAL_POLICY_KEY="${LOCAL_POLICY_KEY:-local}"

clinical-envs serve --port "$PORT" > "${TMPDIR:-/tmp}/clinical-envs-serve-$PORT.log" 2>&1 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT
python - "$PORT" <<'PY'
import sys, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/v1/models"
for _ in range(100):
    try:
        urllib.request.urlopen(url, timeout=1)
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(f"the policy server did not start at {url}")
PY

echo "== vf-eval set-diagnosis-tool-call against $MODEL at http://127.0.0.1:$PORT/v1"
HF_HUB_OFFLINE=1 vf-eval set-diagnosis-tool-call \
  -m "$MODEL" -b "http://127.0.0.1:$PORT/v1" -k LOCAL_POLICY_KEY \
  -a '{"dataset": "bundled", "test_size": 0}' \
  -n 64 -r 1 -c 16 -s -d -A "$@"
