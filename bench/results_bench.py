"""Parse time of MolForma's NWChem output reader against cclib, measured in one run.

Usage: ``python bench/results_bench.py [--repeat 5] [--process-repeat 3] [--big-repeat 1]
[--skip-big]``

For each real NWChem output of ``tests/data/nwchem`` (and the MP2 output
of ``tests/data/results``), both readers parse the same file from disk (read plus
parse, best of ``--repeat`` runs) and the ratio cclib / ours is printed.

Then, as whole processes (interpreter start, imports, read, parse), each reader
reads outputs of about 1, 10 and 100 MB made in a temporary folder by concatenating
the water optimisation+frequency output; runs are interleaved (ours, cclib, ours,
...), and the table gives the median time with min/max, the peak resident memory
(``ru_maxrss`` of the child) and the ratios. Notes printed with the numbers:

* cclib cannot read some outputs (Td methane, the aborted bad-basis run, the MP2
  optimisation stopped by maxiter); those rows show cclib's exception instead of a ratio.
* cclib cannot read a concatenation of *different* molecules (it builds one array
  of coordinates), so the big file repeats one molecule; the bench shows cclib's
  failure on a small mixed concatenation.
* The big file holds more structures than the results limit (2,000), so our reader
  is timed there with the limits lifted (``UNLIMITED``); ``read_results`` itself
  refuses such a file with ``results_too_many_structures``.
* Targets: ours at least 5x faster than cclib (whole process on 10 MB included), and
  at most cclib's peak memory on the 100 MB output.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "data" / "nwchem"
DATA = REPO / "tests" / "data" / "results"
FILES = [
    FIXTURES / "water_scf_optfreq.out",
    FIXTURES / "nh3_planar_scf_freq.out",
    FIXTURES / "methane_b3lyp_molden.out",
    FIXTURES / "scf_not_converged.out",
    FIXTURES / "methane_b3lyp_td_autosym.out",
    FIXTURES / "bad_basis.out",
    DATA / "water_mp2_opt_maxiter.out",
    FIXTURES / "water_b3lyp_tddft.out",
    FIXTURES / "water_ccsdt.out",
    FIXTURES / "oh_uhf.out",
    FIXTURES / "water_mp2_freq.out",
    FIXTURES / "water_scf_bomd.out",
]
TARGET = 5.0
SIZES_MB = (1, 10, 100)
# The child prints its own peak resident set (VmHWM): ru_maxrss of a child would also
# count the parent's memory at fork time, and this parent holds cclib's parse results.
_PEAK = ("for _line in open('/proc/self/status'):\n"
         "    if _line.startswith('VmHWM:'):\n"
         "        print('PEAK_KIB', _line.split()[1])\n")
OURS_PROCESS = ("import sys\n"
                "from molforma.results.limits import UNLIMITED\n"
                "from molforma.results.reader import read_results\n"
                "read_results(sys.argv[1], limits=UNLIMITED)\n" + _PEAK)
CCLIB_PROCESS = ("import sys, warnings\n"
                 "warnings.simplefilter('ignore')\n"
                 "import cclib\n"
                 "assert cclib.io.ccread(sys.argv[1], loglevel=50) is not None\n" + _PEAK)


def _ours(path: Path, unlimited: bool = False) -> object:
    from molforma.nwchem.parser import parse_nwchem_file
    from molforma.results.limits import DEFAULT_LIMITS, UNLIMITED

    limits = UNLIMITED if unlimited else DEFAULT_LIMITS
    return parse_nwchem_file(str(path), limits=limits)


def _cclib(path: Path) -> object:
    import cclib

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = cclib.io.ccread(str(path), loglevel=50)
    if data is None:
        raise RuntimeError("ccread returned None")
    return data


def _best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    best = float("inf")
    out: object = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _try_cclib(path: Path, repeat: int) -> tuple[float | None, str]:
    try:
        t, _ = _best(lambda: _cclib(path), repeat)
    except Exception as exc:  # noqa: BLE001 - the bench reports cclib's failure as a result
        return None, f"cclib cannot read it: {type(exc).__name__}: {str(exc)[:60]}"
    return t, ""


def _process(code: str, path: Path) -> tuple[float, float]:
    """Wall time (s) and peak resident memory (MiB) of one child reading ``path``."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, str(path)], env=env,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"child failed ({proc.returncode}): {proc.stderr.strip()[-200:]}")
    peak = [ln.split()[1] for ln in proc.stdout.splitlines() if ln.startswith("PEAK_KIB")]
    return wall, int(peak[-1]) / 1024.0


def _make_output(folder: Path, size_mb: int) -> Path:
    unit = FILES[0].read_bytes()
    copies = max(1, round(size_mb * 1024 * 1024 / len(unit)))
    path = folder / f"water_x{copies}.out"
    with path.open("wb") as fh:
        for _ in range(copies):
            fh.write(unit)
    return path


