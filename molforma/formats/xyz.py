"""XYZ files, single and multi-frame (no Qt).

Each frame is an atom count line, a comment line and one ``Element x y z`` line per
atom (an atomic number is accepted for the element; extra columns are ignored).
The comment line gives the title, and ``charge=N`` / ``multiplicity=N`` (or
``mult=N``) in it are taken. XYZ keeps no bonds, formal charges or atom ids:
bonds are perceived with RDKit. A multi-frame file must be read with ``frame``
(0-based); NWChem's driver and animation files (comment `` geometry``) are plain XYZ.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from molforma.document.envelope import MIN_DISTANCE
from molforma.errors import FormatError
from molforma.formats.common import (
    Structure,
    element_from_label,
    fail,
    make_atom,
    numbered_lines,
    pick_frame,
    plain_atoms,
    syntax,
    to_float,
)
from molforma.formats.connectivity import (
    ORDER_PERCEPTION_LIMIT,
    bonded_pairs,
    saturated_bonds,
    single_bonds,
)

FMT = "xyz"
_KEYVAL = re.compile(r"\b(charge|multiplicity|mult)\s*=\s*([+-]?\d+)\b", re.I)


def _frames(
    lines: list[str], keep: Callable[[int], bool] | None = None
) -> tuple[list[tuple[int, int]], list[tuple[list[str], list[Any]]]]:
    """(index of the count line, atom count) of every frame, and the parsed frames ``keep`` wants.

    The whole file is checked; each atom line is parsed once.
    """
    frames: list[tuple[int, int]] = []
    blocks: list[tuple[list[str], list[Any]]] = []
    i = 0
    n = len(lines)
    while i < n:
        if not lines[i].strip():
            i += 1
            continue
        head = lines[i].split()
        if len(head) != 1 or not head[0].lstrip("+").isdigit():
            if frames and len(head) >= 4:
                _prev_start, prev_count = frames[-1]
                fail(
                    "format_atom_count",
                    FMT,
                    i + 1,
                    reason="more atom lines than announced",
                    expected=prev_count,
                    found=f"{prev_count}+",
                )
            fail(
                "format_bad_number",
                FMT,
                i + 1,
                reason="atom count expected",
                value=lines[i].strip()[:40],
                what="atom count",
            )
        count = int(head[0])
        if i + 1 >= n:
            fail(
                "format_truncated",
                FMT,
                i + 2,
                reason="comment line missing",
                expected="a comment line",
            )
        block = _block(lines, i, count)
        if keep is None or keep(len(frames)):
            blocks.append(block)
        frames.append((i, count))
        i += 2 + count
    return frames, blocks


def _block(lines: list[str], start: int, count: int) -> tuple[list[str], Any]:
    """Elements and coordinates (n x 3) of the frame whose count line is ``lines[start]``.

    One ``split`` per line and one ``float`` per number for the usual ``label x y z``
    lines; anything unusual (a short or blank line, extra columns, a Fortran exponent,
    an unknown label, a huge number) goes through the line-by-line reader, which names
    the line of the error.
    """
    rows = lines[start + 2 : start + 2 + count]
    if len(rows) == count and count:
        fast = _plain_rows(rows)
        if fast is not None:
            return fast
    els: list[str] = []
    coords = []
    for k in range(count):
        row = start + 2 + k
        if row >= len(lines) or not lines[row].strip():
            fail(
                "format_atom_count",
                FMT,
                row + 1,
                reason="fewer atom lines than announced",
                expected=count,
                found=k,
            )
        atom = _atom_line(lines[row], row + 1, k + 1)
        els.append(atom["element"])
        coords.append((atom["x"], atom["y"], atom["z"]))
    return els, np.array(coords, dtype=float).reshape(-1, 3)


def _plain_rows(rows: list[str]) -> tuple[list[str], Any] | None:
    """Elements and coordinates when every row is ``label x y z`` with plain numbers."""
    # Every row's own split list dies at once, the tokens come from one split of the
    # block: 10,000 living lists would make the cyclic garbage collector run (and
    # promote them) several times per file.
    if set(map(len, map(str.split, rows))) != {4}:
        return None
    flat = "\n".join(rows).split()
    labels = flat[0::4]
    try:
        known = _labels_known(labels)
        columns = [list(map(float, flat[k::4])) for k in (1, 2, 3)]
    except (ValueError, KeyError):
        return None
    coords = np.array(columns).T
    if not (np.isfinite(coords).all() and np.abs(coords).max() <= 1e5):
        return None
    return list(map(known.__getitem__, labels)), _Columns(coords, columns)


class _Columns:
    """Coordinates both as an n x 3 array (for perception) and as float lists (for atoms)."""

    __slots__ = ("array", "lists")

    def __init__(self, array: Any, lists: list[list[float]]) -> None:
        self.array = array
        self.lists = lists


def _labels_known(labels: Iterable[str]) -> dict[str, str]:
    """Element of each distinct label; KeyError-free only when every label is an element."""
    out: dict[str, str] = {}
    for label in set(labels):
        el = _label_element(label)
        if el is None:
            raise KeyError(label)
        out[label] = el
    return out


@functools.lru_cache(maxsize=1024)
def _label_element(label: str) -> str | None:
    try:
        return element_from_label(label, FMT, None)
    except FormatError:
        return None


def _atom_line(line: str, lineno: int, index: int) -> dict[str, Any]:
    parts = line.split()
    if len(parts) < 4:
        syntax(FMT, lineno, "an atom line needs an element and three coordinates")
    el = element_from_label(parts[0], FMT, lineno)
    x, y, z = (to_float(p, FMT, lineno) for p in parts[1:4])
    return make_atom(index, el, x, y, z)


def read_xyz(
    text: str, frame: int | None = None, *, perceive: bool = True, first_id: int = 1
) -> Structure:
    """One frame of an XYZ text; bonds perceived unless ``perceive`` is False.

    Atoms are numbered ``a<first_id>``, ``a<first_id + 1>``, ... (see ``info["first_id"]``).

    Raises:
        FormatError: a broken line (named), no frame, or a multi-frame file without
            ``frame`` (the message tells the frame count).
    """
    lines = numbered_lines(text)
    frames, blocks = _frames(lines, keep=lambda k: k == (frame or 0))
    if not frames:
        fail("format_no_atoms", FMT, None, reason="the file is empty")
    chosen = pick_frame(FMT, len(frames), frame, required=True)
    start, _count = frames[chosen]
    els, coords = blocks[0]
    xs: list[float]
    ys: list[float]
    zs: list[float]
    comment = lines[start + 1].strip()
    charge = multiplicity = None
    for key, value in _KEYVAL.findall(comment):
        if key.lower() == "charge":
            charge = int(value)
        else:
            multiplicity = int(value)
    if len(els) > ORDER_PERCEPTION_LIMIT:
        array = coords.array if isinstance(coords, _Columns) else np.asarray(coords, float)
        return _large(els, array, comment, charge, multiplicity, len(frames), perceive, first_id)
    if isinstance(coords, _Columns):
        xs, ys, zs = coords.lists
        coords = coords.array
    else:
        xs, ys, zs = (np.asarray(coords)[:, k].tolist() for k in range(3))
    atoms = plain_atoms(els, xs, ys, zs, first=first_id)
    seen: dict[str, float] = {}
    warnings: list[dict[str, Any]] = []  # orders RDKit's bounded search did not find
    if not perceive:
        bonds = []
    elif len(atoms) > ORDER_PERCEPTION_LIMIT:
        bonds = single_bonds(atoms, coords, seen)  # no orders at this size: RDKit not needed
    else:
        # Saturated structures (water, alkanes) need no orders: RDKit is not loaded for them.
        found = saturated_bonds(atoms, charge, coords, seen)
        if found is None:
            from molforma.formats.rdkit_bridge import rdkit_bonds

            found = rdkit_bonds(atoms, charge, warnings=warnings)
        bonds = found
    # Without a charge in the file, loading re-perceives with the project's charge.
    info: dict[str, Any] = {"perceived": perceive and charge is None, "first_id": first_id}
    if warnings:
        info["warnings"] = warnings
    if "closest" in seen:
        # Every atom was made here by the document's rules (a known element, a finite
        # coordinate within 1e5, default properties, ids from a<first_id> on) and every bond by the
        # sweep (distinct pairs, order 1): loading need not check them again. The sweep
        # also saw every pair of atoms closer than 0.45 Å.
        info["checked"] = "all" if seen["closest"] >= MIN_DISTANCE else "atoms"
    return Structure(
        atoms=atoms,
        bonds=bonds,
        title=comment or None,
        charge=charge,
        multiplicity=multiplicity,
        frame_count=len(frames),
        info=info,
    )


def _large(
    els: list[str],
    xyz: Any,
    comment: str,
    charge: int | None,
    multiplicity: int | None,
    frame_count: int,
    perceive: bool,
    first_id: int,
) -> Structure:
    """A structure of more than ORDER_PERCEPTION_LIMIT atoms as column tables: bonds from
    the distance sweep, their orders fragment by fragment (molforma.formats.fragments);
    no atom record is made."""
    from molforma.document.molecule import AtomTable, BondTable
    from molforma.formats.fragments import fragment_orders

    n = len(els)
    ids = np.arange(first_id, first_id + n, dtype=np.int64)
    seen: dict[str, float] = {}
    info: dict[str, Any] = {"perceived": perceive and charge is None, "first_id": first_id}
    if perceive:
        pa, pb = bonded_pairs(xyz, els, seen)
        atoms = AtomTable.from_columns(ids, els, xyz)
        found = fragment_orders(atoms.z, xyz, pa, pb, charge)
        if found.charges.any():
            atoms = AtomTable(ids, atoms.z, atoms.xyz, charge=found.charges)
        bonds = BondTable(ids[pa], ids[pb], found.orders)
        warnings = found.warnings()
        if warnings:
            info["warnings"] = warnings
    else:
        atoms, bonds = AtomTable.from_columns(ids, els, xyz), BondTable.empty()
    if "closest" in seen:
        # As for small files: every atom and bond was made by the document's rules, and the
        # sweep saw every pair closer than 0.45 Å.
        info["checked"] = "all" if seen["closest"] >= MIN_DISTANCE else "atoms"
    return Structure(
        atoms=atoms,  # type: ignore[arg-type]
        bonds=bonds,  # type: ignore[arg-type]
        title=comment or None,
        charge=charge,
        multiplicity=multiplicity,
        frame_count=frame_count,
        info=info,
    )


def write_xyz(project: Mapping[str, Any]) -> str:
    """The project's atoms as a single-frame XYZ text (title on the comment line)."""
    from molforma.document.molecule import AtomTable

    doc = project["document"]
    atoms = doc.get("atoms", [])
    title = " ".join(str(doc.get("title") or "").split())
    lines = [str(len(atoms)), title]
    if isinstance(atoms, AtomTable):  # straight from the columns: no atom record is made
        xs, ys, zs = atoms.xyz.T.tolist()
        lines += [
            f"{e:<3}{x:16.8f}{y:16.8f}{z:16.8f}"
            for e, x, y, z in zip(atoms.symbols.tolist(), xs, ys, zs, strict=True)
        ]
        return "\n".join(lines) + "\n"
    for a in atoms:
        lines.append(f"{a['element']:<3}{a['x']:16.8f}{a['y']:16.8f}{a['z']:16.8f}")
    return "\n".join(lines) + "\n"
