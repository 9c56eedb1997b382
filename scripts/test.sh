#!/usr/bin/env bash
# Quickstart 2: install with the dev extras, lint, validate the scenarios, run the whole test
# suite (offline), then scripts/compat.sh: the fast tests and a real vf-eval on every supported
# classic verifiers release and a real `prime eval`, and scripts/compat_v1.sh: the v1 adapter on
# verifiers 0.4 (its tests, the cross-API equivalence, real vf-eval runs). COMPAT=0 skips both; they
# run only when no pytest arguments are given. Exits non-zero if any step failed.
set -euo pipefail
EXTRAS="[dev,classic]"   # the classic suite; scripts/compat_v1.sh tests 0.4
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
cd "$ROOT"

# The HTML report's browser test needs Chromium; install it where we can (Debian, as root),
# otherwise that one test skips and says how to install it.
if ! command -v chromium > /dev/null && command -v apt-get > /dev/null && [ "$(id -u)" = 0 ]; then
  echo "== installing chromium and chromium-driver (for the HTML report's browser test)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; } \
    > "${TMPDIR:-/tmp}/clinical-envs-apt.log" 2>&1 \
    || echo "warning: could not install chromium (see ${TMPDIR:-/tmp}/clinical-envs-apt.log)"
fi
echo "== ruff"
ruff check .
ruff format --check .
echo "== scenario files"
clinical-envs validate scenarios
echo "== pytest"
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1
tests_rc=0
python -m pytest "$@" || tests_rc=$?
compat_rc=0
if [ $# -eq 0 ] && [ "${COMPAT:-1}" != 0 ]; then
  echo "== compat: verifiers 0.2.0, 0.3.0, 0.3.1 and prime eval 0.7.7 (COMPAT=0 skips)"
  bash scripts/compat.sh || compat_rc=$?
  echo "== compat: verifiers 0.4 (v1 API)"
  bash scripts/compat_v1.sh || compat_rc=$?
fi
echo "== result: pytest exit $tests_rc, compat exit $compat_rc"
[ "$tests_rc" -eq 0 ] && [ "$compat_rc" -eq 0 ]
