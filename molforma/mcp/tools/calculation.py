"""The ``calculation`` and ``get_app_state`` tools (no Qt).

``calculation start`` checks the document against the launch policy (trusted
protected values, allowed job root and advanced paths) and starts NWChem in the
background through the job manager; the call returns at once. With the Tasks
extension declared the call becomes a task that stays ``working`` until the job
ends (docs/reference/jobs.md, docs/reference/safety.md, Trusted values, and docs/reference/mcp.md, Tasks).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from molforma.app.actor import Actor
from molforma.errors import CalculationError
from molforma.i18n import register
from molforma.jobs import TERMINAL, failure_error, progress_note
from molforma.lazy import lazy_import
from molforma.mcp.tasks import Background, current_progress
from molforma.mcp.tool_registry import SparseOutput, ToolContext, ToolInput, tool
from molforma.mcp.tools.document_models import _REV, DocumentInfo
from molforma.mcp.tools.document_tools import cleanup_workers, doc_info

if TYPE_CHECKING:
    from molforma.app import runs
else:  # imported on first use (start-up time): molforma.lazy
    runs = lazy_import("molforma.app.runs")

register(
    {
        "no_calculation": {
            "en": "No calculation of this document is running.",
            "ja": "この文書の計算は実行中ではありません。",
        },
    }
)


class CalculationInput(ToolInput):
    documentId: str = Field(description="Id from list_documents.")
    expectedRevision: str = Field(description=_REV)
    action: Literal["start", "cancel", "save_inputs"] = Field(
        description="start: write a job folder and run NWChem in the background (scheduler "
        "slurm: submit it to the cluster); cancel: stop the running calculation (answers once "
        "it is gone and recorded cancelled; a batch job is cancelled in the cluster); "
        "save_inputs: write the job folder without running."
    )


class CalculationOutput(BaseModel):
    """The job record (status, folder, times, convergence) and, when ended, the app state."""

    model_config = ConfigDict(extra="forbid")

    documentId: str = Field(description="The document the job belongs to.")
    action: str = Field(description="The action asked for.")
    status: str = Field(description="queued, running, finished, failed, cancelled, timed_out.")
    jobDirectory: str = Field(description="The job folder (input, output.out, job.json).")
    job: dict[str, Any] = Field(description="The job record (job.json).")
    app: dict[str, Any] | None = Field(
        None,
        description="When the work ended: {calculation: "
        "the get_app_state calculation part, results: where "
        "its results loaded (null: none)}.",
    )


def calculation_state(ctx: ToolContext, doc_id: str | None = None) -> dict[str, Any] | None:
    """The get_app_state ``calculation`` part: the current (or latest) job."""
    state = ctx.state
    jobs = state.jobs_if_any()
    if jobs is None:
        return None
    job = state.last_job.get(doc_id) if doc_id else jobs.current()
    if job is None:
        return None
    snap = job.snapshot()
    owner = next((d for d, j in state.last_job.items() if j is job), None)
    out: dict[str, Any] = {
        "documentId": owner,
        "status": snap.get("status", job.status),
        "jobDirectory": str(job.folder),
        "record": snap,
    }
    if out["status"] in ("queued", "running"):
        out["progressMessage"] = progress_note(job, state.lang)["message"]
    error = failure_error(job)
    if error is not None:
        out["error"] = error.to_dict(state.lang)
    return out


def _reattached_job(state: Any) -> Any:
    """The latest live batch job this process re-attached to (no document started it)."""
    owned = {id(j) for j in state.last_job.values()}
    for job in reversed(state.jobs.jobs()):
        if job.is_batch and id(job) not in owned and job.status not in TERMINAL:
            return job
    return None


def _job_output(
    doc_id: str,
    action: str,
    job: Any,
    app: dict[str, Any] | None = None,
) -> CalculationOutput:
    return CalculationOutput(
        documentId=doc_id,
        action=action,
        status=job.status,
        jobDirectory=str(job.folder),
        job=job.snapshot(),
        app=app,
    )


@tool(
    "calculation",
    title="Calculation",
    destructive=False,
    open_world=True,
    needs_interaction_when_exec_allowed=True,
)
def calculation(
    ctx: ToolContext,
    args: CalculationInput,
) -> CalculationOutput | Background[CalculationOutput]:
    """Start the NWChem calculation of the confirmed project in the background, cancel it,
    or save its input set. Follow a run with its task or get_app_state, then get_results. A
    failed or timed-out run ends its task with an isError result (calculation_failed,
    calculation_timed_out) holding NWChem's error line. With a progressToken the task sends
    notifications/progress (SCF iteration, optimisation step, energy)."""
    state = ctx.state
    doc = state.document(args.documentId)
    with doc.lock:
        doc.check_revision(args.expectedRevision, allow_candidate=True)
        project = doc.project
        trusted = dict(doc.trusted)
    if args.action == "cancel":
        job = state.last_job.get(doc.id)
        if job is None or job.status in TERMINAL:
            job = _reattached_job(state)
        if job is None or job.status in TERMINAL:
            raise CalculationError("no_calculation")
        # The answer waits until the processes are gone and the record is written
        # (a few seconds at most: the grace period, then SIGKILL), rather than moving
        # the status to cancelled at once and reaping in the background: a new start
        # right after the answer is then accepted, and it never shares the machine's
        # cores, MPI shared memory or an absolute permanent_dir with a dying job.
        reporter = current_progress()
        if reporter is not None:
            reporter.report(progress_note(job, state.lang))
        job.cancel_and_wait()
        if reporter is not None:
            reporter.report(progress_note(job, state.lang), final=True)
        return _job_output(doc.id, "cancel", job)
    runs.check_run(
        project,
        trusted,
        policy=state.policy,
        actor=Actor.MCP_TOOL,
        action="start" if args.action == "start" else "save_inputs",
    )
    if args.action == "save_inputs":
        folder = state.jobs.save_input_set(project)
        record = json.loads((folder / "job.json").read_text(encoding="utf-8"))
        return CalculationOutput(
            documentId=doc.id,
            action="save_inputs",
            status=str(record.get("status", "queued")),
            jobDirectory=str(folder),
            job=record,
        )
    job = state.start_job(doc.id, project)
    doc_id = doc.id
    lang = state.lang

    def final() -> CalculationOutput:
        # A run NWChem failed (or the time limit stopped) is an error result carrying
        # NWChem's own error line, not a success whose status says failed.
        error = failure_error(job)
        if error is not None:
            raise error
        # Where its results load (they load by themselves when the run ends).
        return _job_output(
            doc_id,
            "start",
            job,
            app={
                "calculation": calculation_state(ctx, doc_id),
                "results": ctx.state.results_after_job(doc_id, job),
            },
        )

    def cancel() -> None:
        job.cancel_and_wait()  # tasks/cancel answers once the job has ended (see above)

    return Background(
        result=_job_output(doc_id, "start", job),
        wait=job.wait,
        cancel=cancel,
        final=final,
        survives_exit=bool(job.is_batch),
        progress=lambda: progress_note(job, lang),
    )


class GetAppStateInput(ToolInput):
    documentId: str | None = Field(
        None, description="Limit calculation and results to one document (default: all)."
    )


class CalculationState(SparseOutput):
    """The current (or latest) calculation."""

    documentId: str | None = Field(
        description="The document that started it; null for a "
        "batch job this process re-attached to."
    )
    status: str = Field(description="queued, running, finished, failed, cancelled, timed_out.")
    jobDirectory: str = Field(description="The job folder.")
    record: dict[str, Any] = Field(description="The job record (as calculation's job).")
    progressMessage: str | None = Field(
        None,
        description="While queued or running: the progress in words (optimisation "
        "step of its maximum, SCF iteration, frequency displacement, energy), as the "
        "task's statusMessage and notifications/progress say it.",
    )
    error: dict[str, Any] | None = Field(
        None,
        description="When failed or timed_out: the error the calculation's task "
        "result carries (code calculation_failed or calculation_timed_out, message with "
        "NWChem's own error line, details: status, jobDirectory, exitCode, reason, output).",
    )


class TaskInfo(SparseOutput):
    """One task of the Tasks extension."""

    taskId: str = Field(description="Id for tasks/get.")
    status: str = Field(description="working, input_required, completed, failed, cancelled.")


class GetAppStateOutput(SparseOutput):
    """Documents, calculation, results, workers and pending GUI commands."""

    mode: str = Field(description="headless (--mcp) or gui (--mcp-gui).")
    documents: list[DocumentInfo] = Field(description="The documents (as list_documents).")
    calculation: CalculationState | None = Field(
        description="The current or latest calculation; null before any."
    )
    results: dict[str, dict[str, Any]] = Field(
        description="Per document id: results source, kind, counts, the load running or "
        "last failed; --mcp-gui: also playingMode (the mode the Results tab animates) and "
        "shownStructure (the structure it shows), 0-based or null."
    )
    workers: list[dict[str, Any]] = Field(
        description="Work running in the background: kind (calculation, results_load, and "
        "in the window history_scan, cleanup, smiles), documentId, status."
    )
    tasks: list[TaskInfo] = Field(description="Tasks of the Tasks extension.")
    pendingGuiCommands: list[dict[str, Any]] = Field(
        description="Window commands queued or running (--mcp-gui), oldest first."
    )
    dialogs: list[dict[str, Any]] | None = Field(
        None, description="Message boxes and file dialogs the window shows (--mcp-gui)."
    )


def app_state(ctx: ToolContext, doc_id: str | None = None) -> dict[str, Any]:
    """The whole get_app_state answer (also the ``molforma://app/state`` resource)."""
    state = ctx.state
    docs = [doc_info(d) for d in list(state.documents.values()) if doc_id is None or d.id == doc_id]
    results: dict[str, Any] = {}
    workers: list[dict[str, Any]] = []
    for did, sess in state.result_sessions():
        if doc_id is not None and did != doc_id:
            continue
        results[did] = sess.state()
        loading = sess.loading
        if loading is not None:
            workers.append({"kind": "results_load", "documentId": did, **loading.to_dict()})
    workers.extend(cleanup_workers(doc_id))  # headless move_atoms clean-ups running now
    calc = calculation_state(ctx, doc_id)
    if calc is not None and calc["status"] in ("queued", "running"):
        workers.append(
            {
                "kind": "calculation",
                "documentId": calc["documentId"],
                "status": calc["status"],
                "jobDirectory": calc["jobDirectory"],
            }
        )
    tasks = [{"taskId": t.task_id, "status": t.status} for t in state.tasks.all()]
    pending: list[dict[str, Any]] = []
    out: dict[str, Any] = {"mode": state.mode}
    bridge = state.window
    if bridge is not None:
        # What the Results tab shows goes beside its document's results (window only).
        view_of = getattr(bridge, "results_view", None)
        view = view_of() if view_of is not None and results else {}
        for entry in results.values():
            entry.update(view)
        workers.extend(bridge.workers())
        pending = [r.to_dict(state.lang) for r in bridge.commands.pending()]
        out["dialogs"] = [d.to_dict() for d in bridge.dialogs()]
    out.update(
        {
            "documents": docs,
            "calculation": calc,
            "results": results,
            "workers": workers,
            "tasks": tasks,
            "pendingGuiCommands": pending,
        }
    )
    return out


@tool("get_app_state", title="Get app state", read_only=True, idempotent=True)
def get_app_state(ctx: ToolContext, args: GetAppStateInput) -> GetAppStateOutput:
    """Read the program state: documents, the calculation (status, directory, progress),
    results source and loading, running workers and pending GUI commands."""
    if args.documentId is not None:
        ctx.state.document(args.documentId)
    return GetAppStateOutput.model_validate(app_state(ctx, args.documentId))
