"""The lazy-import helper (molforma.lazy) and the deferred imports declared with it."""

from __future__ import annotations

import ast
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from molforma.lazy import lazy_import

PACKAGE = Path(__file__).resolve().parents[2] / "molforma"
# Imports that cost start-up time; in these packages they are declared with lazy_import.
# pyqtgraph, OpenGL, PySCF and scikit-image are the window's plots, its OpenGL bindings and
# the orbitals extra.
HEAVY = (
    "numpy",
    "scipy",
    "rdkit",
    "pydantic",
    "psij",
    "pyqtgraph",
    "OpenGL",
    "pyscf",
    "skimage",
)
# Packages of molforma/, and "*.py" for the modules at the top of the package.
LAZY_PACKAGES = (
    "nwchem",
    "history",
    "results",
    "formats",
    "document",
    "jobs",
    "subcommands",
    "app",
    "mcp",
    "gui",
    "*.py",
)
# Heavy imports that stay inside their function, each for a reason molforma.lazy names.
KEPT_INSIDE = {
    # psij is an optional dependency: _psij turns its ImportError into psij_missing.
    "batch.py psij",
    "batch.py psij.executors.batch.slurm",
    # molforma --mcp's first answers load neither molforma.lazy nor importlib, so the
    # modules on that path (protocol, tool_calls) keep pydantic inside the functions that
    # need it: the wire models' check, a tool's arguments and its result.
    "protocol.py pydantic",
    "tool_calls.py pydantic",
    # PySCF and scikit-image are the optional orbitals extra: _molden_module imports them
    # under a lock and turns their ImportError into orbitals_unavailable; potential_at and
    # isosurfaces run on orbitals read through it, when both are loaded.
    "orbitals.py pyscf",
    "orbitals.py skimage.measure",
    # The imports molforma.gui keeps inside their function are none of these: the OpenGL
    # canvas (view3d.opengl, whose ImportError selects the painter), the NWChem input
    # checker (whose ImportError the preview reports), gui.app's set_language, the jobs'
    # batch module imported on the GUI thread, and launch_window's start-up sequence.
}


@pytest.fixture
def probe_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "lazy_probe_mod.py").write_text(
        "import sys\nsys.lazy_probe_imports = getattr(sys, 'lazy_probe_imports', 0) + 1\n"
        "VALUE = 42\n\ndef double(x):\n    return 2 * x\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "lazy_probe_imports", 0, raising=False)
    yield "lazy_probe_mod"
    sys.modules.pop("lazy_probe_mod", None)


def test_the_module_is_imported_at_the_first_attribute_read(probe_module: str) -> None:
    mod = lazy_import(probe_module)
    assert sys.lazy_probe_imports == 0  # type: ignore[attr-defined]
    assert probe_module not in sys.modules
    assert mod.VALUE == 42 and mod.double(4) == 8
    assert sys.lazy_probe_imports == 1  # type: ignore[attr-defined]
    assert mod.VALUE == 42
    assert sys.lazy_probe_imports == 1  # type: ignore[attr-defined]


def test_an_imported_module_is_given_as_it_is() -> None:
    import json

    assert lazy_import("json") is json


def test_threads_reading_at_once_import_once(probe_module: str) -> None:
    mod = lazy_import(probe_module)
    start = threading.Barrier(8)
    seen: list[int] = []

    def read() -> None:
        start.wait()
        seen.append(mod.VALUE)

    threads = [threading.Thread(target=read) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [42] * 8
    assert sys.lazy_probe_imports == 1  # type: ignore[attr-defined]


def test_a_missing_module_fails_at_its_first_use() -> None:
    mod = lazy_import("molforma_no_such_module")
    with pytest.raises(ModuleNotFoundError):
        _ = mod.anything


def test_the_deferred_imports_stay_deferred() -> None:
    """Importing the NWChem input writer and the results readers loads no numpy."""
    code = (
        "import sys\n"
        "import molforma.nwchem.input, molforma.nwchem.constraints\n"
        "import molforma.results.formats, molforma.results.scan_profile\n"
        "assert 'numpy' not in sys.modules, 'numpy imported at start-up'\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


def test_the_document_and_the_jobs_package_load_no_heavy_module() -> None:
    """The document, its checks and clean-up, the catalogues and the jobs package import
    numpy, RDKit and pydantic when a function first needs them, not with the module."""
    code = (
        "import sys\n"
        "import molforma.document.document, molforma.document.envelope\n"
        "import molforma.document.cleanup, molforma.document.elements, molforma.catalog\n"
        "import molforma.jobs, molforma.jobs.run_outcome, molforma.jobs.folders\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'rdkit', 'pydantic'})\n"
        "assert not heavy, f'imported at start-up: {heavy}'\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


def test_the_tool_modules_and_the_application_layer_load_no_numpy_or_rdkit() -> None:
    """The MCP tool modules, the resources and the application layer's files, SMILES,
    building and run checks import numpy and RDKit when a function first needs them."""
    code = (
        "import sys\n"
        "import molforma.mcp.tools.document_tools, molforma.mcp.tools.calculation\n"
        "import molforma.mcp.tools.results, molforma.mcp.tools.window_submit\n"
        "import molforma.mcp.resources, molforma.mcp.tool_registry\n"
        "import molforma.app.files, molforma.app.smiles, molforma.app.building_ops\n"
        "import molforma.app.runs, molforma.app.computed_structures\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'rdkit', 'scipy'})\n"
        "assert not heavy, f'imported at start-up: {heavy}'\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


def test_the_window_module_loads_no_plot_orbital_or_chemistry_library() -> None:
    """Importing the main window loads pyqtgraph, OpenGL, PySCF, scikit-image, SciPy and
    RDKit when a plot, a canvas, an orbital or a chemistry check first needs them."""
    code = (
        "import os, sys\n"
        "os.environ.setdefault('QT_QPA_PLATFORM', 'offscreen')\n"
        "import molforma.gui.main_window, molforma.gui.launch\n"
        "late = {'pyqtgraph', 'OpenGL', 'pyscf', 'skimage', 'scipy', 'rdkit'}\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & late)\n"
        "assert not heavy, f'imported with the window module: {heavy}'\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


def _function_level_heavy_imports(path: Path) -> list[str]:
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(func):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            found += [f"{path.name} {n}" for n in names if n.split(".")[0] in HEAVY]
    return found


def test_heavy_imports_of_these_packages_are_declared_at_the_top() -> None:
    paths = [
        p
        for name in LAZY_PACKAGES
        for p in (PACKAGE.glob(name) if name.endswith(".py") else (PACKAGE / name).rglob("*.py"))
    ]
    # fragments.py is the document model's new module (another change of this round).
    found = {
        hit for p in paths if p.name != "fragments.py" for hit in _function_level_heavy_imports(p)
    }
    assert found - KEPT_INSIDE == set(), "declare them with molforma.lazy.lazy_import"
    assert found >= KEPT_INSIDE, "an allowed import left its function: drop it from KEPT_INSIDE"
