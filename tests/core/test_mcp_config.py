"""``molforma --mcp-config``: the entry an MCP client needs, pointing at this program.

Each printed entry is taken at its word: the command it names is started with the
arguments it names, and it must answer ``server/discover`` over stdio.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).with_name("molforma")  # the installed console script
DISCOVER = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "server/discover",
    "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    },
}


def config(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), "--mcp-config", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


def answers_discover(command: list[str], tmp_path: Path) -> dict[str, object]:
    env = {**os.environ, "MOLFORMA_CONFIG_DIR": str(tmp_path / "cfg")}
    env.pop("PYTHONPATH", None)  # the entry must work as a client starts it
    res = subprocess.run(
        command,
        input=json.dumps(DISCOVER) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd="/",
        env=env,
    )
    reply = json.loads(res.stdout.splitlines()[0])
    assert reply["id"] == 1, res.stderr
    return reply["result"]


def test_the_json_entry_names_this_program_by_absolute_path_and_it_answers(tmp_path: Path) -> None:
    assert SCRIPT.is_file()
    allowed = tmp_path / "calcs"
    allowed.mkdir()
    res = config("json", "--mcp-allow-dir", "calcs", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    entry = json.loads(res.stdout)["mcpServers"]["molforma"]
    assert Path(entry["command"]).is_absolute() and Path(entry["command"]) == SCRIPT
    assert entry["args"] == ["--mcp", "--mcp-allow-dir", str(allowed.resolve())]
    found = answers_discover([entry["command"], *entry["args"]], tmp_path)
    assert "2026-07-28" in found["supportedVersions"]


def test_the_claude_and_codex_entries_start_the_same_program(tmp_path: Path) -> None:
    claude = config("claude", "--mcp-allow-execution-settings", cwd=tmp_path)
    assert claude.returncode == 0, claude.stderr
    words = shlex.split(claude.stdout)
    assert words[:4] == ["claude", "mcp", "add", "molforma"] and words[4] == "--"
    assert words[5:] == [str(SCRIPT), "--mcp", "--mcp-allow-execution-settings"]
    answers_discover(words[5:], tmp_path)
    codex = config("codex", "--mcp-gui", cwd=tmp_path)
    assert codex.returncode == 0, codex.stderr
    server = tomllib.loads(codex.stdout)["mcp_servers"]["molforma-window"]
    assert server["command"] == str(SCRIPT) and server["args"] == ["--mcp-gui"]
    assert "DISPLAY" in server["env_vars"]  # the window needs the desktop session


@pytest.mark.parametrize(
    "args", [("yaml",), ("json", "--mcp-allow-dir", "/no/such/dir"), ("json", "water.xyz")]
)
def test_a_wrong_request_is_a_clear_error_and_prints_no_entry(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    res = config(*args, cwd=tmp_path)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip() and "Traceback" not in res.stderr


def test_run_as_a_module_the_entry_starts_the_module_with_this_python(tmp_path: Path) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "molforma", "--mcp-config", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    entry = json.loads(res.stdout)["mcpServers"]["molforma"]
    assert entry["command"] == str(Path(sys.executable).absolute())
    assert entry["args"] == ["-m", "molforma", "--mcp"]
    answers_discover([entry["command"], *entry["args"]], tmp_path)
