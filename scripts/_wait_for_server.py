"""Wait until the loopback policy server answers, and check that it serves MODEL:

    python scripts/_wait_for_server.py PORT [SECONDS] [MODEL]

Shared by eval.sh and compat.sh; exits non-zero, naming the URL, if it never answers, and
naming the served policies if MODEL is not one of them (a run against an unknown model would
otherwise "succeed" with every request failing and a mean reward of 0.000).
"""

import json
import sys
import time
import urllib.request

port = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
model = sys.argv[3] if len(sys.argv) > 3 else None
url = f"http://127.0.0.1:{port}/v1/models"
deadline = time.monotonic() + seconds
while True:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            served = [m["id"] for m in json.load(response)["data"]]
        break
    except OSError:
        if time.monotonic() > deadline:
            sys.exit(f"the policy server did not start at {url}")
        time.sleep(0.1)
if model is not None and model not in served:
    sys.exit(f"the policy server does not serve {model!r}; it serves: {', '.join(served)}")
