"""Small file helpers shared by every layer (no Qt): bounded reads, atomic writes.

Every open here is made so that the file checked is the file used
(docs/reference/safety.md, Allowed directories): a read opens once, without blocking (a named pipe with no writer would hang the
reader for ever), and refuses what is not a regular file; a write goes to a temporary
file made and renamed through the descriptor of its folder, so a folder swapped for a
link between a check and the write cannot send the data elsewhere, and a crash leaves
the old file or the new one, never a torn one.

A caller that must check paths against a policy (MCP's allowed directories) while code
it does not own reads or writes by path wraps that code in :func:`guarded_files`: on
that thread, :func:`read_text_limited`, :func:`open_for_read` and the atomic writes then
go through the guard instead.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import secrets
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from molforma.errors import FileAccessError, ValidationError
from molforma.i18n import register

# Per file read: a million-atom structure (an 81-byte PDB line per atom) fits; the 8 MiB
# limit of one received MCP message is the server's own (docs/reference/mcp.md, Limits).
READ_LIMIT = 128 * 1024 * 1024

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOCTTY = getattr(os, "O_NOCTTY", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
# Folder descriptors work where open/mkdir/rename take dir_fd (POSIX); elsewhere writes
# fall back to paths.
DIR_FD_SUPPORTED = {os.open, os.mkdir, os.rename, os.unlink, os.stat} <= os.supports_dir_fd
_DIR_FD = DIR_FD_SUPPORTED

register(
    {
        "non_finite_number": {
            "en": "{what} holds a number that is not finite (Infinity or NaN) at {where}; "
            "JSON files of MolForma hold only finite numbers. Nothing was written.",
            "ja": "{what}の {where} に有限でない数値（Infinity または NaN）があります。MolFormaの"
            "JSONファイルには有限の数値しか書きません。何も書き込んでいません。",
        },
        "not_regular_file": {
            "en": "'{path}' is not a regular file (it is a named pipe, a device or a socket); "
            "MolForma reads only regular files. Nothing was read.",
            "ja": "「{path}」は通常のファイルではありません（名前付きパイプ、デバイス、ソケットの"
            "いずれかです）。MolFormaは通常のファイルだけを読みます。何も読んでいません。",
        },
    }
)


class FileGuard(Protocol):
    """What :func:`guarded_files` needs: a checked open and a checked atomic write."""

    def open_for_read(self, path: str | os.PathLike[str]) -> BinaryIO:
        """Open a regular file for reading once its real location passed the check."""
        ...

    def write_atomic(self, path: str | os.PathLike[str], data: bytes) -> Path:
        """Write ``data`` to ``path`` atomically once its folder passed the check."""
        ...


_scope = threading.local()


@contextlib.contextmanager
def guarded_files(guard: FileGuard | None) -> Iterator[None]:
    """Route this thread's reads and atomic writes of this module through ``guard``.

    For code that only sees a path (the format readers, the project writer): the check
    and the open become one step, so nothing can be swapped in between. None leaves
    things as they are (the person's own actions are not limited).
    """
    before = getattr(_scope, "guard", None)
    _scope.guard = guard if guard is not None else before
    try:
        yield
    finally:
        _scope.guard = before


def current_guard() -> FileGuard | None:
    """The guard set by :func:`guarded_files` on this thread, if any."""
    return getattr(_scope, "guard", None)


def _jsonable(value: Any) -> Any:
    """``json.dumps``'s ``default``: a value that knows its JSON records (a stored
    project's column tables) written as them."""
    to_records = getattr(value, "to_records", None)
    if callable(to_records):
        return to_records()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def strict_json_dumps(value: Any, what: str = "The data", **kwargs: Any) -> str:
    """``json.dumps`` that never writes ``NaN``/``Infinity`` (not JSON; other readers fail).

    Raises:
        ValidationError: ``non_finite_number`` naming where the first one sits.
    """
    kwargs.setdefault("default", _jsonable)
    try:
        return json.dumps(value, allow_nan=False, **kwargs)
    except ValueError:
        raise ValidationError(
            "non_finite_number", what=what, where=_first_non_finite(value) or "?"
        ) from None


def _first_non_finite(value: Any) -> str | None:
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        loc, v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return loc or "(top)"
        if isinstance(v, dict):
            stack.extend((f"{loc}.{k}" if loc else str(k), x) for k, x in v.items())
        elif isinstance(v, list | tuple):
            stack.extend((f"{loc}[{i}]", x) for i, x in enumerate(v))
    return None


def finite_or_none(value: Any) -> Any:
    """A copy of ``value`` (dicts, lists, tuples) with every non-finite float as None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite_or_none(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite_or_none(v) for v in value]
    return value


def strict_json_loads(text: str) -> Any:
    """``json.loads`` that refuses ``NaN``, ``Infinity`` and numbers too big for a float.

    Raises:
        ValueError: (``json.JSONDecodeError`` for bad syntax) naming the bad constant.
    """
    return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a finite number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value


def _os_error(shown: str, exc: OSError) -> FileAccessError:
    return FileAccessError(path=shown, reason=exc.strerror or str(exc))


# -- reading ---------------------------------------------------------------------------------


def open_regular(
    path: str | os.PathLike[str],
    *,
    dir_fd: int | None = None,
    shown: str | None = None,
    follow: bool = True,
) -> BinaryIO:
    """Open a regular file for binary reading, never blocking on the open.

    The open uses ``O_NONBLOCK``, so a named pipe with no writer (or a device) cannot
    hang it; the descriptor is then asked what it is (``fstat``) and anything but a
    regular file is refused before one byte is read.

    Args:
        path: The file (a plain name when ``dir_fd`` is given).
        dir_fd: Open ``path`` relative to this folder descriptor.
        shown: The path as the caller names it in errors.
        follow: False refuses a final name that is a symbolic link.

    Raises:
        FileAccessError: missing or unreadable (``file_error``), a directory, or
            ``not_regular_file``.
    """
    text = shown if shown is not None else os.fspath(path)
    flags = os.O_RDONLY | _O_NONBLOCK | _O_CLOEXEC | _O_NOCTTY | _O_BINARY
    if not follow:
        flags |= _O_NOFOLLOW
    try:
        fd = os.open(path, flags, dir_fd=dir_fd) if dir_fd is not None else os.open(path, flags)
    except OSError as exc:
        raise _os_error(text, exc) from exc
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise FileAccessError(path=text, reason="is a directory")
        if not stat.S_ISREG(mode):
            raise FileAccessError("not_regular_file", path=text)
        if _O_NONBLOCK:
            import fcntl  # POSIX only, as O_NONBLOCK is

            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~_O_NONBLOCK)
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with contextlib.suppress(AttributeError):
        fh.raw.name = os.fspath(path)  # type: ignore[attr-defined]  # errors name the file
    return fh


def open_directory(
    path: str | os.PathLike[str],
    *,
    dir_fd: int | None = None,
    shown: str | None = None,
    follow: bool = True,
) -> int:
    """A descriptor of the folder ``path`` (close it with ``os.close``).

    Raises:
        FileAccessError: missing, unreadable or not a folder.
    """
    text = shown if shown is not None else os.fspath(path)
    flags = os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC | _O_NONBLOCK
    if not follow:
        flags |= _O_NOFOLLOW
    try:
        fd = os.open(path, flags, dir_fd=dir_fd) if dir_fd is not None else os.open(path, flags)
    except NotADirectoryError as exc:
        raise FileAccessError("path_not_directory", path=text, parent=text) from exc
    except OSError as exc:
        raise _os_error(text, exc) from exc
    if not stat.S_ISDIR(os.fstat(fd).st_mode):
        os.close(fd)
        raise FileAccessError("path_not_directory", path=text, parent=text)
    return fd


def fd_real_path(fd: int) -> str | None:
    """Where the open file or folder ``fd`` really is, as the kernel tells it.

    None when the system gives no way to ask (then callers compare identities instead).
    """
    if sys.platform.startswith("linux"):
        try:
            real = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return None
        return real if real.startswith("/") else None
    if sys.platform == "darwin":
        import fcntl

        try:
            raw = fcntl.fcntl(fd, fcntl.F_GETPATH, b"\0" * 1024)  # type: ignore[attr-defined]
        except OSError:
            return None
        return os.fsdecode(raw.split(b"\0", 1)[0]) or None
    return None


def open_for_read(path: str | os.PathLike[str]) -> BinaryIO:
    """Open a regular file for reading: through the thread's guard when one is set."""
    guard = current_guard()
    if guard is not None:
        return guard.open_for_read(path)
    return open_regular(path)


def read_limited(fh: BinaryIO, shown: str, limit: int = READ_LIMIT) -> bytes:
    """At most ``limit`` bytes of an open file.

    Raises:
        FileAccessError: ``file_too_large`` or an unreadable file.
    """
    try:
        size = os.fstat(fh.fileno()).st_size
        if size > limit:
            raise FileAccessError("file_too_large", path=shown, size=size, limit=limit)
        raw = fh.read(limit + 1)
    except OSError as exc:
        raise _os_error(shown, exc) from exc
    if len(raw) > limit:
        raise FileAccessError("file_too_large", path=shown, size=len(raw), limit=limit)
    return raw


def read_text_limited(path: str | os.PathLike[str], limit: int = READ_LIMIT) -> str:
    """Read a text file of at most ``limit`` bytes (through the thread's guard, if any).

    Raises:
        FileAccessError: missing, unreadable, a directory, not a regular file, or over
            the limit.
    """
    shown = str(Path(path))
    with open_for_read(path) as fh:
        raw = read_limited(fh, shown, limit)
    return raw.decode("utf-8", errors="replace")


# -- writing ---------------------------------------------------------------------------------


def _default_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def make_directories(path: Path, shown: str, verify: Callable[[int], object] | None = None) -> int:
    """A descriptor of folder ``path``, made (with its missing parents) if needed.

    ``verify(fd)`` (which raises to refuse) is asked about the nearest existing folder
    before anything is made in it. Each missing folder is then made and opened relative
    to its parent's descriptor with ``O_NOFOLLOW``, so a link put in place of a folder
    just made is refused rather than followed. Needs folder descriptors (POSIX).

    Raises:
        FileAccessError: a parent is not a folder or cannot be made.
    """
    missing: list[str] = []
    base = path
    while not os.path.lexists(base) and base != base.parent:
        missing.append(base.name)
        base = base.parent
    fd = open_directory(base, shown=shown)
    try:
        if verify is not None:
            verify(fd)
        for name in reversed(missing):
            try:
                os.mkdir(name, dir_fd=fd)
            except FileExistsError:
                pass
            except OSError as exc:
                raise _os_error(shown, exc) from exc
            nxt = open_directory(name, dir_fd=fd, shown=shown, follow=False)
            os.close(fd)
            fd = nxt
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_atomic_at(
    dir_fd: int, name: str, data: bytes, shown: str, folder: Path | None = None
) -> None:
    """Write ``data`` as ``name`` in the open folder ``dir_fd``, atomically.

    The temporary file is made with ``O_EXCL | O_NOFOLLOW`` and renamed over ``name``
    through the same descriptor: whatever happens to the folder's path meanwhile, the
    data lands in the folder that was opened. It keeps the old file's mode, or gets the
    umask's default. ``folder`` is the folder's path, used where descriptors are not
    supported.

    Raises:
        FileAccessError: the file cannot be written (nothing is left behind).
    """
    tmp = f".{name[:200]}.{secrets.token_hex(4)}.tmp"
    use_fd = _DIR_FD
    if not use_fd and folder is None:
        raise FileAccessError(path=shown, reason="no folder to write in")

    def at(n: str) -> Any:
        return n if use_fd else os.fspath(folder / n)  # type: ignore[operator]

    kw: dict[str, Any] = {"dir_fd": dir_fd} if use_fd else {}
    try:
        mode = stat.S_IMODE(os.stat(at(name), follow_symlinks=False, **kw).st_mode)
    except OSError:
        mode = _default_mode()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY
    try:
        fd = os.open(at(tmp), flags, 0o600, **kw)
    except OSError as exc:
        raise _os_error(shown, exc) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            # mode 0600 while writing; the final mode once the data is complete
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), mode)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if not hasattr(os, "fchmod"):
            os.chmod(at(tmp), mode)
        if use_fd:
            os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        else:
            os.replace(at(tmp), at(name))
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(at(tmp), **kw)
        raise _os_error(shown, exc) from exc
    if use_fd:
        with contextlib.suppress(OSError):
            os.fsync(dir_fd)  # the rename itself survives a crash


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it over ``path``.

    A crash leaves either the old file or the new one, never a torn file. Inside
    :func:`guarded_files` the guard writes it.
    """
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Binary version of :func:`atomic_write_text`."""
    guard = current_guard()
    if guard is not None:
        guard.write_atomic(path, data)
        return
    write_file_atomically(path, data)


def write_file_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """:func:`atomic_write_bytes` without the thread's guard (for the guard itself).

    Raises:
        FileAccessError: the file cannot be written (nothing is left behind).
    """
    p = Path(path)
    shown = str(p)
    if not p.name or p.name in (".", ".."):
        raise FileAccessError(path=shown, reason="not a file name")
    if not _DIR_FD:
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _os_error(shown, exc) from exc
        write_atomic_at(-1, p.name, data, shown, p.parent)
        return
    fd = make_directories(p.parent, shown)
    try:
        write_atomic_at(fd, p.name, data, shown, p.parent)
    finally:
        os.close(fd)
