"""A real single-node SLURM cluster for the tests: munge, slurmctld and slurmd in one folder.

Everything lives in a temporary folder (keys, sockets, state, spool, logs) and the
daemons listen on free ports, so the cluster never meets a system-wide SLURM. The
daemons run in the foreground of their own sessions (``-D`` / ``-F`` with
``setsid``), so the pids recorded at start are the daemons' own and :meth:`stop`
ends exactly them. Clients find the cluster through ``SLURM_CONF``.

The node declares more CPUs than the machine has (``SlurmdParameters=config_overrides``)
so a long job kept running by one test does not hold back the others.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

DAEMONS = ("munged", "slurmctld", "slurmd")
NODE_CPUS = 8
PARTITION = "debug"
SHORT_PARTITION = "short"  # a partition whose MaxTime is 1 minute
PARTITION_MAX_MINUTES = 30


def slurm_installed() -> bool:
    """True when the munge and SLURM daemons and clients are on PATH (``/usr/sbin`` too)."""
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin:/sbin"
    return all(shutil.which(n, path=path) for n in (*DAEMONS, "sbatch", "sinfo"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _which(name: str) -> str:
    found = shutil.which(name, path=os.environ.get("PATH", "") + os.pathsep + "/usr/sbin:/sbin")
    if not found:
        raise RuntimeError(f"{name} is not installed (apt-get install slurm-wlm munge)")
    return found


def _state(pid: int) -> str | None:
    """The process state letter from /proc, None when the pid is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


