"""Small file helpers shared by every layer (no Qt): bounded reads, atomic writes."""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from molforma.errors import FileAccessError, ValidationError
from molforma.i18n import register

READ_LIMIT = 8 * 1024 * 1024  # SPEC.md section 3: 8 MiB per file read

register({
    "non_finite_number": {
        "en": "{what} holds a number that is not finite (Infinity or NaN) at {where}; "
              "JSON files of MolForma hold only finite numbers. Nothing was written.",
        "ja": "{what}の {where} に有限でない数値（Infinity または NaN）があります。MolFormaの"
              "JSONファイルには有限の数値しか書きません。何も書き込んでいません。",
    },
})


def strict_json_dumps(value: Any, what: str = "The data", **kwargs: Any) -> str:
    """``json.dumps`` that never writes ``NaN``/``Infinity`` (not JSON; other readers fail).

    Raises:
        ValidationError: ``non_finite_number`` naming where the first one sits.
    """
    try:
        return json.dumps(value, allow_nan=False, **kwargs)
    except ValueError:
        raise ValidationError("non_finite_number", what=what,
                              where=_first_non_finite(value) or "?") from None


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
