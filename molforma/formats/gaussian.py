"""Reading Gaussian input files (``.gjf`` / ``.com``): structure, charge, multiplicity (no Qt).

Layout: ``%`` Link 0 lines, the route section (``#`` lines up to a blank line),
the title section, a blank line, the charge/multiplicity line (the first pair is
the whole molecule's; commas allowed), then Cartesian atom lines up to a blank
line. Atom lines may carry a freeze code (``C -1 x y z`` makes a fixed atom),
parameters in parentheses (``C(Iso=13)`` sets the mass number, a non-integer
``Iso`` the mass), MM types (``C-CA-0.25``), labels (``C12``, kept as the name),
atomic numbers and ONIOM layer columns (ignored). With ``geom=connectivity`` the
connectivity section gives the bonds (order 1.5 is aromatic, kekulized); else
they are perceived with RDKit using the charge. Z-matrix input,
``geom=check`` and a second job (``--Link1--``) beyond the first are not read.
The route's method and basis are not taken (docs/reference/files.md, What a load replaces).
"""

from __future__ import annotations

import re
from typing import Any

from molforma.document import elements
from molforma.formats.common import (
    Structure,
    clean_name,
    element_from_label,
    fail,
    is_number,
    make_atom,
    numbered_lines,
    syntax,
    to_float,
    to_int,
)
from molforma.formats.rdkit_bridge import bonds_with_aromatic, perceive_bonds

FMT = "gaussian"
_PARAMS = re.compile(r"\(([^)]*)\)")
_ORDERS = {1.0: 1, 2.0: 2, 3.0: 3, 1.5: 4}


def _blank(line: str) -> bool:
    return not line.strip()


def _atom(line: str, lineno: int, index: int) -> dict[str, Any]:
    params: dict[str, str] = {}
    m = _PARAMS.search(line)
    if m:
        for item in m.group(1).split(","):
            key, _, value = item.partition("=")
            params[key.strip().lower()] = value.strip()
        line = line[: m.start()] + line[m.end() :]
    parts = line.replace(",", " ").split()
    if not parts:
        syntax(FMT, lineno, "empty atom line")
    label = parts[0]
    rest = parts[1:]
    numeric = []
    for p in rest:
        try:
            float(p)
            numeric.append(p)
        except ValueError:
            break
    if _looks_zmatrix(parts, numeric) and len(numeric) != 3:
        fail("format_unsupported", FMT, lineno, reason="z-matrix input", feature="Z-matrix input")
    if len(numeric) < 3:
        syntax(FMT, lineno, "an atom line needs an element and three coordinates")
    props: dict[str, Any] = {}
    if len(numeric) >= 4:
        freeze = to_int(numeric[0], FMT, lineno, "freeze code")
        coords = numeric[1:4]
        if freeze == -1:
            props["fixed"] = True
    else:
        coords = numeric[:3]
    el = element_from_label(label.split("-")[0], FMT, lineno)
    x, y, z = (to_float(c, FMT, lineno) for c in coords)
    iso = params.get("iso")
    if iso:
        value = to_float(iso, FMT, lineno, "isotope")
        if value == int(value) and elements.isotope_mass(el, int(value)) is not None:
            props["massNumber"] = int(value)
        else:
            props["mass"] = value
    base = label.split("-")[0]
    if base.lower() != el.lower() and not base.isdigit():
        props["name"] = clean_name(base)
    return make_atom(index, el, x, y, z, **props)


def _looks_zmatrix(parts: list[str], numeric: list[str]) -> bool:
    """``C``, ``H 1 1.09``, ``H 1 r1``, ``H 1 1.09 2 109.5``: Z-matrix lines, not Cartesian.

    A Z-matrix line alternates atom references (positive integers) with values or
    variable names; a Cartesian line with a freeze code starts with 0 or a negative code.
    """
    if len(parts) == 1:
        return True
    rest = parts[1:]
    if len(rest) not in (2, 4, 6):
        return False
    refs, values = rest[0::2], rest[1::2]
    return all(r.isdigit() and int(r) >= 1 for r in refs) and all(
        is_number(v) or v.lstrip("-")[:1].isalpha() for v in values
    )


