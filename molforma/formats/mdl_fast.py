"""MOL connection tables read in one pass, without RDKit, for the plain common case (no Qt).

Most MOL files (RDKit's, MolForma's, other programs' exports) hold elements,
coordinates, single/double/triple bonds and ``M  CHG`` / ``M  ISO`` / ``M  RAD``
lines (V2000), or the same as ``CHG=`` / ``MASS=`` / ``RAD=`` (V3000). Such a table
is read here straight into document atoms and bonds. Anything else (aromatic or
query bonds, atom lists, aliases, S-groups, atom-block charges, hydrogen isotopes
written ``D``/``T``, repeated bonds) returns None, and
:mod:`molforma.formats.mdl` reads the file with its line checker and RDKit as
before, so a broken file still gets the error that names its line. What this
reader accepts, it has checked as strictly as that checker does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from molforma.document import elements
from molforma.document.model import FORMAL_CHARGE_RANGE, new_atom

_ORDERS = {"1": 1, "2": 2, "3": 3}
# V3000 "RAD=" and V2000 "M  RAD" values: singlet (two unpaired, as RDKit counts them),
# doublet, triplet.
_RADICALS = {1: 2, 2: 1, 3: 2}
_V30_ATOM_KEYS = {"CHG", "MASS", "RAD", "VAL"}
_V30_BOND_KEYS = {"CFG"}


class Table:
    """What a plain connection table holds, by atom position (0-based)."""

    __slots__ = ("bonds", "charges", "isotopes", "radicals", "symbols", "xyz")

    def __init__(self, symbols: list[str], xyz: list[list[float]],
                 bonds: list[tuple[int, int, int]]) -> None:
        self.symbols = symbols
        self.xyz = xyz  # three columns: x, y, z
        self.bonds = bonds
        self.charges: dict[int, int] = {}
        self.isotopes: dict[int, int] = {}
        self.radicals: dict[int, int] = {}


def _coords_ok(columns: list[list[float]]) -> bool:
    xyz = np.array(columns, dtype=float)
    return bool(np.isfinite(xyz).all() and (np.abs(xyz) <= 1e5).all())


def _symbols_ok(symbols: list[str]) -> bool:
    return set(symbols) <= elements.SYMBOLS


def _bonds_ok(bonds: list[tuple[int, int, int]], natoms: int) -> bool:
    """Every bond joins two different atoms of the table, and no pair comes twice."""
    if not bonds:
        return True
    ends = np.array([(a, b) for a, b, _ in bonds], dtype=np.int64)
    lo, hi = ends.min(axis=1), ends.max(axis=1)
    return bool(lo.min() >= 0 and hi.max() < natoms and (lo != hi).all()
                and len(np.unique(lo * natoms + hi)) == len(bonds))


def v2000(lines: list[str], counts_at: int, natoms: int, nbonds: int) -> tuple[Table, int] | None:
    """The table of a V2000 block and the index of its ``M  END`` line, or None."""
    first = counts_at + 1
    rows = lines[first:first + natoms]
    brows = lines[first + natoms:first + natoms + nbonds]
    if len(rows) != natoms or len(brows) != nbonds:
        return None
    try:
        columns = [[float(r[a:b]) for r in rows] for a, b in ((0, 10), (10, 20), (20, 30))]
        symbols = [r[31:34].strip() for r in rows]
        # mass difference and atom-block charge must be absent or 0 (M lines say it)
        if any(r[34:39].split() not in ([], ["0"], ["0", "0"]) for r in rows):
            return None
        bonds = [(int(r[0:3]) - 1, int(r[3:6]) - 1, _ORDERS[r[6:9].strip()]) for r in brows]
    except (ValueError, KeyError):
        return None
    if not (_coords_ok(columns) and _symbols_ok(symbols) and _bonds_ok(bonds, natoms)):
        return None
    table = Table(symbols, columns, bonds)
    for row in range(first + natoms + nbonds, len(lines)):
        line = lines[row]
        if line.startswith("M  END"):
            return table, row
        key = line[:6]
        if key not in ("M  CHG", "M  ISO", "M  RAD", "M  MFI"):
            return None
        if key == "M  MFI":
            continue  # MolForma's atom ids: read by the caller
        words = line[6:].split()
        try:
            count = int(words[0])
            values = [int(w) for w in words[1:]]
        except (IndexError, ValueError):
            return None
        if len(values) != 2 * count:
            return None
        target = {"M  CHG": table.charges, "M  ISO": table.isotopes,
                  "M  RAD": table.radicals}[key]
        for k in range(count):
            atom, value = values[2 * k] - 1, values[2 * k + 1]
            if not 0 <= atom < natoms or (key == "M  RAD" and value not in _RADICALS):
                return None
            target[atom] = _RADICALS[value] if key == "M  RAD" else value
    return None


def v3000(lines: list[str], counts_at: int) -> tuple[Table, int] | None:
    """The table of a V3000 block and the index of its ``M  END`` line, or None."""
    row = counts_at + 1
    if lines[row:row + 2] and not lines[row].startswith("M  V30 BEGIN CTAB"):
        return None
    counts = lines[row + 1].split() if row + 1 < len(lines) else []
    if counts[:3] != ["M", "V30", "COUNTS"] or len(counts) < 5:
        return None
    try:
        natoms, nbonds = int(counts[3]), int(counts[4])
    except ValueError:
        return None
    row += 2
    if lines[row:row + 1] != ["M  V30 BEGIN ATOM"]:
        return None
    arows = lines[row + 1:row + 1 + natoms]
    row += 1 + natoms
    if len(arows) != natoms or lines[row:row + 1] != ["M  V30 END ATOM"]:
        return None
    row += 1
    brows: list[str] = []
    if lines[row:row + 1] == ["M  V30 BEGIN BOND"]:
        brows = lines[row + 1:row + 1 + nbonds]
        row += 1 + nbonds
        if len(brows) != nbonds or lines[row:row + 1] != ["M  V30 END BOND"]:
            return None
        row += 1
    elif nbonds:
        return None
    if lines[row:row + 2] != ["M  V30 END CTAB", "M  END"]:
        return None
    if any(r.rstrip().endswith("-") for r in arows) or any(
            r.rstrip().endswith("-") for r in brows):
        return None  # continued lines: the line checker joins them
    parts = [r.split() for r in arows]
    if any(len(p) < 8 or p[2] != str(k) for k, p in enumerate(parts, 1)):
        return None
    try:
        columns = [[float(p[c]) for p in parts] for c in (4, 5, 6)]
        bparts = [r.split() for r in brows]
        if any(len(p) < 6 or p[2] != str(k) for k, p in enumerate(bparts, 1)):
            return None
        bonds = [(int(p[4]) - 1, int(p[5]) - 1, _ORDERS[p[3]]) for p in bparts]
    except (ValueError, KeyError):
        return None
    symbols = [p[3] for p in parts]
    if not (_coords_ok(columns) and _symbols_ok(symbols) and _bonds_ok(bonds, natoms)):
        return None
    if any(not _known_props(p[6:], _V30_BOND_KEYS) for p in bparts if len(p) > 6):
        return None
    table = Table(symbols, columns, bonds)
    for k, p in enumerate(parts):
        if len(p) == 8:
            continue
        props = _props(p[8:], _V30_ATOM_KEYS)
        if props is None:
            return None
        if "CHG" in props:
            table.charges[k] = props["CHG"]
        if "MASS" in props:
            table.isotopes[k] = props["MASS"]
        if "RAD" in props:
            if props["RAD"] not in _RADICALS:
                return None
            table.radicals[k] = _RADICALS[props["RAD"]]
    return table, row + 1


def _props(words: list[str], allowed: set[str]) -> dict[str, int] | None:
    out: dict[str, int] = {}
    for w in words:
        key, eq, value = w.partition("=")
        if not eq or key not in allowed:
            return None
        try:
            out[key] = int(value)
        except ValueError:
            return None
    return out


def _known_props(words: list[str], allowed: set[str]) -> bool:
    return _props(words, allowed) is not None


def document_atoms(table: Table) -> tuple[list[dict[str, Any]], list[dict[str, Any]], bool]:
    """Document atoms ``a1``.. and bonds of ``table``, and whether all fields are plain.

    Plain: every formal charge in the document's range and no isotope (whose mass
    number the document check looks up); then the atoms need no further check.
    """
    template = new_atom("", "", 0.0, 0.0, 0.0)
    xs, ys, zs = table.xyz
    atoms = []
    for k, el, x, y, z in zip(range(1, len(xs) + 1), table.symbols, xs, ys, zs, strict=True):
        atom = template.copy()
        atom["id"] = f"a{k}"
        atom["element"] = el
        atom["x"] = x
        atom["y"] = y
        atom["z"] = z
        atoms.append(atom)
    for k, q in table.charges.items():
        atoms[k]["formalCharge"] = q
    for k, r in table.radicals.items():
        atoms[k]["unpairedElectrons"] = r
    for k, m in table.isotopes.items():
        atoms[k]["massNumber"] = m
    bonds = [{"a": atoms[i]["id"], "b": atoms[j]["id"], "order": o} for i, j, o in table.bonds]
    low, high = FORMAL_CHARGE_RANGE
    plain = not table.isotopes and all(low <= q <= high for q in table.charges.values())
    return atoms, bonds, plain
