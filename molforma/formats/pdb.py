"""PDB files: model and alternate location chosen, bonds from CONECT or RDKit (no Qt).

Reading takes ATOM/HETATM records of one model (``frame``, 0-based; MODEL 1 when
None) and one alternate location per residue: the label with the highest
occupancy in that residue (the first label on a tie), or the label passed as
``altloc``. :func:`pdb_choices` lists the models and labels for a dialog. The
element comes from columns 77-78 (else from the atom name), the formal charge
from columns 79-80 (``1-``, ``2+``), the atom name from columns 13-16.

Bonds: CONECT records give bonds, a pair listed twice (or three times) is a
double (triple) bond, as RDKit writes them; atoms that no CONECT record names get
RDKit's perceived connectivity (all single bonds when CONECT is present, bond
orders otherwise). Ids: serial numbers become ids (serial 7 -> ``a7``) when they
are unique, so a PDB written by MolForma keeps its ids. Coordinates have three
decimals (the format's precision).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any, TypeVar

import numpy as np

from molforma.document.elements import normalize_symbol
from molforma.errors import FormatError
from molforma.formats import pdb_charges, pdb_residues
from molforma.formats.byte_fields import NINE, POINT, ZERO, decimal_runs
from molforma.formats.common import (
    Structure,
    clean_name,
    fail,
    numbered_lines,
    pick_frame,
    plain_atoms,
    syntax,
    to_float,
)
from molforma.formats.connectivity import ORDER_PERCEPTION_LIMIT, cross_pairs
from molforma.formats.pdb_conect import read_conect
from molforma.formats.rdkit_bridge import perceive_bonds

FMT = "pdb"
_T = TypeVar("_T")


def record_names(lines: list[str]) -> list[str]:
    """The record name of every line (columns 1-6, upper case, trailing blanks dropped)."""
    raw = [line[:6] for line in lines]
    name = {r: r.rstrip().upper() for r in set(raw)}  # a file has a dozen distinct ones
    return list(map(name.__getitem__, raw))


def _models(names: list[str]) -> list[list[int]]:
    """Line indices of the ATOM/HETATM records of each model (one model without MODEL)."""
    if "MODEL" not in names and "ENDMDL" not in names:
        loose = [i for i, rec in enumerate(names) if rec == "ATOM" or rec == "HETATM"]
        return [loose] if loose else []
    models: list[list[int]] = []
    current: list[int] | None = None
    loose = []
    for i, rec in enumerate(names):
        if rec == "MODEL":
            current = []
            models.append(current)
        elif rec == "ENDMDL":
            current = None
        elif rec in ("ATOM", "HETATM"):
            (current if current is not None else loose).append(i)
    if loose and not models:
        return [loose]
    if loose:
        models[0] = sorted(models[0] + loose)
    return [m for m in models if m] or ([loose] if loose else [])


def _element(line: str, lineno: int) -> str:
    field = line[76:78].strip() if len(line) >= 77 else ""
    if field:
        el = normalize_symbol(field)
        if el is None:
            fail(
                "format_unknown_element",
                FMT,
                lineno,
                reason=f"unknown element '{field}'",
                symbol=field,
            )
        return el
    name = line[12:16]
    letters = "".join(ch for ch in name if ch.isalpha())
    if not letters:
        fail(
            "format_unknown_element",
            FMT,
            lineno,
            reason="no element and no atom name",
            symbol=name.strip(),
        )
    # Column 13 holds the first letter of a two-letter element (FE, CL); else column 14.
    if name[:1].isalpha() and line[:6].strip().upper() == "HETATM":
        two = normalize_symbol(letters[:2])
        if two is not None:
            return two
    one = normalize_symbol(letters[0])
    if one is None:
        fail(
            "format_unknown_element",
            FMT,
            lineno,
            reason=f"unknown element in '{name}'",
            symbol=name.strip(),
        )
    return one


def _charge(line: str, lineno: int) -> int:
    field = line[78:80].strip() if len(line) >= 79 else ""
    if not field:
        return 0
    digits = field.strip("+-")
    sign = -1 if "-" in field else 1
    if not digits:
        return sign
    if not digits.isdecimal():  # isdigit would take "²", which int() refuses
        syntax(FMT, lineno, f"bad formal charge '{field}' in columns 79-80")
    return sign * int(digits)


class _Records:
    """The fields of the ATOM/HETATM records of one model, a list per field."""

    __slots__ = ("charge", "element", "lines", "name", "occupancy", "rows", "serial", "x", "y", "z")

    def __init__(
        self,
        rows: list[int],
        lines: list[str],
        serial: list[str],
        name: list[str],
        x: list[float],
        y: list[float],
        z: list[float],
        occupancy: list[float],
        element: list[str],
        charge: list[int],
    ) -> None:
        self.rows, self.lines, self.serial, self.name = rows, lines, serial, name
        self.x, self.y, self.z, self.occupancy = x, y, z, occupancy
        self.element, self.charge = element, charge

    def altlocs(self) -> list[str]:
        return [r[16:17].strip() for r in self.lines]

    def take(self, kept: list[int]) -> _Records:
        """The records at the indices ``kept``, in that order."""
        return _Records(
            _at(self.rows, kept),
            _at(self.lines, kept),
            _at(self.serial, kept),
            _at(self.name, kept),
            _at(self.x, kept),
            _at(self.y, kept),
            _at(self.z, kept),
            _at(self.occupancy, kept),
            _at(self.element, kept),
            _at(self.charge, kept),
        )


def _at(column: list[_T], kept: list[int]) -> list[_T]:
    return [column[k] for k in kept]


def _parsed(lines: list[str], rows: list[int]) -> _Records:
    """The fields of the ATOM/HETATM records ``rows`` (checked, line-numbered).

    Column by column for the usual records; a record with anything unusual in it makes
    the line-by-line reader run, which names the line of the error.
    """
    fast = _parsed_columns(lines, rows)
    return fast if fast is not None else _parsed_lines(lines, rows)


def _by_field(recs: list[str], rows: list[int], fields: list[str], decode: Any) -> list[Any]:
    """``decode(record, line number)`` of each record, decoded once per distinct field."""
    # the record where each field first occurs (later ones overwrite it, backwards)
    first = dict(zip(reversed(fields), range(len(fields) - 1, -1, -1), strict=True))
    value = {f: decode(recs[k], rows[k] + 1) for f, k in first.items()}
    return list(map(value.__getitem__, fields))


def _parsed_columns(lines: list[str], rows: list[int]) -> _Records | None:
    recs = [lines[i] for i in rows]
    if not recs or min(map(len, map(str.rstrip, recs))) < 54:
        return None
    try:
        xs, ys, zs = _coordinates(recs)
        # a file has a handful of distinct occupancies: each is read once
        fields = [r[54:60] for r in recs]
        occupancy = {f: float(f) if f.strip() else 1.0 for f in set(fields)}
        occ = list(map(occupancy.__getitem__, fields))
    except ValueError:
        return None
    values = np.array([xs, ys, zs, occ])
    if not (np.isfinite(values).all() and (np.abs(values) <= 1e5).all()):
        return None
    given = [r[76:78] for r in recs]
    try:
        if all(map(str.strip, set(given))):
            els = _by_field(recs, rows, given, _element)  # columns 77-78 decide alone
        else:
            # the atom name (and record name) decide where columns 77-78 are blank
            keys = [r[76:78] + r[12:16] + r[:6] for r in recs]
            els = _by_field(recs, rows, keys, _element)
        charges = _by_field(recs, rows, [r[78:80] for r in recs], _charge)
    except FormatError:
        return None  # the record reader names the first line with an error, as it reads
    return _Records(
        rows,
        recs,
        [r[6:11].strip() for r in recs],
        [r[12:16].strip() for r in recs],
        xs,
        ys,
        zs,
        occ,
        els,
        charges,
    )


def _three_decimals(chars: Any) -> Any:
    """The numbers of 8-column fields written ``%8.3f`` (an m x 8 byte array), or None.

    The value is the field's integer divided by 1000, which is the float ``float()``
    gives for the same text (both are the double nearest the decimal); any other way of
    writing a number makes the caller use ``float``.
    """
    if not len(chars) or not (chars[:, 4] == POINT).all():
        return None
    units, decimals = chars[:, 3], chars[:, 5:].astype(np.int64) - ZERO
    if (
        not ((units >= ZERO) & (units <= NINE)).all()
        or not ((decimals >= 0) & (decimals <= 9)).all()
    ):
        return None  # no units digit right before the point, or not three decimals
    found = decimal_runs(chars[:, :4])
    if found is None:
        return None
    whole, negative, _ = found
    number = (whole * 1000 + decimals @ np.array([100, 10, 1])) / 1000.0
    return np.where(negative, -number, number)


def _coordinates(recs: list[str]) -> tuple[list[float], list[float], list[float]]:
    """x, y, z of the records (columns 31-54); ValueError for a field that is no number."""
    text = "".join([r[30:54] for r in recs])
    if text.isascii() and len(text) == 24 * len(recs):
        chars = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(-1, 8)
        numbers = _three_decimals(chars)
        if numbers is not None:
            xs, ys, zs = numbers.reshape(-1, 3).T.tolist()
            return xs, ys, zs
    xs, ys, zs = ([float(r[a:b]) for r in recs] for a, b in ((30, 38), (38, 46), (46, 54)))
    return xs, ys, zs


def _parsed_lines(lines: list[str], rows: list[int]) -> _Records:
    columns: tuple[list[Any], ...] = ([], [], [], [], [], [], [], [], [], [])
    for i in rows:
        line = lines[i]
        lineno = i + 1
        if len(line.rstrip()) < 54:
            syntax(FMT, lineno, "an ATOM/HETATM record needs x, y, z in columns 31-54")
        x, y, z = (to_float(line[a:b], FMT, lineno) for a, b in ((30, 38), (38, 46), (46, 54)))
        occ_text = line[54:60].strip()
        occupancy = to_float(occ_text, FMT, lineno, "occupancy") if occ_text else 1.0
        for column, value in zip(
            columns,
            (
                i,
                line,
                line[6:11].strip(),
                line[12:16].strip(),
                x,
                y,
                z,
                occupancy,
                _element(line, lineno),
                _charge(line, lineno),
            ),
            strict=True,
        ):
            column.append(value)
    return _Records(*columns)


def _choose_altlocs(records: _Records, forced: str | None) -> _Records:
    """Keep atoms without altloc and one alternative per atom, chosen per residue."""
    altloc = records.altlocs()
    if not any(altloc):
        return records
    residue = [(r[21:22], r[22:27]) for r in records.lines]
    per_residue: dict[Any, dict[str, float]] = defaultdict(dict)
    for res, label, o in zip(residue, altloc, records.occupancy, strict=True):
        if label:
            occ = per_residue[res]
            occ[label] = occ.get(label, 0.0) + o
    chosen: dict[Any, str] = {}
    for res, occ in per_residue.items():
        if forced and forced in occ:
            chosen[res] = forced
        else:
            best = max(occ.values())
            chosen[res] = next(label for label, v in occ.items() if v == best)
    kept: list[int] = []
    placed: dict[tuple[Any, str], int] = {}
    for k, (res, label, name) in enumerate(zip(residue, altloc, records.name, strict=True)):
        if not label:
            kept.append(k)
            continue
        key = (res, name)
        if label == chosen[res]:
            if key in placed:
                kept[placed[key]] = k  # the chosen label replaces a stand-in
            else:
                placed[key] = len(kept)
                kept.append(k)
        elif key not in placed:
            # An atom that lacks the chosen label keeps its first alternative.
            placed[key] = len(kept)
            kept.append(k)
    return records.take(kept)


def pdb_choices(text: str) -> dict[str, Any]:
    """``{"models": n, "altlocs": [labels]}`` of a PDB text, for a model/altloc dialog."""
    lines = numbered_lines(text)
    models = _models(record_names(lines))
    labels = sorted({lines[i][16:17].strip() for m in models for i in m} - {""})
    return {"models": len(models), "altlocs": labels}


def _serial_numbers(serials: list[str]) -> list[int] | None:
    """The serial numbers as integers when each is a distinct positive decimal."""
    if not all(map(str.isdecimal, serials)):
        return None
    numbers = list(map(int, serials))
    if min(numbers) < 1 or len(set(numbers)) != len(numbers):
        return None
    return numbers


def read_pdb(
    text: str, frame: int | None = None, *, altloc: str | None = None, first_id: int = 1
) -> Structure:
    """One model of a PDB text (see the module docstring for the choices made).

    Atoms are ``a<serial>`` or, when the serial numbers cannot be ids, ``a<first_id>``..
    (then ``info["first_id"]`` says so).

    Raises:
        FormatError: a broken record (line named), no atoms, a model out of range.
    """
    lines = numbered_lines(text)
    names = record_names(lines)
    models = _models(names)
    if not models:
        fail("format_no_atoms", FMT, None, reason="no ATOM or HETATM record")
    chosen = pick_frame(FMT, len(models), frame, required=False)
    parsed = _parsed(lines, models[chosen])
    records = _choose_altlocs(parsed, altloc)
    serial_list = records.serial
    numbers = _serial_numbers(serial_list)
    atoms = plain_atoms(
        records.element,
        records.x,
        records.y,
        records.z,
        [f"a{k}" for k in numbers] if numbers is not None else None,
        first_id,
    )
    cleaned = {name: clean_name(name) for name in set(records.name)}
    for atom, name, q in zip(
        atoms, map(cleaned.__getitem__, records.name), records.charge, strict=True
    ):
        atom["name"] = name
        atom["formalCharge"] = q
    # residue, chain, altloc, B-factor and occupancy as the atoms' optional fields
    pdb_residues.add_residue_fields(atoms, records.lines, records.occupancy)
    unique = len(set(serial_list)) == len(serial_list)
    conect = read_conect(
        lines,
        [i for i, rec in enumerate(names) if rec == "CONECT"],
        serial_list if unique else None,
        numbers,
        len(atoms),
    )
    has_charges = any(records.charge)
    charge = sum(records.charge) if has_charges else None
    bonds: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []  # fragments whose orders were not perceived
    named = conect.named
    if not named.all():
        unnamed = np.flatnonzero(~named)
        xyz = np.array([records.x, records.y, records.z]).T
        # perception sets the formal charges of these very atoms when it finds orders
        bonds += perceive_bonds(
            [atoms[k] for k in unnamed.tolist()],
            charge,
            orders=not conect.lo,
            xyz=xyz[unnamed],
            warnings=warnings,
        )
        if conect.lo:
            # Bonds between CONECT atoms and the rest (a ligand bound to a residue).
            bonds += _cross_bonds(atoms, records.element, xyz, named, charge)
    ids = [a["id"] for a in atoms]
    bonds += [
        {"a": ids[a], "b": ids[b], "order": order}
        for a, b, order in zip(conect.lo, conect.hi, conect.order, strict=True)
    ]
    # Charges the file left blank (a protonated lysine's NZ, a carboxylate's O) from the
    # valence the bonds give; the total then says what the atoms carry.
    if pdb_charges.charges_from_valence(atoms, bonds):
        charge = sum(int(a["formalCharge"]) for a in atoms)
    title = _text_of(lines, names, "TITLE") or _text_of(lines, names, "COMPND")
    labels = sorted({lines[i][16:17].strip() for m in models for i in m} - {""})
    # Every atom was built by the document's rules (a known element, a finite coordinate
    # within 1e5, a printable name of at most 16 characters, a charge of one digit) with
    # distinct ids, and every bond joins two atoms once with order 1-3.
    info: dict[str, Any] = {"models": len(models), "altlocs": labels, "checked": "atoms"}
    if len(parsed.rows) > len(records.rows):  # the alternatives not read are named
        warnings.append(
            pdb_residues.altloc_warning(
                len(parsed.rows) - len(records.rows),
                sorted({a["altloc"] for a in atoms if "altloc" in a}),
            )
        )
    if warnings:
        info["warnings"] = warnings
    if numbers is None:
        info["first_id"] = first_id
    return Structure(
        atoms=atoms,
        bonds=bonds,
        title=title or None,
        charge=charge,
        frame_count=len(models),
        info=info,
    )


def _text_of(lines: list[str], names: list[str], record: str) -> str:
    """The text of every ``record`` line (columns 11-80), joined by spaces."""
    if record not in names:  # one scan in C; most files have no COMPND
        return ""
    return " ".join(
        line[10:].strip() for line, rec in zip(lines, names, strict=True) if rec == record
    ).strip()


def _cross_bonds(
    atoms: list[dict[str, Any]], symbols: list[str], xyz: Any, named: Any, charge: int | None
) -> list[dict[str, Any]]:
    """The perceived bonds of all atoms that join a CONECT atom to an atom of none."""
    if len(atoms) > ORDER_PERCEPTION_LIMIT:
        a, b = cross_pairs(xyz, symbols, named)
        return [
            {"a": atoms[i]["id"], "b": atoms[j]["id"], "order": 1}
            for i, j in zip(a.tolist(), b.tolist(), strict=True)
        ]
    index = {a["id"]: k for k, a in enumerate(atoms)}
    return [
        b
        for b in perceive_bonds(atoms, charge, orders=False)
        if named[index[b["a"]]] != named[index[b["b"]]]
    ]


def _atom_name(atom: Mapping[str, Any], counter: dict[str, int]) -> str:
    name = "".join(str(atom.get("name") or "").split())[:4]
    if not name:
        el = str(atom["element"])
        counter[el] = counter.get(el, 0) + 1
        name = f"{el}{counter[el]}"[:4]
    # Names of one-letter elements start in column 14, as the PDB convention has it.
    if len(str(atom["element"])) == 1 and len(name) < 4:
        return f" {name:<3}"
    return f"{name:<4}"


def _hybrid36(n: int) -> str:
    """A serial number in five columns: decimal up to 99,999, then hybrid-36 (``A0000`` is
    100,000), as PDB readers of large structures (RDKit, PyMOL, cctbx) read it."""
    if n <= 99999:
        return f"{n:>5}"
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    v = n - 100000 + 10 * 36**4
    out = ""
    while v:
        v, r = divmod(v, 36)
        out = digits[r] + out
    return out


def _fmt_charge(q: int) -> str:
    if not q:
        return "  "
    return f"{abs(q)}{'+' if q > 0 else '-'}"[:2]


def write_pdb(project: Mapping[str, Any]) -> str:
    """The project as HETATM records and CONECT records (orders as repeated entries)."""
    doc = project["document"]
    atoms = doc.get("atoms", [])
    lines = []
    title = " ".join(str(doc.get("title") or "").split())
    if title:
        lines.append(f"TITLE     {title[:70]}")
    serial: dict[str, int] = {}
    numbers = [int(a["id"][1:]) for a in atoms]
    keep_ids = max(numbers, default=0) <= 99999
    counter: dict[str, int] = {}
    for k, a in enumerate(atoms, start=1):
        n = numbers[k - 1] if keep_ids else k
        serial[a["id"]] = n
        residue = pdb_residues.residue_columns(a)  # the fields a PDB file gave the atom
        record = "HETATM" if residue is None else pdb_residues.record_name(a)
        occupancy = pdb_residues.number_field(a, "occupancy", 1.0)
        b_factor = pdb_residues.number_field(a, "bFactor", 0.0)
        lines.append(
            f"{record}{_hybrid36(n)} {_atom_name(a, counter)}{residue or ' MOL A   1 '}   "
            f"{a['x']:8.3f}{a['y']:8.3f}{a['z']:8.3f}{occupancy:6.2f}{b_factor:6.2f}          "
            f"{str(a['element']).upper():>2}{_fmt_charge(int(a.get('formalCharge', 0) or 0))}"
        )
    partners: dict[int, list[int]] = defaultdict(list)
    for b in doc.get("bonds", []):
        i, j = serial[b["a"]], serial[b["b"]]
        for _ in range(int(b.get("order", 1))):
            partners[i].append(j)
            partners[j].append(i)
    for i in sorted(partners):
        others = partners[i]
        for k in range(0, len(others), 4):
            lines.append(f"CONECT{_hybrid36(i)}" + "".join(_hybrid36(o) for o in others[k : k + 4]))
    lines.append("END")
    return "\n".join(lines) + "\n"
