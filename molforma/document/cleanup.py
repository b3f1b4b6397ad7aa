"""Force-field geometry clean-up (MMFF94, UFF as fallback) with RDKit (no Qt).

RDKit's minimiser holds the GIL for a whole ``Minimize`` call, so a window that ran
it on a thread would still freeze on large molecules. The window therefore runs
:func:`main` in a child process (``python -m molforma.document.cleanup``): the
request (atoms and bonds) comes as one JSON object on stdin, and one JSON object
per line goes back on stdout: ``{"type": "progress", "iterations", "maxIterations",
"energy"}`` after each chunk of iterations (``{"type": "stage", "stage", "percent"}``
while the force field is set up, which takes a while for thousands of atoms), then ``{"type": "result", "positions":
{id: [x, y, z]}}`` or ``{"type": "error", "code", "data"}``. Stopping is killing
the child; nothing was applied to the document until the result is read.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from molforma.errors import MolFormaError
from molforma.i18n import register, render
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    import subprocess

    from rdkit import Chem, Geometry
    from rdkit.Chem import rdForceFieldHelpers as ff_helpers

    from molforma.document import rdkit_mol
else:  # imported on first use (start-up time): molforma.lazy
    subprocess = lazy_import("subprocess")
    Chem = lazy_import("rdkit.Chem")
    Geometry = lazy_import("rdkit.Geometry")
    ff_helpers = lazy_import("rdkit.Chem.rdForceFieldHelpers")
    rdkit_mol = lazy_import("molforma.document.rdkit_mol")

register(
    {
        "cleanup_no_atoms": {
            "en": "There are no atoms to clean up.",
            "ja": "整形する原子がありません。",
        },
        "cleanup_no_forcefield": {
            "en": "No force field (MMFF94 or UFF) has parameters for this structure.",
            "ja": "この構造にはパラメータのある力場（MMFF94 / UFF）がありません。",
        },
        "cleanup_failed": {
            "en": "The geometry clean-up failed: {detail}",
            "ja": "構造の整形に失敗しました: {detail}",
        },
        "cancelled": {"en": "Cancelled.", "ja": "キャンセルしました。"},
        "cleanup_progress": {
            "en": "Cleaning up the geometry: {done} of at most {maximum} iterations, energy "
            "{energy:.2f} kcal/mol",
            "ja": "構造を整形中: 最大 {maximum} 回中 {done} 回、エネルギー {energy:.2f} kcal/mol",
        },
        "cleanup_ended": {
            "en": "Geometry clean-up {status} after {done} iterations, energy "
            "{energy:.2f} kcal/mol",
            "ja": "構造の整形は {done} 回で終了しました（{status}）。エネルギー "
            "{energy:.2f} kcal/mol",
        },
        "cleanup_starting": {
            "en": "Cleaning up the geometry: setting up the force field…",
            "ja": "構造を整形中: 力場を準備しています…",
        },
        "cleanup_no_change": {
            "en": "Nothing to change: the geometry is already clean (the {forceField} force field "
            "moves no atom by more than {tolerance} Å). Nothing was changed.",
            "ja": "変更するものがありません。構造はすでに整っています（{forceField} 力場で "
            "{tolerance} Å を超えて動く原子はありません）。何も変更していません。",
        },
    }
)

ProgressFn = Callable[[int, str], None]
CancelFn = Callable[[], bool]
StepFn = Callable[[int, int, float], None]  # iterations done, maximum, energy (kcal/mol)

CLEANUP_MAX_ITERATIONS = 2400
# An atom the force field moves less than this (Å) did not move: a minimum found again
# wobbles by 1e-6 Å, and a candidate of such wobbles would be a clean-up that did nothing.
MOVE_TOLERANCE = 1e-4


class Cancelled(MolFormaError):
    """The work was cancelled."""

    code = "cancelled"


def chunk_size(atom_count: int) -> int:
    """Iterations per minimiser call: small molecules converge best in long runs, large
    ones need short chunks so progress (and energy) is reported every second or two."""
    if atom_count > 1000:
        return 10
    if atom_count > 200:
        return 20
    return 40


def minimise(
    mol: Any,
    *,
    cancelled: CancelFn = lambda: False,
    progress: ProgressFn = lambda _p, _m: None,
    fixed: Sequence[int] = (),
    max_iterations: int = CLEANUP_MAX_ITERATIONS,
    per_round: int = 40,
    step: StepFn | None = None,
    start_percent: int = 50,
) -> str:
    """MMFF94 (UFF as fallback) in chunks of ``per_round`` iterations, in place; returns
    the force field used (``MMFF94`` or ``UFF``).

    Raises:
        MolFormaError: ``cleanup_no_forcefield``; :class:`Cancelled` when ``cancelled()``.
    """
    with rdkit_mol.quiet():
        ff = None
        name = "MMFF94"
        if ff_helpers.MMFFHasAllMoleculeParams(mol):
            props = ff_helpers.MMFFGetMoleculeProperties(mol)
            ff = ff_helpers.MMFFGetMoleculeForceField(mol, props, ignoreInterfragInteractions=False)
        if ff is None and ff_helpers.UFFHasAllMoleculeParams(mol):
            name = "UFF"
            ff = ff_helpers.UFFGetMoleculeForceField(mol, ignoreInterfragInteractions=False)
    if ff is None:
        raise MolFormaError("cleanup_no_forcefield")
    for i in fixed:
        ff.AddFixedPoint(int(i))
    ff.Initialize()
    done = 0
    if step is not None:
        step(0, max_iterations, float(ff.CalcEnergy()))
    while done < max_iterations:
        if cancelled():
            raise Cancelled()
        n = min(per_round, max_iterations - done)
        more = ff.Minimize(maxIts=n)
        done += n
        progress(start_percent + int((100 - start_percent) * done / max_iterations), "optimise")
        if step is not None:
            step(done, max_iterations, float(ff.CalcEnergy()))
        if more == 0:
            break
    pos = ff.Positions()
    conf = mol.GetConformer()
    for i in range(mol.GetNumAtoms()):
        conf.SetAtomPosition(i, Geometry.Point3D(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]))
    return name


def cleanup_positions(
    atoms: Sequence[Mapping[str, Any]],
    bonds: Sequence[Mapping[str, Any]],
    *,
    cancelled: CancelFn = lambda: False,
    progress: ProgressFn = lambda _p, _m: None,
    step: StepFn | None = None,
    max_iterations: int = CLEANUP_MAX_ITERATIONS,
    report: dict[str, Any] | None = None,
) -> dict[str, list[float]]:
    """New positions of the movable atoms after a force-field clean-up.

    Fixed atoms stay where they are. Only atoms that moved are returned. ``report``, when
    given, receives ``forceField`` (``MMFF94`` or ``UFF``).

    Raises:
        MolFormaError: ``cleanup_no_atoms``, ``cleanup_no_forcefield``, ``cancelled``.
    """
    if not atoms:
        raise MolFormaError("cleanup_no_atoms")
    mol = rdkit_mol.mol_from_document(atoms, bonds)
    with rdkit_mol.quiet():
        try:
            Chem.SanitizeMol(mol)
        except Exception:  # noqa: BLE001 - odd valences: UFF may still have parameters
            mol.UpdatePropertyCache(strict=False)
            Chem.GetSymmSSSR(mol)
    progress(5, "forcefield")
    fixed = [i for i, a in enumerate(atoms) if a.get("fixed")]
    used = minimise(
        mol,
        cancelled=cancelled,
        progress=progress,
        fixed=fixed,
        max_iterations=max_iterations,
        per_round=chunk_size(len(atoms)),
        step=step,
        start_percent=10,
    )
    if report is not None:
        report["forceField"] = used
    conf = mol.GetConformer()
    out: dict[str, list[float]] = {}
    for i, a in enumerate(atoms):
        if a.get("fixed"):
            continue
        p = conf.GetAtomPosition(i)
        new = [float(p.x), float(p.y), float(p.z)]
        if max(abs(new[0] - a["x"]), abs(new[1] - a["y"]), abs(new[2] - a["z"])) > MOVE_TOLERANCE:
            out[str(a["id"])] = new
    return out


def request_text(
    atoms: Sequence[Mapping[str, Any]],
    bonds: Sequence[Mapping[str, Any]],
    max_iterations: int = CLEANUP_MAX_ITERATIONS,
) -> bytes:
    """The child's stdin: only what the force field needs."""
    keep = (
        "id",
        "element",
        "x",
        "y",
        "z",
        "formalCharge",
        "unpairedElectrons",
        "massNumber",
        "fixed",
    )
    return json.dumps(
        {
            "atoms": [{k: a.get(k) for k in keep} for a in atoms],
            "bonds": [{"a": b["a"], "b": b["b"], "order": b.get("order", 1)} for b in bonds],
            "maxIterations": int(max_iterations),
        }
    ).encode()


