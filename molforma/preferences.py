"""Preferences as a plain JSON file readable without Qt (no Qt).

They live in ``MOLFORMA_CONFIG_DIR`` (default: the platform's user config
directory) so that the headless server and the tests can read and isolate them.
The executable, launcher and environment saved here are the *trusted* values of
headless mode (docs/reference/safety.md, Trusted values). MCP can never change them: no MCP write lands
in the configuration directory (:meth:`molforma.app.policy.Policy.check_path`), and
the reader below accepts only its own format.

The format: a JSON object with ``"format": "molforma-preferences"``, ``"version": 1``
and only the keys of :class:`Preferences`. A file written before the marker existed
(an object holding some of the known keys and no other key) is still read; the next
save adds the marker. Anything else (a project, unknown keys, another version,
non-finite numbers) is refused with a message on stderr and the defaults are used,
so nothing from such a file is trusted.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic import ValidationError as PydanticValidationError

from molforma.errors import MolFormaError, ValidationError
from molforma.i18n import register, render
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma import fileio
    from molforma.nwchem import value_grammar
else:  # imported on first use (start-up time): molforma.lazy
    fileio = lazy_import("molforma.fileio")
    value_grammar = lazy_import("molforma.nwchem.value_grammar")

PREFERENCES_FORMAT = "molforma-preferences"
PREFERENCES_VERSION = 1

register(
    {
        "preferences_refused": {
            "en": "molforma: the Preferences file '{path}' was refused ({reason}); the default "
            "settings are used and nothing in that file is trusted. Save the Preferences "
            "again from the window to replace it.",
            "ja": "molforma: 環境設定ファイル「{path}」を読み込みませんでした（{reason}）。"
            "既定の設定を使い、このファイルの内容は一切信頼しません。ウィンドウの環境設定から"
            "保存し直すと置き換わります。",
        },
    }
)


class ClusterProfile(BaseModel):
    """A remote cluster reached over the system's OpenSSH (:mod:`molforma.jobs.remote`).

    Only the person writes profiles (Preferences dialog or ``preferences.json`` by hand;
    ``docs/remote-clusters.md``): MCP may name one for a job (the execution setting
    ``remote_profile``) but can neither create, change nor read one. Every value reaches
    ssh's command line, the remote shell or the remote batch script, so each is checked
    by its grammar in :mod:`molforma.nwchem.value_grammar` here, when the file is read,
    and again when a job uses it. Authentication stays the person's own ssh set-up (keys,
    agent, ``~/.ssh/config``): a profile holds no password or key.
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    name: str = Field(description="What the Execution tab and remote_profile call it.")
    host: str = Field(description="Host alias of the ssh_config (or user@host).")
    ssh_config: str | None = Field(
        None,
        description="ssh_config file given to ssh with -F (None: the account's "
        "~/.ssh/config and /etc/ssh/ssh_config).",
    )
    remote_folder: str = Field(
        description="Where job folders are made on the cluster (absolute, or ~/...)."
    )
    scheduler: Literal["slurm", "pbs"] = Field(
        "slurm",
        description="The cluster's scheduler: slurm (sbatch, squeue, scancel) or "
        "pbs (PBS/Torque's qsub, qstat, qdel).",
    )
    partition: str | None = Field(None, description="Default partition (None: the cluster's).")
    account: str | None = Field(None, description="Default account.")
    qos: str | None = Field(None, description="Default quality of service.")
    environment_lines: list[str] = Field(
        default_factory=list, description="Lines run before NWChem (module load nwchem)."
    )
    nwchem_command: str = Field("nwchem", description="NWChem on the cluster.")
    launcher: str = Field("mpirun", description="MPI launcher on the cluster (2+ ranks).")

    @model_validator(mode="after")
    def _grammar(self) -> ClusterProfile:
        """Each value by its grammar, the profile named in the message."""
        try:
            check_profile(self)
        except MolFormaError as exc:
            raise ValueError(exc.message("en")) from None
        return self


def check_profile(profile: ClusterProfile) -> None:
    """Every value of ``profile`` checked by its grammar (also for a profile built without
    validation).

    Raises:
        ValidationError: the first value's code (``bad_profile_name``, ``bad_ssh_host``,
            ``bad_ssh_config_path``, ``bad_remote_folder``, ``bad_slurm_name``,
            ``bad_remote_environment_line``, ``bad_remote_command``).
    """
    g = value_grammar
    name = g.validate_profile_name(profile.name)
    g.validate_ssh_host(profile.host, name)
    g.validate_ssh_config_path(profile.ssh_config, name)
    g.validate_remote_folder(profile.remote_folder, name)
    if profile.scheduler not in ("slurm", "pbs"):
        raise ValidationError(
            "bad_profile_name", value=g.shown(profile.scheduler), setting="scheduler"
        )
    for key in ("partition", "account", "qos"):
        g.validate_slurm_name(key, getattr(profile, key))
    g.validate_remote_environment_lines(profile.environment_lines, name)
    g.validate_remote_command("nwchem_command", profile.nwchem_command, name)
    g.validate_remote_command("launcher", profile.launcher, name)


