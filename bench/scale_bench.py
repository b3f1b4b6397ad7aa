"""Large systems and agents: MolForma beside RDKit and Avogadro 2 at 100 / 1,000 / 10,000 atoms.

Run (OpenGL window rows need an X display; Mesa llvmpipe under Xvfb is fine)::

    xvfb-run -a -s "-screen 0 1600x1200x24" .venv/bin/python bench/scale_bench.py [--json OUT]

Every pair is measured in the same run, interleaved (candidate, baseline, candidate, ...),
and reported as medians with min/max and the ratio of the medians:

- open XYZ (``ops.open_file``: read, perceive bonds, check, one undo step) vs RDKit reading
  the same file and perceiving its bonds (``MolFromXYZBlock`` + ``DetermineConnectivity``);
  open MOL / PDB of 10,000 atoms vs RDKit's ``MolFromMolFile`` / ``MolFromPDBFile``;
- move of all atoms (growth from 1,000 to 10,000 atoms; linear is x10);
- get_document with default arguments (one page) and with ``include: []``;
- export XYZ vs RDKit's ``MolToXYZBlock``; ``molforma convert`` of a 10,000-atom XYZ to MOL
  as a whole process vs a minimal RDKit script doing the same;
- start of ``molforma --mcp`` to the first ``server/discover`` answer and to the first tool
  result (``list_documents``), beside a bare ``python -c pass``;
- history scan cancel latency (worst of several);
- first complete frame of the window (OpenGL) vs Avogadro 2 on the same file: time from
  spawning the program to the first screen capture that shows its window drawn and equal to
  the next capture. Avogadro 2 comes from Debian (``apt-get install -y avogadro``); when
  ``avogadro2`` or an X display is missing the row says so and is skipped.

Targets (issue 14): open/convert <= 2x RDKit, move linear, start -> first tool <= 150 ms,
discover < 100 ms, history cancel < 1 ms, window first frame <= Avogadro 2.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SIZES = (100, 1_000, 10_000)
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"}}
RDKIT_CONVERT = """import sys
from rdkit import Chem
from rdkit.Chem import rdDetermineBonds
m = Chem.MolFromXYZBlock(open(sys.argv[1]).read())
rdDetermineBonds.DetermineConnectivity(m)
Chem.MolToMolFile(m, sys.argv[2])
"""


def water_box(n: int, seed: int = 1) -> str:
    """An XYZ of n atoms: waters on a 3.1 Å grid, a few He when n is not a multiple of 3."""
    rng = np.random.default_rng(seed)
    m = n // 3
    side = int(np.ceil(m ** (1 / 3)))
    grid = np.array([(i, j, k) for i in range(side) for j in range(side)
                     for k in range(side)][:m], float) * 3.1
    grid += rng.uniform(-0.2, 0.2, grid.shape)
    rows: list[tuple[str, Any]] = []
    for p in grid:
        rows += [("O", p), ("H", p + np.array([0.9572, 0, 0])),
                 ("H", p + np.array([-0.24, 0.927, 0]))]
    while len(rows) < n:
        rows.append(("He", grid[-1] + np.array([0.0, 0.0, 3.1 * (n - len(rows))])))
    return f"{n}\nwater box\n" + "".join(f"{e} {x:.6f} {y:.6f} {z:.6f}\n"
                                         for e, (x, y, z) in rows)


# -- timing helpers ------------------------------------------------------------------------


def _stats(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def pair(a: Callable[[], object], b: Callable[[], object], rounds: int) -> dict[str, Any]:
    """Interleaved timings of candidate ``a`` and baseline ``b`` (seconds) and their ratio."""
    ta: list[float] = []
    tb: list[float] = []
    a()
    b()  # warm caches and lazy imports of both
    for _ in range(rounds):
        t0 = time.perf_counter()
        a()
        t1 = time.perf_counter()
        b()
        t2 = time.perf_counter()
        ta.append(t1 - t0)
        tb.append(t2 - t1)
    sa, sb = _stats(ta), _stats(tb)
    return {"ours": sa, "baseline": sb, "ratio": sa["median"] / sb["median"]}


def single(fn: Callable[[], object], rounds: int) -> dict[str, float]:
    fn()
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return _stats(out)


def _rounds(n: int) -> int:
    return {100: 21, 1_000: 11}.get(n, 7)


# -- core rows -----------------------------------------------------------------------------


def _mover(doc: Any) -> Callable[[], object]:
    """A move of every atom by a small step that changes direction (never the same place)."""
    from molforma.document import ops

    steps = iter(range(10**9))
    return lambda: ops.move_atoms(doc, translate=[0.001 * (next(steps) % 3 - 1) + 1e-4, 0, 0],
                                  preview=False)


def core_rows(tmp: Path) -> dict[str, Any]:
    from rdkit import Chem
    from rdkit.Chem import rdDetermineBonds

    from molforma.document import ops
    from molforma.document.document import Document
    from molforma.mcp.server import Server, ServerState

    out: dict[str, Any] = {}
    for n in SIZES:
        path = tmp / f"box{n}.xyz"
        path.write_text(water_box(n))
        doc = Document()
        k = _rounds(n)

        def rdkit_read(p: Path = path) -> object:
            m = Chem.MolFromXYZBlock(p.read_text())
            rdDetermineBonds.DetermineConnectivity(m)
            return m

        out[f"open_xyz_{n}"] = pair(lambda p=path, d=doc: ops.open_file(d, str(p),
                                                                         preview=False),
                                    rdkit_read, k)
        out[f"move_all_{n}"] = single(_mover(doc), k)
        mol = rdkit_read()
        out[f"export_xyz_{n}"] = pair(lambda d=doc: ops.export_document(d, "xyz"),
                                      lambda m=mol: Chem.MolToXYZBlock(m), k)
        state = ServerState(initial_document=False)
        state.add_document(doc)
        server = Server(state)

        def call(args: dict[str, Any], s: Server = server) -> dict[str, Any]:
            res = s.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                            "params": {"name": "get_document", "arguments": args,
                                       "_meta": META}})
            return json.loads(json.dumps(res))  # what a client receives, decoded

        page = call({"documentId": doc.id})
        out[f"get_document_page_{n}"] = {**single(lambda d=doc: call({"documentId": d.id}), k),
                                         "chars": len(json.dumps(page))}
        out[f"get_document_empty_{n}"] = single(
            lambda d=doc: call({"documentId": d.id, "include": []}), k)
        if n == SIZES[-1]:
            for fmt, reader in (("mol", lambda p: Chem.MolFromMolFile(str(p), removeHs=False)),
                                ("pdb", lambda p: Chem.MolFromPDBFile(str(p), removeHs=False))):
                fpath = tmp / f"box{n}.{fmt}"
                fpath.write_text(ops.export_document(doc, fmt))
                out[f"open_{fmt}_{n}"] = pair(
                    lambda p=fpath, d=doc: ops.open_file(d, str(p), preview=False),
                    lambda p=fpath, r=reader: r(p), 5)
    out["move_growth_1k_to_10k"] = (out["move_all_10000"]["median"]
                                    / out["move_all_1000"]["median"])
    return out


# -- processes -----------------------------------------------------------------------------


def _molforma() -> list[str]:
    exe = Path(sys.executable).with_name("molforma")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "molforma"]


def _env(tmp: Path) -> dict[str, str]:
    cfg = tmp / "config"
    cfg.mkdir(exist_ok=True)
    return dict(os.environ, MOLFORMA_CONFIG_DIR=str(cfg), MOLFORMA_LANGUAGE="en",
                PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _run(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def convert_row(tmp: Path, rounds: int = 5) -> dict[str, Any]:
    env = _env(tmp)
    src = tmp / "box10000.xyz"
    script = tmp / "rdkit_convert.py"
    script.write_text(RDKIT_CONVERT)
    ours: list[float] = []
    base: list[float] = []
    for _ in range(rounds):
        ours.append(_run([*_molforma(), "convert", str(src), "-o", str(tmp / "o.mol")], env))
        base.append(_run([sys.executable, str(script), str(src), str(tmp / "r.mol")], env))
    sa, sb = _stats(ours), _stats(base)
    return {"ours": sa, "baseline": sb, "ratio": sa["median"] / sb["median"]}


def startup_row(tmp: Path, rounds: int = 7) -> dict[str, Any]:
    env = _env(tmp)
    disc: list[float] = []
    first: list[float] = []
    bare: list[float] = []
    for _ in range(rounds):
        bare.append(_run([sys.executable, "-c", "pass"], env))
        t0 = time.perf_counter()
        p = subprocess.Popen([*_molforma(), "--mcp"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        assert p.stdin is not None and p.stdout is not None

        def ask(rid: int, method: str, params: dict[str, Any],
                proc: subprocess.Popen[bytes] = p) -> None:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                                         "params": {**params, "_meta": META}}).encode() + b"\n")
            proc.stdin.flush()
            while json.loads(proc.stdout.readline()).get("id") != rid:
                pass

        ask(1, "server/discover", {})
        disc.append(time.perf_counter() - t0)
        ask(2, "tools/call", {"name": "list_documents", "arguments": {}})
        first.append(time.perf_counter() - t0)
        p.stdin.close()
        p.wait(30)
        p.stdout.close()
    return {"discover": _stats(disc), "first_tool": _stats(first), "bare_python": _stats(bare)}


def cancel_row(tmp: Path, runs: int = 7) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "bench"))
    from history_bench import build, cancel_latency

    root = tmp / "history"
    root.mkdir()
    build(root, 600)
    lat = []
    for _ in range(runs):
        seconds, status = cancel_latency(root)
        assert status == "cancelled", status
        lat.append(seconds)
    return _stats(lat)


# -- window first frame ----------------------------------------------------------------------


def _capture() -> np.ndarray | None:
    """The X screen as raw bytes (xwd), or None when it cannot be captured."""
    try:
        raw = subprocess.run(["xwd", "-root", "-silent"], capture_output=True, check=True,
                             timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return np.frombuffer(raw, dtype=np.uint8) if raw else None


def _changed(a: np.ndarray, b: np.ndarray) -> float:
    """Fraction of bytes that differ between two captures (1.0 when their sizes differ)."""
    if a.shape != b.shape:
        return 1.0
    return float(np.count_nonzero(a != b)) / a.size


def first_frame(argv: list[str], env: dict[str, str], timeout: float = 90.0) -> float | None:
    """Seconds from spawning ``argv`` to the first capture showing its window fully drawn.

    A capture counts when it differs from the empty screen by more than 1 % (a window is
    up) and the next capture differs from it by less than 0.05 % (drawing has ended; a
    blinking text cursor changes a few hundred bytes only). The time reported is that of
    the first of the two captures.
    """
    empty = _capture()
    if empty is None:
        return None
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    last: np.ndarray | None = None
    last_t = 0.0
    try:
        while time.perf_counter() - t0 < timeout:
            shot = _capture()
            now = time.perf_counter()
            if proc.poll() is not None:
                return None  # the program ended (or failed) before drawing
            if shot is None:
                continue
            if (last is not None and _changed(last, empty) > 0.01
                    and _changed(shot, last) < 0.0005):
                return last_t - t0
            last, last_t = shot, now
        return None
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def window_rows(tmp: Path, rounds: int = 3) -> dict[str, Any]:
    if not os.environ.get("DISPLAY"):
        return {"skipped": "no X display: run under xvfb-run -a -s '-screen 0 1600x1200x24'"}
    if shutil.which("xwd") is None:
        return {"skipped": "xwd missing: apt-get install -y x11-apps"}
    avogadro = shutil.which("avogadro2")
    env = _env(tmp)
    env.pop("MOLFORMA_RENDERER", None)  # the OpenGL view, as a user gets it
    env.pop("QT_QPA_PLATFORM", None)
    out: dict[str, Any] = {}
    for n in (100, 10_000):
        path = tmp / f"box{n}.xyz"
        ours = [first_frame([*_molforma(), str(path)], env) for _ in range(rounds)]
        row: dict[str, Any] = {"ours": _stats([t for t in ours if t is not None])
                               if any(t is not None for t in ours) else None}
        if avogadro is None:
            row["baseline"] = "skipped: avogadro2 missing (apt-get install -y avogadro)"
        else:
            theirs = [first_frame([avogadro, str(path)], env) for _ in range(rounds)]
            ok = [t for t in theirs if t is not None]
            row["baseline"] = _stats(ok) if ok else None
            if ok and row["ours"]:
                row["ratio"] = row["ours"]["median"] / row["baseline"]["median"]
        out[f"first_frame_{n}"] = row
    return out


# -- report ----------------------------------------------------------------------------------


def _ms(s: float) -> str:
    return f"{s * 1e3:9.2f}"


def report(res: dict[str, Any]) -> None:
    core = res["core"]
    print(f"{'row':34s} {'ours ms':>9s} {'base ms':>9s} {'ratio':>6s}  (median; min-max ours)")
    for key, row in core.items():
        if isinstance(row, dict) and "ratio" in row:
            o, b = row["ours"], row["baseline"]
            print(f"{key:34s} {_ms(o['median'])} {_ms(b['median'])} {row['ratio']:6.2f}  "
                  f"({o['min'] * 1e3:.1f}-{o['max'] * 1e3:.1f})")
        elif isinstance(row, dict):
            extra = f"  {row['chars']} chars" if "chars" in row else ""
            print(f"{key:34s} {_ms(row['median'])} {'':>9s} {'':>6s}  "
                  f"({row['min'] * 1e3:.1f}-{row['max'] * 1e3:.1f}){extra}")
    print(f"{'move growth 1k -> 10k (x10 linear)':34s} {core['move_growth_1k_to_10k']:9.1f}")
    c = res["convert"]
    print(f"{'convert 10k XYZ -> MOL (process)':34s} {_ms(c['ours']['median'])} "
          f"{_ms(c['baseline']['median'])} {c['ratio']:6.2f}")
    s = res["startup"]
    print(f"{'start -> first discover':34s} {_ms(s['discover']['median'])}")
    print(f"{'start -> first tool result':34s} {_ms(s['first_tool']['median'])}")
    print(f"{'bare python -c pass':34s} {_ms(s['bare_python']['median'])}")
    h = res["history_cancel"]
    print(f"{'history cancel latency (max)':34s} {_ms(h['max'])}  median {_ms(h['median'])}")
    for key, row in res["window"].items():
        if not isinstance(row, dict):
            print(f"{key:34s} {row}")
            continue
        ours = row.get("ours")
        base = row.get("baseline")
        o = _ms(ours["median"]) if ours else "   failed"
        b = _ms(base["median"]) if isinstance(base, dict) else f" {base}"
        ratio = f" {row['ratio']:6.2f}" if "ratio" in row else ""
        print(f"{key:34s} {o} {b}{ratio}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", help="also write the figures to this JSON file")
    ap.add_argument("--skip-window", action="store_true", help="leave out the window rows")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="molforma-scale-") as d:
        tmp = Path(d)
        res: dict[str, Any] = {"core": core_rows(tmp)}
        res["convert"] = convert_row(tmp)
        res["startup"] = startup_row(tmp)
        res["history_cancel"] = cancel_row(tmp)
        res["window"] = ({"skipped": "--skip-window"} if args.skip_window
                         else window_rows(tmp))
        res["load"] = os.getloadavg()
    report(res)
    print(f"load average during the run: {res['load'][0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
