"""The resources, prompts and tasks methods of the server (no Qt).

Each is a plain function of the services and the request, so the server's method table
maps a method name to its handler (MCP SDK ``lowlevel/server.py``). ``resources/list``,
``resources/templates/list`` and ``prompts/list`` have one page: any cursor is invalid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from molforma.mcp import protocol as P
from molforma.mcp.protocol import Request, RpcError

if TYPE_CHECKING:
    from molforma.mcp.state import AppServices
    from molforma.mcp.tasks import Task


def check_cursor(params: dict[str, Any]) -> None:
    """Refuse any cursor: one page holds everything, so no cursor of ours exists.

    Raises:
        RpcError: ``INVALID_PARAMS`` naming the cursor.
    """
    if "cursor" in params and params["cursor"] is not None:
        raise RpcError(
            P.INVALID_PARAMS, "Invalid params: unknown cursor", {"cursor": params["cursor"]}
        )


def resources_list(state: AppServices, req: Request) -> dict[str, Any]:
    """``resources/list``."""
    from molforma.mcp import resources

    check_cursor(req.params)
    return {"resources": resources.list_resources(state)}


def templates_list(state: AppServices, req: Request) -> dict[str, Any]:
    """``resources/templates/list``."""
    from molforma.mcp import resources

    check_cursor(req.params)
    return {"resourceTemplates": resources.list_templates()}


def resources_read(state: AppServices, req: Request) -> dict[str, Any]:
    """``resources/read``."""
    from molforma.mcp import resources

    uri = req.params.get("uri")
    return {"contents": resources.read_resource(state, uri, era=req.era)}


def prompts_list(state: AppServices, req: Request) -> dict[str, Any]:
    """``prompts/list``."""
    from molforma.mcp import prompts

    check_cursor(req.params)
    return {"prompts": prompts.list_prompts()}


def prompts_get(state: AppServices, req: Request, mode: str) -> dict[str, Any]:
    """``prompts/get`` (the prompts of ``mode``)."""
    from molforma.mcp import prompts

    return prompts.get_prompt(req.params.get("name"), req.params.get("arguments"), state.lang, mode)


def _task(state: AppServices, req: Request) -> Task:
    if not req.declares_tasks:
        raise P.tasks_capability_error()
    return state.tasks.get(req.params.get("taskId"))


def tasks_get(state: AppServices, req: Request) -> dict[str, Any]:
    """``tasks/get``."""
    task = _task(state, req)
    return task.to_wire(detailed=True, form=req.declares_form_elicitation)


def tasks_update(state: AppServices, req: Request) -> dict[str, Any]:
    """``tasks/update``: answers to a working task's questions.

    Raises:
        RpcError: ``inputResponses`` is not an object.
    """
    task = _task(state, req)
    answers = req.params.get("inputResponses")
    if not isinstance(answers, dict):
        raise RpcError(P.INVALID_PARAMS, "Invalid params: inputResponses must be an object")
    bg = task.background
    if bg is not None and bg.respond is not None and task.status == "working":
        for key, answer in answers.items():
            if isinstance(key, str) and isinstance(answer, dict):
                bg.respond(key, answer)
    # Answers for unknown or already answered keys are ignored (spec 6.4).
    return {}


def tasks_cancel(state: AppServices, req: Request) -> dict[str, Any]:
    """``tasks/cancel``."""
    task = _task(state, req)
    state.tasks.cancel(task.task_id)
    return {}
