"""Atomic charges and electric moments of an NWChem output (no Qt).

Event handlers of :mod:`molforma.nwchem.parser` (through
:mod:`molforma.nwchem.parser_properties`) for Mulliken and property-module populations,
the multipole analysis and the property module's dipole and quadrupole moments.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from molforma.nwchem.output_patterns import (
    DIPOLE_COMPONENT,
    DIPOLE_DEBYE,
    EXPANSION_POINT,
    GROSS_ROW,
    MULLIKEN_ROW,
    MULTIPOLE_ROW,
    QUADRUPOLE_ROW,
    d_float,
)
from molforma.nwchem.output_text import OutputText
from molforma.results.results_model import Moments

if TYPE_CHECKING:
    from molforma.nwchem.parser_chem_state import PropertyState


def _table_rows(tx: OutputText, end: int, limit: int) -> list[str]:
    """Lines of a table after its header rule (``----``), up to a blank line."""
    out: list[str] = []
    cur = end
    rules = 0
    for _ in range(limit + 20):
        nxt = tx.next_line(cur)
        if nxt is None:
            break
        ln, cur = nxt
        s = ln.strip()
        if rules < 2:
            if s.startswith("---"):
                rules += 1
            continue
        if not s:
            break
        out.append(ln)
        if len(out) >= limit:
            break
    return out


def on_mulliken(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    """Mulliken charges of the total density (the spin density goes to :func:`on_mulliken_spin`)."""
    text = line.strip()
    if text == "Mulliken analysis of the spin density":
        on_mulliken_spin(st, tx, line, start, end)
        return
    if text != "Mulliken analysis of the total density":
        return
    charges: list[tuple[str, float]] = []
    for ln in _table_rows(tx, end, st.counter.limits.max_atoms + 1):
        m = MULLIKEN_ROW.match(ln)
        if not m:
            break
        charges.append((m.group(2), float(m.group(3)) - d_float(m.group(4))))
    if charges:
        st.chem.mulliken = charges
        st.chem.mulliken_spin = []
        st.chem.charges_structure = len(st.structures) - 1 if st.structures else None


def on_mulliken_spin(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    """Mulliken spin populations of the spin density, one per atom."""
    if line.strip() != "Mulliken analysis of the spin density":
        return
    spins: list[float] = []
    for ln in _table_rows(tx, end, st.counter.limits.max_atoms + 1):
        m = MULLIKEN_ROW.match(ln)
        if not m:
            break
        spins.append(d_float(m.group(4)))
    st.chem.mulliken_spin = spins


def _gross_rows(st: PropertyState, tx: OutputText, end: int) -> list[re.Match[str]]:
    """The rows of the property module's per-atom population table after ``end`` (the
    gross populations and the atomic spin populations print the same rows)."""
    rows: list[re.Match[str]] = []
    cur = end
    for _ in range(st.counter.limits.max_atoms + 3):
        nxt = tx.next_line(cur)
        if nxt is None:
            break
        ln, cur = nxt
        m = GROSS_ROW.match(ln)
        if m:
            rows.append(m)
        elif rows or ln.strip():
            break
    return rows


def on_gross_population(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    """The property module's gross populations as the atoms' charges."""
    charges = [
        (m.group(2), d_float(m.group(3)) - d_float(m.group(4))) for m in _gross_rows(st, tx, end)
    ]
    if charges:
        st.chem.mulliken = charges
        st.chem.mulliken_spin = []  # the property module prints its own spin table next
        st.chem.charges_structure = len(st.structures) - 1 if st.structures else None


def on_atomic_spin(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    """The property module's "Atomic spin population" (open shells): same rows as the
    gross populations, the last number is the atom's alpha - beta population."""
    spins = [d_float(m.group(4)) for m in _gross_rows(st, tx, end)]
    if spins:
        st.chem.mulliken_spin = spins


def _frame(st: PropertyState) -> tuple[str, int | None]:
    ref = len(st.structures) - 1 if st.structures else None
    return _frame_text(ref), ref


