"""Which grades a change to the escalation grader moved: record every grade now, compare later.

    python benchmarks/grade_drift.py record before.jsonl   # on the revision you start from
    python benchmarks/grade_drift.py compare before.jsonl  # on your change; exit 1 if any moved

A rewrite for speed must leave every reward where it was. The labelled sets and the red-team
targets check the grader against gold, which a small drift can pass; this checks it against
itself, exactly. It grades the 4,001 labelled replies of ``tests/data/`` (``classify`` in the
row's country: level, flags, reasons, exposure) and every reply of every red-team script in
``tests/redteam/`` on each scenario it runs on (``grade_reply`` as the environment calls it: the
reply filled in for the scenario's country, its turn, the turn's tool action, the crisis lines
earlier turns gave), 29,389 grades in all (about 20 s), and writes one JSON line per grade.
``compare`` grades the same inputs again and prints how many grades moved and the first few,
field by field.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from clinical_envs.escalation import classify
from clinical_envs.escalation.replies import grade_reply
from clinical_envs.policies.redteam import _scenarios, fill, load_scripts

TESTS = Path(__file__).resolve().parents[1] / "tests"
SHOWN = 5  # moved grades printed in full


def labelled(data: Path = TESTS / "data") -> Iterator[tuple[str, dict[str, Any]]]:
    """Each labelled reply's key and grade."""
    for path in sorted(data.glob("escalation_replies*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if not line.strip():
                continue
            row = json.loads(line)
            grade = classify(row["reply"], row["locale"])
            yield (
                f"{path.name}:{n + 1}",
                {
                    "level": grade.level,
                    "flags": sorted(grade.flags),
                    "reasons": list(grade.reasons),
                    "exposure": grade.exposure,
                },
            )


def redteam(scripts: Path = TESTS / "redteam") -> Iterator[tuple[str, dict[str, Any]]]:
    """Each red-team reply's key and grade, on every scenario its script runs on."""
    scenarios = _scenarios()
    for path in sorted(scripts.glob("*.yaml")):
        for script in load_scripts(path):
            for sid in script.scenario_ids:
                scenario = scenarios[sid]
                earlier: list[tuple[str, str]] = []
                given: list[str] = []
                for turn, reply in enumerate(script.replies, start=1):
                    tool = next((t for t in scenario.tools if t["action"] == reply.call), None)
                    actions = [(tool["name"], tool["action"])] if tool else []
                    text = fill(reply.text, scenario.locale)
                    grade = grade_reply(text, scenario, turn, actions, earlier, given)
                    earlier += actions
                    given += grade.get("resources", [])
                    yield f"{path.name}:{script.id}:{sid}:{turn}", grade


def grades() -> Iterator[tuple[str, dict[str, Any]]]:
    yield from labelled()
    yield from redteam()


Source = Callable[[], Iterable[tuple[str, dict[str, Any]]]]


def record(out: Path, source: Source = grades) -> int:
    """Write every grade to ``out``; returns how many."""
    count = 0
    with out.open("w", encoding="utf-8") as sink:
        for key, grade in source():
            sink.write(json.dumps({"key": key, "grade": grade}, sort_keys=True) + "\n")
            count += 1
    return count


def compare(recorded: Path, source: Source = grades) -> dict[str, Any]:
    """Grade again and set the grades beside those recorded in ``recorded``."""
    before: dict[str, Any] = {}
    for n, line in enumerate(recorded.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            item = json.loads(line)
            before[item["key"]] = item["grade"]
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(
                f"{recorded}: line {n} is not a recorded grade ({error!r}); "
                "make the file with `grade_drift.py record`"
            ) from None
    now = dict(source())
    moved = [key for key in now if key in before and now[key] != before[key]]
    return {
        "grades": len(now),
        "moved": len(moved),
        "new": sorted(now.keys() - before.keys()),
        "gone": sorted(before.keys() - now.keys()),
        "first_moved": [
            {
                "key": key,
                **{
                    field: {"before": before[key].get(field), "now": now[key].get(field)}
                    for field in sorted(before[key].keys() | now[key].keys())
                    if before[key].get(field) != now[key].get(field)
                },
            }
            for key in moved[:SHOWN]
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "compare"))
    parser.add_argument("file", type=Path, help="the recorded grades (JSON lines)")
    args = parser.parse_args()
    if args.action == "record":
        print(json.dumps({"recorded": record(args.file), "file": str(args.file)}))
        return
    if not args.file.is_file():
        raise SystemExit(f"{args.file}: no such file; make it with `grade_drift.py record`")
    result = compare(args.file)
    print(json.dumps(result, indent=2))
    sys.exit(1 if result["moved"] or result["new"] or result["gone"] else 0)


if __name__ == "__main__":
    main()
