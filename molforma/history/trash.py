"""Move job folders to the desktop trash, recoverably (no Qt).

History's "Move to trash" never deletes: it follows the freedesktop.org Trash
specification 1.0 for the home trash (``$XDG_DATA_HOME/Trash``, default
``~/.local/share/Trash``), so the folder can be restored with any desktop's file
manager. The ``.trashinfo`` file is created first with ``O_EXCL`` (that claims a
unique name even against a concurrent trasher), then the folder is renamed into
``files/``. When the trash is on another file system the folder is copied and
only then removed, so a failure leaves the original in place.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from molforma.errors import FileAccessError
from molforma.history.folder_scan import job_folder_listing
from molforma.i18n import register

register(
    {
        "history_trash_refused": {
            "en": "'{path}' cannot be moved to the trash: {reason}.",
            "ja": "「{path}」はごみ箱へ移動できません: {reason}。",
        },
        "history_trash_failed": {
            "en": "Moving '{path}' to the trash failed: {reason}. The folder was left in place.",
            "ja": "「{path}」をごみ箱へ移動できませんでした: {reason}。フォルダはそのまま残っています。",
        },
        "history_trash_partial": {
            "en": "'{path}' was copied to the trash ({trashed}) but could not be removed "
            "completely: {reason}.",
            "ja": "「{path}」はごみ箱（{trashed}）へ複製しましたが、元のフォルダを完全には"
            "削除できませんでした: {reason}。",
        },
    }
)


def trash_dir() -> Path:
    """The home trash: ``$XDG_DATA_HOME/Trash`` or ``~/.local/share/Trash``."""
    base = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says a relative value is invalid and must be ignored.
    data_home = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return data_home / "Trash"


def _info_text(original: Path) -> str:
    # The spec wants local time without a zone and the path percent-encoded like a URL.
    when = datetime.now().strftime("%Y-%m-%dT%H:%M:%S")
    return f"[Trash Info]\nPath={quote(str(original), safe='/')}\nDeletionDate={when}\n"


def _claim_name(files: Path, info: Path, base: str, text: str) -> tuple[str, Path]:
    """Create ``info/<name>.trashinfo`` exclusively for the first free ``name``."""
    for i in itertools.count(1):
        name = base if i == 1 else f"{base}.{i}"
        info_path = info / f"{name}.trashinfo"
        if os.path.lexists(files / name):
            continue
        try:
            fd = os.open(info_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            continue
        try:
            os.write(fd, text.encode("utf-8"))
        finally:
            os.close(fd)
        return name, info_path
    raise AssertionError("unreachable")  # itertools.count never ends


def move_to_trash(folder: str, *, guard: Any | None = None) -> str:
    """Move the job folder ``folder`` to the home trash and return its path there.

    ``guard`` (MCP's path policy) judges the folder where it really is first.

    Raises:
        FileAccessError: ``history_not_job_folder``, ``history_trash_refused`` (the trash
            itself, or a folder holding it), ``history_trash_failed`` (nothing moved) or
            ``history_trash_partial`` (copied across file systems, original not fully
            removed).
    """
    path, _ = job_folder_listing(folder, guard)
    src = Path(path)
    trash = trash_dir()
    real_src = Path(os.path.realpath(src))
    real_trash = Path(os.path.realpath(trash))
    if real_trash == real_src or real_trash.is_relative_to(real_src):
        raise FileAccessError("history_trash_refused", path=folder, reason="it holds the trash")
    if real_src.is_relative_to(real_trash):
        raise FileAccessError("history_trash_refused", path=folder, reason="it is in the trash")
    files, info = trash / "files", trash / "info"
    try:
        files.mkdir(parents=True, exist_ok=True, mode=0o700)
        info.mkdir(parents=True, exist_ok=True, mode=0o700)
        name, info_path = _claim_name(files, info, src.name or "folder", _info_text(src))
    except OSError as exc:
        raise FileAccessError(
            "history_trash_failed", path=folder, reason=exc.strerror or str(exc)
        ) from exc
    dest = files / name
    try:
        os.rename(src, dest)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            with contextlib.suppress(OSError):
                os.unlink(info_path)
            raise FileAccessError(
                "history_trash_failed", path=folder, reason=exc.strerror or str(exc)
            ) from exc
        _copy_then_remove(src, dest, info_path, folder)
    return str(dest)


def _copy_then_remove(src: Path, dest: Path, info_path: Path, shown: str) -> None:
    """Cross-device move: the original goes only after a complete copy exists."""
    try:
        shutil.copytree(src, dest, symlinks=True)
    except (OSError, shutil.Error) as exc:
        shutil.rmtree(dest, ignore_errors=True)
        with contextlib.suppress(OSError):
            os.unlink(info_path)
        raise FileAccessError("history_trash_failed", path=shown, reason=str(exc)) from exc
    try:
        shutil.rmtree(src)
    except OSError as exc:
        raise FileAccessError(
            "history_trash_partial", path=shown, trashed=str(dest), reason=exc.strerror or str(exc)
        ) from exc
