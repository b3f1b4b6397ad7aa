"""Server-side safety rules for MCP: allowed directories and protected settings (no Qt;
application layer).

docs/reference/safety.md. Only launch options build a :class:`Policy`; nothing an MCP
client sends can change it. It is the safety policy of the MCP actors, so it lives
beside :mod:`molforma.app.actor`, which decides when it applies (never to the person's
own clicks); the job runner below knows nothing of it. The MCP server, the callers of the job runner and the
window all ask the same policy: :meth:`Policy.check_path` for every path that MCP
makes MolForma read or write, :func:`check_protected_change` for ``set_execution``
and ``set_nwchem``, and :func:`may_start` before a calculation that MCP starts.

The values that can run arbitrary code (executable, launcher, environment, extra
input and extra tasks) are compared after filling in their defaults, so a project
that omits a key is not "different" from one that spells the default out.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from molforma.errors import (
    CalculationError,
    FileAccessError,
    ProtectedSettingError,
    ValidationError,
)
from molforma.fileio import (
    DIR_FD_SUPPORTED,
    fd_real_path,
    make_directories,
    open_directory,
    open_regular,
    write_atomic_at,
    write_file_atomically,
)
from molforma.i18n import register
from molforma.lazy import lazy_import
from molforma.nwchem.settings import (
    ADVANCED_PATH_KEYS,
    PROTECTED_CALCULATION_KEYS,
    PROTECTED_EXECUTION_KEYS,
    CalculationSettings,
    ExecutionSettings,
)

if TYPE_CHECKING:
    from molforma import preferences
else:  # imported on first use (start-up time): molforma.lazy
    preferences = lazy_import("molforma.preferences")

PROTECTED_KEYS: tuple[str, ...] = PROTECTED_EXECUTION_KEYS + PROTECTED_CALCULATION_KEYS

# Advanced keys that name something NWChem writes (directories it fills, vectors it saves).
_ADVANCED_WRITE_KEYS = frozenset({"scratch_dir", "permanent_dir", "output_movecs"})

# How many symlinks one path may pass through before it counts as a loop.
_MAX_LINKS = 40

# Longest file name and path the common file systems take (NAME_MAX, PATH_MAX): longer
# ones fail with ENAMETOOLONG deep inside the OS calls, so they are refused up front.
MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 4095

register(
    {
        "path_not_allowed": {
            "en": "'{path}' is outside the directories MCP may use ({allowed}). Start MolForma "
            "with --mcp-allow-dir for that directory, or choose a path inside one of them.",
            "ja": "「{path}」はMCPが使えるディレクトリ（{allowed}）の外にあります。"
            "そのディレクトリを --mcp-allow-dir に指定して起動するか、許可された場所のパスを"
            "指定してください。",
        },
        "dangling_link": {
            "en": "'{path}' is a symbolic link whose target does not exist; it is refused.",
            "ja": "「{path}」はリンク先のないシンボリックリンクのため使えません。",
        },
        "path_not_found": {
            "en": "'{path}' does not exist.",
            "ja": "「{path}」が存在しません。",
        },
        "path_not_directory": {
            "en": "'{parent}' is not a directory (needed for '{path}').",
            "ja": "「{parent}」はディレクトリではありません（「{path}」に必要です）。",
        },
        "untrusted_execution": {
            "en": "The calculation was not started: these settings differ from the values the "
            "person trusts: {differences}. Ask the person to check them and press Run in the "
            "MolForma window (or save them in Preferences for headless mode).",
            "ja": "計算を開始しませんでした。次の設定が利用者の信頼済みの値と異なります: "
            "{differences}。MolFormaのウィンドウで利用者に内容を確認して「実行」を押してもらうか、"
            "画面なしモードでは環境設定に保存してもらってください。",
        },
        "path_in_config_dir": {
            "en": "'{path}' is inside MolForma's configuration directory ({config_dir}), which "
            "holds the Preferences (the trusted NWChem command). MCP never reads or writes "
            "there, whatever --mcp-allow-dir allows; choose a path elsewhere.",
            "ja": "「{path}」はMolFormaの設定ディレクトリ（{config_dir}）の中にあります。ここには"
            "環境設定（信頼済みのNWChemコマンド）があるため、--mcp-allow-dir の指定に関わらず"
            "MCPからは読み書きしません。別の場所を指定してください。",
        },
        "path_too_long": {
            "en": "'{path}' is too long: a name in a path may have at most {max} bytes and the "
            "whole path at most {max_path} bytes. Choose a shorter name.",
            "ja": "「{path}」は長すぎます。パスの各名前は最大 {max} バイト、パス全体は最大 "
            "{max_path} バイトです。短い名前を指定してください。",
        },
        "unknown_settings_block": {
            "en": "Unknown settings block '{block}' (expected 'execution' or 'calculation').",
            "ja": "不明な設定ブロック「{block}」です（'execution' または 'calculation'）。",
        },
    }
)


def _expand(path: str | os.PathLike[str]) -> Path:
    """``~`` and ``~/...`` to the home directory, relative paths to the working directory."""
    p = Path(os.path.expanduser(os.fspath(path)))
    return p if p.is_absolute() else Path.cwd() / p


def check_name_lengths(path: str | os.PathLike[str], shown: str | None = None) -> None:
    """Refuse a path with a component over 255 bytes or a whole path over 4,095 bytes.

    Raises:
        FileAccessError: ``path_too_long``.
    """
    text = os.fspath(path)
    encoded = os.fsencode(text)
    parts = re.split(rb"[/\\]", encoded) if os.name == "nt" else encoded.split(b"/")
    if len(encoded) > MAX_PATH_BYTES or any(len(p) > MAX_NAME_BYTES for p in parts):
        raise FileAccessError(
            "path_too_long",
            path=shown if shown is not None else text,
            max=MAX_NAME_BYTES,
            max_path=MAX_PATH_BYTES,
        )


def _config_dirs() -> list[Path]:
    """The configuration directory as given and resolved (it may not exist yet)."""
    given = _expand(preferences.config_dir())
    return list(dict.fromkeys([given, Path(os.path.realpath(given))]))


def _in_config_dir(resolved: Path) -> Path | None:
    """The configuration directory when ``resolved`` lies inside it, else None.

    Compared by name and, for the parts that exist, by device and inode, so another
    spelling of the same directory (a bind mount, a case-insensitive file system)
    is caught too.
    """
    dirs = _config_dirs()
    for d in dirs:
        if resolved == d or resolved.is_relative_to(d):
            return dirs[-1]
    stats = []
    for d in dirs:
        try:
            stats.append(os.stat(d))
        except OSError:
            continue
    if not stats:
        return None
    for ancestor in (resolved, *resolved.parents):
        try:
            st = os.stat(ancestor)
        except OSError:
            continue
        if any(os.path.samestat(st, s) for s in stats):
            return dirs[-1]
    return None


def _walk(path: Path, shown: str) -> Path:
    """Resolve ``path`` component by component, following symlinks.

    Unlike ``Path.resolve(strict=False)`` this notices a dangling link anywhere on the
    way (the final name or a directory in the middle), which must be refused even
    when its target would lie inside an allowed directory: writing through it would
    create a file the check never saw.

    Raises:
        FileAccessError: ``dangling_link`` for a link to nothing or a link loop.
    """
    current = Path(path.anchor)
    pending = list(path.parts[1:])
    links = 0
    while pending:
        part = pending.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            # ``current`` is already free of links, so its parent is the real parent.
            current = current.parent
            continue
        nxt = current / part
        if os.path.islink(nxt):
            links += 1
            # exists() follows every link: False means a link to nothing or a loop.
            if links > _MAX_LINKS or not os.path.exists(nxt):
                raise FileAccessError("dangling_link", path=shown)
            try:
                target = Path(os.readlink(nxt))
            except OSError as exc:
                raise FileAccessError(path=shown, reason=exc.strerror or str(exc)) from exc
            if not target.is_absolute():
                target = current / target
            # Walk the target's own components: it may hold further links and "..".
            current = Path(target.anchor)
            pending = list(target.parts[1:]) + pending
            continue
        current = nxt
    return current


def _same_protected(key: str, a: Any, b: Any) -> bool:
    return bool(_normalized(key, a) == _normalized(key, b))


_DEFAULTS: dict[str, Any] = {
    **{k: ExecutionSettings().model_dump()[k] for k in PROTECTED_EXECUTION_KEYS},
    **{k: CalculationSettings().model_dump()[k] for k in PROTECTED_CALCULATION_KEYS},
}


def _normalized(key: str, value: Any) -> Any:
    """A comparable form: missing means the default; mappings and lists by content."""
    if value is None:
        value = _DEFAULTS.get(key)
    if isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    if isinstance(value, tuple):
        return list(value)
    return value


@dataclass(frozen=True)
class Policy:
    """What MCP may touch, fixed by the launch options.

    Attributes:
        allow_dirs: Directories (resolved at construction) under which MCP may read and
            write; empty means no restriction.
        allow_execution_settings: ``--mcp-allow-execution-settings`` was given.
    """

    allow_dirs: tuple[Path, ...] = field(default=())
    allow_execution_settings: bool = False

    def __post_init__(self) -> None:
        # Resolve the allowed directories once, so that a symlinked allowed directory
        # (e.g. /tmp -> /private/tmp) compares equal to the paths resolved later.
        resolved = tuple(Path(os.path.realpath(_expand(d))) for d in self.allow_dirs)
        object.__setattr__(self, "allow_dirs", resolved)

    @property
    def restricted(self) -> bool:
        """True when ``--mcp-allow-dir`` was given."""
        return bool(self.allow_dirs)

    def _inside(self, p: Path) -> bool:
        return any(p == d or p.is_relative_to(d) for d in self.allow_dirs)

    def check_path(
        self, path: str | os.PathLike[str], *, must_exist: bool = False, for_write: bool = False
    ) -> Path:
        """Check one path MCP wants MolForma to read or write and return it resolved.

        ``~`` expands to the home directory and symlinks are followed; ``..`` is applied
        after following links, as the operating system does. A path that does not exist
        yet (a file to write) is resolved through its existing parents. With no allowed
        directories every path passes (only expanded and resolved).

        Args:
            path: The path as given by the client.
            must_exist: Refuse a path that does not exist.
            for_write: The caller will create or write it: the nearest existing parent
                must be a directory.

        Whatever the allowed directories (and with none), a path inside the
        configuration directory (where the Preferences live) is refused, and so is a
        name longer than the file system takes. Every path MCP makes MolForma read or
        write passes here, so later callers inherit both rules.

        Raises:
            FileAccessError: ``path_not_allowed`` (outside every allowed directory),
                ``dangling_link`` (a link to nothing, refused even when it points
                inside), ``path_in_config_dir``, ``path_too_long``, ``path_not_found``,
                ``path_not_directory``, or ``file_error`` for a path holding a NUL
                character.
        """
        shown = os.fspath(path)
        if not shown:
            raise FileAccessError("path_not_found", path=shown)
        if "\x00" in shown:
            # The OS calls below would raise ValueError; give the caller a clear refusal.
            raise FileAccessError(
                path=shown.replace("\x00", "\\0"), reason="the path contains a NUL character"
            )
        check_name_lengths(shown)
        expanded = _expand(path)
        check_name_lengths(expanded, shown)
        if self.restricted:
            resolved = _walk(expanded, shown)
            if not self._inside(resolved):
                raise FileAccessError(
                    "path_not_allowed", path=shown, allowed=[str(d) for d in self.allow_dirs]
                )
        else:
            resolved = Path(os.path.realpath(expanded))
        config = _in_config_dir(resolved)
        if config is not None:
            # The Preferences there decide what headless mode trusts: no MCP read or
            # write may touch them, whatever the allowed directories (docs/reference/safety.md, Allowed directories).
            raise FileAccessError("path_in_config_dir", path=shown, config_dir=str(config))
        if must_exist and not resolved.exists():
            raise FileAccessError("path_not_found", path=shown)
        if for_write:
            parent = resolved
            while not parent.exists() and parent != parent.parent:
                parent = parent.parent
            if parent != resolved and not parent.is_dir():
                raise FileAccessError("path_not_directory", path=shown, parent=str(parent))
        return resolved

    def read_guard(self) -> ReadGuard:
        """A check for each file a loader opens (the results reader, History).

        A folder that passed :meth:`check_path` may still hold a link to a file
        elsewhere; the loader asks this guard about every file, and opens it through
        the guard so that the file checked is the file read.
        """
        return ReadGuard(self)

    # -- checked opens: the check and the use are one step -------------------------------------
    #
    # check_path alone leaves a window: a folder on the path can be swapped for a link to
    # elsewhere after the check and before the open. These open first and then ask the
    # kernel where the descriptor really is, so what is read or written is what was judged.

    def verify_open(self, fd: int, shown: str, expected: Path) -> Path:
        """The real location of the open file or folder ``fd``, judged like a path.

        ``expected`` is what :meth:`check_path` resolved; it is used only where the
        system cannot say where a descriptor is (then the descriptor must be that very
        file).

        Raises:
            FileAccessError: ``path_not_allowed`` or ``path_in_config_dir`` for where the
                descriptor really is; ``file_error`` when it is not the file checked.
        """
        real = fd_real_path(fd)
        if real is None:
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(expected))
            except OSError:
                same = False
            if not same:
                raise FileAccessError(path=shown, reason="it changed while it was opened")
            real_path = expected
        else:
            real_path = Path(real)
        if self.restricted and not self._inside(real_path):
            raise FileAccessError(
                "path_not_allowed", path=shown, allowed=[str(d) for d in self.allow_dirs]
            )
        config = _in_config_dir(real_path)
        if config is not None:
            raise FileAccessError("path_in_config_dir", path=shown, config_dir=str(config))
        return real_path

    def open_for_read(self, path: str | os.PathLike[str]) -> BinaryIO:
        """Open a regular file MCP makes MolForma read, judged where it really is.

        The path is checked as by :meth:`check_path` (for a clear error), opened once
        without blocking (a named pipe or a device is refused before any read), and the
        open descriptor's real location is judged again. The file's ``name`` is its
        real path.

        Raises:
            FileAccessError: as :meth:`check_path` and :meth:`verify_open`, and
                ``not_regular_file``.
        """
        shown = os.fspath(path)
        resolved = self.check_path(path, must_exist=True)
        fh = open_regular(resolved, shown=shown)
        try:
            real = self.verify_open(fh.fileno(), shown, resolved)
            fh.raw.name = str(real)  # type: ignore[attr-defined]
        except BaseException:
            fh.close()
            raise
        return fh

    def open_directory(self, path: str | os.PathLike[str]) -> tuple[int, Path]:
        """A descriptor of a folder MCP makes MolForma list, and its real path.

        Raises:
            FileAccessError: as :meth:`check_path` and :meth:`verify_open`, and
                ``path_not_directory``.
        """
        shown = os.fspath(path)
        resolved = self.check_path(path, must_exist=True)
        fd = open_directory(resolved, shown=shown)
        try:
            real = self.verify_open(fd, shown, resolved)
        except BaseException:
            os.close(fd)
            raise
        return fd, real

    def write_atomic(self, path: str | os.PathLike[str], data: bytes) -> Path:
        """Write a file MCP makes MolForma write: checked, then written atomically
        through its folder's descriptor. Returns the path written (resolved).

        The folder is opened (and missing folders made) before the write; its real
        location is judged, and the temporary file is made and renamed through that
        descriptor, so a folder swapped for a link meanwhile cannot take the data
        elsewhere. With no allowed directories only the configuration directory is
        refused; the write is atomic either way (no torn file).

        Raises:
            FileAccessError: as :meth:`check_path` and :meth:`verify_open`, or the
                write failed (nothing is left behind).
        """
        shown = os.fspath(path)
        resolved = self.check_path(path, for_write=True)
        if not resolved.name:
            raise FileAccessError(path=shown, reason="not a file name")
        folder = resolved.parent
        if not DIR_FD_SUPPORTED:
            # No folder descriptors (Windows): the checked path, still written atomically.
            write_file_atomically(resolved, data)
            return resolved
        fd = make_directories(
            folder, shown, verify=lambda dfd: self.verify_open(dfd, shown, folder)
        )
        try:
            # The folders made after the check hang below the judged one (O_NOFOLLOW);
            # judge the last one too, as cheap insurance.
            self.verify_open(fd, shown, folder)
            write_atomic_at(fd, resolved.name, data, shown, folder)
        finally:
            os.close(fd)
        return resolved

    def check_advanced_paths(
        self, advanced: Mapping[str, Any], job_root: str | os.PathLike[str] | None = None
    ) -> None:
        """Check the path-valued advanced settings (scratch/permanent dir, movecs files).

        Absolute (and ``~``) paths must lie inside an allowed directory and never in the
        configuration directory. Relative paths are relative to the job folder, which
        is itself under the checked job root, so they pass unless a ``..`` component
        could climb out of it: refused when directories are restricted, else checked
        against the configuration directory from ``job_root`` (when given).

        Raises:
            FileAccessError: ``path_not_allowed``, ``path_in_config_dir``,
                ``path_too_long`` or ``dangling_link``.
        """
        for key in ADVANCED_PATH_KEYS:
            value = advanced.get(key)
            if not isinstance(value, str) or not value.strip():
                continue
            text = value.strip()
            if os.path.isabs(text) or text.startswith("~"):
                self.check_path(text, for_write=key in _ADVANCED_WRITE_KEYS)
            elif ".." in Path(text).parts:
                if self.restricted:
                    raise FileAccessError(
                        "path_not_allowed", path=text, allowed=[str(d) for d in self.allow_dirs]
                    )
                if job_root is not None:
                    # A job folder is one level below the job root; its name does not matter.
                    where = os.path.normpath(_expand(job_root) / "job" / text)
                    self.check_path(where, for_write=key in _ADVANCED_WRITE_KEYS)
            else:
                check_name_lengths(text)

    def to_dict(self, trusted: Mapping[str, Any]) -> dict[str, Any]:
        """``get_execution.policy``: allowed directories, the flag and the trusted values."""
        return {
            "allowedDirectories": [str(d) for d in self.allow_dirs],
            "executionSettingsAllowed": self.allow_execution_settings,
            "trusted": {**trusted, **{k: _normalized(k, trusted.get(k)) for k in PROTECTED_KEYS}},
        }


@dataclass(frozen=True)
class ReadGuard:
    """The policy's check for each file a loader opens: call it for the checked path,
    or open through it (:meth:`open_for_read`) so that the check and the read are one."""

    policy: Policy

    def __call__(self, path: str | os.PathLike[str]) -> Path:
        """The path checked and resolved (:meth:`Policy.check_path`, must exist)."""
        return self.policy.check_path(path, must_exist=True)

    def open_for_read(self, path: str | os.PathLike[str]) -> BinaryIO:
        """:meth:`Policy.open_for_read`."""
        return self.policy.open_for_read(path)

    def open_directory(self, path: str | os.PathLike[str]) -> tuple[int, Path]:
        """:meth:`Policy.open_directory`."""
        return self.policy.open_directory(path)

    def write_atomic(self, path: str | os.PathLike[str], data: bytes) -> Path:
        """:meth:`Policy.write_atomic`."""
        return self.policy.write_atomic(path, data)


def check_protected_change(
    current: Mapping[str, Any], new_values: Mapping[str, Any], block: str, policy: Policy
) -> None:
    """Refuse an MCP change of a protected setting unless the launch option allows it.

    Args:
        current: The block as it is now (``execution`` or ``calculation`` of the project).
        new_values: The keys the request sets.
        block: ``"execution"`` (``set_execution``) or ``"calculation"`` (``set_nwchem``;
            ``"nwchem"`` is accepted as a synonym).
        policy: The process policy.

    Raises:
        ProtectedSettingError: ``setting`` names the first protected key whose new value
            differs from the current one. Setting the same value is allowed.
        ValidationError: unknown ``block``.
    """
    if block == "execution":
        keys = PROTECTED_EXECUTION_KEYS
    elif block in ("calculation", "nwchem"):
        keys = PROTECTED_CALCULATION_KEYS
    else:
        raise ValidationError("unknown_settings_block", block=block)
    if policy.allow_execution_settings:
        return
    for key in keys:
        if key in new_values and not _same_protected(key, new_values[key], current.get(key)):
            raise ProtectedSettingError(setting=key)


def differences(doc_protected: Mapping[str, Any], trusted: Mapping[str, Any]) -> list[str]:
    """The protected keys whose document value differs from the trusted one."""
    return [
        k for k in PROTECTED_KEYS if not _same_protected(k, doc_protected.get(k), trusted.get(k))
    ]


def may_start(
    doc_protected: Mapping[str, Any], trusted: Mapping[str, Any], policy: Policy, origin: str
) -> None:
    """Refuse a calculation started through MCP with untrusted protected values.

    A loaded project or a reused history entry may carry another executable or extra
    input than the person last set; MCP must not run it. Starts from the window
    (``origin`` other than ``"mcp"``) are decided by the window's own confirmation.

    Args:
        doc_protected: ``molforma.document.document.protected_values(project)``.
        trusted: The document's trusted values (``Document.trusted`` or
            :func:`headless_trusted`).
        policy: The process policy.
        origin: ``"mcp"`` for a start requested by an MCP client.

    Raises:
        CalculationError: ``untrusted_execution`` with ``differences`` (the keys).
    """
    if origin != "mcp" or policy.allow_execution_settings:
        return
    diff = differences(doc_protected, trusted)
    if diff:
        raise CalculationError("untrusted_execution", differences=diff)


def headless_trusted() -> dict[str, Any]:
    """The trusted values of headless mode: Preferences, no extra input or tasks."""
    prefs = preferences.load_preferences()
    return {
        "executable": prefs.executable,
        "launcher": prefs.launcher,
        "environment": dict(prefs.environment),
        "scheduler": prefs.scheduler,
        "account": prefs.account,
        "batch_directives": list(prefs.batch_directives),
        "extra_input": "",
        "extra_tasks": [],
    }