class CleanupChild:
    """The clean-up child process (:func:`main`) followed from a thread, without Qt.

    MCP's route to the clean-up the window runs through ``QProcess``: the same child, so
    RDKit's minimiser never holds this process's GIL and :meth:`cancel` is a kill. When
    the child has ended, ``on_end(self)`` runs on the reader thread before :meth:`wait`
    returns, so what it does (applying the result) is done by then.

    Attributes:
        status: ``running``, then ``completed``, ``failed`` or ``cancelled``.
        positions: ``{id: [x, y, z]}`` of the atoms that moved (completed).
        report: ``forceField``, ``energyBefore``, ``energyAfter`` (kcal/mol), ``iterations``.
        error: why it failed (``cleanup_*``), else None.
        last_step: iterations done, maximum and energy of the last chunk, or None.
    """

    def __init__(
        self,
        atoms: Sequence[Mapping[str, Any]],
        bonds: Sequence[Mapping[str, Any]],
        *,
        on_end: Callable[[CleanupChild], None] | None = None,
        max_iterations: int = CLEANUP_MAX_ITERATIONS,
    ) -> None:
        self.status = "running"
        self.positions: dict[str, list[float]] = {}
        self.report: dict[str, Any] = {}
        self.error: MolFormaError | None = None
        self.last_step: tuple[int, int, float] | None = None
        self._on_end = on_end
        self._result = False
        self._cancelled = threading.Event()
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        request = request_text(atoms, bonds, max_iterations)
        # The child is started by the thread that follows it: the kernel kills the child
        # when the thread that started it ends (PR_SET_PDEATHSIG), and this one lives as
        # long as the child does, whatever thread asked for the clean-up.
        self._thread = threading.Thread(
            target=self._follow, args=(request,), name="cleanup-child", daemon=True
        )
        self._thread.start()

    def cancel(self) -> None:
        """Stop at once: the child is killed and nothing of its work is kept."""
        with self._lock:
            self._cancelled.set()
            proc = self._proc
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.kill()

    def progress_note(self, lang: str | None = None) -> dict[str, Any]:
        """``{"message", "progress", "total"}`` of the iterations so far (task progress)."""
        step = self.last_step
        if step is None:
            return {"message": render("cleanup_starting", {}, lang), "progress": 0}
        done, maximum, energy = step
        if self.done:  # ended: the count is complete, whatever the maximum was
            return {
                "message": render(
                    "cleanup_ended", {"status": self.status, "done": done, "energy": energy}, lang
                ),
                "progress": done,
                "total": done,
            }
        return {
            "message": render(
                "cleanup_progress", {"done": done, "maximum": maximum, "energy": energy}, lang
            ),
            "progress": done,
            "total": maximum,
        }

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the child ended and ``on_end`` ran; True when it has."""
        return self._done.wait(timeout)

    @property
    def done(self) -> bool:
        """True once the child ended and ``on_end`` ran."""
        return self._done.is_set()

    def _follow(self, request: bytes) -> None:
        try:
            with self._lock:
                if not self._cancelled.is_set():
                    self._proc = subprocess.Popen(
                        [sys.executable, "-m", "molforma.document.cleanup"],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL,
                    )
            if self._proc is not None:
                self._talk(self._proc, request)
        except Exception as exc:  # noqa: BLE001 - the end must be reported whatever happened
            self.error = MolFormaError("cleanup_failed", detail=str(exc))
        finally:
            proc = self._proc
            if proc is not None:
                with contextlib.suppress(OSError):
                    proc.wait()
            if self._cancelled.is_set():
                self.status, self.error = "cancelled", Cancelled()
            elif self.error is None and not self._result:
                code = proc.returncode if proc is not None else None
                self.error = MolFormaError("cleanup_failed", detail=f"exit status {code}")
            if self.status == "running":
                self.status = "failed" if self.error is not None else "completed"
            try:
                if self._on_end is not None:
                    self._on_end(self)
            finally:
                self._done.set()

    def _talk(self, proc: subprocess.Popen[bytes], request: bytes) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(request)
            proc.stdin.close()
        except OSError:
            pass  # the child died early: its exit status says so
        for line in proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            kind = msg.get("type")
            if kind == "progress":
                self.last_step = (
                    int(msg["iterations"]),
                    int(msg["maxIterations"]),
                    float(msg["energy"]),
                )
            elif kind == "result":
                self.positions = dict(msg["positions"])
                self.report = {k: v for k, v in msg.items() if k not in ("type", "positions")}
                self._result = True
            elif kind == "error":
                self.error = MolFormaError(
                    str(msg.get("code", "cleanup_failed")), **dict(msg.get("data") or {})
                )


def _emit(obj: Mapping[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _die_with_parent() -> Callable[[], bool]:
    """Make the child end with the window: at once on Linux (the kernel kills it when the
    parent dies), elsewhere at the next chunk. Returns the check for ``cancelled``."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    parent = os.getppid()
    return lambda: os.getppid() != parent


