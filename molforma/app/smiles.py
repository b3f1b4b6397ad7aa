"""A 3D structure from SMILES, proposed as a candidate (no Qt; application layer).

:func:`smiles_to_structure` is plain RDKit with a cancel and a progress callback, so
the window runs it on a worker thread and tests call it directly;
:func:`replace_structure` turns its result into the candidate that Confirm / Cancel
settle (one undo step "Structure from SMILES").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from molforma.document.cleanup import CancelFn, Cancelled, ProgressFn, minimise
from molforma.errors import MolFormaError
from molforma.i18n import register
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from rdkit import Chem
    from rdkit.Chem import rdDistGeom

    from molforma import catalog
    from molforma.app.actor import Actor
    from molforma.document import document
    from molforma.document.document import Document, EditResult
    from molforma.document.envelope import Project
    from molforma.formats import mdl, rdkit_bridge
else:  # imported on first use (start-up time): molforma.lazy
    Chem = lazy_import("rdkit.Chem")
    catalog = lazy_import("molforma.catalog")
    document = lazy_import("molforma.document.document")
    mdl = lazy_import("molforma.formats.mdl")
    rdDistGeom = lazy_import("rdkit.Chem.rdDistGeom")
    rdkit_bridge = lazy_import("molforma.formats.rdkit_bridge")

register(
    {
        "smiles_invalid": {
            "en": "Cannot read the SMILES '{smiles}'.",
            "ja": "SMILES「{smiles}」を読み取れません。",
        },
        "smiles_embed_failed": {
            "en": "Could not make 3D coordinates for '{smiles}'.",
            "ja": "「{smiles}」の3D座標を生成できませんでした。",
        },
        "smiles_too_large": {
            "en": "The SMILES gives {count} atoms; at most {max} are allowed.",
            "ja": "SMILES から {count} 原子になります。上限は {max} です。",
        },
    }
)

Atoms = list[dict[str, Any]]


def resolve_smiles(text: str) -> tuple[str, str | None]:
    """``(smiles, name)``: a SMILES string as it is (``name`` None), or a name of the
    bundled table of common molecules (``water``, ``DMSO``, ``ベンゼン``; see
    :func:`molforma.catalog.find_molecule`) as its SMILES and table name. Text RDKit reads
    as SMILES is always SMILES; a name is looked up only when it is not.
    """
    text = text.strip()
    with rdkit_bridge.quiet():
        mol = Chem.MolFromSmiles(text) if text else None
    if mol is None:
        entry = catalog.find_molecule(text)
        if entry is not None:
            return str(entry["smiles"]), str(entry["name"])
    return text, None


def check_smiles(smiles: str) -> str | None:
    """Refuse a SMILES string RDKit cannot read (and no name of the table of common
    molecules), at once (milliseconds, no 3D work), so the window says so when asked
    rather than when the background work ends.

    Returns:
        The table name when ``smiles`` is one (its SMILES is used), else None.

    Raises:
        MolFormaError: ``smiles_invalid``.
    """
    text, name = resolve_smiles(smiles)
    with rdkit_bridge.quiet():
        mol = Chem.MolFromSmiles(text) if text else None
    if mol is None:
        raise MolFormaError("smiles_invalid", smiles=text)
    return name


def smiles_to_structure(
    smiles: str,
    *,
    cancelled: CancelFn = lambda: False,
    progress: ProgressFn = lambda _p, _m: None,
    max_atoms: int = 10_000,
) -> tuple[Atoms, Atoms]:
    """Atoms (ids a1..) and bonds of a 3D structure with hydrogens for ``smiles`` (or a
    name of the table of common molecules, :func:`resolve_smiles`).

    Raises:
        MolFormaError: ``smiles_invalid``, ``smiles_embed_failed``, ``smiles_too_large``.
        Cancelled: ``cancelled()`` turned true.
    """
    text, _name = resolve_smiles(smiles)
    with rdkit_bridge.quiet():
        mol = Chem.MolFromSmiles(text) if text else None
    if mol is None:
        raise MolFormaError("smiles_invalid", smiles=text)
    mol = Chem.AddHs(mol)
    if mol.GetNumAtoms() > max_atoms:
        raise MolFormaError("smiles_too_large", count=mol.GetNumAtoms(), max=max_atoms)
    progress(10, "embed")
    params = rdDistGeom.ETKDGv3()
    params.randomSeed = 42  # type: ignore[assignment]  # RDKit's stub types it wrongly
    with rdkit_bridge.quiet():
        status = rdDistGeom.EmbedMolecule(mol, params)
        if status != 0:
            params.useRandomCoords = True  # type: ignore[assignment]  # (same stub)
            status = rdDistGeom.EmbedMolecule(mol, params)
    if status != 0:
        raise MolFormaError("smiles_embed_failed", smiles=text)
    if cancelled():
        raise Cancelled()
    progress(50, "optimise")
    minimise(mol, cancelled=cancelled, progress=progress, max_iterations=2000, per_round=50)
    progress(100, "done")
    return rdkit_bridge.document_from_mol(mol)


def replace_structure(
    doc: Document,
    atoms: Atoms,
    bonds: Atoms,
    *,
    actor: Actor,
    expected_revision: str | None = None,
    preview: bool = True,
) -> dict[str, Any]:
    """Make a candidate (with ``preview`` False: one undo step) whose molecule is
    ``atoms``/``bonds`` with fresh ids; the charge is the sum of the formal charges and the
    multiplicity follows the radical electrons (high spin: ``[CH3]`` a doublet, ``[O][O]``
    a triplet, 1 when there are none), as a MOL file's ``M  RAD`` lines do; every setting
    stays. The window and ``import_document`` (format ``smiles``) share it.

    Raises:
        MolFormaError: a stale ``expected_revision``, a candidate exists, the document
            is busy or the structure breaks a document rule.
    """

    def fn(work: Project) -> EditResult:
        d = work["document"]
        old = [a["id"] for a in d["atoms"]]
        start = int(d.get("nextAtomId", 1))
        mapping = {a["id"]: f"a{start + i}" for i, a in enumerate(atoms)}
        d["atoms"] = [dict(a, id=mapping[a["id"]]) for a in atoms]
        d["bonds"] = [
            {"a": mapping[b["a"]], "b": mapping[b["b"]], "order": b.get("order", 1)} for b in bonds
        ]
        d["nextAtomId"] = start + len(atoms)
        d["charge"] = sum(int(a.get("formalCharge", 0)) for a in atoms)
        d["multiplicity"] = mdl.radical_multiplicity(atoms) or 1
        return document.EditResult(added=list(mapping.values()), removed=old)

    return doc.edit(
        fn,
        label="Structure from SMILES",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
    )
