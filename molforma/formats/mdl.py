"""MDL MOL (V2000/V3000) and SDF files, read and written with RDKit (no Qt).

RDKit parses and writes the connection table (bond orders, ``M  CHG``, ``M  ISO``,
``M  RAD``); a line checker runs first so a broken file is reported with its line.
Aromatic bonds (type 4) are kekulized. Implicit hydrogens are not added: the
document holds the atoms the file lists.

Atom ids: SDF keeps ids and atom names in RDKit atom property lists
(``atom.prop.molforma_id``, ``atom.prop.molforma_name``) and the multiplicity in
``molforma_multiplicity``. MOL keeps ids in a ``M  MFI`` property line that
MolForma writes only when the ids are not ``a1..aN`` in order (other programs skip
unknown ``M`` lines); MOL does not keep names. Neither keeps ``mass`` or ``fixed``.
The title is the first header line. The charge of the read structure is the sum
of the formal charges.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rdkit import Chem

from molforma.document.elements import DEFAULT_VALENCE, normalize_symbol
from molforma.document.envelope import ATOM_ID
from molforma.formats import mdl_fast
from molforma.formats.common import (
    Structure,
    clean_name,
    fail,
    format_error,
    numbered_lines,
    pick_frame,
    syntax,
    to_float,
    to_int,
)
from molforma.formats.connectivity import ORDER_PERCEPTION_LIMIT
from molforma.formats.mdl_fast import RAD_OF_UNPAIRED, V2000_LIMIT, mol_title
from molforma.formats.rdkit_bridge import document_from_mol, mol_from_document, quiet
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (start-up time): molforma.lazy
    np = lazy_import("numpy")

_ID_PROP = "molforma_id"
_NAME_PROP = "molforma_name"
_MULT_PROP = "molforma_multiplicity"
_MISSING = "n/a"
# Symbols RDKit reads as hydrogen isotopes; everything else must be an element.
_HYDROGEN_ALIASES = {"D", "T"}


def _symbol_ok(symbol: str, fmt: str, lineno: int) -> None:
    if symbol in _HYDROGEN_ALIASES:
        return
    if normalize_symbol(symbol) != symbol:
        if symbol in ("R", "R#", "A", "Q", "*", "L", "LP", "X", "M"):
            fail(
                "format_unsupported",
                fmt,
                lineno,
                reason=f"query atom '{symbol}'",
                feature=f"the query or pseudo atom '{symbol}'",
            )
        fail(
            "format_unknown_element",
            fmt,
            lineno,
            reason=f"unknown element '{symbol}'",
            symbol=symbol,
        )


def _check_v2000(lines: list[str], start: int, fmt: str) -> tuple[int, dict[int, str]]:
    """Check a V2000 block beginning at ``lines[start]``; returns (index of M  END, ids)."""
    counts_at = start + 3
    if counts_at >= len(lines):
        fail(
            "format_truncated",
            fmt,
            len(lines) + 1,
            reason="counts line missing",
            expected="the header and counts line",
        )
    counts = lines[counts_at]
    if "V3000" in counts:
        return _check_v3000(lines, counts_at, fmt)
    if len(counts.rstrip()) < 6:
        syntax(fmt, counts_at + 1, "the counts line is too short")
    natoms = to_int(counts[0:3], fmt, counts_at + 1, "atom count")
    nbonds = to_int(counts[3:6], fmt, counts_at + 1, "bond count")
    row = counts_at + 1
    for k in range(natoms):
        lineno = row + k + 1
        if row + k >= len(lines) or lines[row + k].startswith("M  "):
            fail(
                "format_atom_count",
                fmt,
                lineno,
                reason="fewer atom lines than announced",
                expected=natoms,
                found=k,
            )
        line = lines[row + k]
        if len(line.rstrip()) < 32:
            syntax(fmt, lineno, "an atom line needs x, y, z and the element in columns 1-34")
        for a, b in ((0, 10), (10, 20), (20, 30)):
            to_float(line[a:b], fmt, lineno)
        _symbol_ok(line[31:34].strip(), fmt, lineno)
    row += natoms
    for k in range(nbonds):
        lineno = row + k + 1
        if row + k >= len(lines) or lines[row + k].startswith("M  "):
            fail(
                "format_truncated",
                fmt,
                lineno,
                reason="bond lines missing",
                expected=f"{nbonds} bond lines",
            )
        line = lines[row + k]
        a1 = to_int(line[0:3], fmt, lineno, "atom number")
        a2 = to_int(line[3:6], fmt, lineno, "atom number")
        order = to_int(line[6:9], fmt, lineno, "bond type")
        if not (1 <= a1 <= natoms and 1 <= a2 <= natoms) or a1 == a2:
            syntax(fmt, lineno, f"bond between atoms {a1} and {a2}: no such atom pair")
        if not 1 <= order <= 8:
            syntax(fmt, lineno, f"unknown bond type {order}")
    row += nbonds
    ids: dict[int, str] = {}
    while row < len(lines):
        line = lines[row]
        if line.startswith("M  END"):
            return row, ids
        if line.startswith("$$$$"):
            break
        if line.startswith("M  MFI"):
            ids.update(_mfi(line, row + 1, fmt, natoms))
        row += 1
    raise format_error(
        "format_truncated", fmt, row + 1, reason="no 'M  END' line", expected="'M  END'"
    )


def _large(table: mdl_fast.Table, first_id: int, title: str) -> Structure:
    """A plain connection table of many atoms as column tables (see _read_plain)."""
    from molforma.document.envelope import FORMAL_CHARGE_RANGE
    from molforma.document.molecule import AtomTable, BondTable

    n = len(table.symbols)
    ids = np.arange(first_id, first_id + n, dtype=np.int64)
    xyz = np.array(table.xyz, dtype=float).T
    charge = np.zeros(n, dtype=np.int64)
    for k, q in table.charges.items():
        charge[k] = q
    unpaired = np.zeros(n, dtype=np.int64)
    for k, r in table.radicals.items():
        unpaired[k] = r
    mass_number = np.zeros(n, dtype=np.int64)
    for k, m in table.isotopes.items():
        mass_number[k] = m
    low, high = FORMAL_CHARGE_RANGE
    plain = not table.isotopes and bool(((charge >= low) & (charge <= high)).all())
    if not plain or (mass_number > 65535).any() or (charge < -128).any() or (charge > 127).any():
        # out of the columns' range: records, so the document check names the atom
        atoms, bonds, _ = mdl_fast.document_atoms(table, first_id)
        return Structure(
            atoms=atoms,
            bonds=bonds,
            title=title or None,
            charge=sum(table.charges.values()),
            info={"first_id": first_id},
        )
    columns: Any = AtomTable.from_columns(
        ids, table.symbols, xyz, charge=charge, unpaired=unpaired, mass_number=mass_number
    )
    links: Any = BondTable.empty()
    if table.bonds:
        pairs = np.array(table.bonds, dtype=np.int64).reshape(-1, 3)
        links = BondTable(ids[pairs[:, 0]], ids[pairs[:, 1]], pairs[:, 2])
    unpaired_total = sum(table.radicals.values())
    return Structure(
        atoms=columns,
        bonds=links,
        title=title or None,
        charge=sum(table.charges.values()),
        multiplicity=unpaired_total + 1 if unpaired_total else None,
        info={"checked": "atoms", "first_id": first_id},
    )


def _mfi(line: str, lineno: int, fmt: str, natoms: int) -> dict[int, str]:
    """``M  MFI  n  idx id ...``: MolForma's atom ids (1-based atom index, id)."""
    parts = line.split()[2:]
    if not parts:
        syntax(fmt, lineno, "empty M  MFI line")
    n = to_int(parts[0], fmt, lineno, "entry count")
    pairs = parts[1:]
    if len(pairs) != 2 * n:
        syntax(fmt, lineno, "M  MFI: entry count does not match")
    out: dict[int, str] = {}
    for i in range(n):
        idx = to_int(pairs[2 * i], fmt, lineno, "atom number")
        aid = pairs[2 * i + 1]
        if not 1 <= idx <= natoms or not ATOM_ID.match(aid):
            syntax(fmt, lineno, f"M  MFI: bad entry {idx} {aid}")
        out[idx] = aid
    return out


