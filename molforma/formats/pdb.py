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
from typing import Any

import numpy as np

from molforma.document.elements import normalize_symbol
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
from molforma.formats.rdkit_bridge import perceive_bonds

FMT = "pdb"


def _models(lines: list[str]) -> list[list[int]]:
    """Line indices of the ATOM/HETATM records of each model (one model without MODEL)."""
    models: list[list[int]] = []
    current: list[int] | None = None
    loose: list[int] = []
    for i, line in enumerate(lines):
        rec = line[:6].rstrip().upper()
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
            fail("format_unknown_element", FMT, lineno, reason=f"unknown element '{field}'",
                 symbol=field)
        return el
    name = line[12:16]
    letters = "".join(ch for ch in name if ch.isalpha())
    if not letters:
        fail("format_unknown_element", FMT, lineno, reason="no element and no atom name",
             symbol=name.strip())
    # Column 13 holds the first letter of a two-letter element (FE, CL); else column 14.
    if name[:1].isalpha() and line[:6].strip().upper() == "HETATM":
        two = normalize_symbol(letters[:2])
        if two is not None:
            return two
    one = normalize_symbol(letters[0])
    if one is None:
        fail("format_unknown_element", FMT, lineno, reason=f"unknown element in '{name}'",
             symbol=name.strip())
    return one


def _charge(line: str, lineno: int) -> int:
    field = line[78:80].strip() if len(line) >= 79 else ""
    if not field:
        return 0
    digits = field.strip("+-")
    sign = -1 if "-" in field else 1
    if not digits:
        return sign
    if not digits.isdigit():
        syntax(FMT, lineno, f"bad formal charge '{field}' in columns 79-80")
    return sign * int(digits)


def _parsed(lines: list[str], rows: list[int]) -> list[dict[str, Any]]:
    """The fields of the ATOM/HETATM records ``rows`` (checked, line-numbered).

    Column by column for the usual records; a record with anything unusual in it makes
    the line-by-line reader run, which names the line of the error.
    """
    fast = _parsed_columns(lines, rows)
    return fast if fast is not None else _parsed_lines(lines, rows)


def _parsed_columns(lines: list[str], rows: list[int]) -> list[dict[str, Any]] | None:
    recs = [lines[i] for i in rows]
    if not recs or min(map(len, (r.rstrip() for r in recs))) < 54:
        return None
    try:
        xs, ys, zs = ([float(r[a:b]) for r in recs] for a, b in ((30, 38), (38, 46), (46, 54)))
        occ = [float(t) if t else 1.0 for t in (r[54:60].strip() for r in recs)]
    except ValueError:
        return None
    values = np.array([xs, ys, zs, occ])
    if not (np.isfinite(values).all() and (np.abs(values) <= 1e5).all()):
        return None
    element_of: dict[tuple[str, str, str], str] = {}
    charge_of: dict[str, int] = {}
    out = []
    for i, r, x, y, z, o in zip(rows, recs, xs, ys, zs, occ, strict=True):
        key = (r[76:78], r[12:16], r[:6])
        el = element_of.get(key)
        if el is None:
            el = element_of[key] = _element(r, i + 1)
        field = r[78:80]
        q = charge_of.get(field)
        if q is None:
            q = charge_of[field] = _charge(r, i + 1)
        out.append({"row": i, "serial": r[6:11].strip(), "name": r[12:16].strip(),
                    "altloc": r[16:17].strip(), "residue": (r[21:22], r[22:27]),
                    "x": x, "y": y, "z": z, "occupancy": o, "element": el, "charge": q})
    return out


