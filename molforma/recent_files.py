"""The window's list of recently opened files, kept beside the Preferences (no Qt).

It is state, not a setting, so it has its own small file (``recent_files.json`` in
the configuration directory) instead of a key in the Preferences, whose reader
accepts only its own schema. MCP never writes into the configuration directory, so
only the person's own opens land here.
"""

from __future__ import annotations

import json
from pathlib import Path

from molforma.fileio import atomic_write_text
from molforma.preferences import config_dir

MAX_RECENT = 10
_FORMAT = "molforma-recent-files"


def recent_path() -> Path:
    """The file that holds the list."""
    return config_dir() / "recent_files.json"


def load_recent() -> list[str]:
    """The recent paths, newest first; a missing or foreign file gives an empty list."""
    try:
        data = json.loads(recent_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        return []
    paths = data.get("paths")
    if not isinstance(paths, list):
        return []
    return [p for p in paths if isinstance(p, str) and p][:MAX_RECENT]


def _save(paths: list[str]) -> None:
    recent_path().parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(
        recent_path(),
        json.dumps({"format": _FORMAT, "version": 1, "paths": paths[:MAX_RECENT]}, indent=1) + "\n",
    )


def add_recent(path: str) -> list[str]:
    """Put ``path`` (made absolute) first and return the new list.

    Raises:
        OSError: the configuration directory cannot be written.
    """
    full = str(Path(path).expanduser().resolve())
    paths = [full, *(p for p in load_recent() if p != full)][:MAX_RECENT]
    _save(paths)
    return paths


def clear_recent() -> None:
    """Forget every recent path.

    Raises:
        OSError: the configuration directory cannot be written.
    """
    _save([])
