"""A real OpenSSH server in front of the tests' single-node SLURM (tests/slurm_cluster.py).

Everything lives in one temporary folder: the server's host key, a client key, the
server's configuration, an ``ssh_config`` with the alias :data:`ALIAS`, a
``known_hosts`` that trusts the host key (and an empty one for the untrusted alias),
and the remote work folder, which lies outside any local job root so that results
must really be fetched. The server listens on 127.0.0.1 on a free port and runs in
the foreground of its own session (``-D``), so the pid recorded at start is its own
and :meth:`SshRig.stop` ends exactly it.

How the ssh session finds the cluster. A login node has SLURM's configuration in
``/etc/slurm``; this cluster's lives in its temporary folder, so the server hands
``SLURM_CONF`` to every session with ``SetEnv`` in its own configuration. That is the
server's side, as on a real login node: MolForma's process (and a spawned
``molforma``) runs WITHOUT ``SLURM_CONF``, so it can reach SLURM only through ssh.

Running as root (as the tests here do): ``PermitRootLogin prohibit-password`` lets the
client key in; ``StrictModes no`` because the keys live in a temporary folder whose
parents are not root-only; ``AuthorizedKeysFile`` is an absolute path in the folder.
OpenSSH's client finds ``~/.ssh`` through the account, not ``$HOME``, so the client
side is given everything explicitly: ``-F ssh_config`` with ``IdentityFile``,
``IdentitiesOnly`` and ``UserKnownHostsFile``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ALIAS = "molforma-rig"
UNTRUSTED_ALIAS = "molforma-rig-untrusted"  # same server, a known_hosts without its key
REFUSED_ALIAS = "molforma-rig-refused"  # a port nobody listens on
UNAUTHORIZED_ALIAS = "molforma-rig-stranger"  # a client key the server does not know
SSHD = "/usr/sbin/sshd"


def sshd_installed() -> bool:
    """True when OpenSSH's server and client are installed."""
    return os.path.exists(SSHD) and all(shutil.which(n) for n in ("ssh", "scp", "ssh-keygen"))


