"""One job folder, opened once; its files read relative to it, links never followed (no Qt).

History shows what a job folder holds in the window (rows, the preview) and loads it
(Reuse, the final structure), and what the window shows an MCP client can read. A
job folder is MolForma's own output: it holds plain files. A name in it that is a
symbolic link could point anywhere (outside the allowed directories, at a named
pipe), so History never follows one: every file is opened relative to the folder's
descriptor with ``O_NOFOLLOW`` and without blocking, and only a regular file is read.
The folder itself is opened through the caller's guard when one is given (MCP's
path policy, :class:`~molforma.app.policy.ReadGuard`), so a folder swapped for a link
after the caller's check is judged where it really is (docs/reference/safety.md, Allowed directories).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

from molforma.errors import FileAccessError, MolFormaError
from molforma.fileio import open_directory, open_regular
from molforma.i18n import register

register(
    {
        "history_linked_file": {
            "en": "'{path}' is a symbolic link. History reads only a job folder's own files and "
            "never follows a link out of it; nothing was read.",
            "ja": "「{path}」はシンボリックリンクです。履歴はジョブフォルダ自身のファイルだけを読み、"
            "リンクはたどりません。何も読んでいません。",
        },
    }
)


class JobDir:
    """An open job folder: list it, stat and open its own (non-link) files.

    Use it as a context manager; it closes its descriptor on exit.
    """

    def __init__(
        self, folder: str | os.PathLike[str], guard: Any | None = None, *, _fd: int | None = None
    ) -> None:
        self.path = os.fspath(folder)
        if _fd is not None:
            self.fd = _fd
            return
        open_dir: Callable[[str], tuple[int, Path]] | None = getattr(guard, "open_directory", None)
        if open_dir is not None:
            self.fd, _real = open_dir(self.path)
        else:
            self.fd = open_directory(self.path)

    @classmethod
    def child(cls, parent: JobDir, name: str) -> JobDir:
        """The sub-folder ``name`` of ``parent`` (refused when it is a link)."""
        path = os.path.join(parent.path, name)
        fd = open_directory(name, dir_fd=parent.fd, shown=path, follow=False)
        return cls(path, _fd=fd)

    def close(self) -> None:
        """Close the folder's descriptor (again is harmless)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> JobDir:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def join(self, name: str) -> str:
        """The path of ``name`` in this folder, as shown to people."""
        return os.path.join(self.path, name)

    def names(self) -> list[str] | None:
        """The entries of the folder (None when it cannot be listed)."""
        try:
            return os.listdir(self.fd)
        except OSError:
            return None

    def lstat(self, name: str) -> os.stat_result | None:
        """The entry's own status (a link is not followed); None when missing."""
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except (OSError, ValueError):
            return None

    def mtime(self, name: str) -> float | None:
        """Modification time of a regular file of the folder, else None."""
        st = self.lstat(name)
        return st.st_mtime if st is not None and stat.S_ISREG(st.st_mode) else None

    def size(self, name: str) -> int:
        """Size of a regular file of the folder (0 for anything else)."""
        st = self.lstat(name)
        return st.st_size if st is not None and stat.S_ISREG(st.st_mode) else 0

    def is_subdir(self, name: str) -> bool:
        """True for a real sub-folder (a link to a folder is not one)."""
        st = self.lstat(name)
        return st is not None and stat.S_ISDIR(st.st_mode)

    def open(self, name: str) -> BinaryIO:
        """Open the folder's own regular file ``name`` for reading.

        Raises:
            FileAccessError: ``history_linked_file`` for a link, ``not_regular_file``,
                or the file cannot be opened.
        """
        shown = self.join(name)
        if os.sep in name or (os.altsep and os.altsep in name) or name in ("", ".", ".."):
            raise FileAccessError(path=shown, reason="not a file of the job folder")
        st = self.lstat(name)
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise FileAccessError("history_linked_file", path=shown)
        try:
            fh = open_regular(name, dir_fd=self.fd, shown=shown, follow=False)
        except FileAccessError:
            # A link put in place after the look above: O_NOFOLLOW refused it.
            st = self.lstat(name)
            if st is not None and stat.S_ISLNK(st.st_mode):
                raise FileAccessError("history_linked_file", path=shown) from None
            raise
        fh.raw.name = shown  # type: ignore[attr-defined]  # errors and results name the file
        return fh

    def read_guard(self, outer: Any | None = None) -> FolderGuard:
        """A results-reader guard that reads only this folder's own files."""
        return FolderGuard(self, outer)


class FolderGuard:
    """The results reader's guard for one job folder: only its own regular files.

    A file elsewhere, or a link in the folder, is refused; ``outer`` (the policy's
    guard) is asked too about the folder itself.
    """

    def __init__(self, folder: JobDir, outer: Any | None = None) -> None:
        self._dir = folder
        self._outer = outer

    def _own_name(self, path: str | os.PathLike[str]) -> str:
        p = Path(os.fspath(path))
        if os.path.normpath(str(p.parent)) != os.path.normpath(self._dir.path):
            raise FileAccessError("history_linked_file", path=str(p))
        return p.name

    def __call__(self, path: str | os.PathLike[str]) -> Path:
        """``path`` when it is a regular file of the folder (no link), else refused."""
        name = self._own_name(path)
        st = self._dir.lstat(name)
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise FileAccessError("history_linked_file", path=str(path))
        if st is None:
            raise FileAccessError("path_not_found", path=str(path))
        return Path(self._dir.join(name))

    def open_for_read(self, path: str | os.PathLike[str]) -> BinaryIO:
        """Open a file of the folder (see :meth:`JobDir.open`)."""
        return self._dir.open(self._own_name(path))

    def open_directory(self, path: str | os.PathLike[str]) -> tuple[int, Path]:
        """A new descriptor of the folder itself (the caller closes it)."""
        if os.path.normpath(os.fspath(path)) != os.path.normpath(self._dir.path):
            raise FileAccessError("history_linked_file", path=os.fspath(path))
        return os.dup(self._dir.fd), Path(self._dir.path)


def read_quietly(folder: JobDir, name: str, reader: Callable[[BinaryIO], Any], default: Any) -> Any:
    """``reader(file)`` of the folder's own file ``name``; ``default`` when it cannot be
    read (missing, a link, not a regular file): a row or a preview shows what it can."""
    try:
        with folder.open(name) as fh:
            return reader(fh)
    except (OSError, MolFormaError):
        return default
