"""Core operations on a 10,000-atom document beside the least work that gives the same result.

Run: ``.venv/bin/python bench/core_bench.py [--repeat 7] [--atoms 10000]``.

Each operation (A) is timed alternately with a baseline (B) that produces the same
result the plainest way, in the same run:

- move all atoms (``ops.move_atoms``: one undo step, revision, fixed-atom check)
  vs a list comprehension building the moved atom dicts;
- undo + redo of a move vs making the move back and forth (undo must be cheaper);
- XYZ export (``write_text``) vs an f-string join of the same lines;
- NWChem input (``render_input``) vs an f-string join of its geometry block.

Memory an undo step keeps, measured with ``tracemalloc`` in this process, each step
alternately with one full copy of the project (what every step kept before states
shared their unchanged atoms): a one-atom move (target ≤ 5 % of the copy) and a
basis set change (target: no atom data, ≤ 1 %).

Memory, each in a fresh child process with the same imports on both sides: a
10,000-atom project file opened through ``ops.open_file`` vs ``json.load`` of the
same file; and that document after 100 undoable moves (the undo history) vs 100
plain copies of the atom list (what a naive snapshot history would hold).

``get_document`` is measured through the real tool over the real server in
``mcp_bench.py``, not here.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from harness import Report, Sample, add_output_argument, compare, compare_bytes, python_child

from molforma.app import ops
from molforma.document.document import Document
from molforma.document.envelope import clone_project

TARGET = 5.0
STEP_TARGET = 0.05  # an undo step of a one-atom move, as a share of one project copy
SETTINGS_TARGET = 0.01  # a settings edit: no atom data (a list of 10,000 references is 1 %)


def xyz_text(n: int) -> str:
    """``n`` atoms of C, H, O, N on a jittered 1.6 Å grid, as XYZ."""
    rng = np.random.default_rng(1)
    side = int(np.ceil(n ** (1 / 3)))
    grid = np.array(
        [(i, j, k) for i in range(side) for j in range(side) for k in range(side)][:n], dtype=float
    ) * 1.6 + rng.uniform(-0.2, 0.2, (n, 3))
    els = ["C", "H", "O", "N"]
    return f"{n}\nbench\n" + "".join(
        f"{els[i % 4]} {x:.6f} {y:.6f} {z:.6f}\n" for i, (x, y, z) in enumerate(grid)
    )


def build(n: int = 10_000) -> Document:
    """A confirmed ``n``-atom document loaded the way a file is (bonds perceived)."""
    doc = Document()
    ops.import_document(doc, xyz_text(n), "xyz", preview=False)
    return doc


# The child processes of the memory rows: identical imports, then only the data differs.
_CHILD_HEAD = """
import json, sys
sys.path.insert(0, {bench!r})
from core_bench import build
from molforma.app import ops
from molforma.document.document import Document
path = {path!r}
"""
_CHILD_DOCUMENT = "doc = Document()\nops.open_file(doc, path, preview=False)\n"
_CHILD_PLAIN = "with open(path, encoding='utf-8') as fh:\n    project = json.load(fh)\n"
_CHILD_HISTORY = (
    _CHILD_DOCUMENT + "for i in range(100):\n"
    "    ops.move_atoms(doc, translate=[0.001 * (i % 3 - 1) + 0.0001, 0, 0],"
    " preview=False)\n"
)
_CHILD_COPIES = (
    _CHILD_PLAIN + "atoms = project['document']['atoms']\n"
    "history = [[dict(a, x=a['x'] + 0.001 * i) for a in atoms] for i in range(100)]\n"
)


def retained(fn: Callable[[], object]) -> int:
    """Bytes still allocated (``tracemalloc``) after ``fn`` ran and its result was dropped."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        fn()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def _child(body: str, path: Path) -> Sample:
    from harness import ROOT

    return python_child(_CHILD_HEAD.format(bench=str(ROOT / "bench"), path=str(path)) + body)


