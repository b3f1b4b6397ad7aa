"""May this calculation run? One answer for the Run button and the ``calculation`` tool
(no Qt; application layer).

docs/reference/safety.md, Trusted values: a calculation MCP starts (a tool call, or a Run pressed by a window
command) runs only with the protected values the person trusts, unless
``--mcp-allow-execution-settings``, and writes its job folder and advanced paths only
inside the allowed directories, never in the configuration directory. The person's
own Run is not limited by the allowed directories; with untrusted values it asks
the person first (the window shows that question).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from molforma.app.actor import Actor
from molforma.errors import CalculationError, FileAccessError
from molforma.i18n import register
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.app import policy as app_policy
    from molforma.app.policy import Policy
    from molforma.document import document
    from molforma.document.document import Document
    from molforma.jobs import folders as job_folders
    from molforma.jobs import job_setup
    from molforma.nwchem import input as nwchem_input
    from molforma.nwchem import settings as nwchem_settings
else:  # imported on first use (start-up time): molforma.lazy
    app_policy = lazy_import("molforma.app.policy")
    document = lazy_import("molforma.document.document")
    job_folders = lazy_import("molforma.jobs.folders")
    job_setup = lazy_import("molforma.jobs.job_setup")
    nwchem_input = lazy_import("molforma.nwchem.input")
    nwchem_settings = lazy_import("molforma.nwchem.settings")

register(
    {
        "job_root_not_allowed": {
            "en": "The job root '{path}' (execution setting job_root, where job folders are "
            "written) is outside the directories MCP may use ({allowed}). Set job_root "
            "with set_execution to a folder inside one of them.",
            "ja": "ジョブルート「{path}」（実行設定 job_root、ジョブフォルダーの作成先）はMCPが"
            "使えるディレクトリ（{allowed}）の外にあります。set_execution で job_root を"
            "その中のフォルダーに設定してください。",
        },
    }
)


def check_folders(project: Mapping[str, Any], policy: Policy | None, actor: Actor) -> None:
    """The job root and the path-valued advanced settings against the allowed
    directories, when MCP acts.

    Raises:
        FileAccessError: ``job_root_not_allowed`` (names the setting to change),
            ``path_in_config_dir``, ``path_not_allowed`` for an advanced path, ...
    """
    if policy is None or not actor.is_mcp:
        return
    execution = nwchem_settings.ExecutionSettings.model_validate(project.get("execution", {}))
    root = str(job_setup.job_root(execution))
    try:
        policy.check_path(root, for_write=True)
    except FileAccessError as exc:
        if exc.code != "path_not_allowed":
            raise
        # The path came from a setting, not from this call: name the setting to change.
        raise FileAccessError(
            "job_root_not_allowed",
            path=root,
            setting="job_root",
            allowed=[str(d) for d in policy.allow_dirs],
        ) from exc
    policy.check_advanced_paths(project.get("advanced", {}), job_root=root)


def check_inputs(project: Mapping[str, Any]) -> None:
    """The input problems that would stop NWChem (theory, basis coverage, parity,
    scratch folders), the same test the job runner makes before writing anything.

    Raises:
        CalculationError: ``input_invalid`` with ``problems`` (each with a ``message``).
    """
    import molforma.jobs.job_setup  # noqa: F401 - registers the text of input_invalid

    problems = nwchem_input.input_errors(project) + job_folders.folder_problems(project)
    if problems:
        summary = "; ".join(p["message"] for p in problems)
        raise CalculationError("input_invalid", summary=summary, problems=problems)


def check_run(
    project: Mapping[str, Any],
    trusted: Mapping[str, Any],
    *,
    policy: Policy | None,
    actor: Actor,
    action: Literal["start", "save_inputs"] = "start",
) -> bool:
    """Whether ``project`` may start (or have its input set saved) for ``actor``.

    Args:
        project: The confirmed project that will run (a snapshot).
        trusted: The document's trusted protected values at the same moment.
        policy: The launch policy (None in the plain window).
        actor: Who asks.
        action: ``save_inputs`` writes the job folder only: no trust needed.

    Returns:
        True when the person must confirm the protected values first (their own Run
        with values they did not set); False when it may go ahead.

    Raises:
        CalculationError: ``untrusted_execution`` when MCP asks with untrusted values;
            ``input_invalid`` with ``problems`` when NWChem could not run the input.
        FileAccessError: a folder outside the allowed directories (MCP only).
    """
    values = document.protected_values(dict(project))
    if action == "start" and actor.is_mcp:
        # --mcp-allow-execution-settings lifts the rule for the calculation tool only: a
        # Run pressed by a window command would need the private confirmation, which
        # only the person answers.
        rules = policy if policy is not None and actor is Actor.MCP_TOOL else app_policy.Policy()
        app_policy.may_start(values, trusted, rules, "mcp")
    check_folders(project, policy, actor)
    check_inputs(project)
    # The same test as Document.is_trusted, on the snapshot that will run.
    return action == "start" and not actor.is_mcp and values != dict(trusted)


def trust_confirmed(doc: Document, project: Mapping[str, Any], revision: str) -> bool:
    """The person answered Yes to running ``project``, the snapshot taken at ``revision``:
    its protected values become trusted, unless the document moved on meanwhile (MCP
    keeps working while the question is open), and then nothing is trusted.

    Returns:
        True when trusted (the run may go ahead with ``project``).
    """
    with doc.lock:
        if doc.revision != revision:
            return False
        doc.trusted = document.protected_values(dict(project))
        return True
