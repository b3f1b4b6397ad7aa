"""File > New of the window under --mcp-gui --mcp-allow-dir: the new project's job root
lies inside the first allowed directory (MCP's policy is the window context's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from molforma.app.policy import Policy


def test_file_new_with_allowed_dirs_puts_the_job_root_inside(
    make_main_window: Any, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    win = make_main_window(mcp_mode=True)
    win.ctx.policy = Policy(allow_dirs=(work,))  # as molforma.gui.mcp_host sets it
    win.file_new()
    assert win.ctx.document.project["execution"]["job_root"] == str(
        work.resolve() / "molforma-jobs"
    )


def test_file_new_without_mcp_keeps_the_default(make_main_window: Any) -> None:
    win = make_main_window()
    win.file_new()
    assert win.ctx.document.project["execution"]["job_root"] == "~/molforma-jobs"
