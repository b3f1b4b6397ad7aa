"""Starting the window as a command: no-display message, screenshots, --mcp-gui gate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

WATER_XYZ = "3\nwater\nO 0 0 0.117\nH 0 0.757 -0.469\nH 0 -0.757 -0.469\n"


def _molforma() -> str:
    exe = Path(sys.executable).parent / "molforma"
    return str(exe) if exe.exists() else "molforma"


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env.update(extra)
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check is for Linux")
@pytest.mark.parametrize("args", [[], ["--mcp-gui"]], ids=["window", "mcp-gui"])
def test_no_display_gives_a_clear_message_and_a_failing_status(
    args: list[str], tmp_path: Path
) -> None:
    proc = subprocess.run(
        [_molforma(), *args],
        env=_env(MOLFORMA_CONFIG_DIR=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode != 0
    assert "requires a desktop display" in proc.stderr
    assert "xvfb-run" in proc.stderr and "QT_QPA_PLATFORM=offscreen" in proc.stderr
    assert "env_vars" in proc.stderr  # Codex passes no display unless told to
    assert "Aborted" not in proc.stderr
    assert proc.stdout == ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check is for Linux")
def test_xcb_asked_for_without_display_gives_the_message_instead_of_an_abort(
    tmp_path: Path,
) -> None:
    proc = subprocess.run(
        [_molforma()],
        env=_env(QT_QPA_PLATFORM="xcb", MOLFORMA_CONFIG_DIR=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1
    assert "requires a desktop display" in proc.stderr


def test_the_display_check_does_not_import_qt() -> None:
    code = (
        "import os, sys\n"
        "for k in ('DISPLAY', 'WAYLAND_DISPLAY', 'QT_QPA_PLATFORM'): os.environ.pop(k, None)\n"
        "from molforma.gui.launch import launch_window\n"
        "rc = launch_window(None, False, [], False, None, None)\n"
        "assert rc != 0 and 'PySide6' not in sys.modules, (rc, 'PySide6' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("tab", ["molecule", "calculation", "execution", "results", "history"])
def test_screenshot_renders_each_tab_to_a_png_offscreen(tab: str, tmp_path: Path) -> None:
    src = tmp_path / "water.xyz"
    src.write_text(WATER_XYZ)
    out = tmp_path / f"{tab}.png"
    proc = subprocess.run(
        [_molforma(), "--screenshot", str(out), "--tab", tab, str(src)],
        env=_env(
            QT_QPA_PLATFORM="offscreen",
            MOLFORMA_RENDERER="painter",
            MOLFORMA_CONFIG_DIR=str(tmp_path / "cfg"),
            MOLFORMA_LANGUAGE="en",
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1280, 820)
    reds = sum(
        1
        for x in range(0, 1000, 4)
        for y in range(100, 560, 4)
        if img.pixelColor(x, y).red() > 150 and img.pixelColor(x, y).green() < 80
    )
    # Only the Molecule tab shows the 3D view with the red oxygen.
    assert (reds > 30) == (tab == "molecule")


def test_screenshot_without_any_display_falls_back_to_offscreen(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    proc = subprocess.run(
        [_molforma(), "--screenshot", str(out)],
        env=_env(MOLFORMA_CONFIG_DIR=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert not QImage(str(out)).isNull()


def test_screenshot_of_an_unreadable_file_fails_with_a_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.xyz"
    bad.write_text("not a molecule\n")
    proc = subprocess.run(
        [_molforma(), "--screenshot", str(tmp_path / "x.png"), str(bad)],
        env=_env(QT_QPA_PLATFORM="offscreen", MOLFORMA_CONFIG_DIR=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "bad.xyz" in proc.stderr
    assert not (tmp_path / "x.png").exists()


def test_a_file_error_found_before_qt_loads_is_said_in_the_preferred_language(
    tmp_path: Path,
) -> None:
    # the file is read before the application (and its Preferences) exist
    (tmp_path / "preferences.json").write_text('{"language": "ja"}\n', encoding="utf-8")
    bad = tmp_path / "bad.xyz"
    bad.write_text("not a molecule\n")
    env = _env(QT_QPA_PLATFORM="offscreen", MOLFORMA_CONFIG_DIR=str(tmp_path))
    env.pop("MOLFORMA_LANGUAGE", None)
    proc = subprocess.run(
        [_molforma(), "--screenshot", str(tmp_path / "x.png"), str(bad)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "bad.xyz" in proc.stderr and "XYZ を読み込めません" in proc.stderr, proc.stderr
    assert not (tmp_path / "x.png").exists()


_RECORD_IMPORTS = """
import json, runpy, sys
order = []
class Recorder:
    def find_spec(self, name, path=None, target=None):
        order.append(name)