_V30_ATOM = re.compile(r"^\s*(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)")


def _check_v3000(lines: list[str], counts_at: int, fmt: str) -> tuple[int, dict[int, str]]:
    """Check the atom and bond blocks of a V3000 connection table."""
    row = counts_at + 1
    section = ""
    natoms = 0
    while row < len(lines):
        raw = lines[row]
        lineno = row + 1
        if raw.startswith("M  END"):
            return row, {}
        if raw.startswith("$$$$"):
            break
        if raw.startswith("M  V30 "):
            body = raw[7:]
            while body.rstrip().endswith("-") and row + 1 < len(lines):
                row += 1
                body = body.rstrip()[:-1] + lines[row][7:]
            words = body.split()
            if words[:2] == ["BEGIN", "ATOM"]:
                section = "atom"
            elif words[:2] == ["BEGIN", "BOND"]:
                section = "bond"
            elif words and words[0] == "END":
                section = ""
            elif words and words[0] == "COUNTS":
                natoms = to_int(words[1] if len(words) > 1 else "", fmt, lineno, "atom count")
            elif section == "atom":
                m = _V30_ATOM.match(body)
                if not m:
                    syntax(fmt, lineno, "an atom line needs index, element, x, y and z")
                _symbol_ok(m.group(2), fmt, lineno)
                for g in (3, 4, 5):
                    to_float(m.group(g), fmt, lineno)
            elif section == "bond":
                if len(words) < 4:
                    syntax(fmt, lineno, "a bond line needs index, type and two atoms")
                for w in words[2:4]:
                    a = to_int(w, fmt, lineno, "atom number")
                    if not 1 <= a <= max(natoms, 1):
                        syntax(fmt, lineno, f"bond to atom {a}: no such atom")
        row += 1
    raise format_error(
        "format_truncated", fmt, row + 1, reason="no 'M  END' line", expected="'M  END'"
    )


