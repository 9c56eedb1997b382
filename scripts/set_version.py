"""Keep the seven distributions on one version: the core's ``__version__``.

    python scripts/set_version.py          # check: exit 1 naming every file that disagrees
    python scripts/set_version.py 0.2.0    # set the core's version, every environment's version
                                           # and every environment's ``clinical-envs==`` pin

Each environment pins the core exactly (``clinical-envs==X.Y.Z``) so a Hub install resolves the
core it was tested with; the pyprojects stay static because ``prime env push`` reads them alone.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "clinical_envs" / "__init__.py"
CORE_VERSION = re.compile(r'^__version__ = "([^"]+)"$', re.M)
ENV_VERSION = re.compile(r'^version = "([^"]+)"$', re.M)
CORE_PIN = re.compile(r'"clinical-envs==([^"]+)"')
SEMVER = re.compile(r"\d+\.\d+\.\d+([.-]?(a|b|rc|dev|post)\d+)?")


def env_pyprojects() -> list[Path]:
    return sorted((ROOT / "environments").glob("*/pyproject.toml"))


def mismatches(version: str) -> list[str]:
    """``file: problem`` for every environment pyproject that is not on ``version``."""
    problems = []
    for path in env_pyprojects():
        text = path.read_text()
        rel = path.relative_to(ROOT)
        found = ENV_VERSION.findall(text)
        if found != [version]:
            problems.append(f"{rel}: version is {found or 'missing'}, expected {version!r}")
        pins = CORE_PIN.findall(text)
        if pins != [version]:
            problems.append(
                f"{rel}: clinical-envs pin is {pins or 'missing'}, expected =={version}"
            )
    return problems


def core_version() -> str:
    match = CORE_VERSION.search(CORE.read_text())
    if match is None:
        raise SystemExit(f"{CORE}: no __version__ line")
    return match.group(1)


def set_version(version: str) -> None:
    if not SEMVER.fullmatch(version):
        raise SystemExit(f"{version!r} is not a version like 1.2.3")
    CORE.write_text(CORE_VERSION.sub(f'__version__ = "{version}"', CORE.read_text()))
    for path in env_pyprojects():
        text = ENV_VERSION.sub(f'version = "{version}"', path.read_text(), count=1)
        path.write_text(CORE_PIN.sub(f'"clinical-envs=={version}"', text))


def main(argv: list[str]) -> int:
    if argv:
        set_version(argv[0])
    version = core_version()
    problems = mismatches(version)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print("fix: python scripts/set_version.py " + version, file=sys.stderr)
        return 1
    print(f"clinical-envs and {len(env_pyprojects())} environments at {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
