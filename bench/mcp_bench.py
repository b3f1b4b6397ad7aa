"""MCP round-trip benchmark: ``molforma --mcp`` beside a minimal server written with the SDK.

Measured over stdio with raw JSON lines, in one run:

- time from process start to the first ``server/discover`` answer (molforma; target < 0.6 s),
- median round trip of a cheap tool call (molforma ``list_documents``) and of the SDK
  server's trivial tool, and their ratio (target: ours no slower),
- median round trip of ``get_document`` on a 10,000-atom project.

Usage: ``python bench/mcp_bench.py [--calls N]``. Needs the ``mcp`` SDK (test extra).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MODERN_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {}}

SDK_SERVER = '''
from mcp.server import MCPServer

app = MCPServer("trivial")


@app.tool()
def ping_tool(x: int = 0) -> int:
    """Return x."""
    return x


app.run()
'''


class Peer:
    """A stdio server spoken to with raw JSON lines."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        self.n = 0

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        assert self.proc.stdin is not None and self.proc.stdout is not None
        line = json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method,
                           "params": params}).encode() + b"\n"
        self.proc.stdin.write(line)
        self.proc.stdin.flush()
        while True:
            msg = json.loads(self.proc.stdout.readline())
            if msg.get("id") == self.n:
                return msg

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _median_ms(fn: Any, n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["MOLFORMA_CONFIG_DIR"] = str(tmp)
    env["MOLFORMA_LANGUAGE"] = "en"
    return env


def molforma_argv() -> list[str]:
    """``.venv/bin/molforma`` when it exists, else ``python -m molforma``."""
    exe = Path(sys.executable).with_name("molforma")
    return [str(exe), "--mcp"] if exe.exists() else [sys.executable, "-m", "molforma", "--mcp"]


def startup(env: dict[str, str], runs: int) -> float:
    """Median seconds from spawning ``molforma --mcp`` to its first discover answer."""
    out = []
    for _ in range(runs):
        p = Peer(molforma_argv(), env)
        res = p.request("server/discover", {"_meta": MODERN_META})
        assert res["result"]["supportedVersions"]
        out.append(time.perf_counter() - p.t0)
        p.close()
    return statistics.median(out)


def import_cost(module: str, env: dict[str, str]) -> float:
    """Seconds a fresh interpreter needs to import ``module`` (median of 3)."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 env=env, check=True).stdout) for _ in range(3)]
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--calls", type=int, default=300, help="cheap calls per server")
    ap.add_argument("--big-calls", type=int, default=20, help="get_document calls")
    ap.add_argument("--starts", type=int, default=5, help="start-up runs")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        env = _env(tmp)
        start_s = startup(env, args.starts)
        rdkit_s = import_cost("rdkit.Chem", env)

        ours = Peer(molforma_argv(), env)
        ours.request("server/discover", {"_meta": MODERN_META})
        docs = ours.request("tools/call", {"name": "list_documents", "arguments": {},
                                           "_meta": MODERN_META})
        doc = docs["result"]["structuredContent"]["documents"][0]

        def cheap() -> None:
            r = ours.request("tools/call", {"name": "list_documents", "arguments": {},
                                            "_meta": MODERN_META})
            assert r["result"]["isError"] is False

        for _ in range(20):
            cheap()
        ours_ms = _median_ms(cheap, args.calls)

        sdk_file = tmp / "sdk_server.py"
        sdk_file.write_text(SDK_SERVER)
        sdk = Peer([sys.executable, str(sdk_file)], env)
        init = sdk.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                          "clientInfo": {"name": "bench", "version": "1"}})
        assert "result" in init, init
        assert sdk.proc.stdin is not None
        sdk.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        sdk.proc.stdin.flush()

        def trivial() -> None:
            r = sdk.request("tools/call", {"name": "ping_tool", "arguments": {"x": 1}})
            assert r["result"].get("isError") is not True, r

        for _ in range(20):
            trivial()
        sdk_ms = _median_ms(trivial, args.calls)
        sdk.close()

        n = 10_000
        side = 22
        xyz = f"{n}\nbig\n" + "".join(
            f"C {i % side * 1.6:.3f} {i // side % side * 1.6:.3f} {i // (side * side) * 1.6:.3f}\n"
            for i in range(n))
        t = time.perf_counter()
        imp = ours.request("tools/call", {"name": "import_document", "_meta": MODERN_META,
                                          "arguments": {"documentId": doc["documentId"],
                                                        "expectedRevision": doc["revision"],
                                                        "format": "xyz", "text": xyz,
                                                        "preview": False}})
        import_s = time.perf_counter() - t
        assert imp["result"]["isError"] is False, imp
        assert imp["result"]["structuredContent"]["project"]["atomCount"] == n

        def big() -> None:
            r = ours.request("tools/call", {"name": "get_document", "_meta": MODERN_META,
                                            "arguments": {"documentId": doc["documentId"],
                                                          "include": ["project"]}})
            assert len(r["result"]["structuredContent"]["project"]["document"]["atoms"]) == n

        big()
        big_ms = _median_ms(big, args.big_calls)
        ours.close()

    print(f"start-up to first server/discover answer: {start_s * 1000:.0f} ms "
          f"(median of {args.starts}; target < 600 ms)")
    print(f"(for scale: importing rdkit.Chem alone takes {rdkit_s * 1000:.0f} ms; it is "
          "loaded after the first answer, with the tools)")
    print(f"cheap tool call (molforma list_documents): {ours_ms:.3f} ms median")
    print(f"trivial tool call (official SDK MCPServer): {sdk_ms:.3f} ms median")
    print(f"ratio molforma / SDK: {ours_ms / sdk_ms:.2f} (target <= 1)")
    print(f"get_document, 10,000 atoms: {big_ms:.1f} ms median "
          f"(import of the XYZ took {import_s * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