def _total_charge(atoms: list[dict[str, Any]]) -> int:
    return sum(int(a.get("formalCharge", 0)) for a in atoms)


def _ids_ok(ids: list[str], n: int) -> bool:
    return len(ids) == n and len(set(ids)) == n and all(ATOM_ID.match(i) for i in ids)


def read_mol(text: str, fmt: str = "mol", *, first_id: int = 1) -> Structure:
    """A MOL block (V2000 or V3000).

    A plain block without MolForma ids gets atoms ``a<first_id>``.. (``info["first_id"]``).

    Raises:
        FormatError: a broken line (named) or a block RDKit cannot read.
    """
    lines = numbered_lines(text)
    plain = _read_plain(lines, fmt, first_id)
    if plain is not None:
        return plain
    end, id_map = _check_v2000(lines, 0, fmt)
    block = "\n".join(lines[: end + 1]) + "\n"
    with quiet():
        mol = Chem.MolFromMolBlock(block, sanitize=False, removeHs=False, strictParsing=True)
    if mol is None:
        syntax(fmt, None, "RDKit could not read the connection table")
    ids = None
    if id_map:
        ids = [id_map.get(i + 1, "") for i in range(mol.GetNumAtoms())]
        if not _ids_ok(ids, mol.GetNumAtoms()):
            ids = None
    atoms, bonds = document_from_mol(mol, ids=ids)
    title = lines[0].strip() if lines else ""
    return Structure(
        atoms=atoms,
        bonds=bonds,
        title=title or None,
        charge=_total_charge(atoms),
        multiplicity=radical_multiplicity(atoms),
    )


def _read_plain(lines: list[str], fmt: str, first_id: int = 1) -> Structure | None:
    """A plain MOL block read without RDKit (see :mod:`molforma.formats.mdl_fast`), or None."""
    counts_at = 3
    if counts_at >= len(lines):
        return None
    counts = lines[counts_at]
    if "V3000" in counts:
        found = mdl_fast.v3000(lines, counts_at)
    else:
        try:
            natoms, nbonds = int(counts[0:3]), int(counts[3:6])
        except ValueError:
            return None
        found = mdl_fast.v2000(lines, counts_at, natoms, nbonds)
    if found is None:
        return None
    table, end = found
    natoms = len(table.symbols)
    id_map: dict[int, str] = {}
    if "\nM  MFI" in "\n".join(lines[counts_at:end]):  # one pass in C, not 10,000 calls
        for row in range(counts_at, end):
            if lines[row].startswith("M  MFI"):
                id_map.update(_mfi(lines[row], row + 1, fmt, natoms))
    if natoms > ORDER_PERCEPTION_LIMIT and not id_map:
        # a large structure goes straight into column tables: no atom record is made
        return _large(table, first_id, lines[0].strip() if lines else "")
    atoms, bonds, plain = mdl_fast.document_atoms(table, first_id)
    numbered = first_id
    if id_map:
        ids = [id_map.get(i + 1, "") for i in range(natoms)]
        if _ids_ok(ids, natoms):
            old = {a["id"]: new for a, new in zip(atoms, ids, strict=True)}
            for a, new in zip(atoms, ids, strict=True):
                a["id"] = new
            for b in bonds:
                b["a"], b["b"] = old[b["a"]], old[b["b"]]
            numbered = 0
    title = lines[0].strip() if lines else ""
    # Built by the document's rules (known elements, finite coordinates, distinct bonds of
    # order 1-3); charges out of range and isotopes are left to the document check.
    info: dict[str, Any] = {"checked": "atoms"} if plain else {}
    if numbered:
        info["first_id"] = numbered
    unpaired = sum(table.radicals.values())
    return Structure(
        atoms=atoms,
        bonds=bonds,
        title=title or None,
        charge=sum(table.charges.values()),
        multiplicity=unpaired + 1 if unpaired else None,
        info=info,
    )


