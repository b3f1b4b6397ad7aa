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
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"}}


class Client:
    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.ids = itertools.count(1)

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        rid = next(self.ids)
        msg = {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
               "params": {"name": name, "arguments": args, "_meta": META}}
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
    args = p.parse_args()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MOLFORMA_RENDERER="painter",
               MOLFORMA_LANGUAGE="en", PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as cfg:
        env["MOLFORMA_CONFIG_DIR"] = cfg
        proc = subprocess.Popen([sys.executable, "-m", "molforma", "--mcp-gui",
                                 str(ROOT / "tests/data/nwchem/water_opt-000.xyz")],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env, cwd=cfg)
        c = Client(proc)
        doc = c.call("list_documents", {})["documents"][0]["documentId"]
        c.call("get_ui", {"includeHidden": True})  # warm up
        base, get_ui, queue_done, end_to_end = [], [], [], []
        for i in range(args.rounds):
            t0 = time.perf_counter()
            d = c.call("get_document", {"documentId": doc, "include": []})
            base.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            c.call("get_ui", {"includeHidden": True})
            get_ui.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            rec = c.call("ui_set_value", {"documentId": doc, "expectedRevision": d["revision"],
                                          "target": "processesSpin", "value": 1 + i % 4})
            while rec["status"] not in ("done", "failed"):
                rec = c.call("get_ui_command", {"commandId": rec["commandId"]})
            end_to_end.append(time.perf_counter() - t0)
            assert rec["status"] == "done", rec
            queue_done.append(_ts(rec["finishedAt"]) - _ts(rec["createdAt"]))
        proc.stdin.close()  # type: ignore[union-attr]
        proc.wait(10)

    def line(name: str, xs: list[float]) -> str:
        med = statistics.median(xs)
        return (f"{name:34s} median {med * 1000:7.2f} ms  min {min(xs) * 1000:7.2f}  "
                f"max {max(xs) * 1000:7.2f}  ratio to get_document "
                f"{med / statistics.median(base):5.2f}")

    print(line("get_document (baseline)", base))
    print(line("get_ui (whole window)", get_ui))
    print(line("ui_set_value queue-to-done", queue_done))
    print(line("ui_set_value end to end (polled)", end_to_end))
    ok = statistics.median(queue_done) <= 0.020
    print(f"target trivial command <= 20 ms median: {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
