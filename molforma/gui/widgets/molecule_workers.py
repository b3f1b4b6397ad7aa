"""The Molecule tab's background work: a structure from SMILES and the clean-up, their
progress, cancelling and results (Qt layer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from molforma.app import ops
from molforma.app.actor import acting_for_mcp, mcp_acting, window_actor
from molforma.document.changes import Change
from molforma.document.envelope import atoms_of, bonds_of
from molforma.errors import MolFormaError
from molforma.gui import outcome
from molforma.gui.widgets.molecule_tab_support import (
    MoleculeTabHost,
)
from molforma.gui.workers import CleanupProcess, Worker
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.app import smiles as app_smiles
else:  # imported on first use (start-up time): molforma.lazy
    app_smiles = lazy_import("molforma.app.smiles")


class StructureWork:
    """Starts, follows, cancels and applies the SMILES and clean-up workers.

    The state stays on the tab (``self.tab``); this class holds the behaviour only.
    """

    def __init__(self, tab: MoleculeTabHost, parent: QWidget) -> None:
        self.tab = tab
        self.parent = parent

    def start_smiles(self, smiles: str | None = None) -> bool:
        """Make a 3D candidate from SMILES, or from a name of the table of common molecules
        (``water``, ``DMSO``, ``ベンゼン``; the message says which SMILES was used),
        replacing the structure once confirmed."""
        text = (smiles if smiles is not None else self.tab.smiles_input.text()).strip()
        if not text:
            self.tab.show_message(
                QCoreApplication.translate("MoleculeTab", "Type a SMILES string first."), error=True
            )
            return False

        try:
            name = app_smiles.check_smiles(text)
        except MolFormaError as exc:
            self.tab.show_message(exc.message(), error=True, reason=exc)
            return False
        self.tab._smiles_from = None
        if name is not None:
            code = app_smiles.resolve_smiles(text)[0]
            self.tab._smiles_from = (
                QCoreApplication.translate("MoleculeTab", "%1 (SMILES %2)")
                .replace("%1", name)
                .replace("%2", code)
            )
            text = code
        started = self._start_worker(
            "smiles",
            lambda cancelled, progress: app_smiles.smiles_to_structure(
                text, cancelled=cancelled, progress=progress
            ),
        )
        if started and self.tab._smiles_from:
            self.tab.show_message(
                QCoreApplication.translate("MoleculeTab", "Making 3D coordinates for %1…").replace(
                    "%1", self.tab._smiles_from
                )
            )
        return started

    def start_cleanup(self) -> bool:
        """Clean up the geometry with a force field (MMFF94, else UFF) in a child process.

        The window keeps turning while it runs; edits wait until it ends; Stop
        (:meth:`cancel_worker`) kills it at once and leaves the document as it was. The
        result is a candidate to confirm or cancel. This is the entry point of the
        window's clean-up for the person and for the window tools alike.
        """
        proj = self.tab.ctx.document.project
        atoms, bonds = atoms_of(proj), bonds_of(proj)
        if not atoms:
            self.tab.show_message(
                QCoreApplication.translate("MoleculeTab", "There are no atoms to clean up."),
                error=True,
            )
            return False
        return self._start_worker("cleanup", None, (atoms, bonds))

    def _start_worker(
        self,
        kind: str,
        fn: Callable[..., Any] | None,
        structure: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None,
    ) -> bool:
        doc = self.tab.ctx.document
        if self.tab._worker is not None:
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab", "Busy: wait for the running work or stop it."
                ),
                error=True,
            )
            return False
        if doc.candidate is not None:
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab", "Confirm or cancel the current candidate first."
                ),
                error=True,
            )
            return False
        if doc.busy:
            self.tab.show_message(
                QCoreApplication.translate(
                    "MoleculeTab", "Busy: wait for the running work or stop it."
                ),
                error=True,
            )
            return False
        worker: Worker | CleanupProcess
        if kind == "cleanup":
            assert structure is not None
            doc.set_busy("geometry clean-up")
            worker = CleanupProcess(*structure, parent=self.parent)
            worker.stepped.connect(self.tab._on_step)
        else:
            assert fn is not None
            worker = Worker(fn, "smilesWorker", self.parent)
        # A bound slot of a GUI-thread object: Qt queues the worker thread's progress here.
        worker.progress.connect(self.tab._on_progress)
        worker.succeeded.connect(lambda res, k=kind: self._worker_done(k, res))
        worker.failed.connect(lambda exc: self._worker_failed(exc))
        worker.cancelledSignal.connect(
            lambda: self.tab.show_message(QCoreApplication.translate("MoleculeTab", "Stopped."))
        )
        worker.finished.connect(self.tab._worker_finished)
        self.tab._worker, self.tab._worker_kind = worker, kind
        # The result lands later, outside the command: it keeps the origin of its start.
        self.tab._worker_for_mcp = mcp_acting()
        self.tab._cleanup_step = None
        self.tab.progress.setValue(0)
        self.tab.progress.setFormat("%p%")
        self.tab.show_message(
            QCoreApplication.translate("MoleculeTab", "Cleaning up the geometry…")
            if kind == "cleanup"
            else QCoreApplication.translate("MoleculeTab", "Making 3D coordinates…")
        )
        worker.start()
        self.tab._update_state()
        self.tab.ctx.events.documentChanged.emit(Change.BUSY)
        return True

    def _step_text(self) -> str:
        if self.tab._cleanup_step is None:
            return QCoreApplication.translate("MoleculeTab", "Cleaning up the geometry…")
        done, maximum, energy = self.tab._cleanup_step
        return (
            QCoreApplication.translate(
                "MoleculeTab",
                "Cleaning up the geometry: %1 of at most %2 iterations, energy %3 kcal/mol",
            )
            .replace("%1", str(done))
            .replace("%2", str(maximum))
            .replace("%3", f"{energy:.2f}")
        )

    @property
    def worker(self) -> Worker | CleanupProcess | None:
        """The SMILES or clean-up worker running now (window commands follow it)."""
        return self.tab._worker

    @property
    def worker_running(self) -> bool:
        """True from the start of SMILES or clean-up work until its result is handled."""
        return self.tab._worker is not None

    def worker_state(self) -> dict[str, Any]:
        """``{"kind": "smiles"|"cleanup"|None, "running": bool, "progress": 0..100}``.

        During a clean-up also ``iterations``, ``maxIterations`` and ``energy``
        (kcal/mol) of the last chunk reported.
        """
        out: dict[str, Any] = {
            "kind": self.tab._worker_kind if self.tab._worker is not None else None,
            "running": self.tab._worker is not None,
            "progress": int(self.tab.progress.value()),
        }
        if self.tab._worker is not None and self.tab._cleanup_step is not None:
            done, maximum, energy = self.tab._cleanup_step
            out.update(iterations=done, maxIterations=maximum, energy=energy)
        return out

    def cancel_worker(self) -> None:
        """Stop the running SMILES or clean-up work."""
        if self.tab._worker is not None:
            self.tab._worker.cancel()

    def _release_busy(self) -> None:
        if self.tab._worker_kind == "cleanup":
            self.tab.ctx.document.set_busy(None)

    def _worker_done(self, kind: str, result: Any) -> None:
        with acting_for_mcp(self.tab._worker_for_mcp):
            self._apply_worker_result(kind, result)

    def _apply_worker_result(self, kind: str, result: Any) -> None:
        self._release_busy()
        doc = self.tab.ctx.document
        if kind == "cleanup":
            if not result:
                text = QCoreApplication.translate("MoleculeTab", "The geometry is already clean.")
                self._end_worker("unchanged", MolFormaError("window_no_change", message=text))
                self.tab.show_message(text)
                return
            with outcome.collecting() as refusals:
                self.tab._run(
                    lambda: ops.move_atoms(
                        doc, positions=result, preview=True, actor=window_actor()
                    ),
                    QCoreApplication.translate(
                        "MoleculeTab", "Clean-up done: confirm or cancel the candidate."
                    ),
                )
        else:
            atoms, bonds = result

            ready = QCoreApplication.translate(
                "MoleculeTab", "3D structure ready: confirm or cancel the candidate."
            )
            if self.tab._smiles_from:
                ready = QCoreApplication.translate(
                    "MoleculeTab", "3D structure of %1 ready: confirm or cancel the candidate."
                ).replace("%1", self.tab._smiles_from)
            with outcome.collecting() as refusals:
                self.tab._run(
                    lambda: app_smiles.replace_structure(doc, atoms, bonds, actor=window_actor()),
                    ready,
                )
        self._end_worker(*(("failed", refusals[0]) if refusals else ("done", None)))

    def _end_worker(self, status: str, error: MolFormaError | None) -> None:
        """How the running SMILES / clean-up work ended, kept per worker (a window command
        that started it reads its own worker's end, whatever ran since)."""
        if self.tab._worker is not None:
            self.tab._worker_ends[self.tab._worker] = (status, error)
            while len(self.tab._worker_ends) > 16:  # the wrappers of long-gone workers
                del self.tab._worker_ends[next(iter(self.tab._worker_ends))]

    def _worker_failed(self, exc: object) -> None:
        self._release_busy()
        text = exc.message() if isinstance(exc, MolFormaError) else str(exc)
        self._end_worker(
            "failed",
            exc
            if isinstance(exc, MolFormaError)
            else MolFormaError("window_refused", message=text),
        )
        self.tab.show_message(text, error=True)

    def worker_end(self, worker: Any) -> tuple[str, MolFormaError | None] | None:
        """How ``worker`` ended (``done``, ``unchanged``, ``failed`` and the error), or None
        while it runs or when it was stopped."""
        return self.tab._worker_ends.get(worker) if worker is not None else None
