"""The ``geometry`` and ``constraints`` blocks of an NWChem input (no Qt, no I/O).

Part of :func:`molforma.nwchem.input.render_input`: atom lines with their masses, the
geometry options (symmetry, centring) chosen for fixed atoms and open-shell shapes
(:func:`symmetry_hazard`), and the fixed-atom constraints.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from molforma.document import elements
from molforma.errors import ValidationError
from molforma.i18n import register, render
from molforma.lazy import lazy_import
from molforma.nwchem.settings import AdvancedSettings

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (start-up time): molforma.lazy
    np = lazy_import("numpy")

__all__ = [
    "element_set",
    "fixed_atom_lines",
    "geometry_lines",
    "geometry_options",
    "project_block",
    "scan_geometry",
    "symmetry_hazard",
]


def project_block(project: Mapping[str, Any], key: str) -> dict[str, Any]:
    """A copy of one block of a project envelope (``document``, ``calculation``...), empty if absent."""
    value = project.get(key, {})
    return dict(value) if isinstance(value, Mapping) else {}


def _num(value: float, digits: int = 10) -> str:
    """Fixed-point text with no negative zero, so equal geometries give equal text."""
    text = f"{float(value):.{digits}f}"
    if float(text) == 0.0:
        text = f"{0.0:.{digits}f}"
    return text


def _atom_mass(atom: Mapping[str, Any]) -> float | None:
    mass = atom.get("mass")
    if isinstance(mass, int | float) and not isinstance(mass, bool) and mass > 0:
        return float(mass)
    mn = atom.get("massNumber")
    if isinstance(mn, int) and not isinstance(mn, bool):
        return elements.isotope_mass(str(atom["element"]), mn)
    return None


def _table(atoms: Any) -> Any:
    """The atoms' column table when the document holds one (no record is built), else None."""
    from molforma.document.molecule import AtomTable

    return atoms if isinstance(atoms, AtomTable) else None


def _has_fixed_atoms(project: Mapping[str, Any]) -> bool:
    atoms = project_block(project, "document").get("atoms") or []
    table = _table(atoms)
    if table is not None:
        return bool(table.fixed.any())
    return any(a.get("fixed") for a in atoms)


def element_set(atoms: Any) -> list[str]:
    """The elements of ``atoms`` once each, in first-seen order (columns: numpy, no record)."""
    table = _table(atoms)
    if table is not None:
        return list(table.element_counts())
    return list(dict.fromkeys(str(a.get("element")) for a in atoms))


def geometry_options(project: Mapping[str, Any], adv: AdvancedSettings) -> list[str]:
    """The ``geometry`` line's options after ``units angstrom``.

    Automatic (null) settings use symmetry and internal coordinates where that is
    safe: not with fixed atoms, whose Cartesian constraints NWChem cannot combine
    with internal coordinates ("cartesian constraints+internals") and which symmetry
    could move, and no symmetry for an open shell whose shape has degenerate orbitals
    (:func:`symmetry_hazard`). The results reader maps a re-oriented geometry back to the
    document's frame, so symmetry never costs the overlay.

    Raises:
        ValidationError: ``fixed_atoms_internal_coordinates`` when atoms are fixed
            and internal coordinates were asked for explicitly.
    """
    fixed = _has_fixed_atoms(project)
    if fixed and adv.nocenter is False:
        raise ValidationError("fixed_atoms_internal_coordinates")
    options: list[str] = []
    from molforma.nwchem.constraint_values import has_any

    # With symmetry NWChem symmetrises first and a constraint that breaks the point group
    # is silently lost (molforma.nwchem.constraints): constraints always run without it.
    if (
        adv.noautosym
        or has_any(project_block(project, "calculation"))
        or (adv.noautosym is None and (fixed or symmetry_hazard(project)))
    ):
        options.append("noautosym")
    if adv.nocenter or (adv.nocenter is None and fixed):
        options += ["noautoz", "nocenter"]
    return options


# Relative tolerance on the principal moments of inertia: looser than NWChem's own
# symmetry detection, so a shape NWChem would symmetrise is caught too.
_TOP_TOLERANCE = 1e-2
register(
    {
        # The shapes symmetry_hazard names: in the input's comment (English) and in
        # validate_document's note (display language).
        "symmetry_shape_atom": {"en": "an open-shell atom", "ja": "開殻の原子"},
        "symmetry_shape_linear": {"en": "an open-shell linear molecule", "ja": "開殻の直線分子"},
        "symmetry_shape_symmetric_top": {
            "en": "an open-shell molecule with a threefold or higher axis",
            "ja": "三回以上の回転軸をもつ開殻分子",
        },
    }
)


def symmetry_hazard(project: Mapping[str, Any]) -> str | None:
    """Why automatic symmetry is off for this project: ``atom``, ``linear`` or
    ``symmetric_top`` (two equal principal moments), or None.

    An open shell in such a shape can have degenerate frontier orbitals (NO's pi*,
    an atom's p). NWChem then warns "the HOMO and LUMO are degenerate and you are
    using symmetry" and the symmetry-adapted SCF can fail to converge: NO doublet
    B3LYP/6-31G* in C4v climbs for 20 steps and fails, and with noautosym converges in
    two. Without symmetry the SCF may break it and find the lower state.
    """
    doc = project_block(project, "document")
    if int(doc.get("multiplicity", 1) or 1) <= 1:
        return None
    table = _table(doc.get("atoms"))
    if table is not None and len(table) > 1:
        # Columns: the same moments without a record per atom (a large open-shell structure).
        try:
            masses = _column_masses(table)
        except (KeyError, ValueError):
            return None
        return _shape(masses, np.array(table.xyz, dtype=float))
    atoms = [
        a for a in doc.get("atoms") or [] if all(isinstance(a.get(k), int | float) for k in "xyz")
    ]
    if not atoms:
        return None
    if len(atoms) == 1:
        return "atom"
    try:
        mass = np.array([_atom_mass(a) or elements.average_mass(str(a["element"])) for a in atoms])
    except (KeyError, ValueError):
        return None
    xyz = np.array([[float(a[k]) for k in "xyz"] for a in atoms])
    return _shape(mass, xyz)


