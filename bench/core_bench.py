"""Core speed on a 10,000-atom document, as ratios to ``json.dumps`` of the same project.

Run: ``.venv/bin/python bench/core_bench.py``. Each operation is timed several times
and the median is divided by the median of ``json.dumps(project)`` measured in the
same run, so the figures compare across machines. Target: every ratio <= 5.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

import numpy as np

from molforma.document import ops
from molforma.document.document import Document


def median_time(fn: Callable[[], object], repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def build(n: int = 10_000) -> Document:
    rng = np.random.default_rng(1)
    side = int(np.ceil(n ** (1 / 3)))
    grid = np.array([(i, j, k) for i in range(side) for j in range(side) for k in range(side)][:n],
                    dtype=float) * 1.6 + rng.uniform(-0.2, 0.2, (n, 3))
    els = ["C", "H", "O", "N"]
    doc = Document()
    ops.add_atoms(doc, [{"element": els[i % 4], "position": grid[i].tolist()} for i in range(n)],
                  [{"a": f"#{i}", "b": f"#{i + 1}"} for i in range(0, n - 1, 2)], preview=False)
    return doc


def main() -> None:
    doc = build()
    proj = doc.project
    base = median_time(lambda: json.dumps(proj))
    rows: list[tuple[str, float]] = []
    rows.append(("get-project serialisation (get_document)",
                 median_time(lambda: json.dumps({"revision": doc.revision, "project": doc.project}))))
    moves = iter(range(100))

    def move_all() -> None:
        ops.move_atoms(doc, translate=[0.01 * (next(moves) % 3 - 1) + 0.001, 0, 0], preview=False)

    rows.append(("move of all atoms (direct apply)", median_time(move_all)))

    def undo_redo() -> None:
        ops.history(doc, "undo")
        ops.history(doc, "redo")

    rows.append(("undo (+ redo, halved)", median_time(undo_redo) / 2))
    from molforma.formats import write_text

    rows.append(("XYZ export", median_time(lambda: write_text(doc.project, "xyz"))))
    from molforma.nwchem.input import render_input

    rows.append(("NWChem input generation", median_time(lambda: render_input(doc.project))))
    print(f"10,000 atoms; baseline json.dumps(project) = {base * 1e3:.1f} ms")
    print(f"{'operation':45s} {'ms':>8s} {'ratio':>7s}  target <= 5")
    for name, t in rows:
        print(f"{name:45s} {t * 1e3:8.1f} {t / base:7.2f}  {'ok' if t / base <= 5 else 'SLOW'}")


if __name__ == "__main__":
    main()
