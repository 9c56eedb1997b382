"""``clinical-envs``: serve the reference policies, validate scenario files, calibrate, compare
the rules with the judge, and report on saved runs."""

from __future__ import annotations

import argparse
import json
import logging
import sys

from clinical_envs.policies.server import PolicyServer, builtin_policies
from clinical_envs.scenarios import check_files, scenario_files


def validate(paths: list[str]) -> int:
    """Print ``file: field: problem`` for every problem; 0 when every file is valid."""
    files = scenario_files(paths)
    scenarios, problems = check_files(files)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) in {len(files)} file(s)", file=sys.stderr)
        return 1
    print(f"{len(scenarios)} scenario(s) in {len(files)} file(s): all valid")
    return 0


def serve(host: str, port: int) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    server = PolicyServer(builtin_policies(), host, port)
    print(f"serving {', '.join(server.policies)} at {server.base_url} (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def agreement(paths: list[str], as_json: bool) -> int:
    from clinical_envs.judge.agreement import load_turns, summarise, table

    try:
        summary = summarise(load_turns(paths))
    except ValueError as e:
        print(f"clinical-envs agreement: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=2) if as_json else table(summary))
    return 0


def report(paths: list[str], out: str | None, with_comparison: bool) -> int:
    from clinical_envs.report import RunError, build_report

    try:
        written, summary = build_report(paths, out, with_comparison)
    except (RunError, ValueError, RuntimeError) as e:
        print(f"clinical-envs report: {e}", file=sys.stderr)
        return 2
    print(summary)
    from clinical_envs.report.runs import shown

    html = next(p for p in written if p.name == "report.html")
    print(f"report: {shown(html)} (report.md and {len(written) - 2} figure(s) beside it)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="clinical-envs", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve_cmd = commands.add_parser("serve", help="serve the reference policies on loopback")
    serve_cmd.add_argument("--host", default="127.0.0.1")
    serve_cmd.add_argument("--port", type=int, default=8765)
    check = commands.add_parser("validate", help="check scenario YAML files and folders")
    check.add_argument("paths", nargs="+", help="scenario files or folders (searched recursively)")
    calib = commands.add_parser(
        "calibrate", help="mean reward of each reference policy on each escalation environment"
    )
    calib.add_argument("--json", action="store_true", help="print JSON instead of a table")
    agree = commands.add_parser(
        "agreement", help="agreement of the rules and the judge in runs made with grader=both"
    )
    agree.add_argument("paths", nargs="+", help="results.jsonl files or vf-eval output folders")
    agree.add_argument("--json", action="store_true", help="print JSON instead of tables")
    rep = commands.add_parser(
        "report", help="write report.md, report.html and figures from saved vf-eval runs"
    )
    rep.add_argument("paths", nargs="+", help="vf-eval output folders or their results.jsonl")
    rep.add_argument("--out", help="output folder (default: report/ in the first run's folder)")
    rep.add_argument(
        "--compare", action="store_true", help="put the runs side by side (two or more runs)"
    )
    args = parser.parse_args(argv)
    if args.command == "report":
        return report(args.paths, args.out, args.compare)
    if args.command == "agreement":
        return agreement(args.paths, args.json)
    if args.command == "validate":
        return validate(args.paths)
    if args.command == "calibrate":
        from clinical_envs.policies.calibration import calibrate, table

        results = calibrate()
        print(json.dumps(results, indent=2) if args.json else table(results))
        return 0
    return serve(args.host, args.port)


if __name__ == "__main__":
    sys.exit(main())