def _column_masses(table: Any) -> Any:
    """Each row's mass: its own, its isotope's, else the element's average."""
    out = np.empty(len(table))
    for z in np.unique(table.z).tolist():
        symbol = str(table.symbols[np.argmax(table.z == z)])
        out[table.z == z] = elements.average_mass(symbol)
    own = np.isfinite(table.mass) & (table.mass > 0)
    for row in np.nonzero(~own & (table.mass_number > 0))[0].tolist():
        out[row] = elements.isotope_mass(str(table.symbols[row]), int(table.mass_number[row]))
    out[own] = table.mass[own]
    return out


def _shape(mass: Any, xyz: Any) -> str | None:
    xyz -= (mass[:, None] * xyz).sum(0) / mass.sum()
    tensor = np.einsum("i,ij,ik->jk", mass, xyz, xyz)
    moments = np.sort(np.trace(tensor) - np.linalg.eigvalsh(tensor))
    scale = float(moments[2]) or 1.0
    if moments[0] < _TOP_TOLERANCE * scale and moments[2] - moments[1] < _TOP_TOLERANCE * scale:
        return "linear"
    if min(moments[1] - moments[0], moments[2] - moments[1]) < _TOP_TOLERANCE * scale:
        return "symmetric_top"
    return None


def geometry_lines(
    project: Mapping[str, Any],
    adv: AdvancedSettings,
    scan_value: float | None = None,
    rows: int | None = None,
) -> list[str]:
    """The ``charge`` line and the ``geometry`` block (with the zcoord constraints; the
    scanned coordinate set to ``scan_value`` when given).

    ``rows`` writes only the first atom lines (a preview of a large structure: the
    window shows the input without writing a line, or a record, per atom); the job and
    the export leave it None and write every atom."""
    from molforma.nwchem import constraints

    doc = project_block(project, "document")
    charge = int(doc.get("charge", 0) or 0)
    options = ["units", "angstrom", *geometry_options(project, adv)]
    lines = [f"charge {charge}"]
    hazard = symmetry_hazard(project) if adv.noautosym is None else None
    if hazard is not None:
        # Said in the input itself, so the person reading it before Run sees why.
        shape = render(f"symmetry_shape_{hazard}", {}, lang="en")
        lines.append(
            f"# symmetry off: {shape} can have degenerate "
            "frontier orbitals, which keep a symmetry-adapted SCF from converging"
        )
    lines.append("geometry " + " ".join(options))
    atoms = doc.get("atoms") or []
    if rows is not None:
        atoms = atoms[: max(0, rows)]  # a column table builds only these records
    for index, atom in enumerate(atoms, start=1):
        element = str(atom.get("element"))
        # The document checks these already; a hand-made dict must not inject text either.
        if elements.normalize_symbol(element) != element:
            raise ValidationError("bad_element", id=atom.get("id"), element=element)
        for key in ("x", "y", "z"):
            value = atom.get(key)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not (math.isfinite(value))
            ):
                raise ValidationError("bad_coordinate", id=atom.get("id"), value=value)
        mass = _atom_mass(atom)
        # NWChem prints masses per tag, so an atom with its own mass gets its own tag
        # (element + index): NWChem reads the element from the leading letters.
        tag = f"{element}{index}" if mass is not None else element
        coords = " ".join(f"{_num(atom[k]):>16}" for k in ("x", "y", "z"))
        line = f"  {tag:<6}{coords}"
        if mass is not None:
            line += f" mass {_num(mass, 8)}"
        lines.append(line)
    # Distances, angles and dihedrals held (and the scanned one) as constant zcoord entries.
    lines += constraints.zcoord_lines(project, scan_value)
    lines.append("end")
    return lines


def scan_geometry(adv: AdvancedSettings) -> Any:
    """A scan point's whole geometry block (``geometry`` ... ``end``) for a project."""

    def block(project: Mapping[str, Any], value: float) -> list[str]:
        lines = geometry_lines(project, adv, value)
        return lines[next(i for i, x in enumerate(lines) if x.startswith("geometry ")) :]

    return block


def fixed_atom_lines(project: Mapping[str, Any]) -> list[str]:
    """The ``constraints`` block fixing the project's fixed atoms (none: no block)."""
    atoms = project_block(project, "document").get("atoms") or []
    table = _table(atoms)
    if table is not None:
        fixed = [str(i + 1) for i in np.nonzero(table.fixed)[0].tolist()]
    else:
        fixed = [str(i) for i, a in enumerate(atoms, start=1) if a.get("fixed")]
    if not fixed:
        return []
    lines = ["constraints"]
    # Short lines: NWChem input lines are limited in length.
    for start in range(0, len(fixed), 20):
        lines.append("  fix atom " + " ".join(fixed[start : start + 20]))
    lines.append("end")
    return lines