def _parsed_lines(lines: list[str], rows: list[int]) -> list[dict[str, Any]]:
    out = []
    for i in rows:
        line = lines[i]
        lineno = i + 1
        if len(line.rstrip()) < 54:
            syntax(FMT, lineno, "an ATOM/HETATM record needs x, y, z in columns 31-54")
        x, y, z = (to_float(line[a:b], FMT, lineno) for a, b in ((30, 38), (38, 46), (46, 54)))
        occ_text = line[54:60].strip()
        occupancy = to_float(occ_text, FMT, lineno, "occupancy") if occ_text else 1.0
        out.append({
            "row": i, "serial": line[6:11].strip(), "name": line[12:16].strip(),
            "altloc": line[16:17].strip(), "residue": (line[21:22], line[22:27]),
            "x": x, "y": y, "z": z, "occupancy": occupancy,
            "element": _element(line, lineno), "charge": _charge(line, lineno),
        })
    return out


def _choose_altlocs(records: list[dict[str, Any]], forced: str | None) -> list[dict[str, Any]]:
    """Keep atoms without altloc and one alternative per atom, chosen per residue."""
    if not any(r["altloc"] for r in records):
        return records
    per_residue: dict[Any, dict[str, float]] = defaultdict(dict)
    for r in records:
        if r["altloc"]:
            occ = per_residue[r["residue"]]
            occ[r["altloc"]] = occ.get(r["altloc"], 0.0) + r["occupancy"]
    chosen: dict[Any, str] = {}
    for res, occ in per_residue.items():
        if forced and forced in occ:
            chosen[res] = forced
        else:
            best = max(occ.values())
            chosen[res] = next(label for label, v in occ.items() if v == best)
    kept: list[dict[str, Any]] = []
    placed: dict[tuple[Any, str], int] = {}
    for r in records:
        if not r["altloc"]:
            kept.append(r)
            continue
        key = (r["residue"], r["name"])
        if r["altloc"] == chosen[r["residue"]]:
            if key in placed:
                kept[placed[key]] = r  # the chosen label replaces a stand-in
            else:
                placed[key] = len(kept)
                kept.append(r)
        elif key not in placed:
            # An atom that lacks the chosen label keeps its first alternative.
            placed[key] = len(kept)
            kept.append(r)
    return kept


def pdb_choices(text: str) -> dict[str, Any]:
    """``{"models": n, "altlocs": [labels]}`` of a PDB text, for a model/altloc dialog."""
    lines = numbered_lines(text)
    models = _models(lines)
    labels = sorted({lines[i][16:17].strip() for m in models for i in m} - {""})
    return {"models": len(models), "altlocs": labels}


def _conect(lines: list[str], serials: dict[str, int]) -> tuple[dict[tuple[int, int], int], set[int]]:
    """Bond orders from CONECT records (pairs between kept atoms) and the atoms they name."""
    # times a pair is listed from one end: 2 for a double bond, 3 for a triple bond
    listed: dict[tuple[int, int, int], int] = {}
    named: set[int] = set()
    for i in [i for i, line in enumerate(lines) if line[:6].upper() == "CONECT"]:
        line = lines[i]
        # columns 7-31: up to five serial numbers; those past the line's end are blank
        fields = [line[6:11].strip(), line[11:16].strip(), line[16:21].strip(),
                  line[21:26].strip(), line[26:31].strip()]
        if not fields or not fields[0]:
            syntax(FMT, i + 1, "a CONECT record needs an atom serial number")
        for f in fields:
            if f and not f.lstrip("-").isdigit():
                syntax(FMT, i + 1, f"bad serial number '{f}' in CONECT")
        a = serials.get(fields[0])
        if a is None:
            continue  # an atom of another model or alternate location
        named.add(a)
        for f in fields[1:]:
            b = serials.get(f) if f else None
            if b is not None and b != a:
                named.add(b)
                key = (a, b, a) if a < b else (b, a, a)
                listed[key] = listed.get(key, 0) + 1
    most: dict[tuple[int, int], int] = {}
    for (lo, hi, _origin), count in listed.items():
        if count > most.get((lo, hi), 0):
            most[(lo, hi)] = count
    return {pair: min(3, count) for pair, count in most.items()}, named


