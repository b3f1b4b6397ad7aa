"""Shared bench machinery: interleaved A/B timing, peak memory of a child, JSON results.

Every bench in ``bench/`` measures a *candidate* (MolForma) beside a *baseline*
doing the same work, alternately (A B A B ...), so a load that changes during
the run hits both sides alike. It prints median, min and max of each side and
the median of the per-pair ratios (candidate / baseline: below 1 means the
candidate is faster or smaller), and writes the same figures to
``bench/results/<bench>.json``, which ``scripts/update_readme.py`` turns into
the Performance table of ``docs/benchmarks.md``.

A bench plugs in like this::

    from harness import Report, compare

    report = Report("my_bench", "python bench/my_bench.py --repeat 5")
    cmp = compare(lambda: ours(), lambda: theirs(), repeat=5, warmup=1)
    report.add("parse", "what is measured", cmp, candidate="ours", baseline="theirs",
               target="ratio <= 0.2", met=cmp.ratio.median <= 0.2)
    report.write()

A side may time itself: a callable that returns a :class:`Sample` (seconds and,
optionally, peak RSS in bytes) is taken at its word; one that returns anything
else is timed by the harness with ``time.perf_counter``. :func:`run_child`
returns such a sample for a whole child process (wall time and the child's own
peak RSS from ``wait4``), so whole-process comparisons use the same
:func:`compare`.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS_DIR = ROOT / "bench" / "results"
# Bumped when the JSON layout changes, so update_readme.py can refuse what it cannot read.
SCHEMA = 1


@dataclass(frozen=True)
class Sample:
    """One measurement a side made itself: seconds, and peak RSS in bytes when known."""

    seconds: float
    rss: int | None = None


@dataclass(frozen=True)
class Stats:
    """Median, min and max of a list of numbers (and how many there were)."""

    median: float
    min: float
    max: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Stats:
        """Stats of ``values`` (which must not be empty)."""
        if not values:
            raise ValueError("no values to summarise")
        return cls(statistics.median(values), min(values), max(values), len(values))


@dataclass
class Side:
    """What one side (candidate or baseline) measured, run by run."""

    seconds: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)

    @property
    def time(self) -> Stats:
        """Median, min and max of the wall times in seconds."""
        return Stats.of(self.seconds)

    @property
    def peak_rss(self) -> Stats | None:
        """Median, min and max of the peak RSS in bytes, when the side measured it."""
        return Stats.of([float(r) for r in self.rss]) if self.rss else None


@dataclass
class Comparison:
    """Candidate and baseline measured alternately, with the per-pair ratios."""

    candidate: Side
    baseline: Side

    @property
    def ratios(self) -> list[float]:
        """Candidate / baseline time of each pair."""
        return [
            a / b if b > 0 else float("inf")
            for a, b in zip(self.candidate.seconds, self.baseline.seconds, strict=True)
        ]

    @property
    def ratio(self) -> Stats:
        """Median, min and max of the per-pair time ratios candidate / baseline."""
        return Stats.of(self.ratios)

    @property
    def rss_ratio(self) -> Stats | None:
        """Per-pair peak-RSS ratios candidate / baseline, when both sides measured memory."""
        if not self.candidate.rss or not self.baseline.rss:
            return None
        return Stats.of(
            [a / b for a, b in zip(self.candidate.rss, self.baseline.rss, strict=True) if b > 0]
        )


def _measure(fn: Callable[[], object]) -> Sample:
    t0 = time.perf_counter()
    out = fn()
    elapsed = time.perf_counter() - t0
    return out if isinstance(out, Sample) else Sample(elapsed)


def compare(
    candidate: Callable[[], object],
    baseline: Callable[[], object],
    *,
    repeat: int = 5,
    warmup: int = 1,
) -> Comparison:
    """Run ``candidate`` and ``baseline`` alternately (A B A B ...) ``repeat`` times each.

    Args:
        candidate: The work measured (A); may return a :class:`Sample` to time itself.
        baseline: The same work done the reference way (B); may return a :class:`Sample`.
        repeat: Measured pairs.
        warmup: Pairs run first and thrown away (imports, caches, page cache).

    Returns:
        Both sides' samples, in pair order.
    """
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    for _ in range(warmup):
        _measure(candidate)
        _measure(baseline)
    a, b = Side(), Side()
    for _ in range(repeat):
        for side, fn in ((a, candidate), (b, baseline)):
            s = _measure(fn)
            side.seconds.append(s.seconds)
            if s.rss is not None:
                side.rss.append(s.rss)
    return Comparison(a, b)


def measure(fn: Callable[[], object], *, repeat: int = 5, warmup: int = 1) -> Side:
    """Time ``fn`` alone (for figures with no meaningful baseline, e.g. cancel latency)."""
    for _ in range(warmup):
        _measure(fn)
    side = Side()
    for _ in range(repeat):
        s = _measure(fn)
        side.seconds.append(s.seconds)
        if s.rss is not None:
            side.rss.append(s.rss)
    return side


def compare_bytes(
    candidate: Callable[[], int], baseline: Callable[[], int], *, repeat: int = 5
) -> tuple[list[int], list[int]]:
    """Sizes in bytes that ``candidate`` and ``baseline`` report, measured alternately.

    For memory that a piece of work keeps (e.g. measured with ``tracemalloc``); give
    both lists to :meth:`Report.add_bytes`.
    """
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    a: list[int] = []
    b: list[int] = []
    for _ in range(repeat):
        a.append(int(candidate()))
        b.append(int(baseline()))
    return a, b


def run_child(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    stdin: bytes | None = None,
    cwd: str | Path | None = None,
    check: bool = True,
    poll: float = 0.005,
) -> Sample:
    """Run a child process to its end: wall time and its peak RSS, sampled from /proc.

    The peak is the child's VmHWM read every ``poll`` seconds while it runs (the last
    reading before it exits), so it can miss a spike in the final few milliseconds.
    ``wait4``'s ru_maxrss is not used: Linux carries the parent's high-water mark
    across the child's exec, so it would report the bench's own size. For Python
    code, :func:`python_child` has the child report its exact peak itself.
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(env) if env is not None else None,
        cwd=cwd,
    )
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
    peak = 0
    while proc.poll() is None:
        peak = max(peak, peak_rss_of_pid(proc.pid) or 0)
        time.sleep(poll)
    elapsed = time.perf_counter() - t0
    if check and proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} exited {proc.returncode}")
    return Sample(elapsed, peak or None)


