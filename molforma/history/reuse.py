"""One row of the history: its job folder opened, previewed and reused (no Qt).

Only the folder's own files are read, never through a link (see
:mod:`molforma.history.folder_scan` for what a job folder is).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from molforma.errors import FileAccessError, FormatError
from molforma.fileio import read_limited
from molforma.history import nwfiles
from molforma.history.jobdir import JobDir, read_quietly
from molforma.history.records import JOB_RECORD, PROJECT_SNAPSHOT, is_job_folder, read_record
from molforma.i18n import register
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma import formats
    from molforma.document import envelope
    from molforma.formats import common as formats_common
    from molforma.formats import computed
    from molforma.results import reader as results_reader
else:  # imported on first use (start-up time): molforma.lazy
    envelope = lazy_import("molforma.document.envelope")
    formats = lazy_import("molforma.formats")  # the formats package is heavier
    formats_common = lazy_import("molforma.formats.common")
    computed = lazy_import("molforma.formats.computed")
    results_reader = lazy_import("molforma.results.reader")

__all__ = ["final_structure", "job_folder_listing", "open_job_folder", "preview", "reuse"]

register(
    {
        "history_not_job_folder": {
            "en": "'{path}' is not a job folder (no job.json, NWChem input/output or project).",
            "ja": "「{path}」はジョブフォルダではありません（job.json、NWChem の入出力、"
            "プロジェクトのいずれもありません）。",
        },
        "history_no_final_structure": {
            "en": "'{path}' has no computed structure to take: its output holds no geometry.",
            "ja": "「{path}」には取り出せる計算後の構造がありません（出力に構造がありません）。",
        },
        "history_nothing_to_reuse": {
            "en": "'{path}' holds neither a project snapshot nor an NWChem input to reuse.",
            "ja": "「{path}」には再利用できるプロジェクトも NWChem 入力もありません。",
        },
    }
)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def open_job_folder(folder: str, guard: Any | None = None) -> tuple[JobDir, list[str]]:
    """The job folder opened (close it, or use it as a context manager) and its names.

    ``guard`` (MCP's path policy) opens the folder and judges where it really is.

    Raises:
        FileAccessError: ``history_not_job_folder`` (missing, not a directory, or no job
            files in it); the guard's refusal (``path_not_allowed``, ...).
    """
    path = os.path.abspath(os.path.expanduser(folder))
    try:
        job = JobDir(path, guard)
    except FileAccessError as exc:
        if exc.code in ("path_not_allowed", "path_in_config_dir", "dangling_link", "path_too_long"):
            raise
        raise FileAccessError("history_not_job_folder", path=folder) from None
    except OSError:
        raise FileAccessError("history_not_job_folder", path=folder) from None
    names = job.names()
    if names is None or not is_job_folder(names):
        job.close()
        raise FileAccessError("history_not_job_folder", path=folder)
    return job, names


def job_folder_listing(folder: str, guard: Any | None = None) -> tuple[str, list[str]]:
    """The absolute path of a job folder and its file names.

    Raises:
        FileAccessError: as :func:`open_job_folder`.
    """
    job, names = open_job_folder(folder, guard)
    job.close()
    return job.path, names


def preview(folder: str, *, chars: int = 20_000, guard: Any | None = None) -> dict[str, Any]:
    """The input, the end of the log and the job record of one job folder.

    Only ``chars`` characters of each file are read (the start of the input, the
    end of the log), so selecting a row with a huge output stays instant. Only the
    folder's own files are read: a link in it shows as no file (see the module text).

    Returns:
        ``{"folder", "input", "inputFile", "inputTruncated", "log", "logFile",
        "logTruncated", "record"}``; missing files give ``""`` / None.

    Raises:
        FileAccessError: ``history_not_job_folder``; ``guard``'s refusal.
    """
    job, names = open_job_folder(folder, guard)
    with job:
        path = job.path
        chars = max(0, int(chars))
        nw, out = nwfiles.pick_files(names)
        # UTF-8 needs at most 4 bytes a character, so 4*chars bytes always hold chars
        # characters.
        limit = 4 * chars + 4
        text, in_trunc = "", False
        if nw:
            raw = read_quietly(job, nw, lambda fh: nwfiles.read_head(fh, limit=limit), "")
            text = raw[:chars]
            in_trunc = len(raw) > chars or job.size(nw) > limit
        log, log_trunc = "", False
        if out:
            tail = read_quietly(
                job, out, lambda fh: nwfiles.read_tail(fh, limit=limit), b""
            ).decode("utf-8", errors="replace")
            log = tail[-chars:] if chars else ""
            log_trunc = len(tail) > chars or job.size(out) > limit
        record = read_record(job) if JOB_RECORD in names else None
    return {
        "folder": path,
        "input": text,
        "inputFile": os.path.join(path, nw) if nw else None,
        "inputTruncated": in_trunc,
        "log": log,
        "logFile": os.path.join(path, out) if out else None,
        "logTruncated": log_trunc,
        "record": record,
    }


def _project_from_structure(structure: Any, title: str) -> dict[str, Any]:
    """A new project holding what an NWChem input gave: molecule and conditions."""
    proj = envelope.new_project()
    formats.apply_structure(proj, structure, merge_advanced=True)
    if not proj["document"].get("title"):
        proj["document"]["title"] = title
    envelope.check_structure(proj)
    envelope.check_settings(proj)
    return proj


def final_structure(folder: str, guard: Any | None = None) -> tuple[list[str], list[list[float]]]:
    """Symbols and coordinates (Å) of the last structure of a job's output (the final
    optimised one for an optimisation), read with the results reader, in the frame and
    atom order of the job's input.

    Raises:
        FileAccessError: ``history_not_job_folder`` or ``history_no_final_structure``.
        ResultsError: the output cannot be read (no result file, too large, ...).
    """
    job, _names = open_job_folder(folder, guard)
    with job:
        # Only the folder's own files: a linked output is refused, not followed.
        res = results_reader.read_results(job.path, guard=job.read_guard(guard))
    if not res.structures:
        raise FileAccessError("history_no_final_structure", path=folder)
    last = res.structures[-1]
    return list(last.symbols), [list(c) for c in last.coordinates]


def reuse(
    folder: str, geometry: Literal["input", "final"] = "input", *, guard: Any | None = None
) -> dict[str, Any]:
    """A project envelope to load as a new project state: molecule and conditions.

    ``geometry="final"`` puts the last structure of the job's output
    (:func:`final_structure`) in place of the input geometry: the atoms keep their ids
    when the elements match the snapshot, as :func:`molforma.formats.computed.place_structure`
    does.

    The job's project snapshot (``project.molforma.json``) wins; without one the
    NWChem input is read (structure, charge, multiplicity, common conditions). The
    protected values of a reused project (executable, extra input, ...) are not
    trusted: :func:`molforma.app.policy.may_start` still guards an MCP start. Only the
    folder's own files are read: a snapshot or input that is a link is refused
    (``history_linked_file``), never followed. ``guard`` (MCP's path policy) opens the
    folder itself.

    Raises:
        FileAccessError: ``history_not_job_folder``, ``history_nothing_to_reuse``,
            ``history_linked_file``, an unreadable file, or ``guard``'s refusal.
        FormatError, ValidationError: the snapshot or the input is broken.
    """
    if geometry == "final":
        symbols, coordinates = final_structure(folder, guard)
        project = reuse(folder, "input", guard=guard)
        computed.place_structure(project, symbols, coordinates)
        envelope.check_structure(project)
        return project
    job, names = open_job_folder(folder, guard)
    with job:
        return _reuse_input(job, names, folder)


def _reuse_input(job: JobDir, names: list[str], folder: str) -> dict[str, Any]:
    if PROJECT_SNAPSHOT in names:
        with job.open(PROJECT_SNAPSHOT) as fh:
            text = read_limited(fh, job.join(PROJECT_SNAPSHOT)).decode("utf-8", "replace")
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise FormatError(format="project", where="", reason=str(exc)) from exc
        return envelope.project_from_json(data, source=PROJECT_SNAPSHOT)
    nw, _ = nwfiles.pick_files(names)
    if nw is None:
        raise FileAccessError("history_nothing_to_reuse", path=folder)
    with job.open(nw) as fh:
        text = read_limited(fh, job.join(nw)).decode("utf-8", "replace")
    structure = formats.read_text(text, "nwchem", source=job.join(nw))
    if isinstance(structure, dict):  # read_text gives a whole project only for projects
        return envelope.project_from_json(structure, source=nw)
    if isinstance(structure, formats_common.Structure) and not structure.title:
        structure.title = nw.split(".", 1)[0] or None  # as reading the file names it
    record = read_record(job) if JOB_RECORD in names else None
    title = _text((record or {}).get("title")) or Path(nw).stem
    return _project_from_structure(structure, title)
