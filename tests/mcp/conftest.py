"""Fixtures that spawn the real ``molforma --mcp`` and speak raw JSON lines to it."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.paths import NWCHEM_DATA

REPO = Path(__file__).resolve().parents[2]
FIXTURES = NWCHEM_DATA
STAND_IN = REPO / "tests" / "stand_in"
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
TASKS = "io.modelcontextprotocol/tasks"
WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.1173]},
    {"element": "H", "position": [0.0, 0.7572, -0.4692]},
    {"element": "H", "position": [0.0, -0.7572, -0.4692]},
]
WATER_BONDS = [{"a": "#0", "b": "#1", "order": 1}, {"a": "#0", "b": "#2", "order": 1}]


def meta(caps: dict[str, Any] | None = None, version: str = MODERN) -> dict[str, Any]:
    """The per-request ``_meta`` of a 2026-07-28 request."""
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": caps if caps is not None else {},
        "io.modelcontextprotocol/clientInfo": {"name": "pytest", "version": "1"},
    }


class McpProcess:
    """A running ``molforma --mcp`` with helpers for raw JSON-RPC lines."""

    def __init__(
        self, args: list[str], env: dict[str, str], cwd: Path, flag: str = "--mcp"
    ) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "molforma", flag, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr_chunks: list[bytes] = []
        self._ids = itertools.count(1)
        self._threads = [
            threading.Thread(target=self._read, daemon=True),
            threading.Thread(target=self._read_err, daemon=True),
        ]
        for t in self._threads:
            t.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for chunk in iter(lambda: self.proc.stderr.read1(65536), b""):  # type: ignore[union-attr]
            self.stderr_chunks.append(chunk)

    @property
    def stderr(self) -> str:
        return b"".join(self.stderr_chunks).decode("utf-8", "replace")

    # -- raw I/O -------------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg: Any) -> None:
        self.write(json.dumps(msg).encode("utf-8") + b"\n")

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message on stdout (each line must be one JSON object)."""
        line = self.lines.get(timeout=timeout)
        if line is None:
            raise EOFError("server closed stdout; stderr:\n" + self.stderr)
        assert line.endswith(b"\n")
        return json.loads(line.decode("utf-8"))

    def no_message(self, wait: float = 0.5) -> bool:
        """True when nothing arrives within ``wait`` seconds."""
        try:
            line = self.lines.get(timeout=wait)
        except queue.Empty:
            return True
        self.lines.put(line)
        return False

    # -- requests ------------------------------------------------------------------------
    def next_id(self) -> int:
        return next(self._ids)

    def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        caps: dict[str, Any] | None = None,
        modern: bool = True,
        timeout: float = 30.0,
    ) -> dict[str, Any]:
        """Send a request and return its whole response envelope."""
        rid = self.next_id()
        p = dict(params or {})
        if modern:
            p["_meta"] = {**meta(caps), **p.get("_meta", {})}
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": p})
        msg = self.recv(timeout)
        assert msg.get("id") == rid, msg
        return msg

    def result(
        self, method: str, params: dict[str, Any] | None = None, **kw: Any
    ) -> dict[str, Any]:
        msg = self.request(method, params, **kw)
        assert "result" in msg, msg
        return msg["result"]

    def call(self, name: str, args: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        """``tools/call`` result (CallToolResult or task/input_required)."""
        params: dict[str, Any] = {"name": name, "arguments": args or {}}
        params.update(kw.pop("extra", {}))
        return self.result("tools/call", params, **kw)

    def ok(self, name: str, args: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        """structuredContent of a successful call."""
        res = self.call(name, args, **kw)
        # The server's own log says why an internal error happened: keep it in the report.
        assert res.get("isError") is False, (res, self.stderr[-4000:])
        return res["structuredContent"]

    def err(self, name: str, args: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        """structuredContent (the error object) of a failing call."""
        res = self.call(name, args, **kw)
        assert res.get("isError") is True, res
        return res["structuredContent"]

    # -- documents -----------------------------------------------------------------------
    def doc(self) -> tuple[str, str]:
        """(documentId, revision) of the first document."""
        d = self.ok("list_documents")["documents"][0]
        return d["documentId"], d["revision"]

    def water(self) -> tuple[str, str]:
        """Make the first document a confirmed water molecule; returns (id, revision)."""
        doc_id, rev = self.doc()
        s = self.ok(
            "add_atoms",
            {
                "documentId": doc_id,
                "expectedRevision": rev,
                "atoms": WATER,
                "bonds": WATER_BONDS,
                "preview": False,
            },
        )
        return doc_id, s["revision"]

    def project(self, doc_id: str) -> dict[str, Any]:
        return self.ok("get_document", {"documentId": doc_id})["project"]

    def close(self, timeout: float = 10.0) -> int:
        if self.proc.stdin and not self.proc.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise
        finally:
            self.release()

    def release(self) -> None:
        """Close our ends of the pipes once the process is gone."""
        if self.proc.poll() is None:
            return
        for t in self._threads:
            t.join(5)
        for f in (self.proc.stdout, self.proc.stderr):
            if f is not None:
                f.close()


@pytest.fixture
def mcp_env(tmp_path: Path) -> dict[str, str]:
    """Environment of a spawned server: isolated Preferences, English messages."""
    cfg = tmp_path / "config"
    cfg.mkdir()
    env = dict(os.environ)
    env["MOLFORMA_CONFIG_DIR"] = str(cfg)
    env["MOLFORMA_LANGUAGE"] = "en"
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["HOME"] = str(tmp_path / "home")
    (tmp_path / "home").mkdir()
    return env


@pytest.fixture
def spawn(mcp_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    """Factory: ``spawn(*args, env=...)`` starts a server; all are closed at the end."""
    procs: list[McpProcess] = []

    def start(*args: str, env: dict[str, str] | None = None, flag: str = "--mcp") -> McpProcess:
        p = McpProcess(list(args), {**mcp_env, **(env or {})}, tmp_path, flag)
        procs.append(p)
        return p

    yield start
    for p in procs:
        if p.proc.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.close(10.0)
        p.release()


@pytest.fixture
def server(spawn: Any) -> McpProcess:
    """One headless server with no launch options."""
    return spawn()


def wait_until(fn: Any, timeout: float = 60.0, interval: float = 0.1) -> Any:
    """Poll ``fn()`` until it returns a truthy value."""
    end = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("condition not met in time")
        time.sleep(interval)


# -- the window over MCP (--mcp-gui offscreen) -------------------------------------------------
GUI_ENV = {"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"}
TASK_CAPS = {"extensions": {TASKS: {}}}


def run_window_command(
    server: McpProcess, tool: str, args: dict[str, Any], timeout: float = 30
) -> dict[str, Any]:
    """Queue a window command with the current revision and wait for its record to end."""
    doc_id, rev = server.doc()
    rec = server.ok(tool, {"documentId": doc_id, "expectedRevision": rev, **args})
    assert rec["status"] == "queued", rec
    return wait_until(
        lambda: (
            (r := server.ok("get_ui_command", {"commandId": rec["commandId"]}))["status"]
            in ("done", "failed")
            and r
        ),
        timeout,
    )
