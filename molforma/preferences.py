"""Preferences as a plain JSON file readable without Qt (no Qt).

They live in ``MOLFORMA_CONFIG_DIR`` (default: the platform's user config
directory) so that the headless server and the tests can read and isolate them.
The executable, launcher and environment saved here are the *trusted* values of
headless mode (SPEC.md section 7). MCP can never change them.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Preferences(BaseModel):
    """What the Preferences dialog edits."""

    model_config = ConfigDict(extra="allow")

    language: str | None = Field(None, description="'ja', 'en' or None for the system language.")
    executable: str = Field("nwchem", description="Default NWChem command (trusted).")
    launcher: str = Field("mpirun", description="Default MPI launcher command (trusted).")
    environment: dict[str, str] = Field(default_factory=dict, description="Trusted extra env.")
    scheduler: Literal["local", "slurm"] = Field(
        "local", description="Default scheduler of new documents (trusted).")
    account: str | None = Field(None, description="Default SLURM account (trusted).")
    batch_directives: list[str] = Field(
        default_factory=list, description="Default extra batch options (trusted).")


def config_dir() -> Path:
    """Where Preferences live: ``MOLFORMA_CONFIG_DIR`` or the platform default."""
    env = os.environ.get("MOLFORMA_CONFIG_DIR")
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "molforma"


def preferences_path() -> Path:
    """The Preferences file."""
    return config_dir() / "preferences.json"


def load_preferences() -> Preferences:
    """Read Preferences; a missing or unreadable file gives the defaults."""
    path = preferences_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Preferences()
    try:
        return Preferences.model_validate(data)
    except ValueError:
        return Preferences()


def save_preferences(prefs: Preferences) -> None:
    """Write Preferences atomically."""
    from molforma.fileio import atomic_write_text

    atomic_write_text(preferences_path(), prefs.model_dump_json(indent=2) + "\n")
