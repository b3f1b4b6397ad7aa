"""MCP over stdio: ``molforma --mcp`` beside a minimal server written with the official SDK.

Both servers are real child processes spoken to with raw JSON lines; every figure
alternates the two (A B A B ...):

- start-up: process start to the **first tool result** (molforma: ``server/discover``
  then ``list_documents``; SDK: ``initialize``, ``initialized``, then its trivial
  tool), with each server's peak RSS at that point; molforma's time to the
  ``server/discover`` answer alone is given in the note;
- a cheap tool call (molforma ``list_documents`` vs the SDK's trivial tool);
- ``get_document`` of a 10,000-atom project through the real tool vs an SDK tool
  returning the very same result dict (same bytes on the wire, structured and as
  text), with both servers' peak RSS after holding it.

Usage: ``python bench/mcp_bench.py [--calls 300] [--big-calls 10] [--starts 7]``.
Needs the ``mcp`` SDK (test extra).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import Report, Sample, add_output_argument, compare, peak_rss_of_pid

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}

SDK_SERVER = '''
import json, sys
from typing import Any

from mcp.server import MCPServer

app = MCPServer("trivial")
BIG = json.loads(open(sys.argv[1], encoding="utf-8").read()) if len(sys.argv) > 1 else {}


@app.tool()
def ping_tool(x: int = 0) -> int:
    """Return x."""
    return x


@app.tool()
def get_document() -> dict[str, Any]:
    """Return the same result molforma's get_document gave."""
    return BIG