def _frame_text(ref: int | None) -> str:
    where = f"structure {ref}" if ref is not None else "the input geometry"
    return (
        f"NWChem's output orientation (the coordinates of {where}); it equals the "
        "document's frame only when NWChem did not re-orient the input"
    )


def on_multipole(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    """Keep the multipole analysis's lines; :func:`multipole_moments` reads the last at the end."""
    # Every SCF prints one; only the last is reported, so it is parsed at the end.
    if st.chem.moments is not None and st.chem.moments.source == "property":
        return  # the property task's numbers are more precise; keep them
    ref = len(st.structures) - 1 if st.structures else None
    st.chem.multipole = (tx.lines_after(end, 24), ref, density_level(st))


def density_level(st: PropertyState) -> str | None:
    """The level of the density a property printed now is of: the last SCF or DFT total.

    NWChem's property module and its multipole analysis work on the SCF/DFT density
    even when an MP2 or coupled-cluster energy was computed from it.
    """
    for e in reversed(st.energies):
        if e.kind in ("scf", "dft") and not e.displaced:
            return e.kind
    return None


def multipole_moments(lines: list[str], ref: int | None, level: str | None) -> Moments | None:
    """Dipole and quadrupole of a multipole analysis's lines; None without a dipole."""
    dipole = [0.0, 0.0, 0.0]
    quad: dict[str, float] = {}
    found = False
    names = {
        (2, 0, 0): "xx",
        (0, 2, 0): "yy",
        (0, 0, 2): "zz",
        (1, 1, 0): "xy",
        (1, 0, 1): "xz",
        (0, 1, 1): "yz",
    }
    for ln in lines:
        m = MULTIPOLE_ROW.match(ln)
        if not m:
            continue
        ijk = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
        value = d_float(m.group(5))
        if m.group(1) == "1":
            dipole[ijk.index(1)] = value
            found = True
        elif ijk in names:
            quad[names[ijk]] = value
    if not found:
        return None
    return Moments(
        dipole=dipole,
        dipoleDebye=_norm(dipole) * 2.541746473,
        quadrupole=quad or None,
        frame=_frame_text(ref),
        referenceStructure=ref,
        source="multipole analysis",
        level=level,
    )


def _norm(v: list[float]) -> float:
    return float(sum(x * x for x in v) ** 0.5)


def on_dipole(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    """The property module's dipole moment (a.u. and Debye) and its expansion point."""
    if line.strip() != "Dipole Moment":
        return
    origin = [0.0, 0.0, 0.0]
    dipole: dict[str, float] = {}
    debye = None
    for ln in tx.lines_after(end, 20):
        mo = EXPANSION_POINT.search(ln)
        if mo and not dipole:
            origin = [d_float(mo.group(i)) for i in (1, 2, 3)]
            continue
        md = DIPOLE_COMPONENT.match(ln)
        if md and md.group(1) not in dipole:
            dipole[md.group(1)] = d_float(md.group(2))
            continue
        mb = DIPOLE_DEBYE.match(ln)
        if mb:
            debye = d_float(mb.group(1))
            break
    if len(dipole) != 3:
        return
    frame, ref = _frame(st)
    st.chem.multipole = None
    st.chem.moments = Moments(
        dipole=[dipole["X"], dipole["Y"], dipole["Z"]],
        dipoleDebye=debye,
        origin=origin,
        frame=frame,
        referenceStructure=ref,
        source="property",
        level=density_level(st),
    )


def on_quadrupole(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    """The property module's quadrupole moments, added to its dipole's moments."""
    quad: dict[str, float] = {}
    for ln in tx.lines_after(end, 12):
        m = QUADRUPOLE_ROW.match(ln)
        if m:
            quad[m.group(1).lower()] = d_float(m.group(4))
        elif quad:
            break
    if st.chem.moments is not None and quad:
        st.chem.moments.quadrupole = quad