def _whole_process(repeat_small: int, repeat_big: int) -> tuple[float | None, bool]:
    """Print the whole-process table; returns (10 MB time ratio, 100 MB memory met)."""
    print("\nwhole process, interleaved runs (ours, cclib, ours, ...): median [min-max]")
    print(f"{'size':>8s} {'runs':>4s} {'ours s':>20s} {'cclib s':>20s} {'ratio':>6s} "
          f"{'ours MiB':>9s} {'cclib MiB':>9s}")
    ratio10: float | None = None
    memory_ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for size_mb in SIZES_MB:
            path = _make_output(Path(tmp), size_mb)
            runs = repeat_big if size_mb >= 100 else repeat_small
            ours: list[tuple[float, float]] = []
            theirs: list[tuple[float, float]] = []
            for _ in range(runs):
                ours.append(_process(OURS_PROCESS, path))
                theirs.append(_process(CCLIB_PROCESS, path))
            t_o = [t for t, _ in ours]
            t_c = [t for t, _ in theirs]
            m_o = max(m for _, m in ours)
            m_c = max(m for _, m in theirs)
            ratio = statistics.median(t_c) / statistics.median(t_o)
            if size_mb == 10:
                ratio10 = ratio
            if size_mb >= 100:
                memory_ok = m_o <= m_c
            mb = path.stat().st_size / 1e6
            print(f"{mb:6.1f}MB {runs:4d} {_spread(t_o):>20s} {_spread(t_c):>20s} "
                  f"{ratio:5.1f}x {m_o:9.1f} {m_c:9.1f}")
            path.unlink()
    return ratio10, memory_ok


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]"


def main(argv: list[str] | None = None) -> int:
    """Run the bench and print a table; returns 0 when the target ratio is met."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--process-repeat", type=int, default=3,
                    help="whole-process runs of each reader on the 1 and 10 MB outputs")
    ap.add_argument("--big-repeat", type=int, default=1,
                    help="whole-process runs of each reader on the 100 MB output")
    ap.add_argument("--skip-big", action="store_true", help="only the fixture files")
    args = ap.parse_args(argv)
    import cclib

    print(f"Python {sys.version.split()[0]}, cclib {cclib.__version__}; "
          f"best of {args.repeat} runs, read + parse from disk")
    print(f"{'file':34s} {'size':>10s} {'ours ms':>9s} {'cclib ms':>9s} {'ratio':>7s}")
    ratios: list[float] = []
    for path in FILES:
        t_ours, _ = _best(lambda p=path: _ours(p), args.repeat)
        t_cc, note = _try_cclib(path, args.repeat)
        size = path.stat().st_size
        if t_cc is None:
            print(f"{path.name:34s} {size:10d} {t_ours * 1e3:9.2f} {'-':>9s} {'-':>7s}  {note}")
            continue
        ratio = t_cc / t_ours
        ratios.append(ratio)
        print(f"{path.name:34s} {size:10d} {t_ours * 1e3:9.2f} {t_cc * 1e3:9.2f} {ratio:6.1f}x")
    ratio10: float | None = None
    memory_ok = True
    if not args.skip_big:
        with tempfile.TemporaryDirectory() as tmp:
            mixed = Path(tmp) / "mixed.out"
            mixed.write_bytes(FILES[0].read_bytes() + FILES[1].read_bytes())
            _, note = _try_cclib(mixed, 1)
            t_mixed, res = _best(lambda: _ours(mixed), 1)
            print(f"\nwater+NH3 concatenated ({mixed.stat().st_size} bytes): ours "
                  f"{t_mixed * 1e3:.1f} ms ({len(res.structures)} structures); "  # type: ignore[attr-defined]
                  f"{note or 'cclib reads it'}")
        print("(the concatenated water outputs hold more than 2,000 structures from about "
              "15 MB on, so our reader runs with the limits lifted)")
        ratio10, memory_ok = _whole_process(args.process_repeat, args.big_repeat)
    if ratios:
        lo = min(ratios)
        print(f"\nfixture ratios cclib/ours (in process): min {lo:.1f}x, max {max(ratios):.1f}x"
              + (f"; whole process on 10 MB: {ratio10:.1f}x" if ratio10 else ""))
        met = lo >= TARGET and (ratio10 is None or ratio10 >= TARGET)
        print(f"target >= {TARGET:.0f}x faster than cclib: {'met' if met else 'NOT met'}")
        if not args.skip_big:
            print(f"target peak memory <= cclib's on 100 MB: {'met' if memory_ok else 'NOT met'}")
        return 0 if met and memory_ok else 1
    return 1


if __name__ == "__main__":
    sys.exit(main())
