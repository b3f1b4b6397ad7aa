"""Parse time of MolForma's NWChem output reader against cclib, measured in one run.

Usage: ``python bench/results_bench.py [--size-mb 100] [--repeat 5] [--skip-big]``

For each real NWChem output of ``tests/data/nwchem`` (and the MP2 output
of ``tests/data/results``), both readers parse the same file from disk (read plus
parse, best of ``--repeat`` runs) and the ratio cclib / ours is printed. Then the
water optimisation+frequency output is concatenated to about ``--size-mb`` MB and
both parse it once. Notes printed with the numbers:

* cclib cannot read some outputs (Td methane, the aborted bad-basis run, the MP2
  optimisation stopped by maxiter); those rows show cclib's exception instead of a ratio.
* cclib cannot read a concatenation of *different* molecules (it builds one array
  of coordinates), so the big file repeats one molecule; the bench shows cclib's
  failure on a small mixed concatenation.
* The big file holds more structures than the results limit (2,000), so our reader
  is timed there with the limits lifted (``UNLIMITED``); ``read_results`` itself
  refuses such a file with ``results_too_many_structures``.
* Target: ours at least 5x faster than cclib.
"""

from __future__ import annotations

import argparse
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
]
TARGET = 5.0


def _ours(path: Path, unlimited: bool = False) -> object:
    from molforma.nwchem.parser import parse_nwchem_output
    from molforma.results.limits import DEFAULT_LIMITS, UNLIMITED
    from molforma.results.reader import read_text_file

    limits = UNLIMITED if unlimited else DEFAULT_LIMITS
    return parse_nwchem_output(read_text_file(path, limits), source=str(path), limits=limits)


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


def main(argv: list[str] | None = None) -> int:
    """Run the bench and print a table; returns 0 when the target ratio is met."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=100.0)
    ap.add_argument("--repeat", type=int, default=5)
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
    big_ratio = None
    if not args.skip_big:
        with tempfile.TemporaryDirectory() as tmp:
            mixed = Path(tmp) / "mixed.out"
            mixed.write_bytes(FILES[0].read_bytes() + FILES[1].read_bytes())
            _, note = _try_cclib(mixed, 1)
            t_mixed, res = _best(lambda: _ours(mixed), 1)
            print(f"\nwater+NH3 concatenated ({mixed.stat().st_size} bytes): ours "
                  f"{t_mixed * 1e3:.1f} ms ({len(res.structures)} structures); "  # type: ignore[attr-defined]
                  f"{note or 'cclib reads it'}")
            unit = FILES[0].read_bytes()
            copies = max(1, int(args.size_mb * 1e6) // len(unit) + 1)
            big = Path(tmp) / "big.out"
            with big.open("wb") as fh:
                for _ in range(copies):
                    fh.write(unit)
            size = big.stat().st_size
            print(f"{FILES[0].name} x {copies} = {size / 1e6:.1f} MB "
                  "(limits lifted for our reader: it holds more than 2,000 structures)")
            t_ours, res = _best(lambda: _ours(big, unlimited=True), 3)
            n_struct = len(res.structures)  # type: ignore[attr-defined]
            n_energy = len(res.energies)  # type: ignore[attr-defined]
            print(f"  ours : {t_ours:8.2f} s best of 3  ({n_struct} structures, {n_energy} energies)")
            t_cc, note = _try_cclib(big, 1)
            if t_cc is None:
                print(f"  cclib: {note}")
            else:
                big_ratio = t_cc / t_ours
                print(f"  cclib: {t_cc:8.2f} s")
                print(f"  ratio: {big_ratio:.1f}x")
    if ratios:
        lo = min(ratios)
        print(f"\nfixture ratios cclib/ours: min {lo:.1f}x, max {max(ratios):.1f}x"
              + (f"; ~{args.size_mb:.0f} MB file: {big_ratio:.1f}x" if big_ratio else ""))
        met = lo >= TARGET and (big_ratio is None or big_ratio >= TARGET)
        print(f"target >= {TARGET:.0f}x faster than cclib: {'met' if met else 'NOT met'}")
        return 0 if met else 1
    return 1


if __name__ == "__main__":
    sys.exit(main())
