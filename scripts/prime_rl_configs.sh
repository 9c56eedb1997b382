#!/usr/bin/env bash
# Make a venv holding prime-rl's config schema (packages/prime-rl-configs) as of TAG, for the
# schema tests in tests/test_configs.py, and print the variable they read. No GPU or torch.
#   eval "$(bash scripts/prime_rl_configs.sh ~/prime-rl v0.8.0)"
#   bash scripts/prime_rl_configs.sh PRIME_RL_CHECKOUT TAG [VENV]   # VENV: ./.venv-prime-rl/TAG
# PRIME_RL_CHECKOUT is any clone of PrimeIntellect-ai/prime-rl that has TAG; its work tree is not
# touched (git archive). The schema needs Python 3.12 (PYTHON=...) and imports verifiers,
# renderers and pydantic-config, which prime-rl takes from git submodules; they are pinned here to
# the PyPI releases matching TAG, because newer ones removed what the schema imports.
set -euo pipefail
USAGE="usage: $0 PRIME_RL_CHECKOUT TAG [VENV]"
CHECKOUT="${1:?$USAGE}"
TAG="${2:?$USAGE}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${3:-$ROOT/.venv-prime-rl/$TAG}"
PYTHON="${PYTHON:-python3.12}"

case "$TAG" in
  v0.7.0) PINS="verifiers==0.2.0 renderers==0.1.8.dev61 prime-pydantic-config==0.3.0.dev86" ;;
  v0.8.0) PINS="verifiers==0.2.2.dev76 renderers==0.1.9.dev10 prime-pydantic-config==0.4.2" ;;
  *) PINS="${PRIME_RL_CONFIGS_PINS:?no pins known for $TAG: set PRIME_RL_CONFIGS_PINS}" ;;
esac

"$PYTHON" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' \
  || { echo "error: prime-rl-configs needs Python 3.12 (set PYTHON=/path/to/python3.12)" >&2; exit 2; }

SRC="$(mktemp -d "${TMPDIR:-/tmp}/prime-rl-configs.XXXXXX")"
trap 'rm -rf "$SRC"' EXIT
git -C "$CHECKOUT" archive "$TAG" packages/prime-rl-configs | tar -x -C "$SRC"

echo "== $VENV: prime-rl-configs $TAG with $PINS" >&2
"$PYTHON" -m venv "$VENV"
# shellcheck disable=SC2086  # PINS is a list of requirements
PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install --quiet \
  "$SRC/packages/prime-rl-configs" $PINS >&2
"$VENV/bin/python" -c 'from pydantic_config import cli; from prime_rl.configs.rl import RLConfig'

VAR="PRIME_RL_CONFIGS_$(printf '%s' "$TAG" | tr 'a-z.-' 'A-Z__')_PYTHON"
echo "export $VAR=$VENV/bin/python"
