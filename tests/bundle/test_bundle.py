"""The Linux bundle (scripts/build_bundle.sh) run as a user runs it, with no Python on PATH.

Each test starts the unpacked bundle's ``molforma`` program (see conftest.py) in an
environment whose PATH holds only NWChem and Open MPI's launcher.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import molforma
from molforma.mcp.tool_registry import tools_for
from tests.mcp.conftest import TASKS, run_window_command, wait_until
from tests.paths import DATA

TASK_CAPS = {"extensions": {TASKS: {}}}
WATER_XYZ = "3\nwater\nO 0.0 0.0 0.1173\nH 0.0 0.7572 -0.4692\nH 0.0 -0.7572 -0.4692\n"


def run(
    program: Path, env: dict[str, str], *args: str, timeout: float = 120, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(program), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        check=False,
    )


def test_the_environment_has_no_python(bundle_env: dict[str, str]) -> None:
    assert shutil.which("python3", path=bundle_env["PATH"]) is None
    assert not {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"} & set(bundle_env)


def test_version(program: Path, bundle_env: dict[str, str]) -> None:
    proc = run(program, bundle_env, "--version")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"molforma {molforma.__version__}"


def test_mcp_config_names_the_bundle_program_and_the_entry_starts(
    program: Path, bundle_env: dict[str, str], tmp_path: Path
) -> None:
    """The client entry the bundle prints starts the bundle itself, by absolute path."""
    proc = run(program, bundle_env, "--mcp-config", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    entry = json.loads(proc.stdout)["mcpServers"]["molforma"]
    assert entry["command"] == str(program.resolve()) and entry["args"] == ["--mcp"]
    started = subprocess.run(
        [entry["command"], *entry["args"]],
        env=bundle_env,
        input='{"jsonrpc":"2.0","id":1,"method":"server/discover",'
        '"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":'
        '"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}\n',
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert '"supportedVersions"' in started.stdout, started.stderr


def test_bundle_is_within_its_size_budget(bundle_dir: Path) -> None:
    # The budget scripts/build_bundle.sh checks (docs/install.md: Linux bundle), counted as unpacked.
    size = sum(p.lstat().st_size for p in bundle_dir.rglob("*") if not p.is_dir())
    assert size <= 350_000_000, f"{size / 1e6:.0f} MB"


def test_bundle_holds_only_the_qt_it_uses(bundle_dir: Path) -> None:
    internal = bundle_dir / "_internal"
    qt_modules = sorted(p.name.split(".")[0] for p in (internal / "PySide6").glob("Qt*.so"))
    assert qt_modules == ["QtCore", "QtGui", "QtOpenGL", "QtOpenGLWidgets", "QtTest", "QtWidgets"]
    platforms = sorted(
        p.name for p in (internal / "PySide6" / "Qt" / "plugins" / "platforms").iterdir()
    )
    assert platforms == ["libqoffscreen.so", "libqxcb.so"]
    for unwanted in (
        "libQt6WebEngineCore.so.6",
        "libQt6Quick.so.6",
        "libQt6Qml.so.6",
        "libQt6Multimedia.so.6",
        "libQt63DCore.so.6",
    ):
        assert not (internal / unwanted).exists(), unwanted
    # MolForma's data, where molforma.paths looks in the bundle.
    assert sorted(p.name for p in (internal / "translations").glob("*.qm"))
    assert (internal / "resources").is_dir() and list((internal / "resources").glob("*.json"))
    assert (internal / "molforma" / "mcp" / "tool_index.json").is_file()


def test_mcp_answers_discover_and_lists_every_headless_tool(bundle_server: Any) -> None:
    server = bundle_server()
    t0 = time.perf_counter()
    discover = server.result("server/discover", {}, timeout=60)
    elapsed = time.perf_counter() - t0
    assert "2026-07-28" in discover["supportedVersions"]
    assert "MolForma" in discover["instructions"]
    # The server never loads Qt (PyInstaller's own start-up hook for PySide6 would).
    maps = Path(f"/proc/{server.proc.pid}/maps").read_text()
    assert "libQt6Core" not in maps and "shiboken6" not in maps
    tools = server.result("tools/list", {})["tools"]
    expected = sorted(spec.name for spec in tools_for("headless"))
    assert len(tools) == 27
    assert sorted(t["name"] for t in tools) == expected
    # A bundle that starts as slowly as a cold Python would make every client wait.
    assert elapsed < 10, elapsed
    assert server.close() == 0


def _smiles(server: Any, smiles: str) -> tuple[str, str]:
    """RDKit in the bundle: a SMILES becomes the document's confirmed 3D structure."""
    doc_id, rev = server.doc()
    made = server.ok(
        "import_document",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "text": smiles,
            "format": "smiles",
            "preview": False,
        },
    )
    return doc_id, made["revision"]