def main(argv: list[str] | None = None) -> int:
    """Run the bench, print it and write bench/results/core_bench.json."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--atoms", type=int, default=10_000)
    ap.add_argument("--memory-repeat", type=int, default=3)
    add_output_argument(ap)
    args = ap.parse_args(argv)
    n = args.atoms
    report = Report(
        "core_bench",
        f"python bench/core_bench.py --repeat {args.repeat}",
        notes=[
            f"core_bench: {n:,} atoms; ratios below 1 mean MolForma is cheaper than the baseline."
        ],
    )
    doc = build(n)
    steps = iter(range(10**9))

    def move() -> None:
        ops.move_atoms(doc, translate=[0.001 * (next(steps) % 3 - 1) + 0.0001, 0, 0], preview=False)

    def move_plain() -> list[dict[str, Any]]:
        return [dict(a, x=a["x"] + 0.0001) for a in doc.project["document"]["atoms"]]

    c = compare(move, move_plain, repeat=args.repeat)
    report.add(
        "move",
        f"move all {n:,} atoms (one undo step)",
        c,
        candidate="ops.move_atoms",
        baseline="list of moved atom dicts",
        target=f"ratio ≤ {TARGET:g}",
        met=c.ratio.median <= TARGET,
    )

    def undo_redo() -> None:
        ops.history(doc, "undo")
        ops.history(doc, "redo")

    def move_back_and_forth() -> None:
        ops.move_atoms(doc, translate=[-0.0001, 0, 0], preview=False)
        ops.move_atoms(doc, translate=[0.0001, 0, 0], preview=False)

    c = compare(undo_redo, move_back_and_forth, repeat=args.repeat)
    report.add(
        "undo",
        "undo + redo of a move of all atoms",
        c,
        candidate="ops.history undo + redo",
        baseline="the move made back and forth",
        target="ratio ≤ 1",
        met=c.ratio.median <= 1,
    )

    kept: list[object] = []

    def full_copy() -> int:
        size = retained(lambda: kept.append(clone_project(doc.project)))
        kept.clear()
        return size

    ids = iter(f"a{i}" for i in range(1, 10**9))
    offsets = iter(range(10**9))

    def one_atom_step() -> int:
        aid = next(ids)
        pos = [50.0 + next(offsets) * 0.5, 50.0, 50.0]  # apart from every other atom
        return retained(lambda: ops.move_atoms(doc, positions={aid: pos}, preview=False))

    a, b = compare_bytes(one_atom_step, full_copy, repeat=args.repeat)
    report.add_bytes(
        "undo_step_move",
        f"memory an undo step keeps: one-atom move on {n:,} atoms",
        a,
        b,
        candidate="one-atom move (tracemalloc, retained)",
        baseline="one full project copy",
        target=f"ratio ≤ {STEP_TARGET:g}",
        met=max(a) <= STEP_TARGET * min(b),
    )
    bases = iter(["sto-3g", "6-31g*"] * 10**6)

    def settings_step() -> int:
        basis = next(bases)
        return retained(lambda: ops.set_nwchem(doc, {"basis": basis}, preview=False))

    a, b = compare_bytes(settings_step, full_copy, repeat=args.repeat)
    report.add_bytes(
        "undo_step_settings",
        f"memory an undo step keeps: basis set change on {n:,} atoms",
        a,
        b,
        candidate="set_nwchem basis (tracemalloc, retained)",
        baseline="one full project copy",
        target=f"ratio ≤ {SETTINGS_TARGET:g} (no atom data)",
        met=max(a) <= SETTINGS_TARGET * min(b),
    )

    from molforma.formats import write_text

    def xyz_plain() -> str:
        atoms = doc.project["document"]["atoms"]
        return f"{len(atoms)}\n{doc.project['document']['title']}\n" + "".join(
            f"{a['element']:<2s} {a['x']:15.8f} {a['y']:15.8f} {a['z']:15.8f}\n" for a in atoms
        )

    c = compare(lambda: write_text(doc.project, "xyz"), xyz_plain, repeat=args.repeat)
    report.add(
        "xyz",
        "XYZ export",
        c,
        candidate="write_text(project, 'xyz')",
        baseline="f-string join of the lines",
        target=f"ratio ≤ {TARGET:g}",
        met=c.ratio.median <= TARGET,
    )

    from molforma.nwchem.input import render_input

    def geometry_plain() -> str:
        atoms = doc.project["document"]["atoms"]
        return (
            "geometry units angstrom\n"
            + "".join(
                f"  {a['element']:<4s}{a['x']:18.10f}{a['y']:17.10f}{a['z']:17.10f}\n"
                for a in atoms
            )
            + "end\n"
        )

    c = compare(lambda: render_input(doc.project), geometry_plain, repeat=args.repeat)
    report.add(
        "nwchem_input",
        "NWChem input generation",
        c,
        candidate="render_input(project)",
        baseline="f-string join of the geometry block",
        target=f"ratio ≤ {TARGET:g}",
        met=c.ratio.median <= TARGET,
    )

    with tempfile.TemporaryDirectory(prefix="molforma-core-bench-") as tmp:
        path = Path(tmp) / "big.molforma.json"
        path.write_text(json.dumps(doc.project), encoding="utf-8")
        c = compare(
            lambda: _child(_CHILD_DOCUMENT, path),
            lambda: _child(_CHILD_PLAIN, path),
            repeat=args.memory_repeat,
            warmup=0,
        )
        report.add(
            "memory_document",
            f"peak memory of a {n:,}-atom project opened (child process, same imports)",
            c,
            candidate="ops.open_file into a Document",
            baseline="json.load of the same file",
            note="times are whole child processes (imports + open)",
        )
        c = compare(
            lambda: _child(_CHILD_HISTORY, path),
            lambda: _child(_CHILD_COPIES, path),
            repeat=args.memory_repeat,
            warmup=0,
        )
        report.add(
            "memory_history",
            f"peak memory after 100 undoable moves of {n:,} atoms",
            c,
            candidate="Document + 100 undo steps",
            baseline="100 copies of the atom list",
            note="times are whole child processes (imports + open + 100 moves)",
        )
    report.write(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
