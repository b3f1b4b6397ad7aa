"""What a job's end and its live progress mean to a caller (no Qt).

Two readings of a job (a :class:`~molforma.jobs.runner.Job` or its record as a dict),
shared by the MCP tools and the window, so both modes tell the same thing:

- :func:`failure_error`: the error a failed or timed-out run is, carrying NWChem's
  own error line; None when the run finished or was cancelled (docs/reference/jobs.md, States).
- :func:`progress_note`: the progress shown while it runs (SCF iteration, optimisation
  step of the maximum, frequency displacement, energy) as ``{"progress", "total",
  "message"}`` for ``notifications/progress`` and a task's ``statusMessage``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from molforma.errors import CalculationError
from molforma.i18n import register, render
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.nwchem import progress as nwchem_progress
else:  # imported on first use (start-up time): molforma.lazy
    nwchem_progress = lazy_import("molforma.nwchem.progress")

register(
    {
        "calculation_failed": {
            "en": "The calculation failed (exit code {exitCode}): {reason}. NWChem's output is in "
            "{output}; fix the cause (the settings, the structure or the basis) and start "
            "it again.",
            "ja": "計算が失敗しました（終了コード {exitCode}）: {reason}。NWChem の出力は {output} "
            "にあります。原因（設定、構造、基底関数）を直してから再度開始してください。",
        },
        "calculation_timed_out": {
            "en": "The calculation was stopped at its time limit ({reason}). NWChem's output so far "
            "is in {output}; raise the time limit or make the calculation smaller.",
            "ja": "計算は制限時間で停止されました（{reason}）。それまでの NWChem の出力は {output} "
            "にあります。制限時間を延ばすか、計算を小さくしてください。",
        },
        "progress_queued": {
            "en": "Calculation queued in {folder}",
            "ja": "計算は待機中です（{folder}）",
        },
        "progress_started": {
            "en": "Calculation running in {folder}",
            "ja": "計算を実行中です（{folder}）",
        },
        "progress_opt_step": {
            "en": "Optimisation step {step} of at most {maximum}",
            "ja": "構造最適化ステップ {step}（最大 {maximum}）",
        },
        "progress_scf_iteration": {
            "en": "SCF iteration {iteration}",
            "ja": "SCF 反復 {iteration}",
        },
        "progress_scf_iteration_of": {
            "en": "SCF iteration {iteration} of at most {maximum}",
            "ja": "SCF 反復 {iteration}（最大 {maximum}）",
        },
        "progress_displacement": {
            "en": "frequency displacement {n} of {total}",
            "ja": "振動数計算の変位 {n}/{total}",
        },
        "progress_frequencies": {
            "en": "Frequencies (Hessian)",
            "ja": "振動数計算（ヘシアン）",
        },
        "progress_excited_states": {
            "en": "Excited states (TDDFT)",
            "ja": "励起状態（TDDFT）",
        },
        "progress_reaction_path": {
            "en": "Reaction path (IRC)",
            "ja": "反応経路（IRC）",
        },
        "progress_roots": {
            "en": "{n} roots found",
            "ja": "{n} 個の励起状態を得ました",
        },
        "progress_energy": {
            "en": "energy {energy} Eh",
            "ja": "エネルギー {energy} Eh",
        },
        "progress_ended": {
            "en": "Calculation {status}",
            "ja": "計算終了: {status}",
        },
    }
)

# NWChem's numerical Hessian displaces each Cartesian coordinate both ways.
_DISPLACEMENTS_PER_ATOM = 6
_SEPARATOR = " · "


def _record(job_or_record: Any) -> dict[str, Any]:
    if isinstance(job_or_record, Mapping):
        return dict(job_or_record)
    return dict(job_or_record.snapshot())


def _folder(job_or_record: Any, record: Mapping[str, Any]) -> Path | None:
    folder = getattr(job_or_record, "folder", None)
    if folder is not None:
        return Path(folder)
    value = record.get("jobDirectory") or record.get("folder")
    return Path(value) if isinstance(value, str) and value else None


def failure_error(job_or_record: Any) -> CalculationError | None:
    """The error a failed or timed-out run is; None while it runs or when it finished
    or was cancelled.

    The message carries NWChem's own error line (the job record's ``error``: the line
    NWChem prints in its error block, else the MPI/ARMCI reason from stderr, else the
    exit code) and names the output file; ``details`` hold ``status``,
    ``jobDirectory``, ``exitCode``, ``reason``, ``output`` and the convergence flags,
    so a caller can act on them without parsing the sentence.

    Args:
        job_or_record: A job (anything with ``snapshot()`` and ``folder``) or a job
            record (``job.json`` as a dict, optionally with ``jobDirectory``).
    """
    record = _record(job_or_record)
    status = record.get("status")
    if status not in ("failed", "timed_out"):
        return None
    folder = _folder(job_or_record, record)
    output = str(folder / "output.out") if folder is not None else "output.out"
    rc = record.get("exitCode")
    reason = str(record.get("error") or "").strip()
    if not reason:
        reason = f"exit code {rc}" if rc is not None else str(status)
    code = "calculation_failed" if status == "failed" else "calculation_timed_out"
    return CalculationError(
        code,
        status=status,
        jobDirectory=str(folder) if folder is not None else None,
        exitCode=rc,
        reason=reason,
        output=output,
        scfConverged=record.get("scfConverged"),
        optimizationConverged=record.get("optimizationConverged"),
    )


def _limits(job_or_record: Any, record: Mapping[str, Any]) -> dict[str, Any]:
    """What the run counts up to (see :func:`molforma.nwchem.progress.progress_limits`).

    Read once from the job folder's project snapshot and kept on the job object.
    """
    cached = getattr(job_or_record, "_molforma_progress_limits", None)
    if isinstance(cached, dict):
        return cached
    limits: dict[str, Any] = {"kind": None, "maximum": None, "atoms": None}
    folder = _folder(job_or_record, record)
    project: Any = None
    if folder is not None:
        try:
            with (folder / "project.molforma.json").open("rb") as fh:
                project = json.loads(fh.read(64 * 1024 * 1024))
        except (OSError, ValueError):
            project = None
    if not isinstance(project, dict):
        project = {"calculation": {"task": record.get("task"), "theory": record.get("theory")}}
    with contextlib.suppress(TypeError, AttributeError):
        limits.update(nwchem_progress.progress_limits(project))
    atoms = (
        (project.get("document") or {}).get("atoms")
        if isinstance(project.get("document"), dict)
        else None
    )
    limits["atoms"] = len(atoms) if isinstance(atoms, list) else None
    if not isinstance(job_or_record, Mapping):
        with contextlib.suppress(AttributeError):
            job_or_record._molforma_progress_limits = limits
    return limits


def _energy(value: Any) -> str | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and value == value:
        return f"{float(value):.6f}"
    return None


def progress_note(job_or_record: Any, lang: str | None = None) -> dict[str, Any]:
    """The progress of a job as a notification would carry it.

    Returns ``{"progress": n, "message": text}`` and ``"total"`` when the run counts up
    to a known number. ``progress`` only grows while the job runs (the number of
    progress changes read from its output); an ended job gives ``total == progress``.
    The message names the optimisation step of its maximum, the SCF iteration, the
    frequency displacement and the latest energy, in the display language.
    """
    record = _record(job_or_record)
    status = str(record.get("status") or "queued")
    raw = record.get("progress")
    prog: dict[str, Any] = raw if isinstance(raw, dict) else {}
    updates = prog.get("updates") if isinstance(prog.get("updates"), int) else 0
    folder = _folder(job_or_record, record)
    parts: list[str] = []
    if status in ("failed", "timed_out", "finished", "cancelled"):
        parts.append(render("progress_ended", {"status": status}, lang))
        if status in ("failed", "timed_out") and record.get("error"):
            parts.append(str(record["error"]))
    elif status == "queued" or (not updates and status != "running"):
        parts.append(render("progress_queued", {"folder": str(folder or "")}, lang))
    limits = _limits(job_or_record, record)
    step = prog.get("optimizationStep")
    iteration = prog.get("scfIteration")
    shown = False
    if isinstance(step, int) and limits.get("kind") == "optimization":
        # NWChem numbers its steps from 0 ("@ 0" is the starting geometry).
        parts.append(
            render("progress_opt_step", {"step": step + 1, "maximum": limits.get("maximum")}, lang)
        )
        shown = True
    displaced = prog.get("frequencyDisplacement")
    if prog.get("frequencies") is True and status == "running":
        parts.append(render("progress_frequencies", None, lang))
    if prog.get("reactionPath") is True and status == "running":
        parts.append(render("progress_reaction_path", None, lang))
    if prog.get("excitedStates") is True and status == "running":
        parts.append(render("progress_excited_states", None, lang))
        shown = True
        if isinstance(prog.get("roots"), int):
            parts.append(render("progress_roots", {"n": prog["roots"]}, lang))
    if isinstance(displaced, int) and displaced > 0:
        atoms = limits.get("atoms")
        total = atoms * _DISPLACEMENTS_PER_ATOM if isinstance(atoms, int) and atoms else "?"
        parts.append(render("progress_displacement", {"n": displaced, "total": total}, lang))
        shown = True
    elif isinstance(iteration, int) and status == "running" and not prog.get("excitedStates"):
        if limits.get("kind") == "scf" and not shown:
            parts.append(
                render(
                    "progress_scf_iteration_of",
                    {"iteration": iteration, "maximum": limits.get("maximum")},
                    lang,
                )
            )
        else:
            parts.append(render("progress_scf_iteration", {"iteration": iteration}, lang))
        shown = True
    energy = _energy(prog.get("energy"))
    if status == "finished" and _energy(record.get("finalEnergy")) is not None:
        energy = _energy(record.get("finalEnergy"))
    if energy is not None:
        parts.append(render("progress_energy", {"energy": energy}, lang))
    if status == "running" and not shown and energy is None:
        parts.append(render("progress_started", {"folder": str(folder or "")}, lang))
    note: dict[str, Any] = {"progress": updates, "message": _SEPARATOR.join(parts)}
    if status in ("failed", "timed_out", "finished", "cancelled"):
        note["total"] = updates
    return note