def test_mcp_builds_and_exports_a_molecule(bundle_server: Any) -> None:
    server = bundle_server()
    doc_id, _ = _smiles(server, "CCO")
    mol = server.ok("export_document", {"documentId": doc_id, "format": "mol"})["text"]
    assert "V2000" in mol or "V3000" in mol
    assert sorted(a["element"] for a in server.project(doc_id)["document"]["atoms"]) == [
        "C",
        "C",
        "H",
        "H",
        "H",
        "H",
        "H",
        "H",
        "O",
    ]


def test_cleanup_child_runs_from_the_bundle(bundle_server: Any) -> None:
    """The force-field clean-up runs in a child the program starts as ``-m MODULE``."""
    server = bundle_server()
    doc_id, rev = _smiles(server, "CCO")
    atoms = server.project(doc_id)["document"]["atoms"]
    oxygen = next(a for a in atoms if a["element"] == "O")
    moved = server.ok(
        "move_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atomIds": [oxygen["id"]],
            "translate": [0.8, 0.0, 0.0],
            "preview": False,
        },
    )
    sc = server.ok(
        "move_atoms",
        {"documentId": doc_id, "expectedRevision": moved["revision"], "cleanup": True},
        timeout=120,
    )
    info = sc["info"]["cleanup"]
    assert info["energyAfter"] < info["energyBefore"] - 10, info


