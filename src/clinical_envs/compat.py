"""The one place that knows which ``verifiers`` releases we run on."""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, version

SUPPORTED = ">=0.2.0,<0.4"
_FIX = 'pip install "verifiers>=0.2.0,<0.4"'


class IncompatibleVerifiersError(RuntimeError):
    """The installed verifiers lacks the classic API (MultiTurnEnv, Rubric, Parser)."""


def require_classic_verifiers(installed: str | None = None) -> str:
    """Return the installed verifiers version, or raise with the versions that work and the fix.

    verifiers 0.4 removed ``MultiTurnEnv``/``Rubric``/``Parser``; 0.2.0 - 0.3.x have them.
    """
    if installed is None:
        try:
            installed = version("verifiers")
        except PackageNotFoundError:
            raise IncompatibleVerifiersError(
                f"verifiers is not installed; these environments need verifiers{SUPPORTED}. "
                f"Fix: {_FIX}"
            ) from None
    numbers = [int(n) for n in re.findall(r"\d+", installed)[:2]] + [0, 0]
    if not (0, 2) <= (numbers[0], numbers[1]) < (0, 4):
        raise IncompatibleVerifiersError(
            f"verifiers {installed} is installed, but these environments use the classic API "
            f"(MultiTurnEnv, Rubric, Parser) that exists in verifiers{SUPPORTED} only "
            f"(0.4 removed it). Fix: {_FIX}"
        )
    return installed
