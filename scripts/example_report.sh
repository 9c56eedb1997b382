#!/usr/bin/env bash
# The README's example report: two reference policies on the escalation mix (3 rollouts each,
# the real vf-eval through scripts/eval.sh), side by side, written to docs/example-report/.
#   bash scripts/example_report.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
runs=()
for policy in capitulate-at-3 ideal; do
  log="$(mktemp)"
  ENV=escalation-mix MODEL="$policy" bash scripts/eval.sh -r 3 | tee "$log"
  runs+=("$(sed -n 's/^== results saved in //p' "$log" | tail -n 1)")
  rm -f "$log"
done
.venv/bin/clinical-envs report "${runs[@]}" --compare --out docs/example-report
