"""Desktop integration: ``molforma --install-desktop`` / ``--uninstall-desktop`` as a user runs them.

The real program (``.venv/bin/molforma``) installs into a temporary home given by HOME,
XDG_DATA_HOME and XDG_CONFIG_HOME; the desktop's own tools then judge the result:
``desktop-file-validate``, ``appstreamcli validate``, ``xdg-mime query default`` and
``xdg-mime query filetype``. They are real tools (scripts/setup.sh installs them): a
missing one fails here, it is never skipped.
"""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

import molforma
from molforma.file_formats import FORMATS, RESULT_BY_NAME
from molforma.subcommands import desktop_install
from molforma.subcommands.desktop_install import APP_ID, MIME_TYPES, SOURCE
from tests.paths import NWCHEM_DATA, REPO

SCRIPT = Path(sys.executable).with_name("molforma")  # the installed console script
DESKTOP = f"{APP_ID}.desktop"
SIZES = (16, 32, 48, 64, 128, 256)
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
TOOLS = (
    "desktop-file-validate",
    "appstreamcli",
    "xdg-mime",
    "update-mime-database",
    "update-desktop-database",
    "mimetype",
    "gtk-update-icon-cache",
)
WATER_XYZ = "3\nwater\nO 0.0 0.0 0.1173\nH 0.0 0.7572 -0.4692\nH 0.0 -0.7572 -0.4692\n"


def tool(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is missing: scripts/setup.sh installs it (desktop integration tests)"
    return found


class Home:
    """A temporary home with its own XDG folders and the environment that names them."""

    def __init__(self, root: Path, language: str = "en") -> None:
        self.root = root
        self.data = root / ".local" / "share"
        self.config = root / ".config"
        root.mkdir(parents=True, exist_ok=True)
        # Only what the programs need: no desktop session is detected, so xdg-mime takes
        # its generic path (mimeapps.list and shared-mime-info), the same on every machine.
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(root),
            "XDG_DATA_HOME": str(self.data),
            "XDG_CONFIG_HOME": str(self.config),
            "XDG_DATA_DIRS": "/usr/local/share:/usr/share",
            "XDG_CONFIG_DIRS": str(root / "etc-xdg"),
            "MOLFORMA_CONFIG_DIR": str(root / "molforma-config"),
            "MOLFORMA_LANGUAGE": language,
            "LANG": "C.UTF-8",
        }

    def molforma(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(SCRIPT), *args],
            capture_output=True,
            text=True,
            timeout=120,
            env=self.env,
            cwd=self.root,
            stdin=subprocess.DEVNULL,
        )

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [tool(args[0]), *args[1:]],
            capture_output=True,
            text=True,
            timeout=60,
            env=self.env,
            cwd=self.root,
            stdin=subprocess.DEVNULL,
        )

    def query_default(self, mime: str) -> str:
        res = self.run("xdg-mime", "query", "default", mime)
        return res.stdout.strip()

    def filetype(self, path: Path) -> str:
        res = self.run("xdg-mime", "query", "filetype", str(path))
        assert res.returncode == 0, res.stderr
        return res.stdout.strip()

    def tree(self) -> dict[str, bytes | None]:
        """Every path under the home with its bytes (None for a folder)."""
        return {
            str(p.relative_to(self.root)): None if p.is_dir() else p.read_bytes()
            for p in sorted(self.root.rglob("*"))
        }


@pytest.fixture
def home(tmp_path: Path) -> Home:
    for name in TOOLS:
        tool(name)
    assert SCRIPT.is_file(), "the tests run the installed molforma script"
    return Home(tmp_path / "home")


def installed(home: Home, *parts: str) -> Path:
    return home.data.joinpath(*parts)