def radical_multiplicity(atoms: list[dict[str, Any]]) -> int | None:
    """The high-spin multiplicity the file's ``M  RAD`` lines imply, or None when closed shell.

    Without it a methyl radical would run as an RHF singlet with an odd electron count,
    which NWChem refuses.
    """
    unpaired = sum(int(a.get("unpairedElectrons") or 0) for a in atoms)
    return unpaired + 1 if unpaired else None


def _records(lines: list[str]) -> list[tuple[int, int]]:
    """(first line index, end index exclusive) of each SDF record."""
    out: list[tuple[int, int]] = []
    start = 0
    for i, line in enumerate(lines):
        if line.startswith("$$$$"):
            if any(s.strip() for s in lines[start:i]):
                out.append((start, i))
            start = i + 1
    if any(s.strip() for s in lines[start:]):
        out.append((start, len(lines)))
    return out


def read_sdf(text: str, frame: int | None = None) -> Structure:
    """One record of an SDF file (``frame``, 0-based; the first when None).

    Every record's connection table is checked, so a broken file fails as a whole.
    """
    lines = numbered_lines(text)
    records = _records(lines)
    if not records:
        fail("format_no_atoms", "sdf", None, reason="the file has no record")
    for start, _end in records:
        _check_v2000(lines, start, "sdf")
    chosen = pick_frame("sdf", len(records), frame, required=False)
    start, end = records[chosen]
    record = "\n".join(lines[start:end]) + "\n$$$$\n"
    supplier = Chem.SDMolSupplier()
    with quiet():
        supplier.SetData(record, sanitize=False, removeHs=False, strictParsing=True)
        mol = supplier[0] if len(supplier) else None
    if mol is None:
        syntax("sdf", start + 1, "RDKit could not read this record")
    n = mol.GetNumAtoms()
    # atoms by index: RDKit's GetAtoms() sequence wrapper is slow on large molecules
    every = [mol.GetAtomWithIdx(i) for i in range(n)]
    ids = [a.GetProp(_ID_PROP) if a.HasProp(_ID_PROP) else "" for a in every]
    names = [clean_name(a.GetProp(_NAME_PROP)) if a.HasProp(_NAME_PROP) else "" for a in every]
    atoms, bonds = document_from_mol(mol, ids=ids if _ids_ok(ids, n) else None, names=names)
    mult = None
    if mol.HasProp(_MULT_PROP):
        try:
            mult = int(str(mol.GetProp(_MULT_PROP)).strip())
        except ValueError:
            mult = None
    if mult is None:
        mult = radical_multiplicity(atoms)
    title = mol.GetProp("_Name").strip() if mol.HasProp("_Name") else ""
    # the record's SD data fields (MolForma's own ones aside) stay with the molecule
    data = {
        k: str(mol.GetProp(k))
        for k in mol.GetPropNames()
        if k != _MULT_PROP and not k.startswith("atom.")
    }
    return Structure(
        atoms=atoms,
        bonds=bonds,
        title=title or None,
        charge=_total_charge(atoms),
        multiplicity=mult,
        frame_count=len(records),
        info={"sdData": data} if data else {},
    )


def _mol_of(project: Mapping[str, Any]) -> tuple[Chem.Mol, list[dict[str, Any]]]:
    doc = project["document"]
    atoms = list(doc.get("atoms", []))
    mol = mol_from_document(atoms, doc.get("bonds", []))
    off_table = [
        k
        for k, at in enumerate(mol.GetAtoms())
        if not 0 <= at.GetAtomicNum() - at.GetFormalCharge() < len(DEFAULT_VALENCE)
    ]
    if off_table:
        # RDKit's writer looks up the default valence of (atomic number - charge) and
        # fails for H2+ or C10+; such an atom gets no stated valence, as in v3000_text.
        for k in off_table:
            mol.GetAtomWithIdx(k).SetNoImplicit(False)
        mol.UpdatePropertyCache(strict=False)
    mol.SetProp("_Name", mol_title(doc))
    return mol, atoms


