"""Putting a computed geometry (a results or history structure) into a project (no Qt).

The application layer's ``use_structure`` and History's "reuse with the final
geometry" both call :func:`place_structure`: when the elements match, the atoms keep
their ids, bonds and properties and only move; otherwise the geometry replaces the
molecule with new ids and perceived bonds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from molforma.document.document import EditResult
from molforma.document.elements import normalize_symbol
from molforma.document.envelope import Project, new_atom
from molforma.errors import ValidationError

Vec = Sequence[float]
COORD_LIMIT = 1e5  # Ångström; beyond it a position is a mistake, not a molecule


def checked_vector(v: Any, what: str) -> tuple[float, float, float]:
    """``v`` as three finite floats of at most :data:`COORD_LIMIT` in size.

    Raises:
        ValidationError: ``invalid_argument`` naming ``what``.
    """
    try:
        x, y, z = (float(c) for c in v)
    except (TypeError, ValueError) as exc:
        raise ValidationError("invalid_argument", detail=f"{what} must be [x, y, z]") from exc
    if not all(math.isfinite(c) and abs(c) <= COORD_LIMIT for c in (x, y, z)):
        raise ValidationError("invalid_argument", detail=f"{what} must be finite, |c| <= 1e5")
    return x, y, z


def set_position(atom: dict[str, Any], xyz: Vec) -> None:
    """Move ``atom`` (a record of a project copy) to ``xyz``.

    Raises:
        ValidationError: ``fixed_atom``.
    """
    if atom["fixed"]:
        raise ValidationError("fixed_atom", id=atom["id"])
    x, y, z = xyz
    atom["x"] = float(x)
    atom["y"] = float(y)
    atom["z"] = float(z)


def structure_arguments(
    symbols: Sequence[str], coordinates: Sequence[Vec]
) -> tuple[list[str], list[Vec]]:
    """Checked element symbols and positions of a computed structure.

    Raises:
        ValidationError: unknown element, a bad position or mismatched lengths.
    """
    syms: list[str] = []
    for k, e in enumerate(symbols):
        sym = normalize_symbol(str(e))
        if sym is None:
            raise ValidationError("bad_element", id=f"#{k + 1}", element=e)
        syms.append(sym)
    xyz: list[Vec] = [checked_vector(c, "coordinates") for c in coordinates]
    if not syms or len(syms) != len(xyz):
        raise ValidationError(
            "invalid_argument", detail="a structure needs one position per element"
        )
    return syms, xyz


def place_structure(
    work: Project, symbols: Sequence[str], coordinates: Sequence[Vec]
) -> EditResult:
    """Put a computed geometry into the project copy ``work``.

    Raises:
        ValidationError: see :func:`structure_arguments`.
    """
    syms, xyz = structure_arguments(symbols, coordinates)
    atoms = work["document"]["atoms"]
    if [a["element"] for a in atoms] == syms:
        moved = []
        for atom, pos in zip(atoms, xyz, strict=True):
            if not atom["fixed"]:
                set_position(atom, pos)
                moved.append(atom["id"])
        return EditResult(changed=moved, touched=moved, coords_only=True)
    from molforma.formats.common import Structure
    from molforma.formats.rdkit_bridge import perceive_bonds
    from molforma.formats.registry import apply_structure

    fresh = [
        new_atom(f"s{k + 1}", e, *pos) for k, (e, pos) in enumerate(zip(syms, xyz, strict=True))
    ]
    bonds = perceive_bonds(fresh, int(work["document"].get("charge", 0) or 0))
    title = str(work["document"].get("title") or "")
    return apply_structure(work, Structure(atoms=fresh, bonds=bonds, title=title))
