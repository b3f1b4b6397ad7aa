"""The system's OpenSSH as the way to a remote cluster (no Qt).

MolForma runs the person's own ``ssh`` and ``scp``, so everything their SSH set-up
already does keeps working: ``~/.ssh/config`` (or the profile's ``ssh_config`` file,
given with ``-F``), jump hosts, keys, agents, Kerberos. Three options are always set
and cannot be weakened by a configuration file, since the command line wins:

- ``BatchMode=yes``: never a password or passphrase prompt; MolForma never sees,
  asks for or stores a password. A login that needs one fails as an authentication
  failure that says how to set up a key or an agent.
- ``StrictHostKeyChecking=yes`` and ``UpdateHostKeys=no``: a host whose key is not in
  known_hosts is refused, never accepted, and no key file is ever written. The message
  says how the person trusts a host (a first ``ssh`` by hand, or ``ssh-keyscan``
  after checking the fingerprint).
- One connection per profile is shared by every command: MolForma starts the master
  connection itself (``ssh -M -N``, ``ControlPersist=no``, a control socket in a private
  folder of this process) from one long-lived thread, and the kernel ends it when
  MolForma ends, however it ends (``PR_SET_PDEATHSIG``, as for local NWChem runs).
  So a job's polling, staging and fetching cost one login, and no ssh process
  outlives the program. Commands use the socket with ``ControlMaster=no``.

Remote commands are argument lists, each word a constant or a value that passed its
grammar (:mod:`molforma.nwchem.value_grammar`), joined with :func:`shlex.join` for the
remote shell: no free text ever reaches it. Failures are :class:`CalculationError`
naming the profile and what failed: ``ssh_dns``, ``ssh_refused``, ``ssh_timeout``,
``ssh_auth``, ``ssh_host_key_unknown``, ``ssh_host_key_changed``, ``ssh_failed``,
``ssh_not_installed``, ``ssh_config_missing`` and ``remote_command_failed``.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import queue
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from molforma.errors import CalculationError
from molforma.i18n import register
from molforma.lazy import lazy_import
from molforma.preferences import ClusterProfile, check_profile

if TYPE_CHECKING:
    from molforma.jobs import processes
else:  # imported by the first connection's thread (start-up time): molforma.lazy
    processes = lazy_import("molforma.jobs.processes")

CONNECT_TIMEOUT = 15  # seconds for the TCP connection and the login
COMMAND_TIMEOUT = 120.0  # seconds for one remote command (sbatch on a busy login node)
TRANSFER_TIMEOUT = 600.0
MASTER_START = CONNECT_TIMEOUT + 10.0  # seconds a master may take to log in

register(
    {
        "ssh_not_installed": {
            "en": "Cluster profile '{profile}': OpenSSH's '{command}' was not found on this "
            "computer. Install the OpenSSH client (Debian: apt-get install "
            "openssh-client).",
            "ja": "クラスタープロファイル「{profile}」: このコンピューターに OpenSSH の「{command}」が"
            "見つかりません。OpenSSH クライアントをインストールしてください（Debian: "
            "apt-get install openssh-client）。",
        },
        "ssh_config_missing": {
            "en": "Cluster profile '{profile}': its ssh_config file '{path}' does not exist. "
            "Correct the profile in Preferences.",
            "ja": "クラスタープロファイル「{profile}」: ssh_config ファイル「{path}」が存在しません。"
            "環境設定でプロファイルを直してください。",
        },
        "ssh_dns": {
            "en": "Cluster profile '{profile}': the host of '{host}' could not be found (DNS: "
            "{reason}). Check HostName in the ssh_config and the network.",
            "ja": "クラスタープロファイル「{profile}」:「{host}」のホストが見つかりません（DNS: "
            "{reason}）。ssh_config の HostName とネットワークを確認してください。",
        },
        "ssh_refused": {
            "en": "Cluster profile '{profile}': the connection to '{host}' was refused ({reason}). "
            "No SSH server answers on that address and port; check HostName and Port in "
            "the ssh_config.",
            "ja": "クラスタープロファイル「{profile}」:「{host}」への接続が拒否されました（{reason}）。"
            "そのアドレスとポートで SSH サーバーが応答していません。ssh_config の HostName と "
            "Port を確認してください。",
        },
        "ssh_timeout": {
            "en": "Cluster profile '{profile}': '{host}' did not answer in time ({reason}). Check "
            "the network, a VPN or the jump host.",
            "ja": "クラスタープロファイル「{profile}」:「{host}」が時間内に応答しませんでした"
            "（{reason}）。ネットワーク、VPN、踏み台ホストを確認してください。",
        },
        "ssh_auth": {
            "en": "Cluster profile '{profile}': '{host}' refused the login ({reason}). MolForma "
            "uses your own SSH keys and agent and never asks for or stores a password: "
            "make 'ssh {host}' work in a terminal without a password prompt (a key in "
            "IdentityFile, ssh-add for the agent), then try again.",
            "ja": "クラスタープロファイル「{profile}」:「{host}」がログインを拒否しました（{reason}）。"
            "MolForma は利用者自身の SSH 鍵とエージェントを使い、パスワードを尋ねることも"
            "保存することもありません。端末で「ssh {host}」がパスワードなしで使えるように"
            "（IdentityFile に鍵、エージェントには ssh-add）してから、もう一度試してください。",
        },
        "ssh_host_key_unknown": {
            "en": "Cluster profile '{profile}': the host key of '{host}' is not trusted yet, so "
            "MolForma did not connect (it never accepts a key by itself). Check the key's "
            "fingerprint with the cluster's administrators, then trust it once: run "
            "'{command}' in a terminal and answer yes, or add it with 'ssh-keyscan' to "
            "the known_hosts file your ssh_config uses and compare 'ssh-keygen -lf' with "
            "the published fingerprint.",
            "ja": "クラスタープロファイル「{profile}」:「{host}」のホスト鍵はまだ信頼されていないため、"
            "接続しませんでした（MolForma が鍵を自動で受け入れることはありません）。鍵の"
            "フィンガープリントをクラスター管理者に確認してから一度だけ信頼してください: 端末で"
            "「{command}」を実行して yes と答えるか、ssh-keyscan で ssh_config が使う "
            "known_hosts に追加し、ssh-keygen -lf の結果を公開されたフィンガープリントと"
            "照合してください。",
        },
        "ssh_host_key_changed": {
            "en": "Cluster profile '{profile}': the host key of '{host}' differs from the one "
            "trusted before, so MolForma did not connect. This can be an attack; ask the "
            "cluster's administrators whether the key changed before removing the old one "
            "(ssh-keygen -R).",
            "ja": "クラスタープロファイル「{profile}」:「{host}」のホスト鍵が以前信頼した鍵と"
            "異なるため、接続しませんでした。攻撃の可能性があります。古い鍵を削除する"
            "（ssh-keygen -R）前に、鍵が変わったかどうかクラスター管理者に確認してください。",
        },
        "ssh_failed": {
            "en": "Cluster profile '{profile}': ssh to '{host}' failed: {reason}",
            "ja": "クラスタープロファイル「{profile}」:「{host}」への ssh が失敗しました: {reason}",
        },
        "remote_command_failed": {
            "en": "Cluster profile '{profile}': '{command}' failed on '{host}' (exit code "
            "{exitCode}): {reason}",
            "ja": "クラスタープロファイル「{profile}」:「{host}」で「{command}」が失敗しました"
            "（終了コード {exitCode}）: {reason}",
        },
    }
)

# ssh's own failures (exit status 255), by the words OpenSSH prints, most specific first.
_FAILURES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "ssh_host_key_changed",
        re.compile(
            r"REMOTE HOST IDENTIFICATION HAS CHANGED|"
            r"host key for .* has changed",
            re.I,
        ),
    ),
    (
        "ssh_host_key_unknown",
        re.compile(
            r"host key is known for|Host key verification failed|"
            r"No .* host key is known",
            re.I,
        ),
    ),
    (
        "ssh_dns",
        re.compile(
            r"Could not resolve hostname|Name or service not known|"
            r"Temporary failure in name resolution",
            re.I,
        ),
    ),
    ("ssh_refused", re.compile(r"Connection refused", re.I)),
    ("ssh_timeout", re.compile(r"timed out|Connection timeout|Operation timed out", re.I)),
    (
        "ssh_auth",
        re.compile(
            r"Permission denied|Too many authentication failures|"
            r"Authentication failed",
            re.I,
        ),
    ),
)
# Lines that never go into a message: they may name a key file or hold a key's text.
_SECRET_LINE = re.compile(
    r"PRIVATE KEY|identity|key file|Load key|passphrase|"
    r"BEGIN |Enter ",
    re.I,
)
_NOISE_LINE = re.compile(r"^(Warning: Permanently added|debug\d?:|Pseudo-terminal)", re.I)


def reason_text(stderr: str) -> str:
    """ssh's own words for a failure, shortened, without any line that could name or hold
    a key (a message may reach an MCP client)."""
    lines = [ln.strip() for ln in stderr.replace("\r", "\n").splitlines()]
    lines = [ln for ln in lines if ln and not _NOISE_LINE.match(ln) and not _SECRET_LINE.search(ln)]
    text = " ".join(lines)
    return (text[:300] + "…") if len(text) > 300 else (text or "no reason given")


def classify(
    profile: ClusterProfile,
    stderr: str,
    *,
    timed_out: bool = False,
) -> CalculationError:
    """The error an ssh failure is, naming the profile and what failed."""
    data = {
        "profile": profile.name,
        "host": profile.host,
        "setting": "remote_profile",
        "reason": reason_text(stderr),
    }
    if timed_out:
        return CalculationError("ssh_timeout", **{**data, "reason": "no answer in time"})
    for code, pattern in _FAILURES:
        if pattern.search(stderr):
            if code == "ssh_host_key_unknown":
                data["command"] = shlex.join(first_login_argv(profile))
            return CalculationError(code, **data)
    return CalculationError("ssh_failed", **data)


def first_login_argv(profile: ClusterProfile) -> list[str]:
    """What the person runs once by hand to see and trust a host key."""
    argv = ["ssh"]
    if profile.ssh_config:
        argv += ["-F", profile.ssh_config]
    return [*argv, profile.host, "true"]


def remote_path(path: str) -> str:
    """A remote folder as commands take it: ``~/x`` is ``x`` (relative to the login's home
    folder, where ssh commands start), so no tilde is left for a shell to expand."""
    return path[2:] if path.startswith("~/") else path


# One private folder per process for the control sockets: nobody else can connect
# through them, and a path of ~45 characters stays under the socket path limit.
_CONTROL_LOCK = threading.Lock()
_control_dir: Path | None = None
_masters: dict[str, subprocess.Popen[bytes]] = {}  # control socket -> its master ssh
_master_locks: dict[str, threading.Lock] = {}


def _control_path(profile: ClusterProfile) -> str:
    """The control socket of one profile's connection.

    Named by the profile's alias and ssh_config file, not by ssh's ``%C`` (local host,
    host name, port, user): two profiles reaching one server through different
    ssh_config files (another known_hosts, another key) must never share a connection,
    or the second would skip its own host-key check.
    """
    global _control_dir
    with _CONTROL_LOCK:
        if _control_dir is None or not _control_dir.is_dir():
            _control_dir = Path(
                tempfile.mkdtemp(
                    prefix="molforma-ssh-", dir="/tmp" if os.path.isdir("/tmp") else None
                )
            )
        tag = hashlib.sha256(f"{profile.host}\0{profile.ssh_config or ''}".encode())
        return str(_control_dir / tag.hexdigest()[:16])


class _Keeper:
    """The one thread that starts master connections.

    The kernel's "end with us" signal (``PR_SET_PDEATHSIG``) fires when the *thread*
    that started a child ends; masters are shared by many short-lived threads (an MCP
    request, a job's follower), so they are all started from this thread, which lives
    as long as the program.
    """

    def __init__(self) -> None:
        self._requests: queue.Queue[tuple[list[str], Path, list[Any], threading.Event]] = (
            queue.Queue()
        )
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def spawn(self, argv: list[str], log_path: Path) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._serve, name="ssh-masters", daemon=True)
                self._thread.start()
        box: list[Any] = []
        done = threading.Event()
        self._requests.put((argv, log_path, box, done))
        done.wait()
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]  # type: ignore[no-any-return]

    def _serve(self) -> None:
        while True:
            argv, log_path, box, done = self._requests.get()
            try:
                with log_path.open("wb") as log:
                    box.append(
                        subprocess.Popen(
                            argv,
                            stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL,
                            stderr=log,
                            start_new_session=True,
                            preexec_fn=processes._END_WITH_US,
                        )
                    )
            except OSError as exc:
                box.append(exc)
            done.set()


_KEEPER = _Keeper()


class Ssh:
    """ssh and scp to one profile's host, through one shared connection."""

    def __init__(self, profile: ClusterProfile) -> None:
        check_profile(profile)  # a profile built without validation is checked here too
        self.profile = profile

    # -- the command lines --------------------------------------------------------------------
    def _exe(self, name: str) -> str:
        found = shutil.which(name)
        if not found:
            raise CalculationError(
                "ssh_not_installed",
                profile=self.profile.name,
                command=name,
                setting="remote_profile",
            )
        return found

    def _config_args(self) -> list[str]:
        cfg = self.profile.ssh_config
        if not cfg:
            return []
        path = os.path.expanduser(cfg)
        if not os.path.isfile(path):
            raise CalculationError(
                "ssh_config_missing", profile=self.profile.name, path=cfg, setting="remote_profile"
            )
        return ["-F", path]

    def _options(self, **changes: str) -> list[str]:
        opts = {
            "BatchMode": "yes",
            "StrictHostKeyChecking": "yes",
            "UpdateHostKeys": "no",
            "ConnectTimeout": str(CONNECT_TIMEOUT),
            "ServerAliveInterval": "15",
            "ServerAliveCountMax": "3",
            "ControlMaster": "no",
            "ControlPath": _control_path(self.profile),
            "ClearAllForwardings": "yes",
            "ForwardAgent": "no",
            "ForwardX11": "no",
            "RequestTTY": "no",
            **changes,
        }
        out: list[str] = []
        for key, value in opts.items():
            out += ["-o", f"{key}={value}"]
        return out

    def ssh_argv(self, argv: Sequence[str]) -> list[str]:
        """The local command line running ``argv`` on the host (for the tests, too)."""
        return [
            self._exe("ssh"),
            *self._config_args(),
            *self._options(),
            "--",
            self.profile.host,
            shlex.join(list(argv)),
        ]

    # -- running ------------------------------------------------------------------------------
    def run(
        self, argv: Sequence[str], *, timeout: float = COMMAND_TIMEOUT, check: bool = True
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``argv`` on the host (each word quoted for the remote shell).

        Raises:
            CalculationError: ssh's own failure (see the module text), or
                ``remote_command_failed`` when ``check`` and the command exits non-zero.
        """
        res = self._call(self.ssh_argv(argv), timeout)
        if res.returncode == 255:
            raise classify(self.profile, res.stderr.decode("utf-8", "replace"))
        if check and res.returncode != 0:
            raise CalculationError(
                "remote_command_failed",
                profile=self.profile.name,
                host=self.profile.host,
                command=argv[0],
                exitCode=res.returncode,
                setting="remote_profile",
                reason=reason_text(
                    res.stderr.decode("utf-8", "replace") or res.stdout.decode("utf-8", "replace")
                ),
            )
        return res

    def _call(self, cmd: list[str], timeout: float) -> subprocess.CompletedProcess[bytes]:
        """Run ``cmd`` (ssh or scp) over this profile's master connection; a time-out or
        a command that cannot start is ssh's own failure, named for the profile."""
        self._ensure_master()
        try:
            return subprocess.run(
                cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired as exc:
            raise classify(self.profile, "", timed_out=True) from exc
        except OSError as exc:
            raise CalculationError(
                "ssh_failed",
                profile=self.profile.name,
                host=self.profile.host,
                setting="remote_profile",
                reason=exc.strerror or str(exc),
            ) from exc

    def _scp(self, sources: list[str], target: str, timeout: float) -> None:
        cmd = [
            self._exe("scp"),
            *self._config_args(),
            *self._options(),
            "-p",
            "-q",
            "--",
            *sources,
            target,
        ]
        res = self._call(cmd, timeout)
        if res.returncode != 0:
            err = res.stderr.decode("utf-8", "replace")
            failure = classify(self.profile, err)
            if failure.code == "ssh_failed":
                raise CalculationError(
                    "remote_command_failed",
                    profile=self.profile.name,
                    host=self.profile.host,
                    command="scp",
                    exitCode=res.returncode,
                    setting="remote_profile",
                    reason=reason_text(err),
                )
            raise failure

    def upload(
        self, files: Sequence[Path], remote_dir: str, timeout: float = TRANSFER_TIMEOUT
    ) -> None:
        """Copy local ``files`` into ``remote_dir`` (which exists) on the host."""
        self._scp(
            [str(f) for f in files], f"{self.profile.host}:{remote_path(remote_dir)}/", timeout
        )

    def download(
        self, remote_files: Sequence[str], local_dir: Path, timeout: float = TRANSFER_TIMEOUT
    ) -> None:
        """Copy ``remote_files`` (paths on the host) into ``local_dir``."""
        if not remote_files:
            return
        self._scp(
            [f"{self.profile.host}:{remote_path(f)}" for f in remote_files],
            str(local_dir) + os.sep,
            timeout,
        )

    # -- the shared connection -----------------------------------------------------------------
    def _ensure_master(self) -> None:
        """Start this profile's master connection unless it is up.

        Its login is where an unknown host key, a refused login or an unreachable host
        shows first: the master's own words are classified and raised.

        Raises:
            CalculationError: as :func:`classify`, ``ssh_not_installed``,
                ``ssh_config_missing``.
        """
        socket_path = _control_path(self.profile)
        with _CONTROL_LOCK:
            lock = _master_locks.setdefault(socket_path, threading.Lock())
        with lock:
            proc = _masters.get(socket_path)
            if proc is not None and proc.poll() is None and os.path.exists(socket_path):
                return
            if proc is not None:
                _stop(proc)
            # A socket left by a master that died (a dropped network) would make the new
            # master run without listening and every command wait on a dead socket.
            with contextlib.suppress(FileNotFoundError):
                os.unlink(socket_path)
            argv = [
                self._exe("ssh"),
                *self._config_args(),
                *self._options(ControlMaster="yes", ControlPersist="no"),
                "-N",
                "--",
                self.profile.host,
            ]
            log_path = Path(socket_path + ".log")
            proc = _KEEPER.spawn(argv, log_path)
            deadline = time.monotonic() + MASTER_START
            while not os.path.exists(socket_path):
                if proc.poll() is not None:
                    text = log_path.read_bytes().decode("utf-8", "replace")
                    raise classify(self.profile, text)
                if time.monotonic() > deadline:
                    _stop(proc)
                    raise classify(self.profile, "", timed_out=True)
                time.sleep(0.02)
            with _CONTROL_LOCK:
                _masters[socket_path] = proc

    def close(self) -> None:
        """End this profile's shared connection, if one is up."""
        socket_path = _control_path(self.profile)
        with _CONTROL_LOCK:
            proc = _masters.pop(socket_path, None)
        if proc is not None:
            _stop(proc)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def close_all() -> None:
    """End every shared connection this process opened (the program ends)."""
    with _CONTROL_LOCK:
        procs = list(_masters.values())
        _masters.clear()
    for proc in procs:
        with contextlib.suppress(OSError):
            _stop(proc)


def _remove_control_dir() -> None:
    """At exit: the connections are closed, their private folder goes too."""
    close_all()
    with _CONTROL_LOCK:
        if _control_dir is not None:
            shutil.rmtree(_control_dir, ignore_errors=True)


atexit.register(_remove_control_dir)
