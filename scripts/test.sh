#!/usr/bin/env bash
# Quickstart 2: install with the dev extras, lint, and run the whole test suite (offline).
set -euo pipefail
EXTRAS="[dev]"
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
cd "$ROOT"

echo "== ruff"
ruff check .
ruff format --check .
echo "== scenario files"
clinical-envs validate scenarios
echo "== pytest"
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1
python -m pytest "$@"