app.run()
'''


class Peer:
    """A stdio server spoken to with raw JSON lines."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )
        self.n = 0

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        assert self.proc.stdout is not None
        self.send({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params})
        while True:
            msg = json.loads(self.proc.stdout.readline())
            if msg.get("id") == self.n:
                return msg

    def call(self, name: str, arguments: dict[str, Any], modern: bool) -> dict[str, Any]:
        params: dict[str, Any] = {"name": name, "arguments": arguments}
        if modern:
            params["_meta"] = MODERN_META
        res = self.request("tools/call", params)
        assert res["result"].get("isError") is not True, res
        return res["result"]

    @property
    def peak_rss(self) -> int | None:
        return peak_rss_of_pid(self.proc.pid)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def molforma_argv() -> list[str]:
    """``.venv/bin/molforma`` when it exists, else ``python -m molforma``."""
    exe = Path(sys.executable).with_name("molforma")
    return [str(exe), "--mcp"] if exe.exists() else [sys.executable, "-m", "molforma", "--mcp"]


def start_ours(env: dict[str, str]) -> Peer:
    """molforma started and answering tools (discover, then nothing else is needed)."""
    p = Peer(molforma_argv(), env)
    res = p.request("server/discover", {"_meta": MODERN_META})
    assert res["result"]["supportedVersions"]
    p.discover_s = time.perf_counter() - p.t0  # type: ignore[attr-defined]
    return p


def start_sdk(env: dict[str, str], script: Path, *extra: str) -> Peer:
    """The SDK server started and initialised (2025-11-25 handshake)."""
    p = Peer([sys.executable, str(script), *extra], env)
    init = p.request(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        },
    )
    assert "result" in init, init
    p.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return p


def big_xyz(n: int) -> str:
    """``n`` carbon atoms on a 1.6 Å grid, as XYZ."""
    side = 22
    return f"{n}\nbig\n" + "".join(
        f"C {i % side * 1.6:.3f} {i // side % side * 1.6:.3f} {i // (side * side) * 1.6:.3f}\n"
        for i in range(n)
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print it and write bench/results/mcp_bench.json."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=300, help="cheap calls per server")
    ap.add_argument("--big-calls", type=int, default=10, help="get_document calls per server")
    ap.add_argument("--starts", type=int, default=7, help="start-up runs per server")
    ap.add_argument("--atoms", type=int, default=10_000)
    add_output_argument(ap)
    args = ap.parse_args(argv)
    report = Report(
        "mcp_bench",
        f"python bench/mcp_bench.py --calls {args.calls} "
        f"--big-calls {args.big_calls} --starts {args.starts}",
    )
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        env = dict(os.environ, MOLFORMA_CONFIG_DIR=str(tmp), MOLFORMA_LANGUAGE="en")
        sdk_file = tmp / "sdk_server.py"
        sdk_file.write_text(SDK_SERVER)
        discover: list[float] = []

        def first_ours() -> Sample:
            p = start_ours(env)
            p.call("list_documents", {}, modern=True)
            s = Sample(time.perf_counter() - p.t0, p.peak_rss)
            discover.append(p.discover_s)  # type: ignore[attr-defined]
            p.close()
            return s

        def first_sdk() -> Sample:
            p = start_sdk(env, sdk_file)
            p.call("ping_tool", {"x": 1}, modern=False)
            s = Sample(time.perf_counter() - p.t0, p.peak_rss)
            p.close()
            return s

        c = compare(first_ours, first_sdk, repeat=args.starts)
        med = sorted(discover)[len(discover) // 2]
        report.add(
            "startup",
            "process start → first tool result",
            c,
            candidate="molforma list_documents",
            baseline="SDK MCPServer trivial tool",
            target="ratio ≤ 1; discover < 600 ms",
            met=c.ratio.median <= 1 and med < 0.6,
            note=f"molforma answers server/discover after {med * 1e3:.0f} ms (median); "
            "RDKit and the tools load after that answer",
        )

        ours = start_ours(env)
        sdk = start_sdk(env, sdk_file)
        for _ in range(20):
            ours.call("list_documents", {}, modern=True)
            sdk.call("ping_tool", {"x": 1}, modern=False)
        c = compare(
            lambda: ours.call("list_documents", {}, modern=True),
            lambda: sdk.call("ping_tool", {"x": 1}, modern=False),
            repeat=args.calls,
            warmup=0,
        )
        report.add(
            "cheap_call",
            "cheap tool call round trip",
            c,
            candidate="molforma list_documents",
            baseline="SDK MCPServer trivial tool",
            target="ratio ≤ 1",
            met=c.ratio.median <= 1,
        )
        sdk.close()

        doc = ours.call("list_documents", {}, modern=True)["structuredContent"]["documents"][0]
        n = args.atoms
        t = time.perf_counter()
        imp = ours.call(
            "import_document",
            {
                "documentId": doc["documentId"],
                "expectedRevision": doc["revision"],
                "format": "xyz",
                "text": big_xyz(n),
                "preview": False,
            },
            modern=True,
        )
        import_s = time.perf_counter() - t
        assert imp["structuredContent"]["project"]["atomCount"] == n
        # every atom at once (a caller asking for more than the size hint): the whole
        # project travels, as the SDK baseline sends it
        get_args = {"documentId": doc["documentId"], "include": ["project"], "limit": n}
        result = ours.call("get_document", get_args, modern=True)["structuredContent"]
        big_file = tmp / "big.json"
        big_file.write_text(json.dumps(result), encoding="utf-8")
        sdk = start_sdk(env, sdk_file, str(big_file))

        def ours_big() -> Sample:
            t0 = time.perf_counter()
            r = ours.call("get_document", get_args, modern=True)
            elapsed = time.perf_counter() - t0
            assert len(r["structuredContent"]["project"]["document"]["atoms"]) == n
            return Sample(elapsed, ours.peak_rss)

        def sdk_big() -> Sample:
            t0 = time.perf_counter()
            r = sdk.call("get_document", {}, modern=False)
            elapsed = time.perf_counter() - t0
            assert len(r["structuredContent"]["project"]["document"]["atoms"]) == n
            return Sample(elapsed, sdk.peak_rss)

        c = compare(ours_big, sdk_big, repeat=args.big_calls)
        report.add(
            "get_document",
            f"get_document of {n:,} atoms over stdio",
            c,
            candidate="molforma get_document",
            baseline="SDK tool returning the same dict",
            target="ratio ≤ 1",
            met=c.ratio.median <= 1,
            note=f"peak RSS is each server's after holding the project; "
            f"the XYZ import took {import_s:.1f} s",
        )
        sdk.close()
        ours.close()
    report.write(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
