"""Taking a past job back into the editor (no Qt; application layer).

docs/reference/safety.md, Trusted values: a reused job's executable, launcher, environment and extra input
are not the person's own choice, so reusing never makes them trusted and a Run asks
before using them. A folder MCP makes the window read must lie in the allowed
directories; the person's own choice is not limited. Whoever acts, History reads only
a job folder's own files, never through a link (:mod:`molforma.history.jobdir`); when
MCP acts the folder itself is opened through the policy, so a folder swapped for a
link after the check is judged where it really is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from molforma.app import ops
from molforma.app.actor import Actor, check_path
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.app.app_state import AppState
    from molforma.app.policy import ReadGuard
    from molforma.document.document import Origin
    from molforma.history import folder_scan
else:  # imported on first use (start-up time): molforma.lazy
    folder_scan = lazy_import("molforma.history.folder_scan")


def _guard(app: AppState, actor: Actor) -> ReadGuard | None:
    """The policy's read guard when MCP acts (the person's own actions are not limited)."""
    policy = app.policy
    return policy.read_guard() if policy is not None and actor.is_mcp else None


def reuse_job(
    app: AppState,
    folder: str,
    *,
    geometry: Literal["input", "final"],
    actor: Actor,
    expected_revision: str | None = None,
    preview: bool = False,
) -> dict[str, Any]:
    """Load the molecule and conditions of job ``folder`` (one undo step "Reuse job");
    ``geometry="final"`` takes the last structure of its output instead of the input.

    Raises:
        FileAccessError: outside the allowed directories (MCP), not a job folder.
        MolFormaError: the snapshot or input is broken; the document is unchanged.
    """
    checked = check_path(app.policy, folder, actor, must_exist=True)
    project = folder_scan.reuse(checked, geometry, guard=_guard(app, actor))
    # "system" for the person: recorded as not their own values; MCP's stays MCP's.
    origin: Origin = "mcp" if actor.is_mcp else "system"
    return app.document.load(
        project,
        label="Reuse job",
        expected_revision=expected_revision,
        preview=preview,
        origin=origin,
    )


def use_final_structure(
    app: AppState,
    folder: str,
    *,
    actor: Actor,
    expected_revision: str | None = None,
    preview: bool = True,
) -> dict[str, Any]:
    """Propose the final structure of job ``folder`` as a candidate (the conditions stay);
    atoms keep their ids when the elements match.

    Raises:
        FileAccessError: outside the allowed directories (MCP), not a job folder.
        MolFormaError: no structure in the output, or a document rule is broken.
    """
    checked = check_path(app.policy, folder, actor, must_exist=True)
    symbols, coordinates = folder_scan.final_structure(checked, _guard(app, actor))
    return ops.use_structure(
        app.document,
        symbols,
        coordinates,
        label="Use final structure",
        expected_revision=expected_revision,
        preview=preview,
        actor=actor,
    )
