"""The bundle's program: ``molforma/molforma`` runs this (PyInstaller's entry script).

It is ``molforma.cli.main`` with two things only a frozen program needs:

- MolForma starts helper children with ``sys.executable -m molforma.document.cleanup``
  (the structure clean-up runs in its own process). In the bundle ``sys.executable`` is
  this program, so ``-m MODULE`` is taken here and the module run as ``python -m`` would.
- PyInstaller's start-up restarts the program with ``LD_LIBRARY_PATH`` pointing at the
  bundle's libraries (keeping a caller's value in ``LD_LIBRARY_PATH_ORIG``) and marks the
  process with ``_PYI_*`` variables. NWChem, ``mpirun`` and the other system programs
  MolForma starts must load the system's libraries, and a helper child of this program
  must start as a program of its own (its start-up then sets its libraries up again), so
  the caller's environment is put back for every child (this process has loaded its own
  libraries already).
"""

from __future__ import annotations

import os
import runpy
import sys

# The modules a MolForma process may start as ``sys.executable -m NAME``.
CHILD_MODULES = ("molforma.document.cleanup",)


def _restore_environment() -> None:
    if "LD_LIBRARY_PATH_ORIG" in os.environ:
        os.environ["LD_LIBRARY_PATH"] = os.environ.pop("LD_LIBRARY_PATH_ORIG")
    elif getattr(sys, "_MEIPASS", None) and os.environ.get("LD_LIBRARY_PATH") == sys._MEIPASS:
        del os.environ["LD_LIBRARY_PATH"]
    for name in [n for n in os.environ if n.startswith("_PYI_")]:
        del os.environ[name]


def main() -> int:
    _restore_environment()
    argv = sys.argv[1:]
    if len(argv) >= 2 and argv[0] == "-m":
        if argv[1] not in CHILD_MODULES:
            sys.stderr.write(f"molforma: -m {argv[1]}: not a module this program runs\n")
            return 2
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        return 0
    from molforma.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