def _screenshot(
    program: Path, env: dict[str, str], tmp_path: Path, **extra: str
) -> tuple[subprocess.CompletedProcess[str], Path]:
    src = tmp_path / "water.xyz"
    src.write_text(WATER_XYZ)
    out = tmp_path / "shot.png"
    proc = run(program, {**env, **extra}, str(src), "--screenshot", str(out), timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc, out


def _assert_drawn(png: Path) -> None:
    """The picture is a PNG of the window whose molecule view drew the red oxygen."""
    from PySide6.QtGui import QImage

    image = QImage(str(png))
    assert not image.isNull() and image.width() >= 400 and image.height() >= 300
    reds = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            c = image.pixelColor(x, y)
            if c.red() > 180 and c.green() < 90 and c.blue() < 90:
                reds += 1
    assert reds > 50, reds


def test_screenshot_renders_offscreen(
    program: Path, bundle_env: dict[str, str], tmp_path: Path, qapp: Any
) -> None:
    # MOLFORMA_RENDERER unset: the view picks its renderer (QPainter, as offscreen has no GL).
    _, out = _screenshot(program, bundle_env, tmp_path, QT_QPA_PLATFORM="offscreen")
    _assert_drawn(out)


@pytest.fixture
def xvfb_display(tmp_path: Path) -> Iterator[str]:
    """A private X server (Xvfb) for the bundle's xcb platform; its ``DISPLAY``."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb; CI has it)")
    read, write = os.pipe()
    proc = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as f:
            number = f.readline().strip()
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(10)


def test_window_draws_with_opengl_on_x11(
    program: Path, bundle_env: dict[str, str], tmp_path: Path, xvfb_display: str, qapp: Any
) -> None:
    """The bundle's xcb platform and GL integration with the system's OpenGL (Mesa)."""
    # The dynamic loader names every library it starts: Mesa's GLX driver shows that the
    # view drew through OpenGL.
    proc, out = _screenshot(
        program, bundle_env, tmp_path, DISPLAY=xvfb_display, QT_QPA_PLATFORM="xcb", LD_DEBUG="files"
    )
    assert "no usable OpenGL context" not in proc.stderr
    assert "libGLX_mesa.so" in proc.stderr
    _assert_drawn(out)


def test_window_falls_back_to_qpainter_without_a_gl_context(
    program: Path, bundle_env: dict[str, str], tmp_path: Path, xvfb_display: str, qapp: Any
) -> None:
    """An X display on which Qt can make no OpenGL context: the view draws with QPainter."""
    proc, out = _screenshot(
        program,
        bundle_env,
        tmp_path,
        DISPLAY=xvfb_display,
        QT_QPA_PLATFORM="xcb",
        QT_XCB_GL_INTEGRATION="none",
        LD_DEBUG="files",
    )
    assert "no usable OpenGL context; using the QPainter renderer" in proc.stderr
    assert "libGLX_mesa.so" not in proc.stderr
    _assert_drawn(out)


def test_results_tab_draws_its_plots(
    program: Path, bundle_env: dict[str, str], tmp_path: Path, qapp: Any
) -> None:
    """An NWChem output opens in the Results tab, whose energy plot is pyqtgraph's."""
    from PySide6.QtGui import QImage

    out = tmp_path / "results.png"
    proc = run(
        program,
        {**bundle_env, "QT_QPA_PLATFORM": "offscreen"},
        str(DATA / "nwchem" / "methane_b3lyp_molden.out"),
        "--screenshot",
        str(out),
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    image = QImage(str(out))
    assert not image.isNull() and image.width() >= 400
    assert "Traceback" not in proc.stderr, proc.stderr


def test_install_desktop_names_the_bundle_program(
    program: Path, bundle_env: dict[str, str], tmp_path: Path
) -> None:
    """The menu entry the bundle installs starts the bundle, by absolute path."""
    data = tmp_path / "xdg-data"
    env = {
        **bundle_env,
        "XDG_DATA_HOME": str(data),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg-config"),
    }
    proc = run(program, env, "--install-desktop")
    assert proc.returncode in (0, 1), proc.stderr  # 1: a database tool is not on this PATH
    entry = next((data / "applications").glob("*.desktop")).read_text()
    exec_line = next(line for line in entry.splitlines() if line.startswith("Exec="))
    assert exec_line.startswith(f"Exec={program.resolve()} "), exec_line
    assert list((data / "icons").rglob("*.svg")) and list((data / "icons").rglob("*.png"))
    proc = run(program, env, "--uninstall-desktop")
    assert proc.returncode in (0, 1), proc.stderr
    assert not list((data / "applications").glob("*.desktop"))


def _node(server: Any, name: str) -> dict[str, Any]:
    nodes = server.ok("get_ui", {"query": name, "includeHidden": True})["nodes"]
    (found,) = [n for n in nodes if n["objectName"] == name]
    return found


def test_window_speaks_japanese_and_says_what_orbitals_need(
    bundle_server: Any, tmp_path: Path
) -> None:
    """The window's catalogues (.qm) are found in the bundle; the orbital surfaces' PySCF
    and scikit-image are not in it, and asking for an orbital says so instead of failing."""
    molden = tmp_path / "methane.molden"
    shutil.copy(DATA / "nwchem" / "methane_b3lyp_molden.molden", molden)
    server = bundle_server(
        "--mcp-allow-dir",
        str(tmp_path),
        flag="--mcp-gui",
        env={"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_LANGUAGE": "ja"},
    )
    assert _node(server, "undoButton")["text"] == "元に戻す"
    doc_id, rev = server.doc()
    server.ok(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "open_file", "path": str(molden)},
    )

    def loaded() -> bool:
        res = server.ok("get_app_state", {"documentId": doc_id})["results"].get(doc_id) or {}
        return bool(res.get("source") == str(molden) and res.get("loading") is None)

    wait_until(loaded, 60)
    # The Orbitals tab says at once what is missing; asking for the HOMO gives that error.
    wait_until(lambda: _node(server, "orbitalMessage").get("text"), 60)
    assert "PySCF" in _node(server, "orbitalMessage")["text"]
    rec = run_window_command(server, "ui_activate", {"target": "orbitalHomoButton"})
    assert rec["status"] == "failed", rec
    assert rec["error"]["code"] == "orbitals_unavailable", rec
    assert "PySCF" in rec["error"]["message"] and "scikit-image" in rec["error"]["message"]
    # A bundle user cannot pip install into it: the message sends them to the wheel.
    assert "Linux bundle has no orbital surfaces" in rec["error"]["message"]


def test_convert_and_results_commands(
    program: Path, bundle_env: dict[str, str], tmp_path: Path
) -> None:
    src = tmp_path / "water.xyz"
    src.write_text(WATER_XYZ)
    proc = run(program, bundle_env, "convert", str(src), "-o", str(tmp_path / "water.pdb"))
    assert proc.returncode == 0, proc.stderr
    assert (
        "HETATM" in (tmp_path / "water.pdb").read_text()
        or "ATOM" in (tmp_path / "water.pdb").read_text()
    )
    output = DATA / "nwchem" / "methane_b3lyp_molden.out"
    proc = run(program, bundle_env, "results", str(output), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)


def test_programs_it_starts_get_the_callers_environment(
    bundle_server: Any, bundle_env: dict[str, str], tmp_path: Path
) -> None:
    """NWChem must load the system's libraries, not the bundle's: the program started for
    a calculation sees no LD_LIBRARY_PATH into the bundle and none of PyInstaller's marks."""
    stand_in = tmp_path / "nwchem-env"
    stand_in.write_text("#!/bin/sh\n/usr/bin/env > environment.txt\n")
    stand_in.chmod(0o755)
    config = Path(bundle_env["MOLFORMA_CONFIG_DIR"])
    (config / "preferences.json").write_text(json.dumps({"executable": str(stand_in)}))
    server = bundle_server()
    doc_id, rev = server.water()
    sc = server.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    written = Path(sc["jobDirectory"]) / "environment.txt"
    wait_until(lambda: written.is_file() and written.read_text(), 60)
    seen = dict(line.split("=", 1) for line in written.read_text().splitlines() if "=" in line)
    assert "LD_LIBRARY_PATH" not in seen, seen.get("LD_LIBRARY_PATH")
    assert not [name for name in seen if name.startswith("_PYI")], seen
    assert seen["PATH"] == bundle_env["PATH"]


@pytest.mark.nwchem
@pytest.mark.slow
def test_real_nwchem_water_scf_through_the_bundle(
    bundle_server: Any, bundle_env: dict[str, str]
) -> None:
    if shutil.which("nwchem", path=bundle_env["PATH"]) is None:
        pytest.skip("NWChem is not installed (apt-get install nwchem; CI has it)")
    server = bundle_server()
    doc_id, rev = server.water()
    rev = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": "energy", "theory": "scf", "basis": "sto-3g"},
        },
    )["revision"]
    res = server.call(
        "calculation",
        {"documentId": doc_id, "expectedRevision": rev, "action": "start"},
        caps=TASK_CAPS,
    )
    assert res["resultType"] == "task", res

    def ended() -> dict[str, Any] | None:
        t = server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS)
        return t if t["status"] in ("completed", "failed", "cancelled") else None

    final = wait_until(ended, 300, 0.5)
    assert final["status"] == "completed", final
    sc = final["result"]["structuredContent"]
    assert sc["status"] == "finished", (sc, server.stderr[-2000:])
    folder = Path(sc["jobDirectory"])
    assert "Total SCF energy" in (folder / "output.out").read_text()
    summary = server.ok("get_results", {"documentId": doc_id, "section": "summary"})
    energy = summary["summary"]["finalEnergy"]
    # Water, SCF/STO-3G at this geometry: -74.96 hartree.
    assert -75.1 < energy < -74.8, summary


