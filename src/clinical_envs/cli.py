"""``clinical-envs``: serve the reference policies on a local OpenAI-compatible endpoint."""

from __future__ import annotations

import argparse
import logging
import sys

from clinical_envs.policies.server import PolicyServer, builtin_policies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="clinical-envs", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the reference policies on loopback")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.command == "serve":
        server = PolicyServer(builtin_policies(), args.host, args.port)
        names = ", ".join(server.policies)
        print(f"serving {names} at {server.base_url} (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
