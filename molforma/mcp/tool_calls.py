"""One ``tools/call``: arguments checked, the handler run, its answer made a result (no Qt).

docs/reference/mcp.md, Errors: invalid arguments and a
:class:`~molforma.errors.MolFormaError` are an ``isError`` result in the display
language, never a JSON-RPC error; an unknown tool is a JSON-RPC error. A handler that
returns :class:`~molforma.mcp.tasks.Background` work becomes a task when the client
declares the Tasks extension, else its first answer is sent at once. Every result is
checked against the tool's output schema before it leaves.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from molforma import lazylog
from molforma.errors import MolFormaError
from molforma.mcp import protocol as P
from molforma.mcp.protocol import Request, RpcError
from molforma.mcp.tool_errors import (
    dumps_text,
    file_error,
    invalid_args,
    jsonable,
    non_finite_at,
    non_finite_error,
)

if TYPE_CHECKING:
    from molforma.mcp.state import AppServices
    from molforma.mcp.tasks import ProgressReporter
    from molforma.mcp.tool_registry import ToolSpec

log = lazylog.get_logger("molforma.mcp")


class ToolCalls:
    """Answers ``tools/call`` for one server.

    Args:
        state: The services the tools act on.
        find_tool: The tool of a name (None: unknown), as the server loads them.
        send: Writes one message to the client (progress notifications).
        before_handler: Called before each handler runs (the server waits there for
            its warm-up's imports).
    """

    def __init__(
        self,
        state: AppServices,
        find_tool: Callable[[str], ToolSpec | None],
        send: Callable[[dict[str, Any]], Any],
        before_handler: Callable[[], None],
    ) -> None:
        self.state = state
        self.find_tool = find_tool
        self.send = send
        self.before_handler = before_handler

    def call(self, req: Request) -> dict[str, Any]:
        """The ``CallToolResult`` (or task) of ``req``.

        Raises:
            RpcError: an unknown tool or arguments that are not an object.
        """
        name = req.params.get("name")
        if name == "list_documents":
            quick = self.quick_list_documents(req)
            if quick is not None:
                return quick
        spec = self.find_tool(name) if isinstance(name, str) else None
        if spec is None:
            raise RpcError(P.INVALID_PARAMS, f"Unknown tool: {name}", {"name": name})
        args = req.params.get("arguments")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise RpcError(P.INVALID_PARAMS, "Invalid params: arguments must be an object")
        from pydantic import ValidationError as PydanticValidationError

        from molforma.mcp.elicitation import InputRequired
        from molforma.mcp.tasks import Background
        from molforma.mcp.tool_registry import ToolContext

        bad = non_finite_at(args)
        if bad is not None:
            return self.error_result(spec, non_finite_error(bad, self.state.lang))
        try:
            parsed = spec.input.model_validate(args)
        except PydanticValidationError as exc:
            return self.error_result(spec, invalid_args(exc, self.state.lang))
        ctx = ToolContext(state=self.state, request=req)
        reporter = self.progress_reporter(req)
        self.before_handler()
        try:
            with self.document_edit(spec, parsed):
                out = run_handler(spec, ctx, parsed, reporter)
        except InputRequired as ir:
            return ir.to_result()
        except RpcError:
            raise
        except MolFormaError as err:
            return self.error_result(spec, err.to_dict(self.state.lang))
        except OSError as exc:
            log.warning("tool %s: %s", spec.name, exc)
            return self.error_result(spec, file_error(exc).to_dict(self.state.lang))
        except Exception:
            log.exception("tool %s failed", spec.name)
            return self.error_result(
                spec, MolFormaError("internal_error", tool=spec.name).to_dict(self.state.lang)
            )
        if isinstance(out, Background):
            if req.declares_tasks:
                from molforma.mcp.tasks import working_text

                lang = self.state.lang
                task = self.state.tasks.start(
                    out,
                    finish=lambda final: self.tool_result(spec, final),
                    fail=lambda exc: self.exception_result(spec, exc),
                    reporter=reporter,
                    working=lambda ended: working_text(spec.title or spec.name, ended, lang),
                )
                wire = task.to_wire(detailed=False)
                wire["resultType"] = "task"
                return wire
            if reporter is not None and out.progress is not None:
                # The call answers at once; its progress so far goes before the answer
                # (nothing is sent for the request after it: follow with get_app_state).
                with contextlib.suppress(Exception):
                    note = out.progress()
                    if note:
                        reporter.report(note)
            out = out.result
        if reporter is not None:
            reporter.flush()
            reporter.close()
        return self.tool_result(spec, out)

    def progress_reporter(self, req: Request) -> ProgressReporter | None:
        """A reporter for the request's ``_meta.progressToken`` (both eras), or None."""
        token = req.meta.get("progressToken")
        if isinstance(token, bool) or not isinstance(token, str | int):
            return None
        from molforma.mcp.tasks import ProgressReporter

        return ProgressReporter(token, self.send)

    def quick_list_documents(self, req: Request) -> dict[str, Any] | None:
        """``list_documents`` of a fresh headless process, without pydantic or the documents.

        It is the first call clients make, and its answer is then known (one empty
        document, see ``HeadlessServices.pending_listing``); importing the tool models
        for it would take longer than the whole start-up budget. Anything else (other
        arguments, documents already made) returns None and takes the ordinary path, so
        errors and later answers come from the tool itself; a test checks both give the
        same result.
        """
        if req.params.get("arguments") not in (None, {}):
            return None
        pending = getattr(self.state, "pending_listing", None)
        entries = pending() if pending is not None else None
        if entries is None:
            return None
        structured = {"documents": entries}
        return {
            "content": [{"type": "text", "text": dumps_text(structured)}],
            "structuredContent": structured,
            "isError": False,
        }

    def document_edit(self, spec: ToolSpec, parsed: Any) -> AbstractContextManager[None]:
        """In the window, a document edit runs under the document's lock, refused while a
        modal dialog is open (docs/reference/window.md, Commands): one check-and-edit, no call to the GUI thread."""
        from molforma.mcp.tool_registry import DOCUMENT_EDIT_TOOLS

        bridge = self.state.window
        if bridge is None or spec.name not in DOCUMENT_EDIT_TOOLS:
            return contextlib.nullcontext()
        return bridge.document_edit(
            self.state.document(parsed.documentId), hold=not _slow_before_edit(spec.name, parsed)
        )

    def tool_result(self, spec: ToolSpec, out: Any) -> dict[str, Any]:
        """A ``CallToolResult`` from a handler's output, validated against the schema."""
        from pydantic import ValidationError as PydanticValidationError

        structured = out.model_dump(mode="json") if hasattr(out, "model_dump") else out
        try:
            spec.check_output(structured, is_error=False)
        except PydanticValidationError:
            log.exception("tool %s returned data outside its outputSchema", spec.name)
            return self.error_result(
                spec, MolFormaError("internal_error", tool=spec.name).to_dict(self.state.lang)
            )
        content: list[dict[str, Any]] = [{"type": "text", "text": dumps_text(structured)}]
        # Content too big to inline travels beside the answer (docs/reference/mcp.md, Size of results).
        links = structured.get("links") if isinstance(structured, dict) else None
        for item in links or ():
            content.append(
                {"type": "resource_link", **{k: v for k, v in item.items() if v is not None}}
            )
        # Output models may carry more content items (a screenshot's image) privately.
        content.extend(getattr(out, "_content", None) or [])
        return {"content": content, "structuredContent": structured, "isError": False}

    def exception_result(self, spec: ToolSpec, exc: BaseException) -> dict[str, Any]:
        """The error result of work that failed after the call answered (a task)."""
        if isinstance(exc, MolFormaError):
            return self.error_result(spec, exc.to_dict(self.state.lang))
        if isinstance(exc, OSError):
            return self.error_result(spec, file_error(exc).to_dict(self.state.lang))
        return self.error_result(
            spec, MolFormaError("internal_error", tool=spec.name).to_dict(self.state.lang)
        )

    def error_result(self, spec: ToolSpec, err: dict[str, Any]) -> dict[str, Any]:
        """An ``isError`` result holding ``err`` (code, message, details)."""
        err = {
            "code": str(err.get("code")),
            "message": str(err.get("message")),
            "details": jsonable(err.get("details") or {}),
        }
        spec.check_output(err, is_error=True)
        return {
            "content": [{"type": "text", "text": dumps_text(err)}],
            "structuredContent": err,
            "isError": True,
        }


def run_handler(spec: ToolSpec, ctx: Any, parsed: Any, reporter: ProgressReporter | None) -> Any:
    """Run the tool with ``reporter`` as :func:`~molforma.mcp.tasks.current_progress`."""
    if reporter is None:
        return spec.handler(ctx, parsed)
    from molforma.mcp.tasks import reset_current_progress, set_current_progress

    mark = set_current_progress(reporter)
    try:
        return spec.handler(ctx, parsed)
    finally:
        reset_current_progress(mark)


def _slow_before_edit(tool: str, parsed: Any) -> bool:
    """Whether a document edit call does long work before its edit, or waits for a worker
    whose own edit needs the document's lock (a clean-up, cancelling one, reading a large
    file, building from SMILES): the window must not wait for the lock meanwhile, so the
    dialog check is made under the lock without holding it for the call."""
    if tool in ("open_file", "import_document"):
        return True
    if tool == "move_atoms":
        return bool(getattr(parsed, "cleanup", False))
    return tool == "history" and getattr(parsed, "action", None) == "cancel"