class SlurmCluster:
    """Start with :meth:`start`, stop with :meth:`stop`; ``env`` holds ``SLURM_CONF``."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="molforma-slurm-"))
        self.host = socket.gethostname().split(".")[0]
        self.conf = self.root / "slurm.conf"
        self.munge_socket = self.root / "munge" / "munge.socket"
        self.pids: dict[str, int] = {}
        self._procs: list[subprocess.Popen[bytes]] = []

    @property
    def env(self) -> dict[str, str]:
        """Variables a client needs to reach this cluster."""
        return {"SLURM_CONF": str(self.conf)}

    # -- set-up ----------------------------------------------------------------------------
    def _write_files(self) -> None:
        self.root.chmod(0o755)  # munged wants every folder above its socket searchable
        for sub in ("munge", "state", "spool", "log"):
            (self.root / sub).mkdir(mode=0o755)
        key = self.root / "munge" / "munge.key"
        key.write_bytes(secrets.token_bytes(1024))
        key.chmod(0o400)
        cpus_line = _node_line(self.host)
        lines = [
            "ClusterName=molforma-test",
            f"SlurmctldHost={self.host}(127.0.0.1)",
            "SlurmUser=root",
            "AuthType=auth/munge",
            f"AuthInfo=socket={self.munge_socket}",
            f"SlurmctldPort={_free_port()}",
            f"SlurmdPort={_free_port()}",
            f"StateSaveLocation={self.root / 'state'}",
            f"SlurmdSpoolDir={self.root / 'spool'}",
            f"SlurmctldPidFile={self.root / 'slurmctld.pid'}",
            f"SlurmdPidFile={self.root / 'slurmd.pid'}",
            f"SlurmctldLogFile={self.root / 'log' / 'slurmctld.log'}",
            f"SlurmdLogFile={self.root / 'log' / 'slurmd.log'}",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/filetxt",
            f"JobCompLoc={self.root / 'log' / 'jobcomp.txt'}",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "SlurmdParameters=config_overrides",
            "MpiDefault=none",
            "MailProg=/bin/true",
            "MinJobAge=3600",
            # The time limit is enforced as soon as it is reached, and the job is killed
            # 2 s after its SIGTERM, so the time-out test waits for the limit only.
            "OverTimeLimit=0",
            "KillWait=2",
            "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0",
            "ReturnToService=2",
            # As many sites do: a job no partition can ever run is refused at submission.
            "EnforcePartLimits=ALL",
            cpus_line,
            f"PartitionName={PARTITION} Nodes={self.host} Default=YES "
            f"MaxTime={PARTITION_MAX_MINUTES} State=UP",
            f"PartitionName={SHORT_PARTITION} Nodes={self.host} MaxTime=1 State=UP",
        ]
        self.conf.write_text("\n".join(lines) + "\n")

    def _spawn(self, name: str, argv: list[str]) -> None:
        log = (self.root / "log" / f"{name}.console").open("wb")
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            env={**os.environ, **self.env},
        )
        log.close()
        self._procs.append(proc)
        self.pids[name] = proc.pid

    def start(self, timeout: float = 30.0) -> SlurmCluster:
        """Write the configuration, start the three daemons, wait for an idle node.

        A start that fails ends whatever it had started and removes the folder.
        """
        try:
            self._start(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self, timeout: float) -> None:
        self._write_files()
        munge_dir = self.root / "munge"
        self._spawn(
            "munged",
            [
                _which("munged"),
                "-F",
                f"--key-file={munge_dir / 'munge.key'}",
                f"--socket={self.munge_socket}",
                f"--pid-file={munge_dir / 'munged.pid'}",
                f"--log-file={self.root / 'log' / 'munged.log'}",
                f"--seed-file={munge_dir / 'munge.seed'}",
            ],
        )
        self._wait(lambda: self.munge_socket.exists(), timeout, "munged")
        self._spawn("slurmctld", [_which("slurmctld"), "-D", "-f", str(self.conf)])
        self._spawn("slurmd", [_which("slurmd"), "-D", "-f", str(self.conf)])
        self._wait(self._node_idle, timeout, "slurmd (node idle)")

    def _node_idle(self) -> bool:
        res = self.run("sinfo", "-h", "-N", "-o", "%T", check=False)
        return res.returncode == 0 and "idle" in res.stdout

    def _wait(self, ok: object, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not ok():  # type: ignore[operator]
            for name, pid in self.pids.items():
                if _state(pid) in (None, "Z"):
                    raise RuntimeError(f"{name} stopped at start-up:\n{self.logs()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not come up in {timeout} s:\n{self.logs()}")
            time.sleep(0.05)

    # -- use -------------------------------------------------------------------------------
    def run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a SLURM client command against this cluster."""
        return subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            check=check,
            env={**os.environ, **self.env},
            timeout=30,
        )

    def job_state(self, job_id: str) -> str:
        """``JobState`` of a job as ``scontrol show job`` gives it."""
        out = self.run("scontrol", "show", "job", "-o", job_id).stdout
        for field in out.split():
            if field.startswith("JobState="):
                return field.split("=", 1)[1]
        return ""

    def unreachable_conf(self) -> Path:
        """A configuration like this one whose controller port nobody listens on."""
        text = self.conf.read_text()
        lines = [
            f"SlurmctldPort={_free_port()}" if ln.startswith("SlurmctldPort=") else ln
            for ln in text.splitlines()
        ]
        # Clients give up after MessageTimeout (10 s by default); keep the test short.
        path = self.root / "unreachable.conf"
        path.write_text("\n".join([*lines, "MessageTimeout=1"]) + "\n")
        return path

    def logs(self) -> str:
        parts = []
        for f in sorted((self.root / "log").glob("*")):
            with contextlib.suppress(OSError):
                parts.append(f"--- {f.name}\n{f.read_text(errors='replace')[-3000:]}")
        return "\n".join(parts)

    # -- tear-down -------------------------------------------------------------------------
    def stop(self) -> None:
        """Cancel what is left, end the daemons by their pids, remove the folder."""
        if "slurmctld" in self.pids and _state(self.pids["slurmctld"]) not in (None, "Z"):
            self.run("scancel", "--full", "--user", str(os.getuid()), check=False)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                out = self.run("squeue", "-h", "-t", "PD,R,CG", check=False).stdout
                if not out.strip():
                    break
                time.sleep(0.1)
        for name in reversed(DAEMONS):
            pid = self.pids.get(name)
            if pid is not None and _state(pid) not in (None, "Z"):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)
        for proc in self._procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def _node_line(host: str) -> str:
    """The node line from ``slurmd -C`` with the CPU count raised for the tests."""
    out = subprocess.run(
        [_which("slurmd"), "-C"], capture_output=True, text=True, check=True
    ).stdout.splitlines()[0]
    fields = [f for f in out.split() if f.split("=", 1)[0] in ("NodeName", "RealMemory")]
    fields += [f"CPUs={NODE_CPUS}", "State=UNKNOWN"]
    return " ".join(fields)
