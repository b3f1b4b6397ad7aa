"""Checks of the folders a job needs: the job root and NWChem's work directories (no Qt).

A relative job root would put job folders wherever MolForma happened to be started
(and History would look somewhere else the next time), so it is refused; ``~`` is
fine. An absolute ``scratch_dir`` or ``permanent_dir`` of the advanced settings must
exist: NWChem stops at once with a terse "scratch directory not accessible" when it
does not, and creating a folder elsewhere on the disk on the person's behalf would
hide a typing mistake. A relative one is made inside the job folder by the runner.

The same checks serve the Execution tab, MCP ``set_execution`` / ``set_advanced``
(through :mod:`molforma.app.ops`), a Run or start (:func:`molforma.jobs.runner`)
and ``validate_document``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from molforma.errors import ValidationError
from molforma.i18n import register, render

WORK_DIR_KEYS: tuple[str, ...] = ("scratch_dir", "permanent_dir")

register(
    {
        "job_root_relative": {
            "en": "The job root '{path}' is a relative path: give a full path (for example "
            "~/molforma-jobs or /home/me/jobs), so the jobs do not land wherever MolForma "
            "was started.",
            "ja": "ジョブルート「{path}」は相対パスです。MolForma を起動した場所にジョブが"
            "作られないよう、完全なパス（例: ~/molforma-jobs や /home/me/jobs）を指定してください。",
        },
        "job_root_empty": {
            "en": "The job root is empty: give the folder where job folders are made.",
            "ja": "ジョブルートが空です。ジョブフォルダを作るフォルダを指定してください。",
        },
        "work_dir_missing": {
            "en": "The {key} folder '{path}' does not exist: create it first, or give a relative "
            "name to have it made inside each job folder.",
            "ja": "{key} のフォルダ「{path}」が存在しません。先に作成するか、相対名を指定して"
            "各ジョブフォルダの中に作らせてください。",
        },
        "work_dir_not_folder": {
            "en": "The {key} path '{path}' is not a folder.",
            "ja": "{key} のパス「{path}」はフォルダではありません。",
        },
    }
)


def check_job_root(value: Any) -> None:
    """Refuse an empty or relative job root (``~`` and ``~/...`` count as absolute).

    Raises:
        ValidationError: ``job_root_empty`` or ``job_root_relative`` (``path``).
    """
    text = str(value or "").strip()
    if not text:
        raise ValidationError("job_root_empty", key="job_root")
    if not os.path.isabs(os.path.expanduser(text)):
        raise ValidationError("job_root_relative", key="job_root", path=text)


def work_dir_problem(key: str, value: Any) -> ValidationError | None:
    """Why the advanced ``key`` folder ``value`` cannot be used, or None."""
    if not isinstance(value, str) or not value.strip():
        return None
    path = os.path.expanduser(value.strip())
    if not os.path.isabs(path):
        return None  # made inside the job folder
    if not os.path.exists(path):
        return ValidationError("work_dir_missing", key=key, path=value)
    if not os.path.isdir(path):
        return ValidationError("work_dir_not_folder", key=key, path=value)
    return None


def check_work_dirs(advanced: Mapping[str, Any]) -> None:
    """Refuse a missing absolute scratch or permanent directory.

    Raises:
        ValidationError: ``work_dir_missing`` or ``work_dir_not_folder`` (``key``, ``path``).
    """
    for key in WORK_DIR_KEYS:
        if key in advanced:
            problem = work_dir_problem(key, advanced[key])
            if problem is not None:
                raise problem


def folder_problems(project: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every folder problem of ``project`` as ``{field, code, message, details}``
    (the form of :func:`molforma.nwchem.input.input_errors`)."""
    problems: list[dict[str, Any]] = []
    execution = project.get("execution") or {}
    if "job_root" in execution:
        try:
            check_job_root(execution.get("job_root"))
        except ValidationError as exc:
            problems.append(_as_problem("execution.job_root", exc))
    advanced = project.get("advanced") or {}
    for key in WORK_DIR_KEYS:
        problem = work_dir_problem(key, advanced.get(key))
        if problem is not None:
            problems.append(_as_problem(f"advanced.{key}", problem))
    return problems


def _as_problem(field: str, exc: ValidationError) -> dict[str, Any]:
    return {
        "field": field,
        "code": exc.code,
        "message": render(exc.code, dict(exc.data)),
        "details": dict(exc.data),
    }


__all__ = [
    "WORK_DIR_KEYS",
    "check_job_root",
    "check_work_dirs",
    "folder_problems",
    "work_dir_problem",
]
