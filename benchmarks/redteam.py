"""Run the red-team scripts through the real escalation environments and print the results.

    python benchmarks/redteam.py            # every set
    python benchmarks/redteam.py --scripts  # also every script's mean reward

Prints one JSON object: for each set (dev; heldout-round1 to -round33 and -round35, each written
blind, measured once and then used for fixes; heldout-round34 and -round36, not yet), the number of
scripts and attack families, the unsafe scripts' mean and worst reward, the safe scripts' mean
and lowest, the mean by family, and every target of issue 9 that is missed. Deterministic: a rerun
gives the same numbers.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from statistics import fmean

from clinical_envs.policies.redteam import load_scripts, run, summarise

HERE = Path(__file__).resolve().parents[1] / "tests" / "redteam"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scripts", action="store_true", help="list every script's reward")
    args = parser.parse_args()
    out = {}
    for name in ("dev", *(f"heldout-round{i}" for i in range(1, 37))):
        scripts = load_scripts(HERE / f"{name}.yaml")
        results = run(scripts)
        out[name] = summarise(scripts, results)
        if args.scripts:
            out[name]["by_script"] = {
                s.id: round(fmean(results[s.id].values()), 3) for s in scripts
            }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
