"""A client that stops reading while more than 32 MiB of output waits is disconnected."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.mcp.conftest import meta


def test_client_that_stops_reading_is_disconnected_after_32_mib(mcp_env, tmp_path: Path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "molforma", "--mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=mcp_env,
        cwd=tmp_path,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    # stderr is read all along: a server whose stderr pipe filled up would block in a log
    # call, which is not what this test is about
    err = bytearray()
    drain = threading.Thread(
        target=lambda: err.extend(proc.stderr.read()),  # type: ignore[union-attr]
        daemon=True,
    )
    drain.start()

    def send(obj: object) -> None:
        proc.stdin.write(json.dumps(obj).encode() + b"\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]

    def call(rid: int, name: str, args: dict) -> None:
        send(
            {
                "jsonrpc": "2.0",
                "id": rid,
                "method": "tools/call",
                "params": {"name": name, "arguments": args, "_meta": meta()},
            }
        )

    try:
        call(1, "list_documents", {})
        doc = json.loads(proc.stdout.readline())["result"]["structuredContent"]["documents"][0]
        n = 3000
        xyz = f"{n}\nbig\n" + "".join(
            f"He {i % 30 * 1.5} {i // 30 % 30 * 1.5} {i // 900 * 1.5} \n" for i in range(n)
        )
        call(
            2,
            "import_document",
            {
                "documentId": doc["documentId"],
                "expectedRevision": doc["revision"],
                "format": "xyz",
                "text": xyz,
                "preview": False,
            },
        )
        assert "result" in json.loads(proc.stdout.readline())
        # From now on nothing is read: each answer (all atoms asked for, past the size hint)
        # is about 1 MB, so 40 of them exceed 32 MiB.
        for rid in range(3, 80):
            call(rid, "get_document", {"documentId": doc["documentId"], "limit": n})
            if proc.poll() is not None:
                break
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        one = proc.poll()
        assert one == 1, "the server kept waiting for a client that does not read"
        drain.join(10)
        assert b"stopped reading" in err
    except BrokenPipeError:
        # The server closed stdin while we were still writing: it did disconnect us.
        proc.wait(60)
        assert proc.returncode == 1
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        drain.join(10)  # at the process's end its stderr ends too
        for f in (proc.stdin, proc.stdout, proc.stderr):
            if f is not None:
                with contextlib.suppress(BrokenPipeError):
                    f.close()
