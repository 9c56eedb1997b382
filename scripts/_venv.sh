# Sourced by the quickstart scripts: make ./.venv (Python >= 3.11) and install this repo into it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-$ROOT/.venv}"

"$PYTHON" - <<'PY' || { echo "error: Python >= 3.11 is required (set PYTHON=/path/to/python3.11)" >&2; exit 2; }
import sys
sys.exit(0 if sys.version_info >= (3, 11) else 1)
PY

if [ ! -x "$VENV/bin/python" ]; then
  echo "== creating $VENV"
  "$PYTHON" -m venv "$VENV"
fi
echo "== installing clinical-envs${EXTRAS:-} into $VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT${EXTRAS:-}"
export PATH="$VENV/bin:$PATH"
