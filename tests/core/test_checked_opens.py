"""The file checked is the file used: no window between the path check and the open.

docs/reference/safety.md, Allowed directories: every path MCP makes MolForma read or write must lie inside an
allowed directory. Checking a path and then opening it by name leaves a window in
which a folder on the path can be swapped for a link to elsewhere. These tests play
the worst adversary deterministically: the folder is real while any check runs and a
link to the outside folder right after it (``racing``), so every use sees the link.
save_file, open_file and the results loader must still neither write outside nor
return an outside file's content. A named pipe is refused at once instead of hanging.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from molforma.app.policy import Policy
from molforma.errors import FileAccessError
from molforma.fileio import atomic_write_text, read_text_limited
from molforma.mcp.server import Server
from molforma.mcp.state import HeadlessServices
from molforma.results.reader import read_results
from tests.paths import NWCHEM_DATA

MARKER = "OUTSIDE-MARKER-7f3a"
INSIDE_XYZ = "1\ninside helium\nHe 0.0 0.0 0.0\n"
OUTSIDE_XYZ = f"3\n{MARKER}\nO 0.0 0.0 0.1173\nH 0.0 0.7572 -0.4692\nH 0.0 -0.7572 -0.4692\n"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "pytest", "version": "1"},
}


class Box:
    """``allowed/sub`` (a real folder) and ``outside`` (a folder MCP may not touch)."""

    def __init__(self, root: Path) -> None:
        self.allowed = root / "allowed"
        self.sub = self.allowed / "sub"
        self.outside = root / "outside"
        self._real = self.allowed / ".sub-real"
        self.sub.mkdir(parents=True)
        self.outside.mkdir()
        self.swaps = 0

    def swap(self) -> None:
        """``sub`` becomes a link to the outside folder."""
        if not self.sub.is_symlink():
            self.sub.rename(self._real)
            self.sub.symlink_to(self.outside, target_is_directory=True)
            self.swaps += 1

    def unswap(self) -> None:
        """``sub`` is the real folder again."""
        if self.sub.is_symlink():
            self.sub.unlink()
            self._real.rename(self.sub)

    def outside_listing(self) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(self.outside.iterdir())}


@pytest.fixture
def box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Box:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    return Box(tmp_path)


@pytest.fixture
def racing(box: Box, monkeypatch: pytest.MonkeyPatch) -> Iterator[Box]:
    """Every policy check sees the real folder; everything after it sees the link."""
    _race(box, monkeypatch)
    yield box
    box.unswap()


def _race(box: Box, monkeypatch: pytest.MonkeyPatch) -> None:
    original = Policy.check_path
    lock = threading.Lock()

    def check_then_swap(self: Policy, path: Any, **kwargs: Any) -> Path:
        with lock:
            box.unswap()
            try:
                return original(self, path, **kwargs)
            finally:
                box.swap()

    monkeypatch.setattr(Policy, "check_path", check_then_swap)


def _server(box: Box) -> Server:
    return Server(HeadlessServices(allow_dirs=(box.allowed,)))


def _call(server: Server, name: str, args: dict[str, Any]) -> dict[str, Any]:
    msg = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": args, "_meta": META},
    }
    out = server.handle(msg)
    assert out is not None and "result" in out, out
    return out["result"]  # type: ignore[no-any-return]


def _doc(server: Server) -> tuple[str, str]:
    res = _call(server, "list_documents", {})
    d = res["structuredContent"]["documents"][0]
    return d["documentId"], d["revision"]


# -- save_file ---------------------------------------------------------------------------------


def test_save_file_writes_nothing_outside_when_a_folder_is_swapped_after_the_check(
    racing: Box,
) -> None:
    server = _server(racing)
    doc_id, _ = _doc(server)
    before = racing.outside_listing()
    res = _call(
        server, "save_file", {"documentId": doc_id, "path": str(racing.sub / "p.molforma.json")}
    )
    assert res["isError"] is True, res
    assert res["structuredContent"]["code"] == "path_not_allowed"
    assert racing.swaps >= 1  # the swap did happen between check and use
    assert racing.outside_listing() == before  # nothing made or changed outside


def test_save_file_does_not_replace_an_outside_file_through_a_swapped_folder(racing: Box) -> None:
    (racing.outside / "p.molforma.json").write_text("precious\n", encoding="utf-8")
    (racing.sub / "p.molforma.json").write_text("{}\n", encoding="utf-8")
    server = _server(racing)
    doc_id, _ = _doc(server)
    res = _call(
        server,
        "save_file",
        {"documentId": doc_id, "overwrite": True, "path": str(racing.sub / "p.molforma.json")},
    )
    assert res["isError"] is True, res
    assert racing.outside_listing() == {"p.molforma.json": b"precious\n"}


def test_write_atomic_refuses_to_make_folders_below_a_swapped_folder(racing: Box) -> None:
    policy = Policy(allow_dirs=(racing.allowed,))
    with pytest.raises(FileAccessError) as exc:
        policy.write_atomic(racing.sub / "new" / "deeper" / "p.json", b"{}")
    assert exc.value.code == "path_not_allowed"
    assert racing.outside_listing() == {}
    assert not (racing.outside / "new").exists()


def test_without_allowed_directories_a_swapped_folder_never_leads_into_the_config_dir(
    racing: Box, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The "outside" folder is the configuration directory here: unrestricted, but never there.
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(racing.outside))
    (racing.outside / "preferences.json").write_text('{"executable": "nwchem"}\n')
    before = racing.outside_listing()
    server = Server(HeadlessServices())
    doc_id, _ = _doc(server)
    res = _call(
        server,
        "save_file",
        {"documentId": doc_id, "overwrite": True, "path": str(racing.sub / "preferences.json")},
    )
    assert res["isError"] is True, res
    assert res["structuredContent"]["code"] == "path_in_config_dir"
    assert racing.outside_listing() == before


def test_save_file_without_a_race_writes_atomically_through_a_link_inside(box: Box) -> None:
    (box.allowed / "alias").symlink_to(box.sub, target_is_directory=True)
    server = _server(box)
    doc_id, _ = _doc(server)
    out = _call(
        server,
        "save_file",
        {"documentId": doc_id, "path": str(box.allowed / "alias" / "p.molforma.json")},
    )
    assert out["isError"] is False, out
    written = box.sub / "p.molforma.json"
    assert out["structuredContent"]["path"] == str(written.resolve())
    assert out["structuredContent"]["bytes"] == written.stat().st_size
    assert json.loads(written.read_text(encoding="utf-8"))["format"]
    assert sorted(p.name for p in box.sub.iterdir()) == ["p.molforma.json"]  # no temp left


# -- open_file ---------------------------------------------------------------------------------


def test_open_file_does_not_read_an_outside_file_through_a_swapped_folder(racing: Box) -> None:
    racing.unswap()
    (racing.sub / "m.xyz").write_text(INSIDE_XYZ, encoding="utf-8")
    (racing.outside / "m.xyz").write_text(OUTSIDE_XYZ, encoding="utf-8")
    server = _server(racing)
    doc_id, rev = _doc(server)
    res = _call(
        server,
        "open_file",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "path": str(racing.sub / "m.xyz"),
            "preview": False,
        },
    )
    assert res["isError"] is True, res
    assert res["structuredContent"]["code"] == "path_not_allowed"
    assert racing.swaps >= 1
    project = _call(server, "get_document", {"documentId": doc_id})
    assert MARKER not in json.dumps(project)
    assert project["structuredContent"]["project"]["document"]["atoms"] == []


def test_read_text_limited_inside_guarded_files_reads_only_the_judged_file(racing: Box) -> None:
    from molforma.fileio import guarded_files

    racing.unswap()
    (racing.sub / "m.xyz").write_text(INSIDE_XYZ, encoding="utf-8")
    (racing.outside / "m.xyz").write_text(OUTSIDE_XYZ, encoding="utf-8")
    policy = Policy(allow_dirs=(racing.allowed,))
    with guarded_files(policy), pytest.raises(FileAccessError) as exc:
        read_text_limited(racing.sub / "m.xyz")
    assert exc.value.code == "path_not_allowed"


# -- results -----------------------------------------------------------------------------------


def _wait_load(server: Server, doc_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = _call(server, "get_app_state", {})["structuredContent"]["results"].get(doc_id)
        last = (state or {}).get("lastLoad") or {}
        if last.get("status") in ("completed", "failed", "cancelled"):
            return state  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError("the load did not end")


@pytest.mark.parametrize("action,name", [("open_file", "out.xyz"), ("open_directory", None)])
def test_a_results_load_does_not_read_an_outside_file_through_a_swapped_folder(
    racing: Box, action: str, name: str | None
) -> None:
    racing.unswap()
    (racing.sub / "out.xyz").write_text(INSIDE_XYZ, encoding="utf-8")
    (racing.outside / "out.xyz").write_text(OUTSIDE_XYZ, encoding="utf-8")
    server = _server(racing)
    doc_id, rev = _doc(server)
    path = racing.sub / name if name else racing.sub
    res = _call(
        server,
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": action, "path": str(path)},
    )
    assert res["isError"] is False, res
    state = _wait_load(server, doc_id)
    assert state["lastLoad"]["status"] == "failed", state
    assert state["lastLoad"]["error"]["code"] == "path_not_allowed"
    assert state["source"] is None and state["counts"] is None
    assert racing.swaps >= 1


def test_read_results_with_the_guard_reads_the_judged_output_only(racing: Box) -> None:
    racing.unswap()
    shutil.copy(NWCHEM_DATA / "water_scf_optfreq.out", racing.sub / "output.out")
    text = (NWCHEM_DATA / "water_scf_optfreq.out").read_text(encoding="utf-8")
    (racing.outside / "output.out").write_text(text + MARKER + "\n", encoding="utf-8")
    policy = Policy(allow_dirs=(racing.allowed,))
    with pytest.raises(FileAccessError) as exc:
        read_results(racing.sub / "output.out", guard=policy.read_guard())
    assert exc.value.code == "path_not_allowed"


def test_the_log_section_reads_no_outside_file_through_a_swapped_folder(
    box: Box, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.results import get_section

    shutil.copy(NWCHEM_DATA / "water_scf_optfreq.out", box.sub / "output.out")
    text = (NWCHEM_DATA / "water_scf_optfreq.out").read_text(encoding="utf-8")
    (box.outside / "output.out").write_text(MARKER + "\n" + text, encoding="utf-8")
    policy = Policy(allow_dirs=(box.allowed,))
    res = read_results(box.sub / "output.out", guard=policy.read_guard())
    assert get_section(res, "log", limit=100)["text"]
    _race(box, monkeypatch)
    with pytest.raises(FileAccessError) as exc:
        get_section(res, "log", limit=100)
    assert exc.value.code == "path_not_allowed"
    box.unswap()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_the_log_section_of_a_file_replaced_by_a_named_pipe_fails_at_once(box: Box) -> None:
    from molforma.results import get_section

    shutil.copy(NWCHEM_DATA / "water_scf_optfreq.out", box.sub / "output.out")
    res = read_results(box.sub / "output.out")
    (box.sub / "output.out").unlink()
    os.mkfifo(box.sub / "output.out")
    outcome: list[str] = []

    def read() -> None:
        try:
            get_section(res, "log", limit=100)
        except FileAccessError as exc:
            outcome.append(exc.code)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(10)
    if t.is_alive():
        fd = os.open(box.sub / "output.out", os.O_RDWR | os.O_NONBLOCK)  # free the reader
        os.close(fd)
        pytest.fail("the log read blocked on a named pipe")
    assert outcome == ["not_regular_file"]


# -- named pipes -------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_at_once_by_every_reader(box: Box) -> None:
    fifo = box.sub / "pipe.out"
    os.mkfifo(fifo)
    policy = Policy(allow_dirs=(box.allowed,))
    done = threading.Event()
    errors: list[str] = []

    def read_all() -> None:
        for read in (
            lambda: read_text_limited(fifo),
            lambda: policy.open_for_read(fifo),
            lambda: read_results(fifo),
            lambda: read_results(fifo, guard=policy.read_guard()),
        ):
            try:
                read()
            except FileAccessError as exc:
                errors.append(exc.code)
        done.set()

    threading.Thread(target=read_all, daemon=True).start()
    if not done.wait(10):
        with open(fifo, "wb"):  # let a stuck reader go before failing
            pass
        pytest.fail("a reader blocked on the named pipe")
    assert errors == ["not_regular_file"] * 4


def test_atomic_write_leaves_the_old_file_or_the_new_one(box: Box) -> None:
    target = box.sub / "a" / "b.txt"
    atomic_write_text(target, "one\n")
    os.chmod(target, 0o640)
    atomic_write_text(target, "two\n")
    assert target.read_text(encoding="utf-8") == "two\n"
    assert target.stat().st_mode & 0o777 == 0o640  # the old file's mode is kept
    assert sorted(p.name for p in target.parent.iterdir()) == ["b.txt"]


# -- the window's opens while MCP drives it ----------------------------------------------------


class _App:
    """The application state open_path needs: a document and the policy."""

    def __init__(self, policy: Policy) -> None:
        from molforma.document.document import Document
        from molforma.preferences import Preferences

        self.document = Document()
        self.preferences = Preferences()
        self.policy: Policy | None = policy

    def set_document(self, document: Any) -> None:
        self.document = document

    @property
    def jobs(self) -> Any:
        return None


def test_a_window_open_driven_by_mcp_reads_no_outside_file_through_a_swapped_folder(
    racing: Box,
) -> None:
    from molforma.app.actor import Actor
    from molforma.app.files import load_structure, open_path

    racing.unswap()
    (racing.sub / "m.xyz").write_text(INSIDE_XYZ, encoding="utf-8")
    (racing.outside / "m.xyz").write_text(OUTSIDE_XYZ, encoding="utf-8")
    app = _App(Policy(allow_dirs=(racing.allowed,)))
    for call in (open_path, load_structure):
        with pytest.raises(FileAccessError) as exc:
            call(app, str(racing.sub / "m.xyz"), actor=Actor.MCP_WINDOW)
        assert exc.value.code == "path_not_allowed"
    assert MARKER not in json.dumps(app.document.project)
    # The person's own open is not limited (and reads through the link).
    racing.swap()
    opened = open_path(app, str(racing.sub / "m.xyz"), actor=Actor.PERSON)
    assert opened is not None and opened.kind == "structure"
