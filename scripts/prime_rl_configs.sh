#!/usr/bin/env bash
# Make a venv holding prime-rl's config schema (packages/prime-rl-configs) as of REF, for the
# schema tests in tests/test_configs.py, and print the variable they read. No GPU or torch.
#   eval "$(bash scripts/prime_rl_configs.sh ~/prime-rl v0.8.0)"
#   eval "$(bash scripts/prime_rl_configs.sh ~/prime-rl main)"
#   bash scripts/prime_rl_configs.sh PRIME_RL_CHECKOUT REF [VENV]   # VENV: ./.venv-prime-rl/REF
# REF is a tag (v0.7.0, v0.8.0) or main. PRIME_RL_CHECKOUT is any clone of
# PrimeIntellect-ai/prime-rl that has REF (a bare one will do); its work tree is not touched (git
# archive). The schema needs Python 3.12 (PYTHON=...) and imports verifiers, renderers and
# pydantic-config, which prime-rl takes from git submodules; they are pinned here to PyPI
# releases, because newer ones removed what the schema imports. The tags' pins are the releases
# matching the tag. main's were checked at prime-rl MAIN_VALIDATED (below), whose submodule is a
# verifiers main from before 0.4.0: they are instead the verifiers 0.4.0 that the v1 adapters
# run on (it has every name that schema imports) and the renderers and pydantic-config it
# resolves to. For another main, PRIME_RL_CONFIGS_PINS overrides them.
# Schemas with v1 env tables (v0.8.0 and main) narrow each env's taskset table to the
# taskset's own config class, so they import the environment modules: the venv also gets
# clinical-envs' dependencies, and the tests put this checkout's src/ and environments/ on its
# PYTHONPATH.
set -euo pipefail
USAGE="usage: $0 PRIME_RL_CHECKOUT REF [VENV]"
CHECKOUT="${1:?$USAGE}"
TAG="${2:?$USAGE}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${3:-$ROOT/.venv-prime-rl/$TAG}"
PYTHON="${PYTHON:-python3.12}"

case "$TAG" in
  v0.7.0) PINS="verifiers==0.2.0 renderers==0.1.8.dev61 prime-pydantic-config==0.3.0.dev86" ;;
  v0.8.0) PINS="verifiers==0.2.2.dev76 renderers==0.1.9.dev10 prime-pydantic-config==0.4.2" ;;
  main) PINS="verifiers==0.4.0 renderers==0.1.12 prime-pydantic-config==0.4.3" ;;
  *) PINS="${PRIME_RL_CONFIGS_PINS:?no pins known for $TAG: set PRIME_RL_CONFIGS_PINS}" ;;
esac
PINS="${PRIME_RL_CONFIGS_PINS:-$PINS}"
MAIN_VALIDATED=559b44772e471d1538537b8805cc77f3824a5e64
# clinical-envs' own dependencies, for the schemas that import the environment modules.
CORE_PACKAGES="datasets simple-icd-10-cm>=1.5.0 openai>=1.0 pyyaml>=6.0 rapidfuzz>=3.0 pyahocorasick>=2.1"

"$PYTHON" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' \
  || { echo "error: prime-rl-configs needs Python 3.12 (set PYTHON=/path/to/python3.12)" >&2; exit 2; }

SRC="$(mktemp -d "${TMPDIR:-/tmp}/prime-rl-configs.XXXXXX")"
trap 'rm -rf "$SRC"' EXIT
COMMIT="$(git -C "$CHECKOUT" rev-parse --verify "$TAG^{commit}")"
git -C "$CHECKOUT" archive "$COMMIT" packages/prime-rl-configs | tar -x -C "$SRC"
if [ "$TAG" = main ] && [ "$COMMIT" != "$MAIN_VALIDATED" ] && [ -z "${PRIME_RL_CONFIGS_PINS:-}" ]; then
  echo "note: main is $COMMIT here; the configs and pins were checked at $MAIN_VALIDATED" >&2
fi

echo "== $VENV: prime-rl-configs $TAG ($COMMIT) with $PINS" >&2
PINS="$PINS $CORE_PACKAGES"
"$PYTHON" -m venv "$VENV"
# shellcheck disable=SC2086  # PINS is a list of requirements
PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install --quiet \
  "$SRC/packages/prime-rl-configs" $PINS >&2
"$VENV/bin/python" -c 'from pydantic_config import cli; from prime_rl.configs.rl import RLConfig'

VAR="PRIME_RL_CONFIGS_$(printf '%s' "$TAG" | tr 'a-z.-' 'A-Z__')_PYTHON"
echo "export $VAR=$VENV/bin/python"