def _with_lone_radicals(block: str, atoms: list[dict[str, Any]], mol: Chem.Mol) -> str:
    """``block`` with the radicals of atoms without bonds: ``M  RAD`` entries (V2000) or
    ``RAD=`` (V3000).

    RDKit writes an atom's radical only when it has a bond, so a lone H or O atom would
    come back closed-shell; 2 is a doublet, 3 a triplet.
    """
    lone = [
        (k + 1, RAD_OF_UNPAIRED[n])
        for k, a in enumerate(atoms)
        if (n := int(a.get("unpairedElectrons") or 0)) in RAD_OF_UNPAIRED
        and mol.GetAtomWithIdx(k).GetDegree() == 0
    ]
    if not lone:
        return block
    if " V3000\n" in block:
        rows = block.split("\n")
        first = rows.index("M  V30 BEGIN ATOM") + 1
        for k, r in lone:
            head, sep, tail = rows[first + k - 1].partition(" VAL=")
            rows[first + k - 1] = f"{head} RAD={r}{sep}{tail}"
        return "\n".join(rows)
    lines = [
        f"M  RAD{len(chunk):>3}" + "".join(f" {k:>3} {r:>3}" for k, r in chunk)
        for chunk in (lone[i : i + 8] for i in range(0, len(lone), 8))
    ]
    head, sep, tail = block.rpartition("M  END")
    return head + "\n".join(lines) + "\n" + sep + tail


def _trivial_ids(atoms: list[dict[str, Any]]) -> bool:
    return all(a["id"] == f"a{i}" for i, a in enumerate(atoms, start=1))


def write_mol_rdkit(project: Mapping[str, Any]) -> str:
    """The project as a MOL block written by RDKit (V2000; V3000 above 999 atoms), ids in
    ``M  MFI`` (:func:`molforma.formats.mol_write.write_mol` decides when)."""
    mol, atoms = _mol_of(project)
    with quiet():
        block = Chem.MolToMolBlock(
            mol, kekulize=False, includeStereo=False, forceV3000=len(atoms) > V2000_LIMIT
        )
    block = _with_lone_radicals(block, atoms, mol)
    if _trivial_ids(atoms) or len(atoms) > V2000_LIMIT:
        return block
    extra = []
    entries = [f"{i:>4} {a['id']}" for i, a in enumerate(atoms, start=1)]
    for k in range(0, len(entries), 8):
        chunk = entries[k : k + 8]
        extra.append(f"M  MFI{len(chunk):>3}" + "".join(f" {e}" for e in chunk))
    head, sep, tail = block.rpartition("M  END")
    return head + "\n".join(extra) + "\n" + sep + tail


def write_sdf(project: Mapping[str, Any]) -> str:
    """The project as a one-record SDF with ids, names and multiplicity as data fields."""
    mol, atoms = _mol_of(project)
    for at, a in zip((mol.GetAtomWithIdx(i) for i in range(mol.GetNumAtoms())), atoms, strict=True):
        at.SetProp(_ID_PROP, str(a["id"]))
        name = "_".join(str(a.get("name") or "").split())
        if name:
            at.SetProp(_NAME_PROP, name)
    Chem.CreateAtomStringPropertyList(mol, _ID_PROP)
    if any(a.get("name") for a in atoms):
        Chem.CreateAtomStringPropertyList(mol, _NAME_PROP, missingValueMarker=_MISSING)
    mol.SetProp(_MULT_PROP, str(int(project["document"].get("multiplicity", 1) or 1)))
    data = project["document"].get("sdData")
    if isinstance(data, Mapping):  # the SD data fields the molecule was read with
        for key, value in data.items():
            if str(key) and str(key) != _MULT_PROP:
                mol.SetProp(str(key), str(value))
    out = io.StringIO()
    with quiet():
        writer = Chem.SDWriter(out)
        writer.SetKekulize(False)
        writer.SetForceV3000(len(atoms) > V2000_LIMIT)
        writer.write(mol)
        writer.close()
    return _with_lone_radicals(out.getvalue(), atoms, mol)
