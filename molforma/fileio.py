"""Small file helpers shared by every layer (no Qt): bounded reads, atomic writes."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from molforma.errors import FileAccessError

READ_LIMIT = 8 * 1024 * 1024  # SPEC.md section 3: 8 MiB per file read


def read_text_limited(path: str | os.PathLike[str], limit: int = READ_LIMIT) -> str:
    """Read a text file of at most ``limit`` bytes.

    Raises:
        FileAccessError: missing, unreadable, a directory, or over the limit.
    """
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise FileAccessError(path=str(p), reason=exc.strerror or str(exc)) from exc
    if p.is_dir():
        raise FileAccessError(path=str(p), reason="is a directory")
    if size > limit:
        raise FileAccessError("file_too_large", path=str(p), size=size, limit=limit)
    try:
        with p.open("rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise FileAccessError(path=str(p), reason=exc.strerror or str(exc)) from exc
    if len(raw) > limit:
        raise FileAccessError("file_too_large", path=str(p), size=len(raw), limit=limit)
    return raw.decode("utf-8", errors="replace")


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it over ``path``.

    A crash leaves either the old file or the new one, never a torn file.
    """
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Binary version of :func:`atomic_write_text`."""
    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    except OSError as exc:
        raise FileAccessError(path=str(p), reason=exc.strerror or str(exc)) from exc
    try:
        # mkstemp makes the file 0600; give it the old file's mode, or the umask's default
        try:
            mode = p.stat().st_mode & 0o7777
        except OSError:
            mask = os.umask(0)
            os.umask(mask)
            mode = 0o666 & ~mask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise FileAccessError(path=str(p), reason=exc.strerror or str(exc)) from exc
