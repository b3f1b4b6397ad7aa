"""Through the real ``molforma --mcp``: links planted on a path and named pipes.

docs/reference/safety.md, Allowed directories. A folder on the path that is a link to outside the allowed
directory is refused for save_file, open_file and results loads: an outside canary
file is neither read nor changed and nothing is created outside. A named pipe given
to a results load or to open_file ends at once with a clear error (it used to leave
the load running for ever), and the server goes on answering.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import McpProcess, wait_until

MARKER = "CANARY-OUTSIDE-d41c"
OUTSIDE_XYZ = f"3\n{MARKER}\nO 0 0 0.1173\nH 0 0.7572 -0.4692\nH 0 -0.7572 -0.4692\n"


@pytest.fixture
def box(spawn: Any, tmp_path: Path) -> tuple[McpProcess, Path, Path]:
    allowed = tmp_path / "allowed"
    outside = tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    (outside / "m.xyz").write_text(OUTSIDE_XYZ, encoding="utf-8")
    (outside / "p.molforma.json").write_text("precious\n", encoding="utf-8")
    (allowed / "link").symlink_to(outside, target_is_directory=True)
    return spawn("--mcp-allow-dir", str(allowed)), allowed, outside


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _load(
    server: McpProcess, doc_id: str, action: str, path: str, timeout: float = 10.0
) -> dict[str, Any]:
    """Start a results load and wait (at most ``timeout`` s) for its end."""
    out = server.ok(
        "results_action",
        {"documentId": doc_id, "expectedRevision": server.doc()[1], "action": action, "path": path},
    )
    assert out["status"] in ("running", "failed", "completed"), out

    def ended() -> dict[str, Any] | None:
        state = server.ok("get_app_state", {})["results"].get(doc_id) or {}
        last = state.get("lastLoad") or {}
        return state if last.get("status") in ("completed", "failed", "cancelled") else None

    return wait_until(ended, timeout, 0.1)  # type: ignore[no-any-return]


def test_a_linked_folder_on_the_path_is_refused_and_the_outside_canary_is_untouched(
    box: tuple[McpProcess, Path, Path],
) -> None:
    server, allowed, outside = box
    before = _snapshot(outside)
    doc_id, rev = server.doc()
    err = server.err(
        "save_file",
        {
            "documentId": doc_id,
            "overwrite": True,
            "path": str(allowed / "link" / "p.molforma.json"),
        },
    )
    assert err["code"] == "path_not_allowed"
    err = server.err(
        "save_file",
        {"documentId": doc_id, "path": str(allowed / "link" / "new" / "q.molforma.json")},
    )
    assert err["code"] == "path_not_allowed"
    err = server.err(
        "open_file",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "path": str(allowed / "link" / "m.xyz"),
            "preview": False,
        },
    )
    assert err["code"] == "path_not_allowed"
    res = server.call(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": server.doc()[1],
            "action": "open_directory",
            "path": str(allowed / "link"),
        },
    )
    assert res["isError"] is True and res["structuredContent"]["code"] == "path_not_allowed"
    assert _snapshot(outside) == before  # nothing changed, nothing made outside
    assert MARKER not in str(server.ok("get_document", {"documentId": doc_id}))
    results = server.ok("get_app_state", {})["results"].get(doc_id) or {}
    assert results.get("source") is None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_results_load_of_a_named_pipe_fails_at_once_and_the_server_answers(
    box: tuple[McpProcess, Path, Path],
) -> None:
    server, allowed, _outside = box
    fifo = allowed / "output.out"
    os.mkfifo(fifo)
    doc_id, _ = server.doc()
    start = time.monotonic()
    state = _load(server, doc_id, "open_file", str(fifo))
    assert time.monotonic() - start < 10
    last = state["lastLoad"]
    assert last["status"] == "failed", state
    assert last["error"]["code"] == "not_regular_file"
    assert "not a regular file" in last["error"]["message"]
    assert str(fifo) in last["error"]["message"]
    # The server is free: the next requests are answered.
    assert server.ok("list_documents")["documents"]
    err = server.err(
        "open_file", {"documentId": doc_id, "expectedRevision": server.doc()[1], "path": str(fifo)}
    )
    assert err["code"] in ("not_a_file", "not_regular_file"), err
    assert server.ok("get_app_state", {})["results"][doc_id]["source"] is None


def test_a_folder_flipping_between_real_and_a_link_never_lets_a_byte_out(
    spawn: Any, tmp_path: Path
) -> None:
    """A swapper flips ``sub`` between a real folder and a link to outside while the
    client saves into it and opens from it, over and over: whatever the timing, nothing
    is written outside and the outside file is never loaded."""
    import threading

    allowed = tmp_path / "allowed"
    outside = tmp_path / "outside"
    sub = allowed / "sub"
    real = allowed / ".sub-real"
    sub.mkdir(parents=True)
    outside.mkdir()
    (sub / "m.xyz").write_text("1\ninside\nHe 0 0 0\n", encoding="utf-8")
    (outside / "m.xyz").write_text(OUTSIDE_XYZ, encoding="utf-8")
    before = _snapshot(outside)
    server = spawn("--mcp-allow-dir", str(allowed))
    doc_id, _ = server.doc()
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            try:
                sub.rename(real)
                sub.symlink_to(outside, target_is_directory=True)
                time.sleep(0.0005)
                sub.unlink()
                real.rename(sub)
                time.sleep(0.0005)
            except OSError:
                continue

    swapper = threading.Thread(target=flip, daemon=True)
    swapper.start()
    try:
        for i in range(300):
            server.call(
                "save_file",
                {
                    "documentId": doc_id,
                    "overwrite": True,
                    "path": str(sub / f"p{i % 3}.molforma.json"),
                },
            )
            server.call(
                "open_file",
                {
                    "documentId": doc_id,
                    "expectedRevision": server.doc()[1],
                    "path": str(sub / "m.xyz"),
                    "preview": False,
                },
            )
            server.call(
                "results_action",
                {
                    "documentId": doc_id,
                    "expectedRevision": server.doc()[1],
                    "action": "open_file",
                    "path": str(sub / "m.xyz"),
                },
            )
    finally:
        stop.set()
        swapper.join(5)
    assert _snapshot(outside) == before
    assert MARKER not in json.dumps(server.ok("get_document", {"documentId": doc_id}))
    time.sleep(0.5)  # the last results load ends
    results = server.ok("get_app_state", {})["results"].get(doc_id) or {}
    assert str(outside) not in json.dumps(results)  # the source never became the outside file
    if results.get("source"):
        page = server.ok("get_results", {"documentId": doc_id, "section": "structures"})
        assert MARKER not in json.dumps(page)
