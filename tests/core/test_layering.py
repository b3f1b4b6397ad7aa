"""The layering holds: no Qt outside molforma/gui, the import-linter contracts, mypy."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "molforma"
QT_MODULES = ("PySide6", "pyqtgraph", "shiboken6", "OpenGL", "molforma.gui")


def test_no_module_outside_gui_imports_qt_in_its_source() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if "gui" in path.relative_to(PACKAGE).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                if n.startswith(QT_MODULES) and not (
                    path.name == "cli.py" and n == "molforma.gui.launch"
                ):
                    offenders.append(f"{path.relative_to(PACKAGE)}: {n}")
    assert offenders == []


def test_importing_the_core_and_the_server_loads_no_qt() -> None:
    code = (
        "import sys, importlib\n"
        "from molforma.i18n import core_module_names\n"
        "for name in core_module_names():\n"
        "    importlib.import_module(name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')]\n"
        "assert not bad, bad\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


ROOT = PACKAGE.parent
BIN = Path(sys.executable).parent


def _run_tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    exe = BIN / name
    assert exe.exists(), f"{exe} is missing: scripts/setup.sh installs it with the test extras"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [str(exe), *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )


def test_import_contracts_of_pyproject_hold() -> None:
    # Qt only under molforma/gui, the layer order, and no import circles inside a package.
    res = _run_tool("lint-imports", "--no-cache")
    assert res.returncode == 0, f"lint-imports failed:\n{res.stdout}\n{res.stderr}"


def test_mypy_passes_strict_outside_the_window() -> None:
    res = _run_tool("mypy", "--cache-dir", str(ROOT / ".mypy_cache"))
    assert res.returncode == 0, f"mypy failed:\n{res.stdout}\n{res.stderr}"