def main() -> int:
    """The child process: read a request on stdin, report progress and the result on stdout."""
    orphaned = _die_with_parent()
    with contextlib.suppress(AttributeError, OSError):
        os.nice(10)  # the person's window comes first when they share a core
    try:
        req = json.loads(sys.stdin.read())
        atoms, bonds = req["atoms"], req["bonds"]
        max_its = int(req.get("maxIterations", CLEANUP_MAX_ITERATIONS))
    except (ValueError, KeyError, TypeError) as exc:
        _emit({"type": "error", "code": "cleanup_failed", "data": {"detail": str(exc)}})
        return 2

    energies: list[float] = []
    report: dict[str, Any] = {}

    def step(done: int, maximum: int, energy: float) -> None:
        energies.append(energy)
        report["iterations"] = done
        _emit({"type": "progress", "iterations": done, "maxIterations": maximum, "energy": energy})

    def stage(percent: int, name: str) -> None:
        if name != "optimise":  # iterations are reported by step()
            _emit({"type": "stage", "stage": name, "percent": percent})

    try:
        positions = cleanup_positions(
            atoms,
            bonds,
            step=step,
            progress=stage,
            cancelled=orphaned,
            max_iterations=max_its,
            report=report,
        )
    except MolFormaError as exc:
        _emit({"type": "error", "code": exc.code, "data": exc.data})
        return 1
    except Exception as exc:  # noqa: BLE001 - reported to the window as a message
        _emit({"type": "error", "code": "cleanup_failed", "data": {"detail": str(exc)}})
        return 1
    # What the force field did, beside the positions (readers that want only these ignore it).
    if energies:
        report.update(energyBefore=energies[0], energyAfter=energies[-1])
    _emit({"type": "result", "positions": positions, **report})
    return 0


if __name__ == "__main__":
    sys.exit(main())
