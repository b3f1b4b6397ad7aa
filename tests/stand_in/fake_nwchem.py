"""A stand-in for NWChem: prints NWChem-like output lines slowly, then behaves per mode.

Usage: ``python fake_nwchem.py input.nw``. The mode comes from ``FAKE_NWCHEM_MODE``:

- ``converge``: SCF iterations and three optimisation steps, "Optimization converged", exit 0.
- ``noconverge``: optimisation steps that never converge, then exit 0 (a program that
  does not report failure through its exit code).
- ``crash``: a few lines, an NWChem-style error block and ``ARMCI Error`` on stderr, exit 255.
- ``exit255``: exits 255 at once with no output.
- ``hang``: prints a line, starts a child process in its own process group member
  (a stand-in for an MPI rank) and sleeps for a long time.
- ``stubborn``: like ``hang`` but ignores SIGTERM, so only SIGKILL ends it.
- ``progress``: a longer run for progress reports: ``FAKE_NWCHEM_STEPS`` optimisation
  steps (default 6) of ``FAKE_NWCHEM_ITERATIONS`` SCF iterations each (default 8),
  "Optimization converged", then the frequency banner and finite-difference
  displacement lines (``atom: N xyz: K(+/-) wall time:``) for 3 atoms, exit 0.

``FAKE_NWCHEM_DELAY`` is the pause between lines (default 0.05 s). The script also
writes its pid, argv and a few environment variables to ``fake_nwchem.info`` in the
working directory so tests can check what the runner passed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time


def write_whole(name: str, text: str) -> None:
    """Write a file under a temporary name and rename it, so readers never see it half-written."""
    with open(name + ".tmp", "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(name + ".tmp", name)


def say(line: str, delay: float) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    time.sleep(delay)


def scf(delay: float, energy: float) -> None:
    say("              iter       energy          gnorm     gmax       time", delay)
    say("             ----- ------------------- --------- --------- --------", delay)
    for i, e in enumerate((energy + 0.01, energy + 0.001, energy), start=1):
        say(f"                 {i}      {e:.10f}  1.00D-0{i}  1.00D-0{i}      0.1", delay)
    say("", delay)
    say(f"         Total SCF energy =    {energy:.12f}", delay)


def long_scf(delay: float, energy: float, iterations: int) -> None:
    say("              iter       energy          gnorm     gmax       time", delay)
    say("             ----- ------------------- --------- --------- --------", delay)
    for i in range(1, iterations + 1):
        e = energy + 0.1 / i**2
        say(f"                 {i}      {e:.10f}  1.00D-02  1.00D-02      0.1", delay)
    say("", delay)
    say(f"         Total SCF energy =    {energy:.12f}", delay)


def progress_run(delay: float) -> int:
    steps = int(os.environ.get("FAKE_NWCHEM_STEPS", "6"))
    iterations = int(os.environ.get("FAKE_NWCHEM_ITERATIONS", "8"))
    energy = -76.0
    for n in range(steps):
        energy -= 0.001 / (n + 1)
        long_scf(delay, energy, iterations)
        opt_step(n, energy, delay)
    say("      Optimization converged", delay)
    opt_step(steps - 1, energy, delay)
    say("                   NWChem Nuclear Hessian and Frequency Analysis", delay)
    for atom in range(1, 4):
        for xyz in range(1, 4):
            for sign in "+-":
                say(
                    f" atom:   {atom} xyz: {xyz}({sign}) wall time:       0.3      date:  "
                    "Tue Dec  1 10:07:55 2026",
                    delay,
                )
    return 0


def opt_step(n: int, energy: float, delay: float) -> None:
    say(f"@    {n}     {energy:.8f} -1.0D-03  0.00100  0.00100  0.00100  0.00100      0.1", delay)


def main() -> int:
    mode = os.environ.get("FAKE_NWCHEM_MODE", "converge")
    delay = float(os.environ.get("FAKE_NWCHEM_DELAY", "0.05"))
    write_whole(
        "fake_nwchem.info",
        json.dumps(
            {
                "pid": os.getpid(),
                "argv": sys.argv,
                "env": {
                    k: os.environ.get(k)
                    for k in (
                        "OMP_NUM_THREADS",
                        "ARMCI_PROGRESS_THREAD",
                        "OMPI_ALLOW_RUN_AS_ROOT",
                        "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM",
                        "FAKE_EXTRA",
                    )
                },
            }
        ),
    )
    say(" argument  1 = " + (sys.argv[1] if len(sys.argv) > 1 else ""), delay)
    if mode == "exit255":
        return 255
    if mode in ("hang", "stubborn"):
        if mode == "stubborn":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        write_whole("fake_nwchem.child", str(child.pid))
        say("         Total SCF energy =    -1.000000000000", delay)
        time.sleep(600)
        return 0
    if mode == "crash":
        scf(delay, -76.0)
        say(" ------------------------------------------------------------------------", delay)
        say(" scf energy failed                                        0", delay)
        say(" ------------------------------------------------------------------------", delay)
        sys.stderr.write("[0] ARMCI Error: 0:scf energy failed\n")
        return 255
    if mode == "progress":
        return progress_run(delay)
    energies = [-76.0, -76.01, -76.012, -76.0121]
    for n, e in enumerate(energies if mode == "converge" else energies * 2):
        scf(delay, e)
        opt_step(n, e, delay)
    if mode == "converge":
        say("      Optimization converged", delay)
        opt_step(len(energies) - 1, energies[-1], delay)
    return 0


if __name__ == "__main__":
    sys.exit(main())
