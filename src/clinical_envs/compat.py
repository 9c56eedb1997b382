"""The one place that knows which ``verifiers`` releases we run on, and with which API.

verifiers 0.2 - 0.3 have the classic API (``MultiTurnEnv``/``Rubric``/``Parser``; ``vf-eval``
calls each module's ``load_environment``); 0.4 has only the v1 API (``verifiers.v1``; ``vf-eval``
imports the ``Taskset`` a module exports in ``__all__``). 0.2 - 0.3 also ship an older,
incompatible ``verifiers.v1``, so the API is told by version, never by that import.
"""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, version
from typing import Literal

SUPPORTED = ">=0.2.0,<0.4"
V1_SUPPORTED = ">=0.4.0"
_FIX = 'pip install "verifiers>=0.2.0,<0.4"'
_V1_FIX = 'pip install "verifiers>=0.4.0"'
V1_ENVIRONMENTS = (
    "escalation-emergency",
    "escalation-crisis",
    "escalation-defer",
    "escalation-tool-use",
    "escalation-mix",
    "set-diagnosis-tool-call",
)
"""The environment ids that also run on the v1 API (:mod:`clinical_envs.v1`)."""
_V1_HOW = (
    f"On verifiers{V1_SUPPORTED} {', '.join(V1_ENVIRONMENTS)} run as v1 tasksets instead: "
    "vf-eval <env-id> --client.base-url URL --env.agent.harness.id null "
    "--env.agent.runtime.type subprocess --no-push (options as --env.taskset.<argument>)"
)

Api = Literal["classic", "v1"]


class IncompatibleVerifiersError(RuntimeError):
    """The installed verifiers lacks the API an adapter needs."""


def installed_verifiers() -> str | None:
    """The installed verifiers version, or None."""
    try:
        return version("verifiers")
    except PackageNotFoundError:
        return None


def _release(installed: str) -> tuple[int, int]:
    numbers = [int(n) for n in re.findall(r"\d+", installed)[:2]] + [0, 0]
    return numbers[0], numbers[1]


def verifiers_api(installed: str | None = None) -> Api | None:
    """Which environment API the installed (or given) verifiers has: "classic" (0.2 - 0.3),
    "v1" (0.4 on), or None (not installed, or older than 0.2)."""
    if installed is None:
        installed = installed_verifiers()
        if installed is not None and _release(installed) >= (0, 4) and _classic_importable():
            return "classic"  # a later release that brought the classic API back
    if installed is None:
        return None
    release = _release(installed)
    if (0, 2) <= release < (0, 4):
        return "classic"
    if release >= (0, 4):
        return "v1"
    return None


def _classic_importable() -> bool:
    """Whether ``from verifiers import MultiTurnEnv`` works (cheap where it does not: 0.4's
    top-level package holds only its version)."""
    try:
        from verifiers import MultiTurnEnv  # noqa: F401
    except ImportError:
        return False
    return True


def require_classic_verifiers(installed: str | None = None) -> str:
    """Return the installed verifiers version, or raise with the versions that work and the fix.

    verifiers 0.4 removed ``MultiTurnEnv``/``Rubric``/``Parser``; 0.2.0 - 0.3.x have them. On
    0.4 the error says how to run the environments that exist as v1 tasksets.
    """
    if installed is None:
        installed = installed_verifiers()
        if installed is None:
            raise IncompatibleVerifiersError(
                f"verifiers is not installed; these environments need verifiers{SUPPORTED} "
                f"(classic API) or verifiers{V1_SUPPORTED} (v1 API). Fix: {_FIX}"
            )
    api = verifiers_api(installed)
    if api == "classic":
        return installed
    if api == "v1":
        raise IncompatibleVerifiersError(
            f"verifiers {installed} is installed, which has only the v1 API; load_environment "
            f"is the classic API (MultiTurnEnv, Rubric, Parser) of verifiers{SUPPORTED}. "
            f"{_V1_HOW}. For the classic API: {_FIX}"
        )
    raise IncompatibleVerifiersError(
        f"verifiers {installed} is installed, but these environments use the classic API "
        f"(MultiTurnEnv, Rubric, Parser) that exists in verifiers{SUPPORTED} only "
        f"(0.4 replaced it with the v1 API). Fix: {_FIX}"
    )


def require_v1_verifiers(installed: str | None = None) -> str:
    """Return the installed verifiers version if it has the v1 API this package targets
    (0.4 on), else raise naming what works."""
    installed = installed_verifiers() if installed is None else installed
    if installed is None or verifiers_api(installed) != "v1":
        found = "verifiers is not installed" if installed is None else f"verifiers {installed}"
        raise IncompatibleVerifiersError(
            f"{found}: clinical_envs.v1 needs the v1 API of verifiers{V1_SUPPORTED} "
            f"(the verifiers.v1 of 0.2 - 0.3 is an older, different API). Fix: {_V1_FIX}; "
            f"with verifiers{SUPPORTED} use the environments' load_environment instead"
        )
    return installed
