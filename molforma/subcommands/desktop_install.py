"""``molforma --install-desktop`` / ``--uninstall-desktop``: menu entry, icons, file types (no Qt).

Installs for the current user, into the XDG data folder (``$XDG_DATA_HOME``, else
``~/.local/share``), the files under ``molforma/desktop/``:

- ``applications/io.github.molforma.MolForma.desktop``, its ``Exec`` naming this very
  program by absolute path (the command :func:`molforma.subcommands.mcp_config.program_command`
  decides: the bundle's executable, the installed script, or ``<python> -m molforma``);
- ``icons/hicolor/<size>/apps/`` PNGs and ``icons/hicolor/scalable/apps/`` SVG;
- ``mime/packages/io.github.molforma.MolForma.xml``, the file types MolForma opens;
- ``metainfo/io.github.molforma.MolForma.metainfo.xml`` (AppStream);

then updates the desktop's databases with the tools that are present
(``update-mime-database``, ``update-desktop-database``, ``gtk-update-icon-cache`` when an
icon cache exists) and makes MolForma the default application of its file types with
``xdg-mime default``, except for a type the person already gave another default.

Every file is first written beside its place under a temporary name; only when all are
written are they moved into place, so a folder that cannot be written leaves nothing
behind. What was written is recorded in ``molforma/desktop-install.json`` in the same data
folder, and ``--uninstall-desktop`` removes exactly that (and the folders and databases
the install made), then runs the database updates again. Exit status: 0 done, 1 a
database tool failed or a default was not recorded (the files are in place), 2 nothing
could be written or removed.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from molforma.i18n import register, render
from molforma.subcommands.desktop_entry import (
    _DESKTOP_DB,
    _TMP_SUFFIX,
    APP_ID,
    DESKTOP_FILE,
    MANIFEST,
    MIME_TYPES,
    SOURCE,
    TOOL_PACKAGES,
    DesktopError,
    config_home,
    data_home,
    desktop_entry,
    exec_line,
    planned_files,
)
from molforma.subcommands.desktop_system import (
    defaults_in,
    mimeapps_files,
    remove_defaults,
    set_defaults,
    update_databases,
)
from molforma.subcommands.mcp_config import program_command

# Read by the tests and the window under this module's name.
__all__ = [
    "APP_ID",
    "MIME_TYPES",
    "SOURCE",
    "TOOL_PACKAGES",
    "desktop_entry",
    "exec_line",
    "install",
    "main",
    "planned_files",
    "uninstall",
]

register(
    {
        "desktop_installed": {
            "en": "Installed MolForma's desktop integration for this user in {dir}:",
            "ja": "MolForma のデスクトップ統合をこのユーザー向けに {dir} へインストールしました:",
        },
        "desktop_uninstalled": {
            "en": "Removed MolForma's desktop integration from {dir}:",
            "ja": "MolForma のデスクトップ統合を {dir} から削除しました:",
        },
        "desktop_not_installed": {
            "en": "MolForma's desktop integration is not installed in {dir}; nothing to remove.",
            "ja": "MolForma のデスクトップ統合は {dir} にインストールされていません。"
            "削除するものはありません。",
        },
        "desktop_wrote": {"en": "  wrote {path}", "ja": "  書き込み: {path}"},
        "desktop_unchanged": {"en": "  unchanged {path}", "ja": "  変更なし: {path}"},
        "desktop_removed": {"en": "  removed {path}", "ja": "  削除: {path}"},
        "desktop_starts": {
            "en": "  the menu entry starts: {command}",
            "ja": "  メニュー項目が起動するコマンド: {command}",
        },
        "desktop_ran": {"en": "  ran: {command}", "ja": "  実行: {command}"},
        "desktop_tool_failed": {
            "en": "  failed (exit status {status}): {command}: {detail}",
            "ja": "  失敗しました（終了コード {status}）: {command}: {detail}",
        },
        "desktop_tool_missing": {
            "en": "  skipped {tool}: not found on PATH (Debian package {package}); {consequence}",
            "ja": "  {tool} は PATH に見つからないため省略しました（Debian パッケージ {package}）。"
            "{consequence}",
        },
        "desktop_no_icon_cache": {
            "en": "  skipped gtk-update-icon-cache: {dir} has no icon cache to keep up to date",
            "ja": "  gtk-update-icon-cache は省略しました: {dir} には更新すべきアイコンキャッシュが"
            "ありません",
        },
        "desktop_missing_mime": {
            "en": "the file types are known only after it runs",
            "ja": "実行されるまでファイルの種類は認識されません。",
        },
        "desktop_missing_desktop_db": {
            "en": 'some desktops list MolForma under "Open With" only after it runs',
            "ja": "実行されるまで「プログラムから開く」に MolForma が表示されないデスクトップがあります。",
        },
        "desktop_missing_icons": {
            "en": "the icon cache may show the icon late",
            "ja": "アイコンの表示が遅れることがあります。",
        },
        "desktop_missing_xdg_mime": {
            "en": "MolForma was not made the default application of its file types",
            "ja": "MolForma はファイルの種類の既定のアプリケーションに設定されていません。",
        },
        "desktop_default_set": {
            "en": "  MolForma now opens by default: {types}",
            "ja": "  既定で MolForma が開くファイルの種類: {types}",
        },
        "desktop_default_not_set": {
            "en": "  xdg-mime did not make MolForma the default application of {types}: "
            "{path} was not changed (can it be written?)",
            "ja": "  xdg-mime は {types} の既定のアプリケーションを MolForma にできませんでした: "
            "{path} は変更されていません（書き込めますか？）",
        },
        "desktop_manifest_failed": {
            "en": "  could not update {path} ({reason}); --uninstall-desktop still finds "
            "MolForma's files by their names",
            "ja": "  {path} を更新できませんでした（{reason}）。--uninstall-desktop は MolForma の"
            "ファイルを名前で見つけます",
        },
        "desktop_default_kept": {
            "en": "  kept your default application for {type}: {app}",
            "ja": "  {type} の既定のアプリケーションはそのままにしました: {app}",
        },
        "desktop_default_removed": {
            "en": "  MolForma is no longer the default application of: {types}",
            "ja": "  次の種類の既定のアプリケーションから MolForma を外しました: {types}",
        },
        "desktop_undo": {
            "en": "Undo with: molforma --uninstall-desktop",
            "ja": "元に戻すには: molforma --uninstall-desktop",
        },
        "desktop_cannot_write": {
            "en": "Cannot install the desktop integration: {path} cannot be written ({reason}). "
            "Nothing was installed. Make the folder writable, or set XDG_DATA_HOME to one "
            "you can write.",
            "ja": "デスクトップ統合をインストールできません: {path} に書き込めません（{reason}）。"
            "何もインストールしていません。フォルダーを書き込み可能にするか、"
            "XDG_DATA_HOME に書き込めるフォルダーを指定してください。",
        },
        "desktop_cannot_remove": {
            "en": "Cannot remove {path} ({reason}); the desktop integration is still installed. "
            "Make the folder writable and run molforma --uninstall-desktop again.",
            "ja": "{path} を削除できません（{reason}）。デスクトップ統合は残っています。"
            "フォルダーを書き込み可能にして molforma --uninstall-desktop を再実行してください。",
        },
        "desktop_no_home": {
            "en": "Cannot find the home folder: set HOME (or XDG_DATA_HOME).",
            "ja": "ホームフォルダーが見つかりません。HOME（または XDG_DATA_HOME）を設定してください。",
        },
        "desktop_bad_program_path": {
            "en": "Cannot name this program in a menu entry: its path {path} holds a control "
            "character.",
            "ja": "このプログラムをメニュー項目に登録できません: パス {path} に制御文字が含まれています。",
        },
        "desktop_files_missing": {
            "en": "This installation of MolForma lacks its desktop files ({path}).",
            "ja": "この MolForma のインストールにはデスクトップ用のファイル（{path}）がありません。",
        },
        "desktop_not_freedesktop": {
            "en": "--install-desktop and --uninstall-desktop are for Linux and other desktops that "
            "follow freedesktop.org (this is {platform}).",
            "ja": "--install-desktop と --uninstall-desktop は Linux など freedesktop.org に従う"
            "デスクトップ向けです（この環境は {platform}）。",
        },
    }
)


# --- writing all or nothing ---------------------------------------------------------------


@dataclass
class _Staging:
    """Files written under temporary names and the folders made for them, so that a
    failure anywhere takes everything back."""

    made_dirs: list[Path] = field(default_factory=list)
    staged: list[tuple[Path, Path]] = field(default_factory=list)

    def mkdirs(self, folder: Path) -> None:
        missing = []
        probe = folder
        while not probe.exists() and not probe.is_symlink():
            missing.append(probe)
            probe = probe.parent
        for d in reversed(missing):
            d.mkdir()
            self.made_dirs.append(d)

    def stage(self, dest: Path, data: bytes) -> None:
        self.mkdirs(dest.parent)
        if dest.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(dest))
        tmp = dest.with_name(f".{dest.name}{_TMP_SUFFIX}")
        tmp.write_bytes(data)
        self.staged.append((tmp, dest))

    def commit(self) -> None:
        for tmp, dest in self.staged:
            os.replace(tmp, dest)
        self.staged.clear()

    def roll_back(self) -> None:
        for tmp, _dest in self.staged:
            tmp.unlink(missing_ok=True)
        for d in reversed(self.made_dirs):
            _remove_empty(d)


# --- the manifest ---------------------------------------------------------------------


@dataclass
class Manifest:
    """What an install wrote and made, as paths relative to the data folder.

    It decides what the uninstall deletes, so only relative paths without ``..`` are
    taken from the file: nothing outside the data folder can be named in it.
    """

    files: list[str] = field(default_factory=list)
    dirs: list[str] = field(default_factory=list)
    # How many of the data folder and the folders above it the install made.
    levels_made: int = 0
    defaults: list[str] = field(default_factory=list)
    # "config:mimeapps.list" / "config:." when xdg-mime made them for the install.
    config_made: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, root: Path) -> Manifest:
        try:
            raw = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(raw, dict):
            return cls()

        def names(key: str) -> list[str]:
            items = raw.get(key, [])
            if not isinstance(items, list):
                return []
            return [s for s in items if isinstance(s, str) and _safe_relative(s)]

        return cls(
            files=names("files"),
            dirs=names("dirs"),
            levels_made=_small_count(raw.get("levels_made")),
            defaults=names("defaults"),
            config_made=names("config_made"),
        )

    def to_bytes(self) -> bytes:
        data = {
            "app": APP_ID,
            "files": self.files,
            "dirs": self.dirs,
            "levels_made": self.levels_made,
            "defaults": self.defaults,
            "config_made": self.config_made,
        }
        return (json.dumps(data, indent=2) + "\n").encode("utf-8")


def _small_count(value: object) -> int:
    return value if isinstance(value, int) and 0 <= value <= 8 else 0


def _safe_relative(name: str) -> bool:
    p = Path(name)
    return bool(name) and not p.is_absolute() and ".." not in p.parts


# --- install / uninstall ----------------------------------------------------------------


def _check_platform() -> None:
    if sys.platform.startswith(("win", "darwin", "cygwin")):
        raise DesktopError("desktop_not_freedesktop", platform=sys.platform)


def _cannot(code: str, exc: OSError, fallback: Path) -> DesktopError:
    path = str(exc.filename) if exc.filename else str(fallback)
    return DesktopError(code, path=path, reason=exc.strerror or str(exc))


def install() -> int:
    """Install for the current user; print what was written and run. Exit status."""
    _check_platform()
    root = data_home()
    command = program_command()
    files = planned_files(command)
    old = Manifest.read(root)
    lines = [render("desktop_installed", {"dir": root})]
    staging = _Staging()
    try:
        staging.mkdirs(root)
        for rel, data in files.items():
            dest = root / rel
            try:
                same = dest.is_file() and dest.read_bytes() == data
            except OSError:
                same = False
            if same:
                lines.append(render("desktop_unchanged", {"path": dest}))
                continue
            staging.stage(dest, data)
            lines.append(render("desktop_wrote", {"path": dest}))
        inside = {str(d.relative_to(root)) for d in staging.made_dirs if root in d.parents}
        # The data folder itself and those above it that did not exist (~/.local, ...).
        above = sum(1 for d in staging.made_dirs if d == root or d in root.parents)
        manifest = Manifest(
            files=sorted(str(rel) for rel in files),
            dirs=sorted({*old.dirs, *inside}),
            levels_made=max(old.levels_made, above),
            defaults=old.defaults,
            config_made=old.config_made,
        )
        staging.stage(root / MANIFEST, manifest.to_bytes())
        staging.commit()
    except OSError as exc:
        staging.roll_back()
        raise _cannot("desktop_cannot_write", exc, root) from exc
    except BaseException:
        staging.roll_back()
        raise
    lines.append(render("desktop_starts", {"command": " ".join(command)}))
    ok = update_databases(root, lines, installing=True)
    defaults, config_made, ok_defaults = set_defaults(lines)
    ok = ok and ok_defaults
    if defaults or config_made:
        manifest.defaults = sorted({*manifest.defaults, *defaults})
        manifest.config_made = sorted({*manifest.config_made, *config_made})
        try:
            _write_atomically(root / MANIFEST, manifest.to_bytes())
        except OSError as exc:
            # The files are in place by now, so this is said beside them, not as a refusal.
            lines.append(
                render(
                    "desktop_manifest_failed",
                    {"path": root / MANIFEST, "reason": exc.strerror or str(exc)},
                )
            )
            ok = False
    lines.append(render("desktop_undo"))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0 if ok else 1


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}{_TMP_SUFFIX}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _known_files() -> Iterator[Path]:
    """What an install writes, by name, for when the manifest is lost."""
    yield Path("applications") / DESKTOP_FILE
    yield Path("mime") / "packages" / f"{APP_ID}.xml"
    yield Path("metainfo") / f"{APP_ID}.metainfo.xml"
    icons = SOURCE / "icons"
    if icons.is_dir():
        for icon in icons.rglob(f"{APP_ID}.*"):
            yield Path("icons") / icon.relative_to(icons)


def uninstall() -> int:
    """Remove what the install wrote; run the database updates again. Exit status."""
    _check_platform()
    root = data_home()
    manifest = Manifest.read(root)
    # Only MolForma's own names are taken from the list, whoever edited it since.
    listed = (Path(f) for f in manifest.files if Path(f).name.startswith(f"{APP_ID}."))
    targets = sorted({*listed, *_known_files()})
    present = [root / rel for rel in targets if (root / rel).is_file()]
    has_manifest = (root / MANIFEST).is_file()
    defaults_present = any(DESKTOP_FILE in defaults_in(p).values() for p in mimeapps_files())
    if not present and not has_manifest and not defaults_present:
        sys.stdout.write(render("desktop_not_installed", {"dir": root}) + "\n")
        return 0
    lines = [render("desktop_uninstalled", {"dir": root})]
    try:
        for path in present:
            path.unlink()
            lines.append(render("desktop_removed", {"path": path}))
        remove_defaults(manifest.config_made, lines)
    except OSError as exc:
        raise _cannot("desktop_cannot_remove", exc, root) from exc
    made = set(manifest.dirs)
    # The databases the install brought into being go with it when nothing else uses them.
    mime = root / "mime"
    if "mime" in made and mime.is_dir() and not any((mime / "packages").glob("*")):
        shutil.rmtree(mime, ignore_errors=True)
        lines.append(render("desktop_removed", {"path": mime}))
    apps = root / "applications"
    if (
        "applications" in made
        and apps.is_dir()
        and {p.name for p in apps.iterdir()} <= {_DESKTOP_DB}
    ):
        shutil.rmtree(apps, ignore_errors=True)
        lines.append(render("desktop_removed", {"path": apps}))
    ok = update_databases(root, lines, installing=False)
    try:
        (root / MANIFEST).unlink(missing_ok=True)
    except OSError as exc:
        raise _cannot("desktop_cannot_remove", exc, root) from exc
    made.add(str(MANIFEST.parent))
    for rel in sorted(made, key=lambda s: len(Path(s).parts), reverse=True):
        _remove_empty(root / rel)
    for folder in [root, *root.parents][: manifest.levels_made]:
        _remove_empty(folder)
    if "config:." in manifest.config_made:
        _remove_empty(config_home())
    sys.stdout.write("\n".join(lines) + "\n")
    return 0 if ok else 1


def _remove_empty(folder: Path) -> None:
    # Not empty (something else lives there now) or already gone: it stays as it is.
    with contextlib.suppress(OSError):
        folder.rmdir()


def main(action: str) -> int:
    """``install`` or ``uninstall``; a refusal is one clear line on stderr and exit 2."""
    try:
        return install() if action == "install" else uninstall()
    except DesktopError as exc:
        sys.stderr.write(f"molforma: {render(exc.code, exc.data)}\n")
        return 2


__all__ = [
    "APP_ID",
    "MIME_TYPES",
    "SOURCE",
    "Manifest",
    "config_home",
    "data_home",
    "desktop_entry",
    "exec_line",
    "install",
    "main",
    "planned_files",
    "uninstall",
]