def started_rig(slurm_cluster: Any) -> Iterator[SshRig]:
    """A module fixture's body: the rig in front of ``slurm_cluster`` while the module runs.

    Skipped (a failure under CI, see tests/conftest.py) where sshd is not installed. At
    the end this process's ssh connections to the rig close before its sshd stops.
    """
    import pytest

    if not sshd_installed():
        pytest.skip("OpenSSH's server is not installed (apt-get install openssh-server)")
    started = SshRig(slurm_cluster.conf).start()
    try:
        yield started
    finally:
        from molforma.jobs import ssh

        ssh.close_all()
        started.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _state(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


class SshRig:
    """Start with :meth:`start`, stop with :meth:`stop`."""

    def __init__(self, slurm_conf: Path) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="molforma-sshrig-"))
        self.slurm_conf = slurm_conf
        self.port = _free_port()
        self.refused_port = _free_port()
        self.ssh_config = self.root / "client" / "ssh_config"
        self.client_key = self.root / "client" / "id_ed25519"
        self.known_hosts = self.root / "client" / "known_hosts"
        self.remote_folder = self.root / "remote" / "molforma-jobs"
        self.user = os.environ.get("USER") or "root"
        self.proc: subprocess.Popen[bytes] | None = None

    def _keygen(self, path: Path) -> None:
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "molforma-rig", "-f", str(path)],
            check=True,
            capture_output=True,
            timeout=30,
        )

    def _write_files(self) -> None:
        import pwd

        self.user = pwd.getpwuid(os.getuid()).pw_name
        server = self.root / "server"
        client = self.root / "client"
        for d in (server, client, self.remote_folder.parent):
            d.mkdir(mode=0o700)
        host_key = server / "ssh_host_ed25519_key"
        self._keygen(host_key)
        self._keygen(self.client_key)
        self._keygen(client / "stranger_ed25519")
        (server / "authorized_keys").write_text((self.client_key.with_suffix(".pub")).read_text())
        (server / "sshd_config").write_text(
            "\n".join(
                [
                    f"Port {self.port}",
                    "ListenAddress 127.0.0.1",
                    f"HostKey {host_key}",
                    f"PidFile {server / 'sshd.pid'}",
                    f"AuthorizedKeysFile {server / 'authorized_keys'}",
                    "PermitRootLogin prohibit-password",
                    "PubkeyAuthentication yes",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "UsePAM no",
                    "StrictModes no",
                    "PermitUserEnvironment no",
                    "X11Forwarding no",
                    "AllowTcpForwarding no",
                    "MaxStartups 50",
                    "MaxSessions 50",
                    # The login node's side of the cluster's configuration (see the module text).
                    f"SetEnv SLURM_CONF={self.slurm_conf}",
                    "Subsystem sftp internal-sftp",
                    "LogLevel VERBOSE",
                ]
            )
            + "\n"
        )
        host_pub = (host_key.with_suffix(".pub")).read_text().split()
        self.known_hosts.write_text(f"[127.0.0.1]:{self.port} {host_pub[0]} {host_pub[1]}\n")
        (client / "known_hosts_empty").write_text("")
        common = [
            "  HostName 127.0.0.1",
            f"  User {self.user}",
            f"  IdentityFile {self.client_key}",
            "  IdentitiesOnly yes",
            "  GlobalKnownHostsFile /dev/null",
        ]
        self.ssh_config.write_text(
            "\n".join(
                [
                    f"Host {ALIAS}",
                    f"  Port {self.port}",
                    *common,
                    f"  UserKnownHostsFile {self.known_hosts}",
                    "",
                    f"Host {UNTRUSTED_ALIAS}",
                    f"  Port {self.port}",
                    *common,
                    f"  UserKnownHostsFile {client / 'known_hosts_empty'}",
                    "",
                    f"Host {REFUSED_ALIAS}",
                    f"  Port {self.refused_port}",
                    *common,
                    f"  UserKnownHostsFile {self.known_hosts}",
                    "",
                    f"Host {UNAUTHORIZED_ALIAS}",
                    f"  Port {self.port}",
                    "  HostName 127.0.0.1",
                    f"  User {self.user}",
                    f"  IdentityFile {client / 'stranger_ed25519'}",
                    "  IdentitiesOnly yes",
                    "  GlobalKnownHostsFile /dev/null",
                    f"  UserKnownHostsFile {self.known_hosts}",
                    "",
                ]
            )
            + "\n"
        )

    def start(self, timeout: float = 20.0) -> SshRig:
        """Write the keys and configurations, start sshd, wait until a login works."""
        try:
            self._start(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self, timeout: float) -> None:
        self._write_files()
        # sshd's privilege separation folder; Debian's service makes it at boot.
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
        log = (self.root / "server" / "sshd.log").open("wb")
        self.proc = subprocess.Popen(
            [SSHD, "-D", "-e", "-f", str(self.root / "server" / "sshd_config")],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            res = self.ssh("true", check=False)
            if res.returncode == 0:
                return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"sshd did not come up: {res.stderr}\n{self.logs()}")
            time.sleep(0.1)

    # -- use ----------------------------------------------------------------------------------
    def ssh(
        self, *command: str, check: bool = True, alias: str = ALIAS
    ) -> subprocess.CompletedProcess[str]:
        """Run a command on the rig the way a person would (no shared connection)."""
        return subprocess.run(
            ["ssh", "-F", str(self.ssh_config), "-o", "BatchMode=yes", alias, *command],
            capture_output=True,
            text=True,
            check=check,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )

    def profile(self, name: str = "rig", **changes: object) -> dict[str, object]:
        """A cluster profile for this rig, as it is stored in preferences.json."""
        return {
            "name": name,
            "host": ALIAS,
            "ssh_config": str(self.ssh_config),
            "remote_folder": str(self.remote_folder),
            "scheduler": "slurm",
            "partition": "debug",
            "environment_lines": [],
            "nwchem_command": "nwchem",
            **changes,
        }

    def logs(self) -> str:
        with contextlib.suppress(OSError):
            return (self.root / "server" / "sshd.log").read_text(errors="replace")[-4000:]
        return ""

    def secrets(self) -> list[str]:
        """Texts no MCP reply may hold: the client key's body and its path."""
        body = self.client_key.read_text().splitlines()
        return [
            str(self.client_key),
            *[ln for ln in body if len(ln) > 20 and not ln.startswith("-----")],
        ]

    # -- tear-down ----------------------------------------------------------------------------
    def stop(self) -> None:
        """End sshd (and the sessions it still has) by its pid, remove the folder."""
        proc = self.proc
        if proc is not None and _state(proc.pid) not in (None, "Z"):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)
