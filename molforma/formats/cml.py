"""Chemical Markup Language (CML) files: a small reader of our own and a writer (no Qt).

RDKit writes CML but cannot read it, and its writer numbers atoms ``a0``.. and
drops names; MolForma's writer keeps the document's ids, names (``title``),
formal charges, mass numbers (``isotopeNumber``) and unpaired electrons (atom
``spinMultiplicity``), plus the molecule's title, charge and multiplicity, so a
CML file written by MolForma reads back with the same ids.

The reader takes ``atom`` elements (or the array form of ``atomArray``) with
``elementType`` and ``x3/y3/z3`` (``x2/y2`` give z = 0), and ``bond`` elements
with ``atomRefs2`` and ``order`` (1, 2, 3, S, D, T, A; aromatic bonds are
kekulized). File ids are kept when they are all MolForma ids (``a7``); else atoms
are numbered ``a1``.. in file order. XML errors and bad values name the line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.parsers import expat

from molforma.document.envelope import ATOM_ID
from molforma.formats.common import (
    Structure,
    clean_name,
    element_from_label,
    fail,
    make_atom,
    pick_frame,
    syntax,
    to_float,
    to_int,
)
from molforma.formats.rdkit_bridge import bonds_with_aromatic, perceive_bonds

FMT = "cml"
MAX_DEPTH = 256  # XML elements nested deeper are refused
_ORDERS = {
    "1": 1,
    "2": 2,
    "3": 3,
    "s": 1,
    "d": 2,
    "t": 3,
    "a": 4,
    "1.5": 4,
    "single": 1,
    "double": 2,
    "triple": 3,
    "aromatic": 4,
}


class _Node:
    """An XML element with its attributes, children and start line."""

    __slots__ = ("attrs", "children", "line", "tag", "text")

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attrs = attrs
        self.line = line
        self.children: list[_Node] = []
        self.text = ""

    def find(self, tag: str) -> list[_Node]:
        """Direct children named ``tag``."""
        return [c for c in self.children if c.tag == tag]


def _local(name: str) -> str:
    return name.rsplit(":", 1)[-1]


def _parse_xml(text: str) -> _Node:
    root = _Node("#document", {}, 1)
    stack = [root]
    parser = expat.ParserCreate()

    def start(name: str, attrs: dict[str, str]) -> None:
        if len(stack) > MAX_DEPTH:
            # CML nests a few levels (cml > molecule > atomArray > atom > label); tens
            # of thousands would only exhaust the stack of every walk over the tree.
            raise ValueError(f"elements nested more than {MAX_DEPTH} deep")
        node = _Node(
            _local(name), {_local(k): v for k, v in attrs.items()}, parser.CurrentLineNumber
        )
        stack[-1].children.append(node)
        stack.append(node)

    def end(_name: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        stack[-1].text += data

    def no_entities(*_args: Any) -> None:
        # Entity declarations (billion laughs, external entities) have no place in CML.
        raise ValueError("entity declarations are not allowed")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.EntityDeclHandler = no_entities
    try:
        parser.Parse(text.lstrip("\ufeff"), True)
    except expat.ExpatError as exc:
        syntax(FMT, exc.lineno, f"not well-formed XML: {expat.ErrorString(exc.code)}")
    except ValueError as exc:
        syntax(FMT, parser.CurrentLineNumber, str(exc))
    return root


def _molecules(node: _Node, out: list[_Node]) -> list[_Node]:
    """The molecules with atoms under ``node``, in document order (a walk with no
    recursion: the nesting depth is the file's)."""
    todo = list(reversed(node.children))
    while todo:
        child = todo.pop()
        if child.tag == "molecule" and child.find("atomArray"):
            out.append(child)
        else:
            todo.extend(reversed(child.children))
    return out


def _raw_atoms(mol: _Node) -> list[tuple[dict[str, str], int]]:
    """(attributes, line) of every atom, the array form expanded."""
    out: list[tuple[dict[str, str], int]] = []
    for arr in mol.find("atomArray"):
        atoms = arr.find("atom")
        if atoms:
            for a in atoms:
                attrs = dict(a.attrs)
                labels = a.find("label")
                if "title" not in attrs and labels and labels[0].attrs.get("value"):
                    attrs["title"] = labels[0].attrs["value"]
                out.append((attrs, a.line))
            continue
        ids = arr.attrs.get("atomID", "").split()
        columns = {k: v.split() for k, v in arr.attrs.items() if k != "atomID"}
        for key, values in columns.items():
            if len(values) != len(ids):
                syntax(
                    FMT,
                    arr.line,
                    f"atomArray attribute {key} has {len(values)} values for {len(ids)} atoms",
                )
        for k, aid in enumerate(ids):
            attrs = {key: values[k] for key, values in columns.items()}
            attrs["id"] = aid
            out.append((attrs, arr.line))
    return out


def _raw_bonds(mol: _Node) -> list[tuple[str, str, str, int]]:
    out: list[tuple[str, str, str, int]] = []
    for arr in mol.find("bondArray"):
        bonds = arr.find("bond")
        if bonds:
            for b in bonds:
                refs = b.attrs.get("atomRefs2", "").split()
                if len(refs) != 2:
                    syntax(FMT, b.line, "a bond needs atomRefs2 with two atom ids")
                out.append((refs[0], refs[1], b.attrs.get("order", "1"), b.line))
            continue
        r1 = arr.attrs.get("atomRef1", "").split()
        r2 = arr.attrs.get("atomRef2", "").split()
        orders = arr.attrs.get("order", "").split() or ["1"] * len(r1)
        if not (len(r1) == len(r2) == len(orders)):
            syntax(FMT, arr.line, "bondArray lists of different lengths")
        out += [(a, b, o, arr.line) for a, b, o in zip(r1, r2, orders, strict=True)]
    return out


def _atom(attrs: dict[str, str], line: int, index: int) -> dict[str, Any]:
    if "elementType" not in attrs:
        syntax(FMT, line, "an atom needs elementType")
    el = element_from_label(attrs["elementType"], FMT, line)
    if all(k in attrs for k in ("x3", "y3", "z3")):
        xyz = [to_float(attrs[k], FMT, line) for k in ("x3", "y3", "z3")]
    elif all(k in attrs for k in ("x2", "y2")):
        xyz = [to_float(attrs["x2"], FMT, line), to_float(attrs["y2"], FMT, line), 0.0]
    else:
        syntax(FMT, line, "an atom needs x3, y3, z3 (or x2, y2) coordinates")
    props: dict[str, Any] = {}
    if "formalCharge" in attrs:
        props["formalCharge"] = to_int(attrs["formalCharge"], FMT, line, "formal charge")
    if "isotopeNumber" in attrs:
        props["massNumber"] = round(to_float(attrs["isotopeNumber"], FMT, line, "isotope number"))
    if "spinMultiplicity" in attrs:
        spin = to_int(attrs["spinMultiplicity"], FMT, line, "spin multiplicity")
        props["unpairedElectrons"] = max(0, min(spin - 1, 8))
    if attrs.get("title"):
        props["name"] = clean_name(attrs["title"])
    return make_atom(index, el, *xyz, **props)


def read_cml(text: str, frame: int | None = None) -> Structure:
    """One molecule of a CML document (``frame``, 0-based; the first when None).

    Raises:
        FormatError: bad XML, a bad atom or bond (line named), no molecule.
    """
    root = _parse_xml(text)
    mols = _molecules(root, [])
    if not mols:
        fail("format_no_atoms", FMT, None, reason="no molecule with an atomArray")
    mol = mols[pick_frame(FMT, len(mols), frame, required=False)]
    raw = _raw_atoms(mol)
    atoms = [_atom(attrs, line, k + 1) for k, (attrs, line) in enumerate(raw)]
    file_ids = [attrs.get("id", "") for attrs, _ in raw]
    index: dict[str, int] = {}
    for k, fid in enumerate(file_ids):
        if fid:
            if fid in index:
                syntax(FMT, raw[k][1], f"duplicate atom id '{fid}'")
            index[fid] = k
    if all(ATOM_ID.match(f) for f in file_ids) and len(index) == len(atoms):
        for a, fid in zip(atoms, file_ids, strict=True):
            a["id"] = fid
    triples: list[tuple[int, int, int]] = []
    raw_bonds = _raw_bonds(mol)
    for r1, r2, order, line in raw_bonds:
        if r1 not in index or r2 not in index or r1 == r2:
            syntax(FMT, line, f"bond between '{r1}' and '{r2}': no such atom pair")
        if order.strip().lower() not in _ORDERS:
            syntax(FMT, line, f"unknown bond order '{order}'")
        triples.append((index[r1], index[r2], _ORDERS[order.strip().lower()]))
    charge = None
    if "formalCharge" in mol.attrs:
        charge = to_int(mol.attrs["formalCharge"], FMT, mol.line, "charge")
    mult = None
    if "spinMultiplicity" in mol.attrs:
        mult = to_int(mol.attrs["spinMultiplicity"], FMT, mol.line, "multiplicity")
    if charge is None:
        charge = sum(a["formalCharge"] for a in atoms)
    bonds = bonds_with_aromatic(atoms, triples) if raw_bonds else perceive_bonds(atoms, charge)
    title = mol.attrs.get("title")
    if not title:
        names = mol.find("name")
        title = names[0].text.strip() if names else None
    return Structure(
        atoms=atoms,
        bonds=bonds,
        title=title or None,
        charge=charge,
        multiplicity=mult,
        frame_count=len(mols),
    )


def _num(v: float) -> str:
    text = f"{float(v):.8f}"
    return "0.00000000" if float(text) == 0 else text


def write_cml(project: Mapping[str, Any]) -> str:
    """The project as a CML document with ids, names, charges and isotopes."""
    # Here, not at the top: xml.sax.saxutils pulls in urllib, http and ssl (~60 ms),
    # which the window's start (it imports every reader) does not need.
    from xml.sax.saxutils import quoteattr

    doc = project["document"]
    title = " ".join(str(doc.get("title") or "").split())
    head = (
        f'  <molecule id="m1" title={quoteattr(title)} '
        f'formalCharge="{int(doc.get("charge", 0) or 0)}" '
        f'spinMultiplicity="{int(doc.get("multiplicity", 1) or 1)}">'
    )
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<cml xmlns="http://www.xml-cml.org/schema">',
        head,
        "    <atomArray>",
    ]
    for a in doc.get("atoms", []):
        parts = [
            f"id={quoteattr(str(a['id']))}",
            f"elementType={quoteattr(str(a['element']))}",
            f'x3="{_num(a["x"])}" y3="{_num(a["y"])}" z3="{_num(a["z"])}"',
        ]
        if a.get("formalCharge"):
            parts.append(f'formalCharge="{int(a["formalCharge"])}"')
        if a.get("massNumber"):
            parts.append(f'isotopeNumber="{int(a["massNumber"])}"')
        if a.get("unpairedElectrons"):
            parts.append(f'spinMultiplicity="{int(a["unpairedElectrons"]) + 1}"')
        if a.get("name"):
            parts.append(f"title={quoteattr(str(a['name']))}")
        lines.append("      <atom " + " ".join(parts) + "/>")
    lines.append("    </atomArray>")
    bonds = doc.get("bonds", [])
    if bonds:
        lines.append("    <bondArray>")
        for b in bonds:
            refs = f"{b['a']} {b['b']}"
            lines.append(
                f'      <bond atomRefs2={quoteattr(refs)} order="{int(b.get("order", 1))}"/>'
            )
        lines.append("    </bondArray>")
    lines += ["  </molecule>", "</cml>"]
    return "\n".join(lines) + "\n"
