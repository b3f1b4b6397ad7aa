"""What a user gets: the wheel built from this checkout, installed, run as a user runs it.

Every test runs the installed ``bin/molforma`` of a fresh venv outside the checkout
(see conftest.py), from an empty folder outside the checkout, with no source tree on
its path: the version, the MCP server headless and with the window (offscreen), a
conversion, a results summary, a Japanese screenshot, the translations and catalogues
found where the wheel put them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path
from typing import Any

import pytest

from molforma import __version__
from tests.install.conftest import Installed
from tests.mcp.conftest import McpProcess
from tests.paths import DATA, NWCHEM_DATA, REPO

pytest.importorskip("PySide6")

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


class InstalledMcp(McpProcess):
    """``McpProcess`` speaking to the installed ``bin/molforma`` (not ``python -m``)."""

    def __init__(self, installed: Installed, flag: str, **env: str) -> None:
        import itertools
        import queue
        import threading

        self.proc = subprocess.Popen(
            [str(installed.molforma), flag],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=installed.env(**env),
            cwd=installed.home,
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


def _serve(installed: Installed, flag: str, **env: str) -> Any:
    server = InstalledMcp(installed, flag, **env)
    try:
        yield server
    finally:
        if server.proc.poll() is None:
            server.close(15)
        server.release()


@pytest.fixture
def headless(installed: Installed) -> Any:
    yield from _serve(installed, "--mcp", MOLFORMA_LANGUAGE="ja")


@pytest.fixture
def window(installed: Installed) -> Any:
    yield from _serve(installed, "--mcp-gui", MOLFORMA_LANGUAGE="ja")


def test_the_wheel_version_is_the_package_version_and_the_command_says_it(
    installed: Installed,
) -> None:
    with zipfile.ZipFile(installed.wheel) as zf:
        meta = Parser().parsestr(zf.read(f"molforma-{__version__}.dist-info/METADATA").decode())
    assert meta["Version"] == __version__
    assert installed.wheel.name == f"molforma-{__version__}-py3-none-any.whl"
    res = installed.run("--version")
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == f"molforma {__version__}"
    # The metadata a package index and pip show: licence, URLs, extras.
    assert meta["License-Expression"] == "MIT"
    assert "https://github.com/molforma/molforma" in meta.get_all("Project-URL")[0]
    assert "orbitals" in meta.get_all("Provides-Extra")
    requires = meta.get_all("Requires-Dist")
    assert not any("pyscf" in r and "extra ==" not in r for r in requires)
    # The developer set-up (the test extra) has every package of the orbitals extra.
    extra = {
        name: {r.split(";")[0] for r in requires if f'extra == "{name}"' in r}
        for name in ("orbitals", "test")
    }
    assert extra["orbitals"] and extra["orbitals"] <= extra["test"]


def test_the_wheel_holds_every_file_the_program_reads(
    installed: Installed, wheel_names: set[str]
) -> None:
    data = f"molforma-{__version__}.data/data/share/molforma/"
    expected = {
        "molforma/py.typed",
        "molforma/mcp/tool_index.json",
        f"molforma-{__version__}.dist-info/licenses/LICENSE",
    }
    expected |= {data + "resources/" + p.name for p in (REPO / "resources").glob("*.json")}
    expected |= {data + "translations/" + p.name for p in (REPO / "translations").glob("*.qm")}
    # Every file of the package that is not Python source — data read beside the code.
    expected |= {
        p.relative_to(REPO).as_posix()
        for p in (REPO / "molforma").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    assert sorted(expected - wheel_names) == []
    assert installed.wheel.stat().st_size < 5_000_000


def test_the_installed_program_is_the_wheel_not_the_source_tree(installed: Installed) -> None:
    probe = (
        "import json, sys, molforma, importlib.metadata as m\n"
        "from molforma.paths import data_dir\n"
        "print(json.dumps({'file': molforma.__file__, 'path': sys.path,\n"
        "  'version': m.version('molforma'),\n"
        "  'translations': str(data_dir('translations')),\n"
        "  'resources': str(data_dir('resources'))}))\n"
    )
    res = subprocess.run(
        [str(installed.python), "-c", probe],
        cwd=installed.home,
        env=installed.env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    venv = installed.venv.resolve()
    assert venv in Path(got["file"]).resolve().parents
    assert got["version"] == __version__
    # No entry of sys.path is the checkout, and only the new venv holds a molforma package.
    entries = [Path(p).resolve() for p in got["path"] if p]
    assert REPO.resolve() not in entries
    holders = [p for p in entries if (p / "molforma" / "__init__.py").is_file()]
    assert holders and all(venv in p.parents for p in holders), holders
    for name in ("translations", "resources"):
        folder = Path(got[name]).resolve()
        assert venv in folder.parents and any(folder.iterdir()), folder


def test_mcp_headless_answers_discover_and_lists_its_27_tools_in_japanese(
    headless: InstalledMcp, installed: Installed
) -> None:
    found = headless.result("server/discover")
    assert found["supportedVersions"][0] == "2026-07-28"
    assert found["_meta"]["io.modelcontextprotocol/serverInfo"] == {
        "name": "molforma",
        "version": __version__,
    }
    assert len(headless.result("tools/list")["tools"]) == 27
    # The catalogues come from the resources the wheel installed.
    basis_sets = headless.ok("get_catalog", {"kind": "basis_sets"})["basis_sets"]
    assert len(basis_sets) == len(
        json.loads((REPO / "resources" / "basis_sets.json").read_text(encoding="utf-8"))
    )
    doc_id, _rev = headless.doc()
    # A message in the display language (Japanese) from the installed catalogue.
    err = headless.err(
        "open_file",
        {
            "documentId": doc_id,
            "expectedRevision": _rev,
            "path": str(installed.home / "missing.xyz"),
        },
    )
    assert JAPANESE.search(err["message"]), err
    assert headless.close() == 0
    assert "Traceback" not in headless.stderr


def test_mcp_with_the_window_offscreen_lists_40_tools_and_speaks_japanese(
    window: InstalledMcp,
) -> None:
    found = window.result("server/discover")
    assert found["_meta"]["io.modelcontextprotocol/serverInfo"]["version"] == __version__
    assert len(window.result("tools/list")["tools"]) == 40
    # The window's texts come from the installed .qm translations (the Python catalogue
    # does not hold this one: without the .qm files it reads "Apply to molecule").
    nodes = window.ok("get_ui", {"query": "moleculeApply", "includeHidden": True})["nodes"]
    assert [n.get("text") for n in nodes] == ["分子に適用"]
    assert window.close() == 0
    assert "Traceback" not in window.stderr


def test_convert_writes_an_nwchem_input_and_an_sdf_from_an_xyz(installed: Installed) -> None:
    xyz = installed.home / "water.xyz"
    shutil.copy(NWCHEM_DATA / "water_opt-000.xyz", xyz)
    for out, words in (("water.nw", ("geometry", "task")), ("water.sdf", ("$$$$", "V2000"))):
        res = installed.run("convert", xyz.name, "-o", out)
        assert res.returncode == 0, res.stderr
        text = (installed.home / out).read_text(encoding="utf-8")
        assert all(w in text for w in words), text


def test_results_summarises_an_nwchem_output(installed: Installed) -> None:
    out = installed.home / "water_scf_optfreq.out"
    shutil.copy(NWCHEM_DATA / "water_scf_optfreq.out", out)
    res = installed.run("results", out.name)
    assert res.returncode == 0, res.stderr
    assert re.search(r"Final energy:\s+-76\.\d+", res.stdout), res.stdout
    res = installed.run("results", out.name, "--json")
    assert res.returncode == 0 and json.loads(res.stdout)


def test_a_japanese_screenshot_renders_the_translated_window(installed: Installed) -> None:
    mol2 = installed.home / "ethanol.mol2"
    shutil.copy(DATA / "formats" / "ethanol.mol2", mol2)

    def shot(name: str) -> bytes:
        png = installed.home / f"{name}.png"
        res = installed.run(
            "--screenshot", str(png), "--tab", "molecule", mol2.name, MOLFORMA_LANGUAGE="ja"
        )
        assert res.returncode == 0, res.stderr
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
        width, height = struct.unpack(">II", data[16:24])
        assert width >= 800 and height >= 600
        return data

    japanese = shot("molecule_ja")
    # The control: the same shot with the installed translations moved away differs, so
    # the first one was drawn with them.
    folder = installed.venv / "share" / "molforma" / "translations"
    moved = folder.with_name("translations.moved")
    folder.rename(moved)
    try:
        untranslated = shot("molecule_ja_without_qm")
    finally:
        moved.rename(folder)
    assert japanese != untranslated


def test_a_user_install_finds_its_translations_and_resources(
    installed: Installed, tmp_path: Path
) -> None:
    # `pip install --user` puts the wheel's data under ~/.local/share, which sys.prefix
    # does not name: the package finds it through its own install base.
    base_python = Path(sys.base_prefix) / "bin" / "python3"
    user_base = tmp_path / "userbase"
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    }
    env.update(
        PYTHONUSERBASE=str(user_base),
        PIP_BREAK_SYSTEM_PACKAGES="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    done = subprocess.run(
        [
            str(base_python),
            "-m",
            "pip",
            "install",
            "-q",
            "--user",
            "--no-deps",
            "--no-index",
            str(installed.wheel),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    code = (
        "import json, molforma.paths as p; print(json.dumps({'file': p.__file__, "
        "'translations': str(p.data_dir('translations')), "
        "'resources': str(p.data_dir('resources'))}))"
    )
    out = subprocess.run(
        [str(base_python), "-c", code],
        env=env,
        cwd=installed.home,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = json.loads(out)
    assert Path(found["file"]).is_relative_to(user_base)
    share = user_base / "share" / "molforma"
    assert Path(found["translations"]) == share / "translations"
    assert (share / "translations" / "molforma_ja.qm").is_file()
    assert Path(found["resources"]) == share / "resources"
    assert (share / "resources" / "functionals.json").is_file()
