"""MolForma's NWChem output reader against cclib: same files, same runs, side by side.

Usage: ``python bench/results_bench.py [--repeat 21] [--process-repeat 3] [--big-repeat 1]
[--skip-big]``

For each real NWChem output of ``tests/data/nwchem`` (and the MP2 output of
``tests/data/results``) both readers parse the same file from disk (read plus
parse), alternately (A B A B ...), the same number of times:

* in-process: one interpreter, imports done, ``--repeat`` pairs per file;
* whole-process: a fresh ``python -c`` per parse (imports included), with the
  child's peak RSS, ``--process-repeat`` pairs on every file cclib reads;
* big files: the water optimisation+frequency output concatenated to about 1, 10
  and 100 MB in a temporary folder, read whole-process (time and peak RSS) with
  ``read_results`` (streamed, with the frame mapping), ``--process-repeat`` pairs
  for 1 and 10 MB and ``--big-repeat`` pairs for 100 MB.

Notes printed with the numbers:

* cclib cannot read some outputs (Td methane, the aborted bad-basis run, the MP2
  optimisation stopped by maxiter); those rows time our reader alone and name cclib's
  exception.
* cclib cannot read a concatenation of *different* molecules (it builds one array
  of coordinates), so the big file repeats one molecule.
* The big file holds more structures than the results limit (2,000), so our reader
  is timed there with the limits lifted (``UNLIMITED``); ``read_results`` itself
  refuses such a file with ``results_too_many_structures``.
* Targets: ours at least 5x faster than cclib (ratio ours/cclib ≤ 0.2), the 10 MB
  file whole-process included; on the 100 MB file at most cclib's peak memory.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import warnings
from pathlib import Path

from harness import Report, Sample, add_output_argument, compare, measure, python_child

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
BIG_SIZES_MB = (1, 10, 100)


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


def _cclib_error(path: Path) -> str:
    """Why cclib cannot read ``path``, or "" when it can."""
    try:
        _cclib(path)
    except Exception as exc:  # noqa: BLE001 - the bench reports cclib's failure as a result
        return f"cclib cannot read it: {type(exc).__name__}: {str(exc)[:60]}"
    return ""


_CHILD_OURS = """
import sys
from molforma.results.limits import DEFAULT_LIMITS, UNLIMITED
from molforma.results.reader import read_results
read_results(sys.argv[1], limits=UNLIMITED if sys.argv[2] == "unlimited" else DEFAULT_LIMITS)
"""
_CHILD_CCLIB = """
import sys, warnings
import cclib
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    assert cclib.io.ccread(sys.argv[1], loglevel=50) is not None
"""


def _child(code: str, path: Path, unlimited: bool = False) -> Sample:
    # python_child takes code only; the file goes in through sys.argv set by a prologue.
    argv = [str(path), "unlimited" if unlimited else "default"]
    return python_child(f"import sys; sys.argv[1:] = {argv!r}\n" + code)


def main(argv: list[str] | None = None) -> int:
    """Run the bench, print it and write bench/results/results_bench.json."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=21, help="in-process pairs per file")
    ap.add_argument("--process-repeat", type=int, default=3, help="whole-process pairs")
    ap.add_argument("--big-repeat", type=int, default=1, help="pairs on the big file")
    ap.add_argument("--skip-big", action="store_true", help="only the fixture files")
    add_output_argument(ap)
    args = ap.parse_args(argv)
    import cclib

    command = (
        f"python bench/results_bench.py --repeat {args.repeat} --process-repeat "
        f"{args.process_repeat}"
        + (" --skip-big" if args.skip_big else f" --big-repeat {args.big_repeat}")
    )
    report = Report(
        "results_bench",
        command,
        notes=[
            f"results_bench: cclib {cclib.__version__}; read + parse from disk; ratio ours/cclib "
            "(below 1: ours faster)."
        ],
    )
    target = f"ratio ≤ {1 / TARGET:g}"
    ratios: list[float] = []
    memory_met = True
    for path in FILES:
        size = path.stat().st_size
        note = _cclib_error(path)
        what = f"{path.name} ({size / 1e3:.0f} kB), in-process"
        if note:
            report.add_single(
                f"inprocess_{path.stem}",
                what,
                measure(lambda p=path: _ours(p), repeat=args.repeat),
                label="ours",
                note=note,
            )
            continue
        c = compare(lambda p=path: _ours(p), lambda p=path: _cclib(p), repeat=args.repeat)
        ratios.append(c.ratio.median)
        report.add(
            f"inprocess_{path.stem}",
            what,
            c,
            candidate="ours",
            baseline="cclib",
            target=target,
            met=c.ratio.median <= 1 / TARGET,
        )
    for path in FILES:
        if _cclib_error(path):
            continue
        c = compare(
            lambda p=path: _child(_CHILD_OURS, p),
            lambda p=path: _child(_CHILD_CCLIB, p),
            repeat=args.process_repeat,
        )
        report.add(
            f"process_{path.stem}",
            f"{path.name}, whole process (python start, imports, parse)",
            c,
            candidate="ours",
            baseline="cclib",
            note="start-up and imports dominate here; the target is for parsing",
        )
    if not args.skip_big:
        with tempfile.TemporaryDirectory() as tmp:
            mixed = Path(tmp) / "mixed.out"
            mixed.write_bytes(FILES[0].read_bytes() + FILES[1].read_bytes())
            res = _ours(mixed)
            print(
                f"\nwater+NH3 concatenated ({mixed.stat().st_size} bytes): ours reads "
                f"{len(res.structures)} structures; "  # type: ignore[attr-defined]
                f"{_cclib_error(mixed) or 'cclib reads it'}"
            )
            unit = FILES[0].read_bytes()
            for size_mb in BIG_SIZES_MB:
                copies = max(1, round(size_mb * 1024 * 1024 / len(unit)))
                big = Path(tmp) / f"water_x{copies}.out"
                with big.open("wb") as fh:
                    for _ in range(copies):
                        fh.write(unit)
                size = big.stat().st_size
                repeat = args.big_repeat if size_mb >= 100 else args.process_repeat
                c = compare(
                    lambda b=big: _child(_CHILD_OURS, b, unlimited=True),
                    lambda b=big: _child(_CHILD_CCLIB, b),
                    repeat=repeat,
                    warmup=0,
                )
                what = (
                    f"{FILES[0].name} × {copies} = {size / 1e6:.0f} MB, whole process "
                    "(start, imports, streamed read)"
                )
                if size_mb == 10:
                    ratios.append(c.ratio.median)
                    report.add(
                        "process_10mb",
                        what,
                        c,
                        candidate="ours (limits lifted)",
                        baseline="cclib",
                        target=target,
                        met=c.ratio.median <= 1 / TARGET,
                    )
                elif size_mb >= 100:
                    rss = c.rss_ratio
                    memory_met = rss is not None and rss.median <= 1.0
                    report.add(
                        "process_big",
                        what,
                        c,
                        candidate="ours (limits lifted)",
                        baseline="cclib",
                        target="peak RSS ≤ cclib's",
                        met=memory_met,
                    )
                else:
                    report.add(
                        f"process_{size_mb}mb",
                        what,
                        c,
                        candidate="ours (limits lifted)",
                        baseline="cclib",
                    )
                big.unlink()
    met = bool(ratios) and max(ratios) <= 1 / TARGET
    print(
        f"\ntarget >= {TARGET:.0f}x faster than cclib (10 MB whole process included): "
        f"{'met' if met else 'NOT met'}"
    )
    if not args.skip_big:
        print(f"target peak memory <= cclib's on 100 MB: {'met' if memory_met else 'NOT met'}")
    report.write(args.out)
    return 0 if met and memory_met else 1


if __name__ == "__main__":
    sys.exit(main())
