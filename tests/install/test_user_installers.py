"""The wheel installed the way README's Install section tells a user: ``pipx install`` and
``uv tool install``, each into folders of its own, then run as the command it put on PATH.

pipx and uv come from the package index into a small venv of this test (not into the
checkout's venv: pipx pins a newer ``packaging`` than PSI/J accepts). Each installer
resolves MolForma's dependencies itself, as on a user's machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from molforma import __version__
from tests.install.conftest import Installed
from tests.mcp.conftest import meta

# Without these a user's installer could not run at all: a failure, not a skip.
INSTALLERS = ("pipx", "uv")


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding pipx and uv, made with the Python the checkout's venv was made from."""
    venv = tmp_path_factory.mktemp("installers") / "venv"
    base_python = Path(sys.base_prefix) / "bin" / "python3"
    subprocess.run([str(base_python), "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "pipx",
            "uv",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return venv


def _install(installer: str, tools: Path, wheel: Path, root: Path) -> tuple[Path, dict[str, str]]:
    """Install ``wheel`` with ``installer`` under ``root``: (the molforma it made, env)."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    }
    bin_dir = root / "bin"
    base_python = str(Path(sys.base_prefix) / "bin" / "python3")
    if installer == "pipx":
        env.update(
            PIPX_HOME=str(root / "pipx"),
            PIPX_BIN_DIR=str(bin_dir),
            PIPX_MAN_DIR=str(root / "man"),
            PIPX_DEFAULT_PYTHON=base_python,
        )
        argv = [str(tools / "bin" / "pipx"), "install", str(wheel)]
    else:
        env.update(UV_TOOL_DIR=str(root / "uv-tools"), UV_TOOL_BIN_DIR=str(bin_dir))
        argv = [str(tools / "bin" / "uv"), "tool", "install", "--python", base_python, str(wheel)]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900, cwd=root)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    home = root / "home"
    (home / ".config" / "molforma").mkdir(parents=True)
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        HOME=str(home),
        MOLFORMA_CONFIG_DIR=str(home / ".config" / "molforma"),
    )
    return bin_dir / "molforma", env


@pytest.mark.slow
@pytest.mark.parametrize("installer", INSTALLERS)
def test_the_installers_readme_names_give_a_working_molforma_command(
    installer: str, tools: Path, installed: Installed, tmp_path: Path
) -> None:
    program, env = _install(installer, tools, installed.wheel, tmp_path)
    home = Path(env["HOME"])
    version = subprocess.run(
        [str(program), "--version"],
        env=env,
        cwd=home,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert version.stdout.strip() == f"molforma {__version__}"
    # The client entry names the command the installer made, by absolute path.
    config = json.loads(
        subprocess.run(
            [str(program), "--mcp-config", "json"],
            env=env,
            cwd=home,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
    )
    (entry,) = config["mcpServers"].values()
    assert Path(entry["command"]) == program and entry["args"][0] == "--mcp"
    # The server answers over stdio and lists its 27 tools; EOF ends it.
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta()}},
    ]
    served = subprocess.run(
        [str(program), "--mcp"],
        env=env,
        cwd=home,
        timeout=120,
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
    )
    assert served.returncode == 0, served.stderr[-2000:]
    answers = {m["id"]: m for m in map(json.loads, served.stdout.splitlines())}
    info = answers[1]["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]
    assert info == {"name": "molforma", "version": __version__}
    assert len(answers[2]["result"]["tools"]) == 27
    assert "Traceback" not in served.stderr
