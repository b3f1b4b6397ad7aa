"""Long work off the GUI thread: SMILES → 3D and geometry clean-up (Qt layer).

The chemistry itself (:func:`smiles_to_structure`, :func:`cleanup_positions`) is
plain RDKit with a cancel callback, so it can be tested and reused without Qt;
:class:`Worker` runs such a function on a QThread and reports progress, the result,
a failure or a cancellation through signals. Cancelling is cooperative: the
function checks ``cancelled()`` between force-field rounds.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from molforma.errors import MolFormaError
from molforma.i18n import register

log = logging.getLogger(__name__)

register({
    "smiles_invalid": {"en": "Cannot read the SMILES '{smiles}'.",
                       "ja": "SMILES「{smiles}」を読み取れません。"},
    "smiles_embed_failed": {"en": "Could not make 3D coordinates for '{smiles}'.",
                            "ja": "「{smiles}」の3D座標を生成できませんでした。"},
    "smiles_too_large": {"en": "The SMILES gives {count} atoms; at most {max} are allowed.",
                         "ja": "SMILES から {count} 原子になります。上限は {max} です。"},
    "cleanup_no_atoms": {"en": "There are no atoms to clean up.",
                         "ja": "整形する原子がありません。"},
    "cleanup_no_forcefield": {
        "en": "No force field (MMFF94 or UFF) has parameters for this structure.",
        "ja": "この構造にはパラメータのある力場（MMFF94 / UFF）がありません。"},
    "cancelled": {"en": "Cancelled.", "ja": "キャンセルしました。"},
})

ProgressFn = Callable[[int, str], None]
CancelFn = Callable[[], bool]


class Cancelled(MolFormaError):
    """The work was cancelled."""

    code = "cancelled"


def smiles_to_structure(smiles: str, *, cancelled: CancelFn = lambda: False,
                        progress: ProgressFn = lambda _p, _m: None,
                        max_atoms: int = 10_000) -> tuple[list[dict[str, Any]],
                                                          list[dict[str, Any]]]:
    """Atoms (ids a1..) and bonds of a 3D structure with hydrogens for ``smiles``.

    Raises:
        MolFormaError: ``smiles_invalid``, ``smiles_embed_failed``, ``cancelled``.
    """
    from rdkit import Chem
    from rdkit.Chem import AllChem

    from molforma.formats.rdkit_bridge import document_from_mol, quiet

    text = smiles.strip()
    with quiet():
        mol = Chem.MolFromSmiles(text) if text else None
    if mol is None:
        raise MolFormaError("smiles_invalid", smiles=text)
    mol = Chem.AddHs(mol)
    if mol.GetNumAtoms() > max_atoms:
        raise MolFormaError("smiles_too_large", count=mol.GetNumAtoms(), max=max_atoms)
    progress(10, "embed")
    params = AllChem.ETKDGv3()
    params.randomSeed = 42
    with quiet():
        status = AllChem.EmbedMolecule(mol, params)
        if status != 0:
            params.useRandomCoords = True
            status = AllChem.EmbedMolecule(mol, params)
    if status != 0:
        raise MolFormaError("smiles_embed_failed", smiles=text)
    if cancelled():
        raise Cancelled()
    progress(50, "optimise")
    _minimise(mol, cancelled, progress, fixed=())
    progress(100, "done")
    return document_from_mol(mol)


def _minimise(mol: Any, cancelled: CancelFn, progress: ProgressFn, fixed: Sequence[int],
              rounds: int = 40, per_round: int = 50) -> None:
    """MMFF94 (UFF as fallback) in short rounds, so a cancel is noticed quickly."""
    from rdkit.Chem import AllChem

    from molforma.formats.rdkit_bridge import quiet

    with quiet():
        ff = None
        if AllChem.MMFFHasAllMoleculeParams(mol):
            props = AllChem.MMFFGetMoleculeProperties(mol)
            ff = AllChem.MMFFGetMoleculeForceField(mol, props, ignoreInterfragInteractions=False)
        if ff is None and AllChem.UFFHasAllMoleculeParams(mol):
            ff = AllChem.UFFGetMoleculeForceField(mol, ignoreInterfragInteractions=False)
    if ff is None:
        raise MolFormaError("cleanup_no_forcefield")
    for i in fixed:
        ff.AddFixedPoint(int(i))
    ff.Initialize()
    for k in range(rounds):
        if cancelled():
            raise Cancelled()
        more = ff.Minimize(maxIts=per_round)
        progress(50 + int(50 * (k + 1) / rounds), "optimise")
        if more == 0:
            break
    pos = ff.Positions()
    conf = mol.GetConformer()
    from rdkit.Geometry import Point3D

    for i in range(mol.GetNumAtoms()):
        conf.SetAtomPosition(i, Point3D(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]))


def cleanup_positions(atoms: Sequence[Mapping[str, Any]], bonds: Sequence[Mapping[str, Any]], *,
                      cancelled: CancelFn = lambda: False,
                      progress: ProgressFn = lambda _p, _m: None) -> dict[str, list[float]]:
    """New positions of the movable atoms after a force-field clean-up.

    Fixed atoms stay where they are. Only atoms that moved are returned.

    Raises:
        MolFormaError: ``cleanup_no_atoms``, ``cleanup_no_forcefield``, ``cancelled``.
    """
    from rdkit import Chem

    from molforma.formats.rdkit_bridge import mol_from_document, quiet

    if not atoms:
        raise MolFormaError("cleanup_no_atoms")
    mol = mol_from_document(atoms, bonds)
    with quiet():
        try:
            Chem.SanitizeMol(mol)
        except Exception:  # noqa: BLE001 - odd valences: UFF may still have parameters
            mol.UpdatePropertyCache(strict=False)
            Chem.GetSymmSSSR(mol)
    progress(10, "setup")
    fixed = [i for i, a in enumerate(atoms) if a.get("fixed")]
    _minimise(mol, cancelled, progress, fixed=fixed, rounds=60, per_round=40)
    conf = mol.GetConformer()
    out: dict[str, list[float]] = {}
    for i, a in enumerate(atoms):
        if a.get("fixed"):
            continue
        p = conf.GetAtomPosition(i)
        new = [float(p.x), float(p.y), float(p.z)]
        if max(abs(new[0] - a["x"]), abs(new[1] - a["y"]), abs(new[2] - a["z"])) > 1e-6:
            out[str(a["id"])] = new
    return out


class _Thread(QThread):
    def __init__(self, target: Callable[[], None]) -> None:
        super().__init__()
        self._target = target

    def run(self) -> None:
        self._target()


class Worker(QObject):
    """Runs ``fn(cancelled=..., progress=...)`` on its own QThread.

    Signals are delivered on the thread that created the worker (the GUI thread).
    """

    progress = Signal(int, str)
    succeeded = Signal(object)
    failed = Signal(object)  # the MolFormaError (or another exception)
    cancelledSignal = Signal()
    finished = Signal()

    def __init__(self, fn: Callable[..., Any], name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self._fn = fn
        self._cancel = threading.Event()
        self._thread: QThread | None = None
        self._result: Any = None
        self._error: BaseException | None = None

    def start(self) -> None:
        """Start the work on a new QThread."""
        self._thread = _Thread(self._run)
        self._thread.setObjectName(self.objectName() + "Thread")
        self._thread.finished.connect(self._done)
        self._thread.start()

    def cancel(self) -> None:
        """Ask the work to stop at its next check."""
        self._cancel.set()

    @property
    def running(self) -> bool:
        """True while the thread runs."""
        return self._thread is not None and self._thread.isRunning()

    def wait(self, ms: int = 30000) -> bool:
        """Block until the thread ends (used when the window closes)."""
        return self._thread.wait(ms) if self._thread is not None else True

    def _run(self) -> None:
        try:
            self._result = self._fn(cancelled=self._cancel.is_set,
                                    progress=lambda p, m: self.progress.emit(int(p), str(m)))
        except Exception as exc:  # noqa: BLE001 - forwarded to the GUI thread
            self._error = exc

    def _done(self) -> None:
        if isinstance(self._error, Cancelled) or (self._error is None and self._cancel.is_set()):
            self.cancelledSignal.emit()
        elif self._error is not None:
            self.failed.emit(self._error)
        else:
            self.succeeded.emit(self._result)
        self.finished.emit()
        if self._thread is not None:
            self._thread.deleteLater()
            self._thread = None
