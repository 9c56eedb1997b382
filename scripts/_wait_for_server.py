"""Wait until the loopback policy server answers: python scripts/_wait_for_server.py PORT [SECONDS].

Shared by eval.sh and compat.sh; exits non-zero, naming the URL, if it never answers.
"""

import sys
import time
import urllib.request

port, seconds = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
url = f"http://127.0.0.1:{port}/v1/models"
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    try:
        urllib.request.urlopen(url, timeout=1)
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(f"the policy server did not start at {url}")
