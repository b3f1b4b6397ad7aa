"""The wheel built from this checkout, installed into a fresh virtual environment outside it.

Built once per session: the checkout is copied (without its .venv, build and caches, so
a stale ``build/`` or a concurrent build cannot leak into the wheel) and ``pip wheel``
builds it with build isolation, as a user's ``pip wheel .`` or ``python -m build`` would.
A new venv is made outside the checkout and the wheel installed into it by pip (``--python``,
before the venv can see anything else, so it is a clean install). Only then does one
``.pth`` line let the new venv reach the third-party packages of the checkout's venv, so
PySide6, RDKit and the rest are not downloaded again. A path named in a ``.pth`` file is
put on ``sys.path`` but its own ``.pth`` files are not read, so the checkout's editable
install (a ``.pth`` there) stays out: ``import molforma`` finds only the installed copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.paths import REPO

# Not part of what a user builds from: the developer's environment and caches.
_NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "__pycache__",
    "*.egg-info",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
)


@dataclass
class Installed:
    """The built wheel and the venv it is installed in."""

    wheel: Path
    venv: Path
    home: Path  # an empty folder outside the checkout: the user's cwd and HOME
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def molforma(self) -> Path:
        return self.venv / "bin" / "molforma"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def env(self, **extra: str) -> dict[str, str]:
        """A user's environment: the venv's bin on PATH, no Python variables of the tests."""
        env = {
            k: v
            for k, v in os.environ.items()
            if k
            not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONSAFEPATH")
        }
        config = self.home / ".config" / "molforma"
        config.mkdir(parents=True, exist_ok=True)
        env.update(
            PATH=str(self.venv / "bin") + os.pathsep + env.get("PATH", ""),
            HOME=str(self.home),
            MOLFORMA_CONFIG_DIR=str(config),
            MOLFORMA_LANGUAGE="en",
            QT_QPA_PLATFORM="offscreen",
            MOLFORMA_RENDERER="painter",
        )
        env.update(extra)
        return env

    def run(
        self,
        *args: str,
        timeout: float = 120,
        **env: str,
    ) -> subprocess.CompletedProcess[str]:
        """``molforma ARGS`` from the user's folder, as a user types it."""
        return subprocess.run(
            [str(self.molforma), *args],
            cwd=self.home,
            env=self.env(**env),
            capture_output=True,
            text=True,
            timeout=timeout,
        )


def _step(seconds: dict[str, float], name: str, argv: list[str]) -> None:
    t0 = time.monotonic()
    res = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    seconds[name] = time.monotonic() - t0
    assert res.returncode == 0, f"{name} failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("installed_wheel")
    assert REPO not in base.parents and base != REPO
    seconds: dict[str, float] = {}
    source = base / "source"
    t0 = time.monotonic()
    shutil.copytree(REPO, source, ignore=_NOT_SOURCE, symlinks=True)
    seconds["copy"] = time.monotonic() - t0
    dist = base / "dist"
    _step(
        seconds,
        "pip wheel",
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(source)],
    )
    (wheel,) = dist.glob("molforma-*.whl")
    venv = base / "venv"
    _step(seconds, "venv", [sys.executable, "-m", "venv", "--without-pip", str(venv)])
    new_python = venv / "bin" / "python"
    _step(
        seconds,
        "pip install",
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(new_python),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
    )
    # The third-party packages of the checkout's venv, and nothing of the checkout itself.
    purelib = Path(sysconfig.get_paths()["purelib"])
    platlib = Path(sysconfig.get_paths()["platlib"])
    site = Path(
        subprocess.run(
            [str(new_python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "_checkout_venv_packages.pth").write_text(
        "".join(f"{p}\n" for p in dict.fromkeys([purelib, platlib])), encoding="utf-8"
    )
    home = base / "home"
    home.mkdir()
    yield Installed(wheel=wheel, venv=venv, home=home, seconds=seconds)


@pytest.fixture(scope="session")
def wheel_names(installed: Installed) -> set[str]:
    with zipfile.ZipFile(installed.wheel) as zf:
        return set(zf.namelist())
