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

import re
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

import numpy as np

from molforma.document import elements
from molforma.document.arrays import has_repeats
from molforma.document.elements import DEFAULT_VALENCE
from molforma.document.envelope import FORMAL_CHARGE_RANGE
from molforma.formats.common import plain_atoms

_ORDERS = {"1": 1, "2": 2, "3": 3}
# V3000 "RAD=" and V2000 "M  RAD" values: singlet (two unpaired, as RDKit counts them),
# doublet, triplet.
_RADICALS = {1: 2, 2: 1, 3: 2}
_V30_ATOM_KEYS = {"CHG", "MASS", "RAD", "VAL"}
_V30_BOND_KEYS = {"CFG"}
_CONTINUED = re.compile(r"-[^\S\n]*\n")  # a V3000 line ending in "-" goes on in the next
_PREVIOUS = (-1).__add__  # 1-based atom numbers to positions
_ID = itemgetter("id")


class Table:
    """What a plain connection table holds, by atom position (0-based)."""

    __slots__ = ("bonds", "charges", "isotopes", "radicals", "symbols", "xyz")

    def __init__(
        self, symbols: list[str], xyz: list[list[float]], bonds: list[tuple[int, int, int]]
    ) -> None:
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
    first = np.fromiter(map(itemgetter(0), bonds), dtype=np.int64, count=len(bonds))
    second = np.fromiter(map(itemgetter(1), bonds), dtype=np.int64, count=len(bonds))
    lo, hi = np.minimum(first, second), np.maximum(first, second)
    return bool(
        lo.min() >= 0
        and hi.max() < natoms
        and (lo != hi).all()
        and not has_repeats(lo * natoms + hi)
    )


def _numbered(parts: list[list[str]], width: int) -> bool:
    """Every row has at least ``width`` words and its third word is its number, 1, 2, ..."""
    if not parts:
        return True
    return min(map(len, parts)) >= width and list(map(itemgetter(2), parts)) == list(
        map(str, range(1, len(parts) + 1))
    )


def _column(parts: list[list[str]], k: int) -> list[str]:
    return list(map(itemgetter(k), parts))


def v2000(lines: list[str], counts_at: int, natoms: int, nbonds: int) -> tuple[Table, int] | None:
    """The table of a V2000 block and the index of its ``M  END`` line, or None."""
    first = counts_at + 1
    rows = lines[first : first + natoms]
    brows = lines[first + natoms : first + natoms + nbonds]
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
        target = {"M  CHG": table.charges, "M  ISO": table.isotopes, "M  RAD": table.radicals}[key]
        for k in range(count):
            atom, value = values[2 * k] - 1, values[2 * k + 1]
            if not 0 <= atom < natoms or (key == "M  RAD" and value not in _RADICALS):
                return None
            target[atom] = _RADICALS[value] if key == "M  RAD" else value
    return None


def v3000(lines: list[str], counts_at: int) -> tuple[Table, int] | None:
    """The table of a V3000 block and the index of its ``M  END`` line, or None."""
    row = counts_at + 1
    if lines[row : row + 2] and not lines[row].startswith("M  V30 BEGIN CTAB"):
        return None
    counts = lines[row + 1].split() if row + 1 < len(lines) else []
    if counts[:3] != ["M", "V30", "COUNTS"] or len(counts) < 5:
        return None
    try:
        natoms, nbonds = int(counts[3]), int(counts[4])
    except ValueError:
        return None
    row += 2
    if lines[row : row + 1] != ["M  V30 BEGIN ATOM"]:
        return None
    arows = lines[row + 1 : row + 1 + natoms]
    row += 1 + natoms
    if len(arows) != natoms or lines[row : row + 1] != ["M  V30 END ATOM"]:
        return None
    row += 1
    brows: list[str] = []
    if lines[row : row + 1] == ["M  V30 BEGIN BOND"]:
        brows = lines[row + 1 : row + 1 + nbonds]
        row += 1 + nbonds
        if len(brows) != nbonds or lines[row : row + 1] != ["M  V30 END BOND"]:
            return None
        row += 1
    elif nbonds:
        return None
    if lines[row : row + 2] != ["M  V30 END CTAB", "M  END"]:
        return None
    if _CONTINUED.search("\n".join(arows) + "\n" + "\n".join(brows) + "\n"):
        return None  # continued lines: the line checker joins them
    parts = [r.split() for r in arows]
    bparts = [r.split() for r in brows]
    if not (_numbered(parts, 8) and _numbered(bparts, 6)):
        return None
    try:
        columns = [list(map(float, _column(parts, c))) for c in (4, 5, 6)]
        orders = list(map(_ORDERS.__getitem__, _column(bparts, 3)))
        bonds = list(
            zip(
                map(_PREVIOUS, map(int, _column(bparts, 4))),
                map(_PREVIOUS, map(int, _column(bparts, 5))),
                orders,
                strict=True,
            )
        )
    except (ValueError, KeyError):
        return None
    symbols = _column(parts, 3)
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


