"""The command line of docs/reference/cli.md: --version, --help and option checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from molforma import __version__


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "molforma", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
    )


def test_version_prints_the_package_version() -> None:
    res = run("--version")
    assert res.returncode == 0
    assert res.stdout.strip() == f"molforma {__version__}"


def test_help_lists_the_modes_and_the_script_commands() -> None:
    res = run("--help")
    assert res.returncode == 0
    for word in (
        "--mcp",
        "--mcp-gui",
        "--mcp-allow-dir",
        "--mcp-allow-execution-settings",
        "--screenshot",
        "molforma convert",
        "molforma results",
    ):
        assert word in res.stdout


def test_a_missing_allowed_directory_refuses_to_start_with_status_2(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    res = run("--mcp", "--mcp-allow-dir", str(missing))
    assert res.returncode == 2
    assert "nope" in res.stderr and "no such directory" in res.stderr
    assert res.stdout == ""


def test_mcp_and_mcp_gui_cannot_be_combined() -> None:
    res = run("--mcp", "--mcp-gui")
    assert res.returncode == 2
    assert "not allowed with" in res.stderr


def test_tab_without_screenshot_is_a_usage_error() -> None:
    res = run("--tab", "history", env={"QT_QPA_PLATFORM": "offscreen"})
    assert res.returncode == 2
    assert "--screenshot" in res.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--mcp"],
        ["--mcp", "--mcp-allow-dir", "/tmp", "--mcp-allow-execution-settings"],
        ["--mcp-allow-dir=/tmp", "--mcp", "--mcp-allow-dir", "/work", "--mcp"],
        ["--mcp", "--mcp-allow-dir="],
    ],
)
def test_a_plain_mcp_launch_is_read_as_argparse_reads_it(args: list[str]) -> None:
    from molforma.cli import _plain_mcp_args, build_parser

    quick = _plain_mcp_args(args)
    assert quick is not None
    assert vars(quick) == vars(build_parser().parse_args(args))


@pytest.mark.parametrize(
    "args",
    [
        ["--mcp", "--mcp-allow-d", "/tmp"],
        ["--mcp", "water.xyz"],
        ["--mcp", "--mcp-allow-dir"],
        ["--mcp", "--mcp-allow-dir", "--mcp"],
        ["--mcp-gui"],
        ["--mcp", "--mcp-gui"],
        [],
    ],
)
def test_any_other_command_line_is_left_to_argparse(args: list[str]) -> None:
    from molforma.cli import _plain_mcp_args

    assert _plain_mcp_args(args) is None