class Preferences(BaseModel):
    """What the Preferences dialog edits (unknown keys are refused, see the module text)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    language: str | None = Field(None, description="'ja', 'en' or None for the system language.")
    executable: str = Field("nwchem", description="Default NWChem command (trusted).")
    launcher: str = Field("mpirun", description="Default MPI launcher command (trusted).")
    environment: dict[str, str] = Field(default_factory=dict, description="Trusted extra env.")
    job_root: str | None = Field(
        None,
        description="The job root the person last set in the window: the default job "
        "root of new projects (None: ~/molforma-jobs).",
    )
    scheduler: Literal["local", "slurm"] = Field(
        "local", description="Default scheduler of new documents (trusted)."
    )
    account: str | None = Field(None, description="Default SLURM account (trusted).")
    batch_directives: list[str] = Field(
        default_factory=list, description="Default extra batch options (trusted)."
    )
    profiles: list[ClusterProfile] = Field(
        default_factory=list,
        description="Remote clusters reached over ssh (the person's; "
        "MCP may choose one for a job, never edit one).",
    )

    @field_validator("profiles", mode="after")
    @classmethod
    def _unique_profiles(cls, value: list[ClusterProfile]) -> list[ClusterProfile]:
        names = [p.name for p in value]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"profile name {twice[0]!r} is used twice")
        return value

    def profile(self, name: str) -> ClusterProfile | None:
        """The profile called ``name``, or None."""
        return next((p for p in self.profiles if p.name == name), None)

    @field_validator(
        "executable", "launcher", "environment", "account", "batch_directives", mode="after"
    )
    @classmethod
    def _grammar(cls, value: Any, info: Any) -> Any:
        """The same grammar as the execution settings these become: a trusted value that
        no document could carry is not trusted either (refused with the file)."""
        check = {
            "executable": value_grammar.validate_executable,
            "launcher": value_grammar.validate_launcher,
            "environment": value_grammar.validate_environment,
            "account": value_grammar.validate_account,
            "batch_directives": value_grammar.validate_batch_directives,
        }[info.field_name]
        try:
            check(value)
        except MolFormaError as exc:
            raise ValueError(exc.message("en")) from None
        return value


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


def parse_preferences(text: str) -> Preferences:
    """The Preferences in ``text``, which must be in the Preferences format.

    Raises:
        ValueError: the text is not a Preferences file (the message says why).
    """
    try:
        data = fileio.strict_json_loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    data = dict(data)
    marker = data.pop("format", None)
    version = data.pop("version", None)
    if marker is None and version is None:
        # Written before the marker existed: only the known keys may appear.
        unknown = sorted(set(data) - set(Preferences.model_fields))
        if unknown:
            raise ValueError(f"no format marker and unknown keys {', '.join(unknown)}")
    elif marker != PREFERENCES_FORMAT:
        raise ValueError(f"format is {marker!r}, not {PREFERENCES_FORMAT!r}")
    elif version != PREFERENCES_VERSION:
        raise ValueError(f"version {version!r} is not {PREFERENCES_VERSION}")
    try:
        return Preferences.model_validate(data, strict=True)
    except PydanticValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "(file)"
        raise ValueError(f"{where}: {first['msg']}") from None


# (path, mtime, size) of refused files already reported: every message asks for the
# language, so the same broken file would otherwise be reported again and again.
_reported: set[tuple[str, int, int]] = set()


def _report(path: Path, reason: str) -> None:
    try:
        st = path.stat()
        key = (str(path), st.st_mtime_ns, st.st_size)
    except OSError:
        key = (str(path), 0, 0)
    if key in _reported:
        return
    _reported.add(key)
    # The display language may itself come from the Preferences; ask only the environment.
    lang = os.environ.get("MOLFORMA_LANGUAGE", "").strip().lower()
    if lang not in ("en", "ja"):
        lang = "ja" if os.environ.get("LANG", "").lower().startswith("ja") else "en"
    # Straight to stderr, not through logging: the window and the tests may have no
    # handler configured, and a refused trust file must never go unreported.
    sys.stderr.write(
        render("preferences_refused", {"path": str(path), "reason": reason}, lang) + "\n"
    )
    sys.stderr.flush()


def load_preferences() -> Preferences:
    """Read Preferences; a missing file gives the defaults, a refused one too (reported)."""
    path = preferences_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Preferences()
    except (OSError, ValueError) as exc:
        _report(path, f"unreadable: {exc}")
        return Preferences()
    try:
        return parse_preferences(text)
    except ValueError as exc:
        _report(path, str(exc))
        return Preferences()


def preferences_text(prefs: Preferences) -> str:
    """The file text of ``prefs``: the format marker first, then the settings."""
    data = {"format": PREFERENCES_FORMAT, "version": PREFERENCES_VERSION, **prefs.model_dump()}

    return fileio.strict_json_dumps(data, "The Preferences", indent=2, ensure_ascii=False) + "\n"


def save_preferences(prefs: Preferences) -> None:
    """Write Preferences atomically, with the format marker."""
    fileio.atomic_write_text(preferences_path(), preferences_text(prefs))


_language_cache: dict[str, tuple[int, str | None]] = {}


def preferred_language() -> str | None:
    """The Preferences language, re-read only when the file changed (every message asks).

    :mod:`molforma.i18n` asks this through the hook the package root installs.
    """
    try:
        path = preferences_path()
        try:
            mtime = path.stat().st_mtime_ns
        except OSError:
            return None
        hit = _language_cache.get(str(path))
        if hit is not None and hit[0] == mtime:
            return hit[1]
        lang = load_preferences().language
        _language_cache[str(path)] = (mtime, lang)
        return lang
    except Exception:  # noqa: BLE001 - a broken preferences file must not stop messages
        return None
