"""MOL files written: large tables without RDKit, small ones through it (no Qt).

Above 999 atoms a MOL block is V3000, and a plain table (single and triple bonds, as in
every XYZ file too large for bond orders) is written by
:func:`molforma.formats.mdl_fast.v3000_text` line for line as RDKit would, without loading
RDKit: ``molforma convert`` of a 10,000-atom XYZ to MOL then needs no RDKit at all.
Everything else goes to :func:`molforma.formats.mdl.write_mol_rdkit`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from molforma.formats.mdl_fast import V2000_LIMIT, mol_title, v3000_text


def write_mol(project: Mapping[str, Any]) -> str:
    """The project as a MOL block (V2000; V3000 above 999 atoms), ids in ``M  MFI``."""
    doc = project["document"]
    atoms = list(doc.get("atoms", []))
    if len(atoms) > V2000_LIMIT:
        text = v3000_text(mol_title(doc), atoms, list(doc.get("bonds", [])))
        if text is not None:
            return text
    from molforma.formats.mdl import write_mol_rdkit

    return write_mol_rdkit(project)