def entry_of(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def mentions_molforma(root: Path) -> Iterator[str]:
    """Paths under ``root`` whose name or text names MolForma."""
    for p in sorted(root.rglob("*")):
        named = "molforma" in p.name.lower()
        if named or (p.is_file() and b"molforma" in p.read_bytes().lower()):
            yield str(p)


# --- install --------------------------------------------------------------------------


def test_install_registers_the_menu_entry_icons_file_types_and_defaults(home: Home) -> None:
    res = home.molforma("--install-desktop")
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    out = res.stdout
    desktop = installed(home, "applications", DESKTOP)
    metainfo = installed(home, "metainfo", f"{APP_ID}.metainfo.xml")
    package = installed(home, "mime", "packages", f"{APP_ID}.xml")
    for path in (desktop, metainfo, package):
        assert path.is_file() and f"wrote {path}" in out
    for size in SIZES:
        png = installed(home, "icons", "hicolor", f"{size}x{size}", "apps", f"{APP_ID}.png")
        assert png_size(png) == (size, size) and f"wrote {png}" in out
    assert installed(home, "icons", "hicolor", "scalable", "apps", f"{APP_ID}.svg").is_file()
    # Each database tool is named with what it was run on; the missing icon cache is said.
    assert f"ran: update-mime-database {home.data / 'mime'}" in out
    assert f"ran: update-desktop-database {home.data / 'applications'}" in out
    assert "skipped gtk-update-icon-cache" in out
    assert f"ran: xdg-mime default {DESKTOP} " in out
    assert "Undo with: molforma --uninstall-desktop" in out

    # The desktop's own validators accept what was installed.
    valid = home.run("desktop-file-validate", str(desktop))
    assert valid.returncode == 0 and "error" not in valid.stdout.lower(), valid.stdout
    appstream = home.run("appstreamcli", "validate", "--no-net", str(metainfo))
    assert appstream.returncode == 0, appstream.stdout + appstream.stderr

    # Exec names this very program by an absolute path that exists.
    entry = entry_of(desktop)
    words = shlex.split(entry["Exec"])
    assert words[-1] == "%f"
    program = Path(words[0])
    assert program.is_absolute() and program.is_file() and os.access(program, os.X_OK)
    assert program == SCRIPT and entry["TryExec"] == str(SCRIPT)
    assert f"the menu entry starts: {SCRIPT}" in out

    # xdg-mime answers MolForma for its types, and recognises the files it opens.
    assert home.query_default("chemical/x-xyz") == DESKTOP
    assert home.query_default("application/x-molforma+json") == DESKTOP
    files = home.root / "files"
    files.mkdir()
    (files / "water.xyz").write_text(WATER_XYZ)
    (files / "water.molforma.json").write_text('{"format": "molforma"}\n')
    shutil.copy(NWCHEM_DATA / "oh_uhf.out", files / "oh_uhf.out")  # known by its banner
    shutil.copy(NWCHEM_DATA / "methane_b3lyp_molden.molden", files / "methane.molden")
    shutil.copy(NWCHEM_DATA / "water_mp2_freq.nw", files / "water.nw")
    (files / "other.out").write_text("not a chemistry program's output\n")
    assert home.filetype(files / "water.xyz") == "chemical/x-xyz"
    assert home.filetype(files / "water.molforma.json") == "application/x-molforma+json"
    assert home.filetype(files / "oh_uhf.out") == "chemical/x-nwchem-output"
    assert home.filetype(files / "methane.molden") == "chemical/x-molden"
    assert home.filetype(files / "water.nw") == "chemical/x-nwchem-input"
    assert home.filetype(files / "other.out") == "text/plain"


def test_installing_twice_changes_nothing(home: Home) -> None:
    first = home.molforma("--install-desktop")
    assert first.returncode == 0, first.stderr
    before = home.tree()
    again = home.molforma("--install-desktop")
    assert again.returncode == 0, again.stderr
    assert "wrote" not in again.stdout
    assert again.stdout.count("unchanged ") == len(desktop_install.planned_files([str(SCRIPT)]))
    assert home.tree() == before
    assert home.query_default("chemical/x-xyz") == DESKTOP


def test_the_person_s_own_default_is_kept(home: Home) -> None:
    home.config.mkdir(parents=True)
    mimeapps = home.config / "mimeapps.list"
    mimeapps.write_text("[Default Applications]\nchemical/x-pdb=pymol.desktop\n")
    res = home.molforma("--install-desktop")
    assert res.returncode == 0, res.stderr
    assert "kept your default application for chemical/x-pdb: pymol.desktop" in res.stdout
    text = mimeapps.read_text()
    assert "chemical/x-pdb=pymol.desktop" in text
    assert "chemical/x-pdb=" + DESKTOP not in text
    assert f"chemical/x-xyz={DESKTOP}" in text


def test_an_existing_icon_cache_is_kept_up_to_date(home: Home) -> None:
    hicolor = home.data / "icons" / "hicolor"
    other = hicolor / "48x48" / "apps"  # another program's icon, and a cache of it
    other.mkdir(parents=True)
    shutil.copy(
        SOURCE / "icons" / "hicolor" / "48x48" / "apps" / f"{APP_ID}.png", other / "viewer.png"
    )
    made = home.run("gtk-update-icon-cache", "--ignore-theme-index", str(hicolor))
    assert made.returncode == 0, made.stderr
    cache = hicolor / "icon-theme.cache"
    assert APP_ID.encode() not in cache.read_bytes()
    res = home.molforma("--install-desktop")
    assert res.returncode == 0, res.stderr
    assert (
        f"ran: gtk-update-icon-cache --force --ignore-theme-index --quiet {hicolor}" in res.stdout
    )
    assert APP_ID.encode() in cache.read_bytes()
    res = home.molforma("--uninstall-desktop")
    assert res.returncode == 0, res.stderr
    assert "ran: gtk-update-icon-cache" in res.stdout
    assert cache.is_file() and APP_ID.encode() not in cache.read_bytes()  # theirs, refreshed


def test_without_the_desktop_tools_the_files_are_installed_and_each_skip_is_said(
    home: Home, tmp_path: Path
) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    home.env["PATH"] = str(empty)  # the script names its Python by absolute path
    before = home.tree()
    res = home.molforma("--install-desktop")
    assert res.returncode == 0, res.stderr
    for name, package in desktop_install.TOOL_PACKAGES.items():
        if name != "gtk-update-icon-cache":  # no icon cache: skipped for that reason
            assert f"skipped {name}: not found on PATH (Debian package {package})" in res.stdout
    assert "not made the default application" in res.stdout
    assert installed(home, "applications", DESKTOP).is_file()
    assert not home.config.exists()
    res = home.molforma("--uninstall-desktop")
    assert res.returncode == 0, res.stderr
    assert home.tree() == before


# --- uninstall ------------------------------------------------------------------------


def test_uninstall_in_a_fresh_home_leaves_it_as_it_was(home: Home) -> None:
    before = home.tree()
    # The system's own default (another chemistry program installed for every user) comes back.
    system_default = home.query_default("chemical/x-xyz")
    assert system_default != DESKTOP
    assert home.molforma("--install-desktop").returncode == 0
    assert home.query_default("chemical/x-xyz") == DESKTOP
    res = home.molforma("--uninstall-desktop")
    assert res.returncode == 0, res.stderr
    assert f"removed {installed(home, 'applications', DESKTOP)}" in res.stdout
    assert "MolForma is no longer the default application of: " in res.stdout
    assert home.tree() == before  # the folders, databases and mimeapps.list it made went too
    assert home.query_default("chemical/x-xyz") == system_default
    again = home.molforma("--uninstall-desktop")
    assert again.returncode == 0 and "nothing to remove" in again.stdout


def test_uninstall_keeps_everything_that_was_there_before(home: Home) -> None:
    # A home in use: another program's menu entry and file type, the person's defaults.
    apps = home.data / "applications"
    apps.mkdir(parents=True)
    (apps / "viewer.desktop").write_text(
        "[Desktop Entry]\nType=Application\nName=Viewer\nExec=true %f\n"
        "MimeType=chemical/x-pdb;text/x-viewer;\n"
    )
    packages = home.data / "mime" / "packages"
    packages.mkdir(parents=True)
    (packages / "viewer.xml").write_text(
        '<?xml version="1.0"?>\n<mime-info xmlns="http://www.freedesktop.org/standards/'
        'shared-mime-info">\n  <mime-type type="text/x-viewer"><comment>Viewer file</comment>'
        '<glob pattern="*.viewer"/></mime-type>\n</mime-info>\n'
    )
    assert home.run("update-mime-database", str(home.data / "mime")).returncode == 0
    home.config.mkdir(parents=True)
    mimeapps = home.config / "mimeapps.list"
    original = (
        "[Default Applications]\nchemical/x-pdb=viewer.desktop\ntext/x-viewer=viewer.desktop\n"
    )
    mimeapps.write_text(original)
    system_default = home.query_default("chemical/x-xyz")
    assert home.molforma("--install-desktop").returncode == 0
    assert home.query_default("chemical/x-xyz") == DESKTOP
    res = home.molforma("--uninstall-desktop")
    assert res.returncode == 0, res.stderr
    assert mimeapps.read_text() == original
    assert (apps / "viewer.desktop").is_file() and (packages / "viewer.xml").is_file()
    assert list(mentions_molforma(home.root)) == []
    assert home.query_default("chemical/x-xyz") == system_default
    assert home.query_default("chemical/x-pdb") == "viewer.desktop"
    viewer = home.root / "a.viewer"
    viewer.write_text("x\n")
    assert home.filetype(viewer) == "text/x-viewer"  # the other package still registered


def test_uninstall_removes_only_molforma_s_files_whatever_its_list_says(home: Home) -> None:
    import json

    assert home.molforma("--install-desktop").returncode == 0
    viewer = home.data / "applications" / "viewer.desktop"
    viewer.write_text("[Desktop Entry]\nType=Application\nName=Viewer\nExec=true\n")
    canary = home.root / "canary"
    canary.touch()
    listing = home.data / "molforma" / "desktop-install.json"
    manifest = json.loads(listing.read_text())
    manifest["files"] += ["applications/viewer.desktop", "../../canary", str(canary)]
    listing.write_text(json.dumps(manifest))
    res = home.molforma("--uninstall-desktop")
    assert res.returncode == 0, res.stderr
    assert viewer.is_file() and canary.is_file()
    assert not installed(home, "applications", DESKTOP).exists()


# --- refusals -------------------------------------------------------------------------


class _ReadOnly:
    """A folder nobody can write into: chmod for a user, the immutable flag for root
    (root writes through permissions)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __enter__(self) -> None:
        if os.geteuid() == 0:
            subprocess.run([tool("chattr"), "+i", str(self.folder)], check=True)
        else:
            self.folder.chmod(0o555)

    def __exit__(self, *exc: object) -> None:
        if os.geteuid() == 0:
            subprocess.run([tool("chattr"), "-i", str(self.folder)], check=True)
        else:
            self.folder.chmod(0o755)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_data_folder_that_cannot_be_written_is_a_clear_error_and_nothing_is_written(
    tmp_path: Path, language: str
) -> None:
    home = Home(tmp_path / "home", language)
    home.data.mkdir(parents=True)
    before = home.tree()
    with _ReadOnly(home.data):
        res = home.molforma("--install-desktop")
    assert res.returncode == 2
    assert "Traceback" not in res.stderr and res.stdout == ""
    reason = "cannot be written" if language == "en" else "書き込めません"
    assert reason in res.stderr and str(home.data) in res.stderr, res.stderr
    assert home.tree() == before
    assert not home.config.exists()  # no default was set either


def test_a_default_that_could_not_be_recorded_is_not_reported_as_set(home: Home) -> None:
    # xdg-mime exits 0 even when it cannot write mimeapps.list.
    home.config.mkdir(parents=True)
    with _ReadOnly(home.config):
        res = home.molforma("--install-desktop")
    assert res.returncode == 1, res.stdout
    assert "Traceback" not in res.stderr
    assert "now opens by default" not in res.stdout
    assert (
        "xdg-mime did not make MolForma the default application of application/x-molforma+json"
    ) in res.stdout
    assert str(home.config / "mimeapps.list") in res.stdout
    assert installed(home, "applications", DESKTOP).is_file()  # the rest is in place
    assert home.molforma("--uninstall-desktop").returncode == 0


def test_a_failure_halfway_takes_back_what_was_already_written(home: Home) -> None:
    # applications/, icons/ and mime/ can be made; metainfo/ cannot (a file has its name).
    home.data.mkdir(parents=True)
    (home.data / "metainfo").write_text("a file, not a folder\n")
    before = home.tree()
    res = home.molforma("--install-desktop")
    assert res.returncode == 2 and res.stdout == ""
    assert "Traceback" not in res.stderr
    assert "Nothing was installed" in res.stderr and str(home.data / "metainfo") in res.stderr
    assert home.tree() == before


def test_uninstall_that_cannot_remove_says_so(home: Home) -> None:
    assert home.molforma("--install-desktop").returncode == 0
    apps = home.data / "applications"
    with _ReadOnly(apps):
        res = home.molforma("--uninstall-desktop")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "Cannot remove" in res.stderr and str(apps / DESKTOP) in res.stderr
    assert (apps / DESKTOP).is_file()  # still installed, and the person is told so
    assert home.molforma("--uninstall-desktop").returncode == 0
    assert not (apps / DESKTOP).exists()


@pytest.mark.parametrize(
    "args",
    [
        ("--install-desktop", "water.xyz"),
        ("--install-desktop", "--uninstall-desktop"),
        ("--uninstall-desktop", "--mcp"),
        ("--install-desktop", "--mcp-config", "json"),
    ],
)
def test_the_flags_take_no_file_and_no_other_mode(home: Home, args: tuple[str, ...]) -> None:
    res = home.molforma(*args)
    assert res.returncode == 2 and "Traceback" not in res.stderr and res.stderr.strip()
    assert not home.data.exists()


# --- the shipped files ----------------------------------------------------------------


def _mime_package() -> dict[str, list[str]]:
    root = ET.parse(SOURCE / f"{APP_ID}.xml").getroot()
    return {
        t.get("type", ""): [g.get("pattern", "") for g in t.iter(f"{MIME_NS}glob")]
        for t in root.iter(f"{MIME_NS}mime-type")
    }


def test_the_metainfo_release_is_this_version() -> None:
    root = ET.parse(SOURCE / f"{APP_ID}.metainfo.xml").getroot()
    releases = [r.get("version") for r in root.iter("release")]
    assert releases and releases[0] == molforma.__version__
    assert root.findtext("id") == APP_ID
    assert root.find("launchable").text == DESKTOP  # type: ignore[union-attr]


def test_the_desktop_entry_mime_package_and_metainfo_list_the_same_types() -> None:
    desktop_types = [t for t in entry_of(SOURCE / DESKTOP)["MimeType"].split(";") if t]
    meta = ET.parse(SOURCE / f"{APP_ID}.metainfo.xml").getroot()
    meta_types = [m.text for m in meta.iter("mediatype")]
    assert desktop_types == list(MIME_TYPES) == meta_types
    assert set(_mime_package()) == set(MIME_TYPES)


def test_every_ending_molforma_opens_has_its_type() -> None:
    globs = {g for patterns in _mime_package().values() for g in patterns}
    # Endings other programs own too: *.json is any JSON (a project is *.molforma.json),
    # *.com is a DOS program; *.out, *.log, *.output and *.txt NWChem outputs are
    # recognised by their content.
    shared = {".json", ".com", ".out", ".log", ".output", ".txt"}
    endings = [e for f in FORMATS for e in f.extensions]
    endings += [e for n in ("nwchem-output", "molden") for e in RESULT_BY_NAME[n].extensions]
    missing = [e for e in endings if e not in shared and f"*{e}" not in globs]
    assert missing == []
    for f in FORMATS:
        if f.mime.startswith("chemical/"):
            assert f.mime in MIME_TYPES


def test_the_shipped_files_pass_the_validators(tmp_path: Path) -> None:
    res = subprocess.run(
        [tool("desktop-file-validate"), str(SOURCE / DESKTOP)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 0 and "error" not in res.stdout.lower(), res.stdout
    res = subprocess.run(
        [tool("appstreamcli"), "validate", "--no-net", str(SOURCE / f"{APP_ID}.metainfo.xml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    mime = tmp_path / "mime"
    (mime / "packages").mkdir(parents=True)
    shutil.copy(SOURCE / f"{APP_ID}.xml", mime / "packages")
    res = subprocess.run(
        [tool("update-mime-database"), str(mime)], capture_output=True, text=True, timeout=60
    )
    assert res.returncode == 0, res.stderr
    assert (mime / "chemical" / "x-xyz.xml").is_file()


def test_the_icons_are_the_sizes_their_folders_say() -> None:
    icons = SOURCE / "icons" / "hicolor"
    svg = ET.parse(icons / "scalable" / "apps" / f"{APP_ID}.svg").getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    found = sorted(p.parent.parent.name for p in icons.glob(f"*/apps/{APP_ID}.png"))
    assert found == sorted(f"{s}x{s}" for s in SIZES)
    for size in SIZES:
        assert png_size(icons / f"{size}x{size}" / "apps" / f"{APP_ID}.png") == (size, size)


def test_the_wheel_carries_the_desktop_files() -> None:
    text = (REPO / "pyproject.toml").read_text()
    globs = re.search(r"^molforma = \[(.*)\]$", text, re.M)
    assert globs and '"desktop/**/*"' in globs.group(1)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (["/usr/bin/molforma"], "/usr/bin/molforma %f"),
        (["/opt/My Apps/molforma"], '"/opt/My Apps/molforma" %f'),
        (
            ["/home/a/py$3/bin/python", "-m", "molforma"],
            '"/home/a/py\\\\$3/bin/python" -m molforma %f',
        ),
        (["/data/100%/molforma"], "/data/100%%/molforma %f"),
    ],
)
def test_exec_quotes_a_path_as_the_specification_asks(
    tmp_path: Path, command: list[str], expected: str
) -> None:
    assert desktop_install.exec_line(command) == expected
    entry = tmp_path / DESKTOP
    entry.write_bytes(desktop_install.desktop_entry(command))
    res = subprocess.run(
        [tool("desktop-file-validate"), str(entry)], capture_output=True, text=True, timeout=60
    )
    assert res.returncode == 0 and "error" not in res.stdout.lower(), res.stdout


def test_the_set_up_installs_the_tools_these_tests_run() -> None:
    setup = (REPO / "scripts" / "setup.sh").read_text()
    line = next(ln for ln in setup.splitlines() if ln.strip().startswith('"desktop integration'))
    packages = line.rstrip().rstrip('"').split("|")[1].split()
    # Debian's package of each tool (dpkg -S): the tests fail when one is missing.
    for package in (
        "desktop-file-utils",
        "xdg-utils",
        "libfile-mimeinfo-perl",
        "shared-mime-info",
        "gtk-update-icon-cache",
        "appstream",
    ):
        assert package in packages


def test_run_as_a_module_the_menu_entry_starts_this_python_with_the_module(home: Home) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "molforma", "--install-desktop"],
        capture_output=True,
        text=True,
        timeout=120,
        env=home.env,
        cwd=home.root,
        stdin=subprocess.DEVNULL,
    )
    assert res.returncode == 0, res.stderr
    words = shlex.split(entry_of(installed(home, "applications", DESKTOP))["Exec"])
    assert words == [str(Path(sys.executable).absolute()), "-m", "molforma", "%f"]
    assert Path(words[0]).is_file()
    assert home.query_default("chemical/x-xyz") == DESKTOP  # xdg-mime finds the program


def test_in_japanese_the_command_reports_in_japanese(tmp_path: Path) -> None:
    home = Home(tmp_path / "home", "ja")
    res = home.molforma("--install-desktop")
    assert res.returncode == 0, res.stderr
    assert "インストールしました" in res.stdout and "元に戻すには" in res.stdout
    res = home.molforma("--uninstall-desktop")
    assert res.returncode == 0 and "削除しました" in res.stdout


def test_the_metainfo_points_at_the_project_and_at_screenshots_that_exist() -> None:
    import tomllib

    urls = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["urls"]
    root = ET.parse(SOURCE / f"{APP_ID}.metainfo.xml").getroot()
    links = {u.get("type"): u.text for u in root.iter("url")}
    assert links["homepage"] == urls["Homepage"]
    assert links["bugtracker"] == urls["Issues"]
    images = [i.text or "" for i in root.iter("image")]
    assert images
    prefix = (
        urls["Source"].replace("https://github.com/", "https://raw.githubusercontent.com/")
        + "/main/"
    )
    for image in images:
        assert image.startswith(prefix) and (REPO / image[len(prefix) :]).is_file(), image


def test_readme_names_every_file_type() -> None:
    readme = (REPO / "docs" / "install.md").read_text()
    section = readme[readme.index("### Desktop integration") :]
    for mime in MIME_TYPES:
        assert f"`{mime}`" in section