# Appended to the code of a python_child: the child's own peak, written where the parent reads it.
_REPORT_PEAK = """
import atexit as _a
def _molforma_bench_peak():
    with open('/proc/self/status') as _s, open({path!r}, 'w') as _o:
        _o.write(next(l for l in _s if l.startswith('VmHWM:')).split()[1])
_a.register(_molforma_bench_peak)
"""


def python_child(code: str, *, env: Mapping[str, str] | None = None) -> Sample:
    """Run ``python -c code`` (this interpreter, the repository on the path) to its end.

    Returns the wall time and the child's exact peak RSS (its VmHWM when it exits,
    which counts only its own memory, not the parent's).
    """
    child_env = dict(env if env is not None else os.environ)
    child_env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), child_env.get("PYTHONPATH", "")) if p
    )
    with tempfile.TemporaryDirectory(prefix="molforma-bench-") as tmp:
        report = Path(tmp) / "peak"
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", _REPORT_PEAK.format(path=str(report)) + code],
            env=child_env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            check=False,
        )
        elapsed = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(
                f"bench child exited {proc.returncode}: "
                f"{proc.stderr.decode(errors='replace')[-600:]}"
            )
        try:
            rss = int(report.read_text()) * 1024
        except (OSError, ValueError):
            rss = None
    return Sample(elapsed, rss)


