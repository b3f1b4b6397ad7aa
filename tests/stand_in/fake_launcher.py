"""A stand-in for mpirun: records its argv, then runs the program after its options.

It writes ``sys.argv`` as JSON to the file named by ``FAKE_LAUNCHER_LOG`` and runs
the command that follows ``-np N`` and any ``-x NAME=VALUE`` options, once.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> int:
    args = sys.argv[1:]
    log = os.environ.get("FAKE_LAUNCHER_LOG")
    if log:
        with open(log + ".tmp", "w", encoding="utf-8") as fh:
            json.dump(sys.argv, fh)
        os.replace(log + ".tmp", log)
    while args and args[0].startswith("-"):
        opt = args.pop(0)
        if opt in ("-np", "-x") and args:
            value = args.pop(0)
            if opt == "-x" and "=" in value:
                name, _, val = value.partition("=")
                os.environ[name] = val
    if not args:
        return 2
    os.execvp(args[0], args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