def document_atoms(
    table: Table, first_id: int = 1
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], bool]:
    """Document atoms ``a<first_id>``.. and bonds of ``table``, and whether all fields are
    plain.

    Plain: every formal charge in the document's range and no isotope (whose mass
    number the document check looks up); then the atoms need no further check.
    """
    xs, ys, zs = table.xyz
    atoms = plain_atoms(table.symbols, xs, ys, zs, first=first_id)
    for k, q in table.charges.items():
        atoms[k]["formalCharge"] = q
    for k, r in table.radicals.items():
        atoms[k]["unpairedElectrons"] = r
    for k, m in table.isotopes.items():
        atoms[k]["massNumber"] = m
    ids = list(map(_ID, atoms))
    bonds = [{"a": ids[i], "b": ids[j], "order": o} for i, j, o in table.bonds]
    low, high = FORMAL_CHARGE_RANGE
    plain = not table.isotopes and all(low <= q <= high for q in table.charges.values())
    return atoms, bonds, plain


# H and the elements whose valence a MOL reader knows (RDKit's "organic subset")
_KNOWN_VALENCE = frozenset({1, 5, 6, 7, 8, 9, 15, 16, 17, 35, 53})
# unpaired electrons -> MDL radical code (M  RAD / RAD=): 2 doublet, 3 triplet
RAD_OF_UNPAIRED = {1: 2, 2: 3}
V3000_RADICALS = frozenset({0, *RAD_OF_UNPAIRED})  # unpaired-electron counts v3000_text writes
V2000_LIMIT = 999  # atoms or bonds a V2000 counts line can hold; above it V3000


def mol_title(doc: Mapping[str, Any]) -> str:
    """The title line of a MOL block: the document title on one line, at most 80 chars."""
    return " ".join(str(doc.get("title") or "").split())[:80]


def writes_valence(z: int, charge: int, unpaired: int, valence: int) -> bool:
    """Whether a MOL writer must state an atom's valence (``VAL=`` in V3000) so that a
    reader adds no hydrogens the document does not have, as RDKit's writer decides it.

    An atom whose charge takes its effective atomic number (``z - charge``) off the
    periodic table gets none: RDKit cannot look one up for it.
    """
    if unpaired:
        return True
    if z not in _KNOWN_VALENCE:
        return True
    effective = z - charge
    if not 0 <= effective < len(DEFAULT_VALENCE):
        return False
    return valence != DEFAULT_VALENCE[effective]


def v3000_text(title: str, atoms: list[dict[str, Any]], bonds: list[dict[str, Any]]) -> str | None:
    """A V3000 MOL block of document atoms and bonds, line for line as RDKit writes it
    (``MolToMolBlock(kekulize=False, includeStereo=False, forceV3000=True)``) apart from
    the program name on the second line and one thing RDKit leaves out: the ``RAD=`` of
    an atom without bonds (a lone H or O atom would lose its unpaired electrons).

    None (the caller asks RDKit) for what this writer leaves out: an unpaired-electron
    count not in :data:`V3000_RADICALS`, a double bond (RDKit may mark one CFG=2 from its
    geometry) or a valence of 15 or more (RDKit writes it modulo 15).
    """
    valence = [0] * len(atoms)
    index = {a["id"]: k for k, a in enumerate(atoms)}
    bond_lines = []
    for k, b in enumerate(bonds, 1):
        i, j, order = index[b["a"]], index[b["b"]], int(b.get("order", 1))
        if order == 2:
            return None
        valence[i] += order
        valence[j] += order
        bond_lines.append(f"M  V30 {k} {order} {i + 1} {j + 1}\n")
    if valence and max(valence) >= 15:
        return None
    out = [
        f"{title}\n  MolForma          3D\n\n",
        "  0  0  0  0  0  0  0  0  0  0999 V3000\n",
        "M  V30 BEGIN CTAB\n",
        f"M  V30 COUNTS {len(atoms)} {len(bonds)} 0 0 0\n",
        "M  V30 BEGIN ATOM\n",
    ]
    atomic_number = elements.atomic_number
    for k, a in enumerate(atoms):
        el = str(a["element"])
        q = int(a.get("formalCharge") or 0)
        r = int(a.get("unpairedElectrons") or 0)
        m = int(a.get("massNumber") or 0)
        if r not in V3000_RADICALS:
            return None
        line = f"M  V30 {k + 1} {el} {float(a['x']):.6f} {float(a['y']):.6f} {float(a['z']):.6f} 0"
        if q:
            line += f" CHG={q}"
        if m:
            line += f" MASS={m}"
        if r:
            line += f" RAD={RAD_OF_UNPAIRED[r]}"
        if writes_valence(atomic_number(el), q, r, valence[k]):
            line += f" VAL={valence[k] or -1}"
        out.append(line + "\n")
    out.append("M  V30 END ATOM\n")
    if bond_lines:
        out += ["M  V30 BEGIN BOND\n", *bond_lines, "M  V30 END BOND\n"]
    out.append("M  V30 END CTAB\nM  END\n")
    return "".join(out)
