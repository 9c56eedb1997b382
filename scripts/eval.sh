#!/usr/bin/env bash
# Quickstart 1: install, serve the reference policies on 127.0.0.1, and evaluate one with the real
# vf-eval, offline. Default: the retrieval baseline on all 64 bundled set-diagnosis cases.
#   ENV=escalation-emergency MODEL=always-escalate bash scripts/eval.sh
# runs another environment/policy (policies: clinical-envs serve lists them). Extra arguments
# go to vf-eval.
set -euo pipefail
EXTRAS="[report,classic]"
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
cd "$ROOT"

PORT="${PORT:-$(python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
ENV="${ENV:-set-diagnosis-tool-call}"
# -C: keep what the report needs (recorded diagnoses; per-reply grades) in the saved results.
case "$ENV" in
  set-diagnosis-tool-call) DEFAULT_MODEL=retrieval-baseline DEFAULT_ARGS='{"dataset": "bundled", "test_size": 0}' N=64 COLUMNS=clinical ;;
  *) DEFAULT_MODEL=always-escalate DEFAULT_ARGS='{}' N=-1 COLUMNS=reply_grades ;;
esac
MODEL="${MODEL:-$DEFAULT_MODEL}"
ENV_ARGS="${ENV_ARGS:-$DEFAULT_ARGS}"
export LOCAL_POLICY_KEY="${LOCAL_POLICY_KEY:-local}"

clinical-envs serve --port "$PORT" > "${TMPDIR:-/tmp}/clinical-envs-serve-$PORT.log" 2>&1 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT
python scripts/_wait_for_server.py "$PORT" 10 "$MODEL"

# -n asked for more rows than the eval split has: say so rather than quietly run fewer.
ASKED=""
ARGS=("$@")
for i in "${!ARGS[@]}"; do
  case "${ARGS[$i]}" in
    -n|--num-examples) ASKED="${ARGS[$((i + 1))]:-}" ;;
    --num-examples=*) ASKED="${ARGS[$i]#*=}" ;;
  esac
done
if [[ "$ASKED" =~ ^[0-9]+$ ]]; then
  ROWS="$(HF_HUB_OFFLINE=1 python scripts/_eval_rows.py "$ENV" "$ENV_ARGS")"
  if (( ASKED > ROWS )); then
    echo "note: -n $ASKED asked, but $ENV has $ROWS eval rows with these arguments; all $ROWS run"
  fi
fi

# vf-eval's own output (logs, progress bars, an example panel) goes to a log file; VERBOSE=1
# shows it here instead. The report below is the summary.
LOG="${TMPDIR:-/tmp}/clinical-envs-vf-eval-$PORT.log"
echo "== vf-eval $ENV against $MODEL at http://127.0.0.1:$PORT/v1"
MARK="$(mktemp)"
VF_EVAL=(vf-eval "$ENV" -m "$MODEL" -b "http://127.0.0.1:$PORT/v1" -k LOCAL_POLICY_KEY
  -a "$ENV_ARGS" -n "$N" -r 1 -c 16 -s -d -A -C "$COLUMNS" "$@")
if [ "${VERBOSE:-0}" = 1 ]; then
  HF_HUB_OFFLINE=1 "${VF_EVAL[@]}"
else
  echo "   (vf-eval's own output: $LOG; VERBOSE=1 prints it here)"
  if ! HF_HUB_OFFLINE=1 "${VF_EVAL[@]}" > "$LOG" 2>&1; then
    tail -n 30 "$LOG" >&2
    echo "error: vf-eval failed; its whole output is in $LOG" >&2
    exit 1
  fi
fi
SAVED="$(find "$ROOT" -name results.jsonl -newer "$MARK" -not -path '*/.venv*' 2>/dev/null | head -n 1)"
rm -f "$MARK"
if [ -z "$SAVED" ]; then
  echo "error: vf-eval saved no results.jsonl under $ROOT (see $LOG)" >&2
  exit 1
fi
echo "== results saved in $(dirname "$SAVED")"
echo "== summary (clinical-envs report RUN... [--compare] writes the full report)"
clinical-envs report "$(dirname "$SAVED")"