def peak_rss_of_pid(pid: int) -> int | None:
    """Peak RSS (VmHWM) in bytes of a live process, from /proc; None where that is unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def machine() -> dict[str, Any]:
    """Facts about the machine a figure was taken on."""
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = []
    return {
        "cores": os.cpu_count() or 0,
        "cpu": cpu,
        "load_average": load,
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
    }


def _stats_dict(s: Stats | None) -> dict[str, float] | None:
    return None if s is None else {k: v for k, v in asdict(s).items()}


def fmt_seconds(seconds: float) -> str:
    """A time in the unit a person reads (2.41 s, 87 ms, 0.60 ms)."""
    if seconds >= 10:
        return f"{seconds:.1f} s"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 0.01:
        return f"{seconds * 1e3:.0f} ms"
    if seconds >= 0.001:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e3:.2f} ms"


def fmt_time(s: Stats) -> str:
    """``median (min–max)`` of times, in units a person reads."""
    return f"{fmt_seconds(s.median)} ({fmt_seconds(s.min)}–{fmt_seconds(s.max)})"


def fmt_mb(s: Stats) -> str:
    """``median MB`` of a peak-RSS figure (min–max when they differ by over 1 MB)."""
    lo, mid, hi = s.min / 1e6, s.median / 1e6, s.max / 1e6
    return f"{mid:.0f} MB" if hi - lo < 1 else f"{mid:.0f} MB ({lo:.0f}–{hi:.0f})"


def fmt_bytes(n: float) -> str:
    """A size in the unit a person reads (640 B, 82 kB, 8.0 MB)."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(n) >= size:
            value = n / size
            return f"{value:.1f} {unit}" if abs(value) < 10 else f"{value:.0f} {unit}"
    return f"{n:.0f} B"


def fmt_ratio(r: float) -> str:
    """A ratio with enough digits to read (0.052, 0.41, 3.2, 27)."""
    if r < 0.1:
        return f"{r:.3f}"
    if r < 10:
        return f"{r:.2f}"
    return f"{r:.0f}"