sys.meta_path.insert(0, Recorder())
sys.argv = ["molforma", *sys.argv[2:]]
try:
    runpy.run_module("molforma", run_name="__main__")
except SystemExit as exc:
    code = exc.code
else:
    code = 0
with open(OUT, "w") as f:
    json.dump({"order": order, "code": code}, f)
"""


def _import_order(args: list[str], tmp_path: Path) -> list[str]:
    """Modules in the order a window start imports them (first import of each)."""
    out = tmp_path / "imports.json"
    env = _env(QT_QPA_PLATFORM="offscreen", MOLFORMA_CONFIG_DIR=str(tmp_path))
    code = _RECORD_IMPORTS.replace("OUT", repr(str(out)))
    proc = subprocess.run(
        [sys.executable, "-c", code, "-", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    recorded = json.loads(out.read_text())
    assert recorded["code"] in (0, None), proc.stderr[-2000:]
    return list(dict.fromkeys(recorded["order"]))


def test_the_window_reads_its_file_and_loads_qt_free_modules_before_pyside6(
    tmp_path: Path,
) -> None:
    # PySide6's import hook reads the source of every module imported after it, so the
    # window imports what it will need anyway first, and reads its file (RDKit for a
    # molecule with double bonds) before Qt.
    benzene = tmp_path / "benzene.xyz"
    benzene.write_text(
        "12\nbenzene\n"
        + "".join(
            f"{e} {x:.4f} {y:.4f} 0.0\n"
            for e, x, y in (
                ("C", 1.39, 0.0),
                ("C", 0.695, 1.2038),
                ("C", -0.695, 1.2038),
                ("C", -1.39, 0.0),
                ("C", -0.695, -1.2038),
                ("C", 0.695, -1.2038),
                ("H", 2.47, 0.0),
                ("H", 1.235, 2.139),
                ("H", -1.235, 2.139),
                ("H", -2.47, 0.0),
                ("H", -1.235, -2.139),
                ("H", 1.235, -2.139),
            )
        )
    )
    order = _import_order(["--screenshot", str(tmp_path / "b.png"), str(benzene)], tmp_path)
    qt = order.index("PySide6")
    for name in (
        "numpy",
        "pydantic",
        "molforma.preferences",
        "molforma.document.envelope_schema",
        "molforma.app.ops",
        "molforma.formats",
        "rdkit",
    ):
        assert order.index(name) < qt, name
    assert QImage(str(tmp_path / "b.png")).width() > 0


@pytest.mark.parametrize("preset", [None, "2"], ids=["unset", "set-by-the-person"])
def test_the_window_loads_numpy_with_one_blas_thread_and_leaves_the_environment_as_it_was(
    preset: str | None,
) -> None:
    # the count of the process's threads tells OpenBLAS's workers (one per extra core)
    code = (
        "import os\n"
        "from molforma.gui.launch import _import_core_first\n"
        "_import_core_first(with_formats=True)\n"
        "import numpy\n"
        "print(len(os.listdir('/proc/self/task')), os.environ.get('OPENBLAS_NUM_THREADS'))\n"
    )
    env = _env()
    env.pop("OPENBLAS_NUM_THREADS", None)
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.split()
    threads, left = int(out[0]), out[1]
    if preset is None:
        assert threads == 1 and left == "None"  # nothing reaches NWChem's environment
    else:
        assert left == preset
        assert threads == min(int(preset), os.cpu_count() or 1)


def test_a_saturated_molecule_opens_in_the_window_without_rdkit(tmp_path: Path) -> None:
    water = tmp_path / "water.xyz"
    water.write_text(WATER_XYZ)
    order = _import_order(["--screenshot", str(tmp_path / "w.png"), str(water)], tmp_path)
    assert "rdkit" not in order and "PySide6" in order


def test_mcp_gui_ends_within_a_second_when_stdin_closes(tmp_path: Path) -> None:
    import json
    import time

    with subprocess.Popen(
        [_molforma(), "--mcp-gui"],
        env=_env(
            QT_QPA_PLATFORM="offscreen",
            MOLFORMA_RENDERER="painter",
            MOLFORMA_CONFIG_DIR=str(tmp_path),
        ),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as proc:
        try:
            init = {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"},
                },
            }
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(init) + "\n")
            proc.stdin.flush()
            reply = json.loads(proc.stdout.readline())
            assert reply["id"] == 1 and "result" in reply
            t0 = time.monotonic()
            proc.stdin.close()
            rc = proc.wait(timeout=10)
            assert time.monotonic() - t0 < 1.5
            assert rc == 0
        finally:
            if proc.poll() is None:
                proc.kill()