# Programs of a Python installation, left out of the system folders a test mirrors.
PYTHON_PROGRAMS = re.compile(r"^(python|pydoc|pip|idle|2to3|pygettext|py3)")


def system_path_without_python(folder: Path) -> str:
    """A PATH of links to every program in /usr/bin and /usr/sbin except Python's: a
    system with its usual tools (a batch script's shell needs them) and no Python."""
    folder.mkdir()
    for system in (Path("/usr/sbin"), Path("/usr/bin")):
        for program in system.iterdir():
            link = folder / program.name
            if not PYTHON_PROGRAMS.match(program.name) and not link.exists():
                link.symlink_to(program)
    path = str(folder)
    assert shutil.which("python3", path=path) is None
    return path


@pytest.mark.slurm
@pytest.mark.nwchem
@pytest.mark.slow
def test_slurm_batch_job_through_the_bundle(
    bundle_server: Any, bundle_env: dict[str, str], tmp_path: Path, slurm_cluster: Any
) -> None:
    """PSI/J in the bundle (its executors, batch template and launcher scripts) submits a
    real water SCF to a SLURM cluster, follows it to the end and reads its energy."""
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed (apt-get install nwchem; CI has it)")
    config = Path(bundle_env["MOLFORMA_CONFIG_DIR"])
    (config / "preferences.json").write_text(json.dumps({"scheduler": "slurm"}))
    server = bundle_server(
        env={"PATH": system_path_without_python(tmp_path / "system"), **slurm_cluster.env}
    )
    doc_id, rev = server.water()
    rev = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": "energy", "theory": "scf", "basis": "sto-3g"},
        },
    )["revision"]
    rev = server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"job_root": str(tmp_path / "jobs"), "partition": "debug", "time_limit": 600},
        },
    )["revision"]
    started = server.call(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    assert started["isError"] is False, (started, server.stderr[-3000:])
    final = wait_until(
        lambda: (
            (c := server.ok("get_app_state", {})["calculation"])
            and c["status"] in ("finished", "failed")
            and c
        ),
        180,
        0.5,
    )
    record = final["record"]
    assert final["status"] == "finished", record
    assert record["scheduler"] == "slurm" and record["schedulerState"] == "COMPLETED"
    assert record["finalEnergy"] == pytest.approx(-74.963, abs=1e-2)
