"""What a user installs: the wheel and the Linux bundle, their sizes and how fast each starts.

Usage (the window rows need an X display; without one the bench re-runs itself under
``xvfb-run``, Mesa llvmpipe)::

    .venv/bin/python bench/install_bench.py [--repeat 7] [--frames 5] [--bundle DIR] [--out DIR]

In one run, with the shared harness (``bench/harness.py``: candidate and baseline
alternately, A B A B ..., after a warm-up pair; medians with min/max and the median of
the per-pair ratios):

- the bundle's build: ``scripts/build_bundle.sh`` from start to tarball, timed once (the
  bundle tests build it in the test suite, so this is what the suite pays for them);
  ``--bundle DIR`` measures an unpacked bundle already built instead (no build row);
- sizes: the wheel (``pip wheel . --no-deps``) beside the bundle's tarball (what a user
  downloads), and the unpacked bundle beside its 350 MB budget;
- start of ``molforma --mcp`` to its first ``server/discover`` answer: the bundle's
  program vs ``.venv/bin/molforma`` (the installed console script), both with no Python
  on PATH and an empty configuration;
- window start to its first complete frame (OpenGL, Xvfb) of a water molecule: the
  bundle vs ``.venv/bin/molforma``, timed as ``bench/scale_bench.py`` times it (from
  spawning the program to the first screen capture of what the window settles on).

Results go to ``bench/results/install_bench.json``; ``scripts/update_readme.py`` puts them
into the Performance table (``docs/benchmarks.md``) and the "Linux bundle" figures
(``docs/install.md``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from harness import (
    ROOT,
    Report,
    Sample,
    Side,
    add_output_argument,
    compare,
    peak_rss_of_pid,
)

sys.path.insert(0, str(ROOT))
import molforma

BUDGET = 350_000_000
VENV_PROGRAM = ROOT / ".venv" / "bin" / "molforma"
TARBALL = ROOT / "dist" / f"molforma-{molforma.__version__}-linux-x86_64.tar.gz"
DISCOVER = (
    b'{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{'
    b'"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
    b'"io.modelcontextprotocol/clientCapabilities":{}}}}\n'
)
WATER_XYZ = "3\nwater\nO 0.0 0.0 0.1173\nH 0.0 0.7572 -0.4692\nH 0.0 -0.7572 -0.4692\n"


def tree_bytes(folder: Path) -> int:
    """Bytes of the files under ``folder`` as they lie on disk (a link counts as itself)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if not p.is_dir() or p.is_symlink())


def build_bundle() -> float:
    """Run scripts/build_bundle.sh; its wall time in seconds."""
    t0 = time.perf_counter()
    subprocess.run(["bash", str(ROOT / "scripts" / "build_bundle.sh")], cwd=ROOT, check=True)
    return time.perf_counter() - t0


# Not part of what a user builds from (a stale build/ would leak into the wheel).
NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "__pycache__",
    "*.egg-info",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
)


def wheel_bytes(tmp: Path) -> int:
    """Size of the wheel ``pip wheel . --no-deps`` makes from a clean copy of the checkout."""
    source, out = tmp / "source", tmp / "wheel"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", str(out)],
        cwd=source,
        check=True,
    )
    (wheel,) = out.glob("molforma-*.whl")
    return wheel.stat().st_size


