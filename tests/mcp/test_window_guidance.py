"""The window mode tells an agent how the window works (instructions and prompts)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mcp.conftest import GUI_ENV, McpProcess

pytest.importorskip("PySide6")


def _instructions(server: McpProcess) -> str:
    return str(server.result("server/discover", {})["instructions"])


def _build_prompt(server: McpProcess) -> str:
    got = server.result(
        "prompts/get", {"name": "build_molecule", "arguments": {"molecule": "ethanol"}}
    )
    return str(got["messages"][0]["content"]["text"])


def test_the_window_mode_describes_the_window_workflow(spawn: Any) -> None:
    window = spawn(env=GUI_ENV, flag="--mcp-gui")
    text = _instructions(window)
    for words in (
        "get_ui",
        "drivable",
        "get_ui_command",
        "failed",
        "ui_file_dialog",
        "chemistry smiles",
        "Results tab",
    ):
        assert words in text, words
    prompt = _build_prompt(window)
    assert "chemistry tool (action smiles)" in prompt and "get_ui_command" in prompt


def test_the_headless_mode_does_not_speak_of_a_window(spawn: Any) -> None:
    headless = spawn()
    text = _instructions(headless)
    assert "list_documents" in text and "get_ui" not in text
    for words in ("format smiles", "cleanup", "use_structure"):
        assert words in text, words
    prompt = _build_prompt(headless)
    assert "add_atoms" in prompt and "format smiles" in prompt and "chemistry" not in prompt
