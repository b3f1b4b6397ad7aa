"""Opening files and starting projects, with the trust rules (no Qt; application layer).

docs/reference/files.md, What a load replaces, and docs/reference/safety.md, Trusted values: a project file replaces everything (one undo step), a
structure file replaces atoms and bonds; neither makes its protected values
(executable, launcher, environment, extra input) trusted. Only the file given at
launch is trusted, as the person named it themselves. A path MCP makes the window
open is checked against the allowed directories, and the file is then read through
the policy (:func:`molforma.fileio.guarded_files`), so the file read is the file
judged even if a folder on its path is swapped for a link after the check; the
person's own opens are not limited.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from molforma.app import document_files
from molforma.app.actor import Actor, check_path
from molforma.app.document_files import Opened as Opened
from molforma.app.document_files import Reader as Reader
from molforma.app.document_files import opens_as_results as opens_as_results
from molforma.document.document import Document, EditResult
from molforma.document.envelope import atoms_of, check_settings, check_structure, clone_project
from molforma.document.envelope import new_project as new_envelope_project
from molforma.errors import FileAccessError
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma import fileio, formats
    from molforma.app.app_state import AppState
    from molforma.app.policy import Policy
    from molforma.document.envelope import Project
    from molforma.formats.common import Structure
    from molforma.nwchem import settings as nwchem_settings
    from molforma.preferences import Preferences
else:  # imported on first use (start-up time): molforma.lazy
    fileio = lazy_import("molforma.fileio")
    formats = lazy_import("molforma.formats")
    nwchem_settings = lazy_import("molforma.nwchem.settings")


@contextlib.contextmanager
def judged_files(app: AppState, actor: Actor) -> Iterator[None]:
    """While MCP acts, the reads and atomic writes of :mod:`molforma.fileio` made inside
    (on this thread) go through the policy, check and use as one step; the person's own
    are left as they are. For window code that reads or writes by path for MCP (Save
    Project, exports): MolForma's own files (recent files, Preferences) belong outside
    the block, as MCP may never write the configuration directory."""
    policy = app.policy
    with fileio.guarded_files(policy.read_guard() if policy is not None and actor.is_mcp else None):
        yield


def _read_file(path: str) -> Any:
    return formats.read_file(path, None)


def open_path(
    app: AppState, path: str, *, actor: Actor, read: Reader | None = None
) -> Opened | None:
    """The window's Open (a click, a drop, a recent file, a window command of MCP):
    :func:`molforma.app.document_files.open_file` applied at once (not a candidate).

    Returns:
        What was opened (``results``: it belongs in the Results tab), or None when
        ``read`` says the person cancelled.

    Raises:
        FileAccessError: ``path_not_allowed`` and the like, when MCP acts.
        MolFormaError: the file cannot be read or breaks a document rule (the document
            is unchanged).
    """
    return document_files.open_file(app, path, actor=actor, preview=False, read=read)


def read_launch_file(path: str) -> Project | Structure:
    """Read the file given on the command line (a project or a structure), unchecked
    against any document: the window reads it before it loads Qt.

    Raises:
        MolFormaError: the file cannot be read.
    """
    return formats.read_file(str(path), None)


def launch_document(
    app: AppState, path: str, *, undo_limit: int | None, loaded: Project | Structure | None = None
) -> Document:
    """Make the file given on the command line the document (not an undo step).

    Its protected values become trusted: the person named the file at launch.
    ``loaded`` is what :func:`read_launch_file` read from ``path`` (read here when None).

    Raises:
        MolFormaError: the file cannot be read or breaks a document rule.
    """
    if loaded is None:
        loaded = read_launch_file(path)
    if isinstance(loaded, dict):
        doc = Document(loaded, path=str(Path(path).resolve()), undo_limit=undo_limit)
    else:
        work = clone_project(app.document.project)
        # read for this document alone: its atoms become the document's, uncopied, and what
        # the reader checked is not checked again
        checked = formats.apply_structure(work, loaded, merge_advanced=True, owned=True).checked
        check_structure(work, checked=checked)
        check_settings(work)
        doc = Document(work, undo_limit=undo_limit)
    doc.trust_current()
    app.set_document(doc)
    return doc


ALLOWED_JOB_ROOT_NAME = "molforma-jobs"


def default_job_root(prefs_root: str | None, policy: Policy | None) -> str | None:
    """The job root of a new document: the one the person saved (None: the settings'
    default, ``~/molforma-jobs``); with allowed directories (``--mcp-allow-dir``) one
    outside them is replaced by ``molforma-jobs`` in the first allowed directory, so a
    first calculation through MCP runs without a set_execution.
    """
    if policy is None or not policy.restricted:
        return prefs_root
    root = prefs_root or str(nwchem_settings.ExecutionSettings.model_fields["job_root"].default)
    try:
        policy.check_path(root, for_write=True)
    except (FileAccessError, OSError):
        return str(policy.allow_dirs[0] / ALLOWED_JOB_ROOT_NAME)
    return prefs_root


def fresh_project(prefs: Preferences, policy: Policy | None = None) -> Project:
    """A new project with the execution defaults and the job root the person saved (inside
    the allowed directories when ``policy`` restricts them, see :func:`default_job_root`)."""
    root = default_job_root(prefs.job_root, policy)
    extra = {"job_root": root} if root else {}
    return new_envelope_project(
        executable=prefs.executable,
        launcher=prefs.launcher,
        environment=dict(prefs.environment),
        scheduler=prefs.scheduler,
        account=prefs.account,
        batch_directives=list(prefs.batch_directives),
        **extra,
    )


def new_project(
    app: AppState, *, actor: Actor, expected_revision: str | None = None, preview: bool = False
) -> dict[str, Any]:
    """Start an empty project in the current document (the old one stays in the undo
    history); the trusted values stay the person's. As a candidate (``preview``) the
    document keeps its file until the candidate is confirmed."""
    doc = app.document
    trusted = dict(doc.trusted)
    out = doc.load(
        fresh_project(app.preferences, app.policy),
        label="New project",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
    )
    doc.trusted = trusted
    if not preview:
        doc.forget_path()
        doc.mark_saved(None)  # an empty project has nothing to save
    return out


def load_structure(
    app: AppState,
    path: str,
    *,
    actor: Actor,
    expected_revision: str | None = None,
    preview: bool = False,
    read: Reader = _read_file,
) -> dict[str, Any] | None:
    """Replace atoms and bonds from a structure or project file, keeping every setting
    (one undo step, "Load structure"); from a project file only its molecule (atoms,
    bonds, charge, multiplicity) is taken. None when ``read`` says the person cancelled.

    Raises:
        FileAccessError: the path is outside the allowed directories, when MCP acts.
        MolFormaError: the file cannot be read or breaks a document rule.
    """
    check_path(app.policy, path, actor)
    with judged_files(app, actor):
        loaded = read(path)
    if loaded is None:
        return None
    doc = app.document
    if isinstance(loaded, dict):
        src = loaded["document"]

        def take(work: Project) -> EditResult:
            old = [a["id"] for a in atoms_of(work)]
            d = work["document"]
            d["atoms"] = [dict(a) for a in src["atoms"]]
            d["bonds"] = [dict(b) for b in src["bonds"]]
            d["nextAtomId"] = max(int(d.get("nextAtomId", 1)), int(src.get("nextAtomId", 1)))
            for k in ("charge", "multiplicity"):
                d[k] = src.get(k, d.get(k))
            return EditResult(added=[a["id"] for a in d["atoms"]], removed=old)

        return doc.edit(
            take,
            label="Load structure",
            expected_revision=expected_revision,
            preview=preview,
            origin=actor.origin,
        )
    return doc.edit(
        lambda work: formats.apply_structure(work, loaded),
        label="Load structure",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
    )