def user_env(tmp: Path) -> dict[str, str]:
    """A user's environment: no Python on PATH, an empty configuration, English."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    config = tmp / "config"
    config.mkdir(exist_ok=True)
    env = {
        "PATH": str(bin_dir),
        "HOME": str(tmp),
        "LANG": "C.UTF-8",
        "MOLFORMA_CONFIG_DIR": str(config),
        "MOLFORMA_LANGUAGE": "en",
    }
    for name in ("DISPLAY", "XAUTHORITY"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    return env


def first_discover(program: Path, env: dict[str, str]) -> Sample:
    """Seconds from spawning ``program --mcp`` to its answer to ``server/discover``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [str(program), "--mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(DISCOVER)
    proc.stdin.flush()
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - t0
    rss = peak_rss_of_pid(proc.pid)
    proc.stdin.close()
    proc.wait(30)
    proc.stdout.close()
    if b'"supportedVersions"' not in line:
        raise RuntimeError(f"{program} --mcp answered {line[:200]!r}")
    return Sample(elapsed, rss)


def window_rows(report: Report, bundle: Path, env: dict[str, str], tmp: Path, frames: int) -> None:
    """First complete frame of the window: the bundle vs the venv's program."""
    if not os.environ.get("DISPLAY"):
        report.notes.append("install_bench: window rows left out: no X display")
        return
    if shutil.which("xwd") is None:
        report.notes.append(
            "install_bench: window rows left out: xwd missing (apt-get install -y x11-apps)"
        )
        return
    sys.path.insert(0, str(ROOT / "bench"))
    from scale_bench import first_frame

    water = tmp / "water.xyz"
    water.write_text(WATER_XYZ)
    what = "window start → first complete frame, water (OpenGL, Xvfb)"
    try:
        c = compare(
            lambda: first_frame([str(bundle / "molforma"), str(water)], env),
            lambda: first_frame([str(VENV_PROGRAM), str(water)], env),
            repeat=frames,
            warmup=1,
        )
    except RuntimeError as exc:
        # A program failing to draw must not lose the rows measured before it.
        report.notes.append(f"install_bench: {what}: not measured: {exc}")
        return
    report.add(
        "first_frame",
        what,
        c,
        candidate="bundle molforma/molforma",
        baseline=".venv/bin/molforma",
        target="ratio ≤ 1.2",
        met=c.ratio.median <= 1.2,
        note="first capture of the screen the window settles on (unchanged for 2 s "
        "after it), as scale_bench times it; peak RSS is each program's then",
    )


def main(argv: list[str] | None = None) -> int:
    """Run the bench, print it and write bench/results/install_bench.json."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="start-up pairs (server/discover)")
    ap.add_argument("--frames", type=int, default=5, help="window start-up pairs")
    ap.add_argument(
        "--bundle",
        type=Path,
        default=None,
        help="an unpacked bundle (the folder holding molforma) instead of building",
    )
    add_output_argument(ap)
    args = ap.parse_args(argv)
    if not os.environ.get("DISPLAY") and os.environ.get("MOLFORMA_BENCH_CHILD") != "1":
        xvfb = shutil.which("xvfb-run")
        if xvfb:
            env = dict(os.environ, MOLFORMA_BENCH_CHILD="1")
            return subprocess.call(
                [
                    xvfb,
                    "-a",
                    "-s",
                    "-screen 0 1600x1200x24",
                    sys.executable,
                    __file__,
                    *sys.argv[1:],
                ],
                env=env,
            )
    if not VENV_PROGRAM.exists():
        raise SystemExit(".venv/bin/molforma is missing: run scripts/setup.sh first")
    command = f"python bench/install_bench.py --repeat {args.repeat} --frames {args.frames}"
    report = Report(
        "install_bench",
        command,
        notes=[
            "install_bench: the bundle is scripts/build_bundle.sh's (PyInstaller one-folder, "
            "without the orbitals extra); both programs start with no Python on PATH and an "
            'empty configuration; window rows under xvfb-run -a -s "-screen 0 1600x1200x24" '
            "with OpenGL (Mesa llvmpipe)."
        ],
    )
    with tempfile.TemporaryDirectory(prefix="molforma-install-") as d:
        tmp = Path(d)
        if args.bundle is None:
            seconds = build_bundle()
            report.add_single(
                "bundle_build",
                "scripts/build_bundle.sh: PyInstaller, trim, check, pack (whole script)",
                Side(seconds=[seconds]),
                label="build_bundle.sh",
                target="≤ 8 min (its tests run in the test suite)",
                met=seconds <= 480,
            )
            with tarfile.open(TARBALL) as tar:
                tar.extractall(tmp / "unpacked", filter="tar")
            bundle = tmp / "unpacked" / "molforma"
            packed = TARBALL.stat().st_size
        else:
            bundle = args.bundle.resolve()
            packed = 0
            if TARBALL.exists():
                packed = TARBALL.stat().st_size
        wheel = wheel_bytes(tmp)
        if packed:
            report.add_bytes(
                "download",
                "download size: the bundle's tar.gz beside the wheel (no dependencies)",
                [packed],
                [wheel],
                candidate="molforma-…-linux-x86_64.tar.gz",
                baseline="molforma-…-py3-none-any.whl",
            )
        unpacked = tree_bytes(bundle)
        report.add_bytes(
            "bundle_size",
            "the bundle unpacked beside its budget",
            [unpacked],
            [BUDGET],
            candidate="molforma/ unpacked",
            baseline="budget 350 MB",
            target="≤ 350 MB",
            met=unpacked <= BUDGET,
        )
        env = user_env(tmp)
        c = compare(
            lambda: first_discover(bundle / "molforma", env),
            lambda: first_discover(VENV_PROGRAM, env),
            repeat=args.repeat,
            warmup=1,
        )
        report.add(
            "start_discover",
            "start of molforma --mcp → first server/discover answer",
            c,
            candidate="bundle molforma/molforma",
            baseline=".venv/bin/molforma",
            target="ratio ≤ 1.5",
            met=c.ratio.median <= 1.5,
            note="peak RSS when the answer arrived",
        )
        window_rows(report, bundle, env, tmp, args.frames)
    report.write(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