def read_gaussian(text: str) -> Structure:
    """The first job of a Gaussian input.

    Raises:
        FormatError: a missing section (named by line), a bad charge/multiplicity
            line, a bad atom line, Z-matrix input.
    """
    lines = numbered_lines(text)
    cut = next(
        (k for k, line in enumerate(lines) if line.strip().lower() == "--link1--"), len(lines)
    )
    lines = lines[:cut]
    i = 0
    n = len(lines)
    while i < n and (_blank(lines[i]) or lines[i].lstrip().startswith("%")):
        i += 1
    if i >= n or not lines[i].lstrip().startswith("#"):
        syntax(FMT, min(i + 1, n) or 1, "the route section (a line starting with '#') is missing")
    route = []
    while i < n and not _blank(lines[i]):
        route.append(lines[i].strip())
        i += 1
    route_text = " ".join(route).lower()
    if re.search(r"geom\s*=\s*\(?[^ ]*(allcheck|check)", route_text):
        fail(
            "format_unsupported",
            FMT,
            1,
            reason="geom=check",
            feature="geometry from a checkpoint file (geom=check)",
        )
    i += 1
    title_lines = []
    while i < n and not _blank(lines[i]):
        title_lines.append(lines[i].strip())
        i += 1
    if i >= n:
        fail(
            "format_truncated",
            FMT,
            n + 1,
            reason="no charge/multiplicity line",
            expected="the title section, a blank line and the charge/multiplicity line",
        )
    i += 1
    if i >= n or _blank(lines[i]):
        fail(
            "format_truncated",
            FMT,
            i + 1,
            reason="no charge/multiplicity line",
            expected="the charge/multiplicity line",
        )
    cm = lines[i].replace(",", " ").split()
    if len(cm) < 2:
        syntax(FMT, i + 1, "the charge/multiplicity line needs two numbers")
    charge = to_int(cm[0], FMT, i + 1, "charge")
    mult = to_int(cm[1], FMT, i + 1, "multiplicity")
    if not 1 <= mult <= 20:
        syntax(FMT, i + 1, f"multiplicity {mult} is out of range")
    i += 1
    atoms: list[dict[str, Any]] = []
    while i < n and not _blank(lines[i]):
        atoms.append(_atom(lines[i], i + 1, len(atoms) + 1))
        i += 1
    if not atoms:
        fail("format_no_atoms", FMT, i + 1, reason="no atom lines after charge/multiplicity")
    bonds: list[dict[str, Any]]
    if "connectivity" in route_text:
        bonds = _connectivity(lines, i + 1, atoms)
    else:
        bonds = perceive_bonds(atoms, charge)
    return Structure(
        atoms=atoms,
        bonds=bonds,
        title=" ".join(title_lines) or None,
        charge=charge,
        multiplicity=mult,
    )


def _connectivity(
    lines: list[str], start: int, atoms: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    triples: list[tuple[int, int, int]] = []
    i = start
    while i < len(lines) and not _blank(lines[i]):
        parts = lines[i].split()
        lineno = i + 1
        a = to_int(parts[0], FMT, lineno, "atom number")
        if not 1 <= a <= len(atoms):
            syntax(FMT, lineno, f"connectivity names atom {a}; there are {len(atoms)}")
        rest = parts[1:]
        if len(rest) % 2:
            syntax(FMT, lineno, "connectivity pairs (atom, order) are incomplete")
        for k in range(0, len(rest), 2):
            b = to_int(rest[k], FMT, lineno, "atom number")
            order = to_float(rest[k + 1], FMT, lineno, "bond order")
            if not 1 <= b <= len(atoms) or b == a:
                syntax(FMT, lineno, f"connectivity names atom {b}; there are {len(atoms)}")
            triples.append((a - 1, b - 1, _ORDERS.get(order, 1)))
        i += 1
    return bonds_with_aromatic(atoms, triples)