class Report:
    """The rows one bench measured; printed as it goes and written as JSON at the end."""

    def __init__(self, bench: str, command: str, *, notes: Sequence[str] = ()) -> None:
        self.bench = bench
        self.command = command
        self.notes = list(notes)
        self.rows: list[dict[str, Any]] = []
        self.started = datetime.now(UTC)
        self.machine = machine()

    def add(
        self,
        key: str,
        what: str,
        cmp: Comparison,
        *,
        candidate: str,
        baseline: str,
        target: str = "",
        met: bool | None = None,
        note: str = "",
    ) -> dict[str, Any]:
        """Record (and print) one candidate/baseline comparison."""
        row: dict[str, Any] = {
            "key": key,
            "what": what,
            "kind": "comparison",
            "target": target,
            "met": met,
            "note": note,
            "candidate": {
                "label": candidate,
                "seconds": _stats_dict(cmp.candidate.time),
                "peak_rss": _stats_dict(cmp.candidate.peak_rss),
            },
            "baseline": {
                "label": baseline,
                "seconds": _stats_dict(cmp.baseline.time),
                "peak_rss": _stats_dict(cmp.baseline.peak_rss),
            },
            "ratio": _stats_dict(cmp.ratio),
            "rss_ratio": _stats_dict(cmp.rss_ratio),
        }
        self.rows.append(row)
        self._print(row)
        return row

    def add_bytes(
        self,
        key: str,
        what: str,
        candidate_bytes: Sequence[int],
        baseline_bytes: Sequence[int],
        *,
        candidate: str,
        baseline: str,
        target: str = "",
        met: bool | None = None,
        note: str = "",
    ) -> dict[str, Any]:
        """Record (and print) sizes in bytes of both sides (from :func:`compare_bytes`)."""
        ratios = [
            a / b if b > 0 else float("inf")
            for a, b in zip(candidate_bytes, baseline_bytes, strict=True)
        ]
        row: dict[str, Any] = {
            "key": key,
            "what": what,
            "kind": "bytes",
            "target": target,
            "met": met,
            "note": note,
            "candidate": {
                "label": candidate,
                "bytes": _stats_dict(Stats.of([float(x) for x in candidate_bytes])),
            },
            "baseline": {
                "label": baseline,
                "bytes": _stats_dict(Stats.of([float(x) for x in baseline_bytes])),
            },
            "ratio": _stats_dict(Stats.of(ratios)),
        }
        self.rows.append(row)
        self._print(row)
        return row

    def add_single(
        self,
        key: str,
        what: str,
        side: Side,
        *,
        label: str,
        target: str = "",
        met: bool | None = None,
        note: str = "",
    ) -> dict[str, Any]:
        """Record (and print) a figure with no baseline (a latency, a frame rate)."""
        row: dict[str, Any] = {
            "key": key,
            "what": what,
            "kind": "single",
            "target": target,
            "met": met,
            "note": note,
            "candidate": {
                "label": label,
                "seconds": _stats_dict(side.time),
                "peak_rss": _stats_dict(side.peak_rss),
            },
        }
        self.rows.append(row)
        self._print(row)
        return row

    def _print(self, row: dict[str, Any]) -> None:
        out = sys.stdout
        out.write(f"\n{row['what']}\n")
        sides = [("candidate", row["candidate"])]
        if row["kind"] in ("comparison", "bytes"):
            sides.append(("baseline", row["baseline"]))
        for _, side in sides:
            if row["kind"] == "bytes":
                z = Stats(**side["bytes"])
                span = f"{fmt_bytes(z.median)} ({fmt_bytes(z.min)}–{fmt_bytes(z.max)})"
                out.write(f"  {side['label']:38s} {span:>28s}  n={z.n}\n")
                continue
            t = Stats(**side["seconds"])
            line = f"  {side['label']:38s} {fmt_time(t):>28s}  n={t.n}"
            if side["peak_rss"]:
                line += f"  peak RSS {fmt_mb(Stats(**side['peak_rss']))}"
            out.write(line + "\n")
        if row["kind"] in ("comparison", "bytes"):
            r = Stats(**row["ratio"])
            line = (
                f"  ratio candidate/baseline, median of pairs: {fmt_ratio(r.median)} "
                f"({fmt_ratio(r.min)}–{fmt_ratio(r.max)})"
            )
            if row.get("rss_ratio"):
                line += f"; peak RSS ratio {fmt_ratio(row['rss_ratio']['median'])}"
            out.write(line + "\n")
        if row["target"]:
            verdict = {True: "met", False: "NOT met", None: ""}[row["met"]]
            out.write(f"  target {row['target']}: {verdict}\n")
        if row["note"]:
            out.write(f"  {row['note']}\n")
        out.flush()

    def as_dict(self) -> dict[str, Any]:
        """The JSON document :meth:`write` stores."""
        return {
            "schema": SCHEMA,
            "bench": self.bench,
            "command": self.command,
            "date": self.started.strftime("%Y-%m-%d %H:%M UTC"),
            "machine": self.machine,
            "notes": self.notes,
            "rows": self.rows,
        }

    def write(self, directory: Path | None = None) -> Path:
        """Write ``<directory>/<bench>.json`` (default bench/results) and say where."""
        folder = directory if directory is not None else RESULTS_DIR
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.bench}.json"
        path.write_text(
            json.dumps(self.as_dict(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        sys.stdout.write(
            f"\nwrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
            " (docs: .venv/bin/python scripts/update_readme.py)\n"
        )
        return path


def add_output_argument(parser: Any) -> None:
    """The ``--out DIR`` option every bench takes (default bench/results)."""
    parser.add_argument(
        "--out", type=Path, default=None, help="folder for the JSON results (default bench/results)"
    )
