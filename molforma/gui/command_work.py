"""Work a window command started (clean-up, SMILES, calculation, results load, history
scan), watched on the GUI thread until it ends (Qt layer)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from molforma.errors import MolFormaError
from molforma.lazy import lazy_import
from molforma.mcp.window_commands import CommandRecord, CommandStore, StartedWork

if TYPE_CHECKING:
    from molforma import jobs as jobs_package
    from molforma.gui.dispatcher import GuiDispatcher
    from molforma.gui.main_window import MainWindow
else:  # imported on first use (start-up time): molforma.lazy
    jobs_package = lazy_import("molforma.jobs")


# What a command's handler answers: its result, and the work it started if any.
Result = tuple[dict[str, Any], StartedWork | None]

log = logging.getLogger("molforma.mcp")


class CommandWork:
    """The work window commands started, watched from the GUI thread's 100 ms tick."""

    def __init__(self, window: MainWindow, dispatcher: GuiDispatcher, store: CommandStore) -> None:
        self.window = window
        self.dispatcher = dispatcher
        self.store = store
        self._watched: list[tuple[Callable[[], bool], threading.Event]] = []
        self._settling: list[tuple[StartedWork, Callable[[], None]]] = []
        self._workers: list[dict[str, Any]] = []
        self._wlock = threading.Lock()

    def poll(self) -> None:
        """Note the window's workers for other threads; settle and wake what ended."""
        workers: list[dict[str, Any]] = []
        tab = self.window.molecule_tab
        if tab.worker_running:
            st = tab.worker_state()
            entry = {
                "kind": "cleanup" if st["kind"] == "cleanup" else "smiles",
                "status": "running",
                "progress": st["progress"],
            }
            if "iterations" in st:
                entry.update(
                    iterations=st["iterations"],
                    maxIterations=st["maxIterations"],
                    energy=st["energy"],
                )
            workers.append(entry)
        hist = self.window.panels.history()
        if hist is not None and hist.scanning:
            workers.append({"kind": "history_scan", "status": "running"})
        with self._wlock:
            self._workers = workers
            watched = list(self._watched)
            settling = list(self._settling)
        for work, settle in settling:
            try:
                ended = work.status() != "running"
            except Exception:  # noqa: BLE001 - a deleted widget: the work is over
                ended = True
            if ended:
                with self._wlock:
                    self._settling.remove((work, settle))
                settle()
        for done, ev in watched:
            try:
                ended = done()
            except Exception:  # noqa: BLE001 - a deleted widget: the work is over
                ended = True
            if ended:
                ev.set()
                with self._wlock:
                    if (done, ev) in self._watched:
                        self._watched.remove((done, ev))

    def workers_snapshot(self) -> list[dict[str, Any]]:
        """Window workers as of the last tick (safe from any thread)."""
        with self._wlock:
            return [dict(w) for w in self._workers]

    def watch(
        self,
        kind: str,
        done: Callable[[], bool],
        cancel: Callable[[], None],
        status: Callable[[], str],
    ) -> StartedWork:
        """Work whose end is seen on the GUI thread (``done`` polled every tick)."""
        ev = threading.Event()
        with self._wlock:
            self._watched.append((done, ev))

        def wait(timeout: float | None) -> bool:
            return ev.wait(timeout)

        def cancel_any_thread() -> None:
            self.dispatcher.call(cancel, 2.0)

        return StartedWork(kind=kind, wait=wait, cancel=cancel_any_thread, status=status)

    def settle_later(self, rec: CommandRecord, result: dict[str, Any], work: StartedWork) -> None:
        """A SMILES build or clean-up is the command's point: its record stays running
        until the work ends, then says what the work did (a candidate made: done; nothing
        to change or a refusal: failed with the window's message)."""
        rec.work = work

        def settle() -> None:
            try:
                error = work.error() if work.error is not None else None
                failed = work.status() in ("failed", "unchanged") and error is not None
            except Exception:  # the record must end whatever happened
                log.exception("settling window command %s", rec.id)
                error, failed = MolFormaError("internal_error", tool=rec.command.tool), True
            if failed and error is not None:
                self.store.fail(rec, error)
                return
            done = dict(result)
            done["revision"] = self.window.ctx.document.revision
            self.store.finish(rec, done, work)

        with self._wlock:
            self._settling.append((work, settle))

    def state(self) -> dict[str, Any]:
        ctx = self.window.ctx
        jobs = ctx.jobs_if_any()
        sess = ctx.results_if_any()
        hist = self.window.panels.history()
        return {
            "job": jobs.current() if jobs is not None else None,
            "load": sess.loading if sess is not None else None,
            "worker": self.window.molecule_tab.worker,
            "scan": hist.scan_handle if hist is not None else None,
        }

    def started(self, before: dict[str, Any]) -> StartedWork | None:
        after = self.state()
        job = after["job"]
        if job is not None and job is not before["job"]:
            # A failed run is the task's error (NWChem's own line); its progress is the
            # job's, read from the record (no Qt), a few times a second.
            return StartedWork(
                "calculation",
                wait=job.wait,
                cancel=job.cancel,
                status=lambda: str(job.status),
                error=lambda: jobs_package.failure_error(job),
                progress=lambda: jobs_package.progress_note(job),
            )
        load = after["load"]
        if load is not None and load is not before["load"]:
            return StartedWork(
                "results_load", wait=load.wait, cancel=load.cancel, status=lambda: str(load.status)
            )
        if after["worker"] is not None and after["worker"] is not before["worker"]:
            return self.worker_work()
        if after["scan"] is not None and after["scan"] is not before["scan"]:
            return self.scan_work()
        return None

    def worker_work(self) -> StartedWork:
        tab = self.window.molecule_tab
        worker = tab.worker
        kind = "cleanup" if tab.worker_state()["kind"] == "cleanup" else "smiles"
        state = {"cancelled": False}

        def cancel() -> None:
            state["cancelled"] = True
            tab.cancel_worker()

        def status() -> str:
            if state["cancelled"]:
                return "cancelled"
            if tab.worker is worker:
                return "running"
            end = tab.worker_end(worker)
            return {"failed": "failed", "unchanged": "unchanged"}.get(
                end[0] if end else "", "finished"
            )

        def progress() -> dict[str, Any] | None:
            # From the snapshot the GUI thread takes each tick: no Qt from this thread.
            now = next((w for w in self.workers_snapshot() if w["kind"] == kind), None)
            if now is None:  # it ended: the last note says how
                return {"message": f"{kind}: {status()}", "progress": 100}
            text = f"{kind}: {now['progress']} %"
            if "iterations" in now:
                text += f" · iteration {now['iterations']} of {now['maxIterations']}"
                if isinstance(now.get("energy"), int | float):
                    text += f" · energy {now['energy']:.4f} kcal/mol"
            return {"message": text, "progress": now["progress"]}  # the end note adds total

        work = self.watch(kind, done=lambda: tab.worker is not worker, cancel=cancel, status=status)
        work.error = lambda: (tab.worker_end(worker) or ("", None))[1]
        work.progress = progress
        return work

    def scan_work(self) -> StartedWork:
        hist = self.window.panels.history()
        handle = hist.scan_handle if hist is not None else None
        if hist is None or handle is None:  # never: a scan was started from it just now
            raise MolFormaError("window_refused", message="History tab missing")

        def cancel() -> None:
            stop = getattr(handle, "cancel", None)
            if callable(stop):
                stop()

        # Over once the tab has shown the rows, not when the scanning thread alone ended.
        return self.watch(
            "history_scan",
            done=lambda: hist.scan_handle is not handle or not hist.scanning,
            cancel=cancel,
            status=lambda: str(handle.status) if handle.done else "running",
        )
