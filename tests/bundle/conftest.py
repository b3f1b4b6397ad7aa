"""The Linux bundle as a user runs it: unpacked from its tarball, no Python on PATH.

``MOLFORMA_BUNDLE_DIR`` names an unpacked bundle (the folder holding the ``molforma``
program) to test; when it is not set, the session builds one with
``scripts/build_bundle.sh`` (about a minute) and unpacks the tarball it made. Either way a
broken bundle fails these tests: nothing here is skipped for a bundle that does not work.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import shutil
import subprocess
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import molforma
from tests.mcp.conftest import McpProcess
from tests.paths import REPO

# The system programs a bundle's user has and MolForma may start: NWChem and Open MPI's
# launcher, with what Open MPI looks for on PATH when NWChem starts alone (its daemon
# orted, and ssh or rsh, which its launcher wants to find even on one machine). Nothing
# else is on PATH, so no Python interpreter can be found there.
SYSTEM_TOOLS = ("nwchem", "mpirun", "mpiexec", "orted", "ssh", "rsh")


@pytest.fixture(scope="session")
def bundle_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The unpacked bundle's folder (``.../molforma``, holding the ``molforma`` program)."""
    given = os.environ.get("MOLFORMA_BUNDLE_DIR")
    if given:
        folder = Path(given).resolve()
        if not (folder / "molforma").is_file():
            pytest.fail(f"MOLFORMA_BUNDLE_DIR={given} holds no molforma program")
        return folder
    build = subprocess.run(
        ["bash", str(REPO / "scripts" / "build_bundle.sh")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=1500,
        check=False,
    )
    if build.returncode != 0:
        pytest.fail("scripts/build_bundle.sh failed:\n" + build.stderr[-4000:])
    tarball = REPO / "dist" / f"molforma-{molforma.__version__}-linux-x86_64.tar.gz"
    assert tarball.is_file(), build.stderr[-2000:]
    target = tmp_path_factory.mktemp("bundle")
    with tarfile.open(tarball) as tar:
        names = tar.getnames()
        assert all(n == "molforma" or n.startswith("molforma/") for n in names), names[:5]
        tar.extractall(target, filter="tar")
    return target / "molforma"


@pytest.fixture(scope="session")
def program(bundle_dir: Path) -> Path:
    """The bundle's executable."""
    exe = bundle_dir / "molforma"
    assert os.access(exe, os.X_OK), exe
    return exe


@pytest.fixture
def bundle_env(tmp_path: Path) -> dict[str, str]:
    """A user's environment without Python: PATH is one folder holding links to the system
    tools MolForma runs; no PYTHONPATH, PYTHONHOME or VIRTUAL_ENV; own config and home."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in SYSTEM_TOOLS:
        found = shutil.which(name)
        if found:
            (bin_dir / name).symlink_to(found)
    home = tmp_path / "home"
    config = tmp_path / "config"
    home.mkdir()
    config.mkdir()
    env = {
        "PATH": str(bin_dir),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "MOLFORMA_CONFIG_DIR": str(config),
        "MOLFORMA_LANGUAGE": "en",
        "TMPDIR": str(tmp_path),
    }
    for name in ("python3", "python", "python3.11"):
        assert shutil.which(name, path=env["PATH"]) is None, name
    return env


class BundleMcp(McpProcess):
    """``molforma --mcp`` of the bundle, spoken to with the MCP tests' helpers."""

    def __init__(
        self, program: Path, args: list[str], env: dict[str, str], cwd: Path, flag: str = "--mcp"
    ) -> None:
        # McpProcess starts ``python -m molforma``; this one starts the bundle's program
        # and keeps the same readers, so every helper of tests/mcp works on it.
        self.proc = subprocess.Popen(
            [str(program), flag, *args],
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


@pytest.fixture
def bundle_server(program: Path, bundle_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    """Factory: ``bundle_server(*args, env=..., flag=...)`` starts the bundle's MCP server
    (``--mcp``, or ``--mcp-gui`` for the window); all are closed at the end."""
    procs: list[BundleMcp] = []

    def start(*args: str, env: dict[str, str] | None = None, flag: str = "--mcp") -> BundleMcp:
        p = BundleMcp(program, list(args), {**bundle_env, **(env or {})}, tmp_path, flag)
        procs.append(p)
        return p

    yield start
    for p in procs:
        if p.proc.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.close(10.0)
        p.release()
