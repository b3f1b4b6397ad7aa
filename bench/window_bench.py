"""Window-command benchmark: ``molforma --mcp-gui`` offscreen, over stdio, in one run.

Interleaved, on the same process and an idle window:

- queue-to-done latency of a trivial ``ui_set_value`` (the processes spin box), read
  from the command record's timestamps and, end to end, by polling ``get_ui_command``;
- the time of ``get_ui`` on the whole window (``includeHidden``);
- each as a ratio to a ``get_document`` round trip (the baseline).

Target: trivial command ≤ 20 ms median queue-to-done. Usage:
``QT_QPA_PLATFORM=offscreen MOLFORMA_RENDERER=painter python bench/window_bench.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from harness import Report, Sample, add_output_argument, compare

ROOT = Path(__file__).resolve().parents[1]
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
}


class Client:
    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.ids = itertools.count(1)

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        rid = next(self.ids)
        msg = {
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {"name": name, "arguments": args, "_meta": META},
        }
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            out = json.loads(self.proc.stdout.readline())
            if out.get("id") == rid:
                return out["result"]["structuredContent"]


def _ts(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rounds", type=int, default=30)
    add_output_argument(p)
    args = p.parse_args()
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        MOLFORMA_RENDERER="painter",
        MOLFORMA_LANGUAGE="en",
        PYTHONPATH=str(ROOT),
    )
    with tempfile.TemporaryDirectory() as cfg:
        env["MOLFORMA_CONFIG_DIR"] = cfg
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "molforma",
                "--mcp-gui",
                str(ROOT / "tests/data/nwchem/water_opt-000.xyz"),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=cfg,
        )
        c = Client(proc)
        doc = c.call("list_documents", {})["documents"][0]["documentId"]
        state = {"i": 0}

        def get_document() -> None:
            c.call("get_document", {"documentId": doc, "include": []})

        def get_ui() -> None:
            c.call("get_ui", {"includeHidden": True})

        def set_value() -> Sample:
            """Queue-to-done of the record, as the window's runner stamped it."""
            rev = c.call("get_document", {"documentId": doc, "include": []})["revision"]
            state["i"] += 1
            rec = c.call(
                "ui_set_value",
                {
                    "documentId": doc,
                    "expectedRevision": rev,
                    "target": "processesSpin",
                    "value": 1 + state["i"] % 4,
                },
            )
            while rec["status"] not in ("done", "failed"):
                rec = c.call("get_ui_command", {"commandId": rec["commandId"]})
            assert rec["status"] == "done", rec
            return Sample(_ts(rec["finishedAt"]) - _ts(rec["createdAt"]))

        cmd = compare(set_value, get_document, repeat=args.rounds, warmup=2)
        ui = compare(get_ui, get_document, repeat=args.rounds, warmup=1)
        proc.stdin.close()  # type: ignore[union-attr]
        proc.wait(10)
    report = Report(
        "window_bench",
        f"python bench/window_bench.py --rounds {args.rounds}",
        notes=[
            "window_bench: --mcp-gui offscreen (painter), idle water window; "
            "record times have millisecond resolution."
        ],
    )
    report.add(
        "trivial_command",
        "queue-to-done of a trivial ui_set_value (processesSpin)",
        cmd,
        candidate="ui_set_value queued → done",
        baseline="get_document round trip",
        target="median ≤ 20 ms",
        met=cmd.candidate.time.median <= 0.020,
    )
    report.add(
        "get_ui",
        "get_ui of the whole window (includeHidden)",
        ui,
        candidate="get_ui round trip",
        baseline="get_document round trip",
    )
    report.write(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
