"""The force-field clean-ups of ``move_atoms cleanup`` (no Qt).

A clean-up runs in the child process the window uses (it can be killed and never holds
this process's GIL); its result becomes one move of the atoms that moved. The clean-ups
running now are kept by document id, so ``history cancel`` stops one and
``get_app_state`` lists them as workers.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from molforma.app.actor import Actor
from molforma.errors import MolFormaError, UnknownAtomError
from molforma.lazy import lazy_import
from molforma.mcp.tasks import Background, current_progress
from molforma.mcp.tool_registry import ToolContext
from molforma.mcp.tools.document_models import EditSummary

if TYPE_CHECKING:
    from molforma.app import ops
    from molforma.document import cleanup, envelope
    from molforma.mcp.tools.document_models import MoveAtomsInput
else:  # imported on first use (start-up time): molforma.lazy
    cleanup = lazy_import("molforma.document.cleanup")
    envelope = lazy_import("molforma.document.envelope")
    ops = lazy_import("molforma.app.ops")

CLEANUP_WAIT_S = 10.0
# The clean-ups running now, by document id (history cancel stops one).
RUNNING_CLEANUPS: dict[str, Any] = {}


def cleanup_workers(doc_id: str | None = None) -> list[dict[str, Any]]:
    """The move_atoms clean-ups running now as get_app_state ``workers`` entries (kind
    cleanup, documentId, status, progress and, once iterating, iterations, maxIterations
    and energy in kcal/mol)."""
    out = []
    for did, child in list(RUNNING_CLEANUPS.items()):
        if child.done or (doc_id is not None and did != doc_id):
            continue
        entry: dict[str, Any] = {
            "kind": "cleanup",
            "documentId": did,
            "status": "running",
            "progress": 0,
        }
        if child.last_step is not None:
            done, maximum, energy = child.last_step
            entry.update(
                progress=int(100 * done / max(maximum, 1)),
                iterations=done,
                maxIterations=maximum,
                energy=energy,
            )
        out.append(entry)
    return out


def _wait_reporting(child: Any, lang: str) -> bool:
    """Wait up to CLEANUP_WAIT_S for the clean-up, sending its progress to the call's
    progressToken meanwhile (when it has one); True when it ended."""
    reporter = current_progress()
    end = time.monotonic() + CLEANUP_WAIT_S
    while not child.wait(min(0.25, max(0.0, end - time.monotonic()))):
        if time.monotonic() >= end:
            return False
        if reporter is not None:
            reporter.report(child.progress_note(lang))
    if reporter is not None:
        reporter.report(child.progress_note(lang), final=True)
    return True


def start_cleanup(
    ctx: ToolContext,
    doc: Any,
    args: MoveAtomsInput,
) -> EditSummary | Background[EditSummary]:
    """The force-field clean-up in the child process the window uses (it can be killed and
    never holds this process's GIL); its result becomes a move of the atoms that moved."""
    with doc.lock:
        doc.check_revision(args.expectedRevision, allow_candidate=False)
        atoms, bonds = envelope.atoms_of(doc.project), envelope.bonds_of(doc.project)
        if not atoms:
            raise MolFormaError("cleanup_no_atoms")
        present = {a["id"] for a in atoms}
        for aid in args.atomIds or ():
            if aid not in present:
                raise UnknownAtomError(id=aid)
        moving = set(args.atomIds) if args.atomIds is not None else present
        request = [a if a["id"] in moving else {**a, "fixed": True} for a in atoms]
        rev = doc.revision
        doc.set_busy("geometry clean-up")
    outcome: dict[str, Any] = {}

    def applied(child: cleanup.CleanupChild) -> None:
        """Apply what the child found (its reader thread): the edit or the reason not."""
        try:
            with doc.lock:
                doc.set_busy(None)
                if child.status != "completed":
                    outcome["error"] = child.error
                elif not child.positions:
                    outcome["error"] = MolFormaError(
                        "cleanup_no_change",
                        forceField=child.report.get("forceField", ""),
                        tolerance=cleanup.MOVE_TOLERANCE,
                    )
                else:
                    edit = ops.move_atoms(
                        doc,
                        positions=child.positions,
                        expected_revision=rev,
                        preview=args.preview,
                        actor=Actor.MCP_TOOL,
                    )
                    edit["info"] = {
                        "cleanup": {
                            k: child.report[k]
                            for k in ("forceField", "energyBefore", "energyAfter", "iterations")
                            if k in child.report
                        }
                    }
                    outcome["edit"] = edit
        except MolFormaError as exc:
            outcome["error"] = exc
        finally:
            if RUNNING_CLEANUPS.get(doc.id) is child:
                del RUNNING_CLEANUPS[doc.id]

    try:
        child = cleanup.CleanupChild(request, bonds, on_end=applied)
    except MolFormaError:
        doc.set_busy(None)
        raise
    RUNNING_CLEANUPS[doc.id] = child

    def final() -> EditSummary:
        error = outcome.get("error")
        if error is not None:
            raise error
        return EditSummary.model_validate(outcome["edit"])

    if not ctx.request.declares_tasks and _wait_reporting(child, ctx.lang):
        return final()
    with doc.lock:
        running = dict(doc.summary(added=[], removed=[], changed=[]))
    running["status"] = "running"
    running["info"] = {"cleanup": {"running": True}}
    lang = ctx.lang
    return Background(
        result=EditSummary.model_validate(running),
        wait=child.wait,
        cancel=child.cancel,
        final=final,
        progress=lambda: child.progress_note(lang),
    )