def read_pdb(text: str, frame: int | None = None, *, altloc: str | None = None) -> Structure:
    """One model of a PDB text (see the module docstring for the choices made).

    Raises:
        FormatError: a broken record (line named), no atoms, a model out of range.
    """
    lines = numbered_lines(text)
    models = _models(lines)
    if not models:
        fail("format_no_atoms", FMT, None, reason="no ATOM or HETATM record")
    chosen = pick_frame(FMT, len(models), frame, required=False)
    records = _choose_altlocs(_parsed(lines, models[chosen]), altloc)
    serial_list = [r["serial"] for r in records]
    use_serials = all(s.isdigit() and int(s) > 0 for s in serial_list) and len(
        set(serial_list)) == len(serial_list)
    atoms = plain_atoms([r["element"] for r in records], [r["x"] for r in records],
                        [r["y"] for r in records], [r["z"] for r in records],
                        [f"a{int(s)}" for s in serial_list] if use_serials else None)
    names: dict[str, str] = {}
    for atom, r in zip(atoms, records, strict=True):
        name = names.get(r["name"])
        if name is None:
            name = names[r["name"]] = clean_name(r["name"])
        atom["name"] = name
        atom["formalCharge"] = r["charge"]
    serials = {s: k for k, s in enumerate(serial_list)} if len(set(serial_list)) == len(
        serial_list) else {}
    orders, named = _conect(lines, serials)
    has_charges = any(a["formalCharge"] for a in atoms)
    charge = sum(a["formalCharge"] for a in atoms) if has_charges else None
    bonds: list[dict[str, Any]] = []
    if len(named) < len(atoms):
        unnamed = [k for k in range(len(atoms)) if k not in named]
        subset = [dict(atoms[k]) for k in unnamed]
        perceived = perceive_bonds(subset, charge, orders=not orders)
        if not orders:
            for k, sub in zip(unnamed, subset, strict=True):
                atoms[k]["formalCharge"] = sub["formalCharge"]
        bonds += perceived
        if orders:
            # Bonds between CONECT atoms and the rest (a ligand bound to a residue).
            # without orders nothing is written back to the atoms: no copies needed
            bonds += _cross_bonds(atoms, named, perceive_bonds(atoms, charge, orders=False))
    for (a, b), order in sorted(orders.items()):
        bonds.append({"a": atoms[a]["id"], "b": atoms[b]["id"], "order": order})
    title = " ".join(line[10:].strip() for line in lines
                     if line[:6].rstrip().upper() == "TITLE").strip()
    if not title:
        title = " ".join(line[10:].strip() for line in lines
                         if line[:6].rstrip().upper() == "COMPND").strip()
    labels = sorted({lines[i][16:17].strip() for m in models for i in m} - {""})
    # Every atom was built by the document's rules (a known element, a finite coordinate
    # within 1e5, a printable name of at most 16 characters, a charge of one digit) with
    # distinct ids, and every bond joins two atoms once with order 1-3.
    info = {"models": len(models), "altlocs": labels, "checked": "atoms"}
    return Structure(atoms=atoms, bonds=bonds, title=title or None, charge=charge,
                     frame_count=len(models), info=info)


def _cross_bonds(atoms: list[dict[str, Any]], named: set[int],
                 bonds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    index = {a["id"]: k for k, a in enumerate(atoms)}
    return [b for b in bonds if (index[b["a"]] in named) != (index[b["b"]] in named)]


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
        lines.append(
            f"HETATM{n:>5} {_atom_name(a, counter)} MOL A   1    "
            f"{a['x']:8.3f}{a['y']:8.3f}{a['z']:8.3f}{1.0:6.2f}{0.0:6.2f}          "
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
            lines.append(f"CONECT{i:>5}" + "".join(f"{o:>5}" for o in others[k:k + 4]))
    lines.append("END")
    return "\n".join(lines) + "\n"
