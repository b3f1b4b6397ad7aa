"""The MCP server: method table, era handling, tool dispatch (no Qt).

``serve_headless`` is what ``molforma --mcp`` runs. One :class:`Server` handles
both protocol eras on one stdio process (docs/reference/mcp.md, Protocol eras): a request whose
``_meta`` names the protocol version is served statelessly as 2026-07-28; a real
``initialize`` starts the 2025-11-25 era for requests without that key.

Threads: the transport's reader decodes lines and acts on ``notifications/cancelled``
at once; one dispatcher thread answers requests in arrival order; background work
(calculations, results loads) runs on its own threads and is followed by tasks or
``get_app_state``. Window tools reach the window through ``state.window`` (a
:class:`~molforma.mcp.bridge.WindowBridge`).

Window mode reuses all of this with its own services
(``molforma.gui.services.WindowServices``, assembled by ``molforma.gui.mcp_host``):
``Server(services, mode="gui").run(StdioTransport())`` on a worker thread; ``run``
returns on EOF after stopping running work.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from molforma import __version__, lazylog
from molforma.i18n import register
from molforma.mcp import protocol as P
from molforma.mcp import side_methods
from molforma.mcp.client_channel import ClientChannel
from molforma.mcp.protocol import Request, RpcError
from molforma.mcp.state import AppServices, HeadlessServices
from molforma.mcp.tool_calls import ToolCalls
from molforma.mcp.transport import LineEvent, StdioTransport

if TYPE_CHECKING:
    from pathlib import Path

    from molforma.mcp.tool_registry import ToolSpec

log = lazylog.get_logger("molforma.mcp")

SERVER_NAME = "molforma"
INSTRUCTIONS = (
    "MolForma: a molecular editor for NWChem. Call list_documents first; every edit takes "
    "documentId and expectedRevision (from the last answer) and by default makes a candidate "
    "that history confirm or cancel settles (preview: false applies directly). Atoms are "
    "addressed by id. import_document with format smiles builds a 3D molecule with "
    "hydrogens; move_atoms with cleanup: true cleans the geometry with a force field. "
    "calculation start runs NWChem in the background; follow it with a task or "
    "get_app_state; its results load by themselves: read them with get_results, and "
    "results_action use_structure takes the optimised structure into the document."
)
# --mcp-gui: the same tools work on the window's document, plus the window tools.
WINDOW_INSTRUCTIONS = INSTRUCTIONS + (
    " This is the MolForma window the chemist is looking at. get_ui lists its widgets with "
    "the ui_* tools that may drive each ('drivable'); only those controls can be driven, "
    "and file dialogs only with ui_file_dialog. Window tools queue a command and answer "
    "with a commandId (or a task): read get_ui_command until it is done or failed — failed "
    "carries the message the window showed, so never report a failed command as done. "
    "chemistry smiles builds a 3D candidate from SMILES and chemistry cleanup cleans the "
    "geometry, both in the window's worker. Results of a calculation the window ran load "
    "in the Results tab by themselves. Dialogs only the person may answer (the Run "
    "confirmation, Preferences) are not shown to you: ask the person."
)

register(
    {
        "unknown_document": {
            "en": "No document with id {documentId}. Call list_documents for the ids.",
            "ja": "ID {documentId} の文書はありません。list_documents でIDを確認してください。",
        },
        "internal_error": {
            "en": "Internal error in {tool}; the document was not changed.",
            "ja": "{tool} で内部エラーが発生しました。文書は変更されていません。",
        },
        "invalid_arguments": {
            "en": "Invalid arguments: {detail}",
            "ja": "引数が不正です: {detail}",
        },
    }
)


# The headless services under their former name (window mode has its own, see state.py).
ServerState = HeadlessServices


_QUEUE_END = object()
# After stdin closes, how long the dispatcher may take to reach the end of its queue before
# the process is ended without it, and how long the answers already queued may take to be
# written then (docs/reference/cli.md, stdio in the MCP modes: the process exits within a second).
EOF_GRACE = 0.7
# The longest a tool call waits for the warm-up's imports (seconds).
WARM_UP_WAIT = 30.0
EOF_FLUSH = 0.2
# The opening answers: the warm-up starts after the first other one (tools/list, the
# first call), whose answers need none of what it loads, so a client's next request
# (after its model read the tools) finds the tools loaded.
_BEFORE_WARM_UP = frozenset({"initialize", "server/discover", "ping", "notifications/initialized"})


class Server:
    """Dispatcher of one stdio connection (both eras)."""

    def __init__(
        self,
        state: AppServices,
        *,
        mode: str = "headless",
        send: Callable[[dict[str, Any]], bool] | None = None,
        on_busy_eof: Callable[[], None] | None = None,
    ) -> None:
        self.state = state
        self.mode = mode
        self._send = send or (lambda _m: True)
        # What ends the process when stdin closed while a request was still being served
        # (default: flush the answers already queued and exit with status 0).
        self._on_busy_eof = on_busy_eof
        self._transport: StdioTransport | None = None
        self._loop_done = threading.Event()
        self._tools: dict[str, ToolSpec] | None = None
        self._warm = False
        # Set once the warm-up's imports are done (its batch re-attach may go on after).
        self._imports_done = threading.Event()
        self._legacy_initialized = False
        # A legacy client that declared form elicitation is asked with requests of ours.
        self._channel = ClientChannel(lambda m: self._send(m), state)
        self._queue: queue.Queue[Any] = queue.Queue()
        self._pending: set[Any] = set()
        self._cancelled: set[Any] = set()
        self._plock = threading.Lock()
        self._tool_defs: list[dict[str, Any]] | None = None
        self._tool_index: dict[str, Any] | None = None
        self.calls = ToolCalls(state, self.tool, lambda m: self._send(m), self._after_warm_up)
        st = state
        self.methods: dict[str, Callable[[Request], dict[str, Any]]] = {
            "initialize": self._on_initialize,
            "ping": self._on_ping,
            "server/discover": self._on_discover,
            "tools/list": self._on_tools_list,
            "tools/call": self._on_tools_call,
            "resources/list": lambda req: side_methods.resources_list(st, req),
            "resources/templates/list": lambda req: side_methods.templates_list(st, req),
            "resources/read": lambda req: side_methods.resources_read(st, req),
            "prompts/list": lambda req: side_methods.prompts_list(st, req),
            "prompts/get": lambda req: side_methods.prompts_get(st, req, self.mode),
            "tasks/get": lambda req: side_methods.tasks_get(st, req),
            "tasks/update": lambda req: side_methods.tasks_update(st, req),
            "tasks/cancel": lambda req: side_methods.tasks_cancel(st, req),
        }
        self._exit_status: int | None = None
        self._legacy_only = frozenset({"initialize", "ping"})
        self._modern_only = frozenset(
            {"server/discover", "tasks/get", "tasks/update", "tasks/cancel"}
        )

    @property
    def tools(self) -> dict[str, ToolSpec]:
        """The tools of this mode by name (the tool modules load on first use)."""
        if self._tools is None:
            from molforma.mcp.tool_registry import tools_for

            self._tools = {t.name: t for t in tools_for(self.mode)}  # type: ignore[arg-type]
            P.enable_fast_json()
        return self._tools

    def _index(self) -> dict[str, Any] | None:
        """The generated tool index (headless only; the window mode has its own tools)."""
        if self.mode != "headless":
            return None
        if self._tool_index is None:
            from molforma.mcp.tool_index import read_index

            self._tool_index = read_index() or {}
        return self._tool_index or None

    def tool(self, name: str) -> ToolSpec | None:
        """One tool by name, importing only the module that defines it when it is new."""
        if self._tools is not None:
            return self._tools.get(name)
        index = self._index()
        entry = (
            next((e for e in index["tools"] if e["definition"]["name"] == name), None)
            if index
            else None
        )
        if entry is None:
            return self.tools.get(name)
        from molforma.mcp.tool_registry import load_module

        spec = load_module(entry["module"]).get(name)
        if spec is None or self.mode not in spec.modes:
            return self.tools.get(name)
        P.enable_fast_json()
        return spec

    def warm_up(self) -> None:
        """Load the other tools, the wire models and the chemistry in the background.

        Started after the first answer past the opening (``tools/list`` or the first
        call), so ``server/discover`` and ``initialize`` do not share the interpreter
        with these imports; ``tools/list`` and the first ``list_documents`` need none of
        them (the tool index, ``HeadlessServices.pending_listing``).
        """
        if self._warm:
            return
        self._warm = True

        def work() -> None:
            try:
                lazylog.load()  # the libraries loaded now log in the mode's format too
                _ = self.state.documents
                _ = self.state.lang
                _ = self.state.policy
                _ = self.tools
                P.preload_wire()
            except Exception:
                log.exception("warm-up failed")
            finally:
                self._imports_done.set()
            try:
                self.state.reattach_batch_jobs()
            except Exception:
                log.exception("re-attaching batch jobs failed")

        threading.Thread(target=work, name="mcp-warm-up", daemon=True).start()

    # -- the stdio loop --------------------------------------------------------------------
    def on_event(self, ev: LineEvent) -> None:
        """Reader-thread callback: decode, answer framing errors, queue requests."""
        if ev.kind == "eof":
            self._on_eof()
            return
        if ev.kind == "oversize":
            # The answer carries the message's id when its first bytes name it.
            self._send(
                P.error_response(
                    _oversize_id(ev.text),
                    RpcError(
                        P.INVALID_REQUEST, "Invalid Request: message larger than 8 MiB was dropped"
                    ),
                )
            )
            return
        if ev.kind == "bad_utf8":
            self._send(
                P.error_response(None, RpcError(P.PARSE_ERROR, "Parse error: invalid UTF-8"))
            )
            return
        try:
            msg = json.loads(ev.text)
        except (ValueError, RecursionError):
            self._send(P.error_response(None, RpcError(P.PARSE_ERROR, "Parse error")))
            return
        if (
            isinstance(msg, dict)
            and "id" not in msg
            and msg.get("method") == ("notifications/cancelled")
        ):
            self._on_cancelled(msg.get("params"))
            return
        if isinstance(msg, dict) and self._channel.take(msg):
            return
        if isinstance(msg, dict) and P.is_valid_id(msg.get("id")) and "method" in msg:
            with self._plock:
                self._pending.add(msg["id"])
        self._queue.put(msg)

    def _on_cancelled(self, params: Any) -> None:
        if not isinstance(params, dict):
            return
        rid = params.get("requestId")
        if not P.is_valid_id(rid):
            return
        with self._plock:
            # Only requests still queued or running; a finished one is ignored.
            if rid in self._pending:
                self._cancelled.add(rid)
        self._channel.abort_origin(rid)  # a call waiting for a person's answer stops

    def _on_eof(self) -> None:
        """stdin closed (reader thread): stop the calculations now and end within a second.

        The dispatcher may be inside a long request (a large file, a long window
        command) and would see the end of the queue only after it: like an exit signal
        (``molforma.exit_signals``), the calculations and loads are stopped here, at
        once, and if the dispatcher has not finished :data:`EOF_GRACE` seconds later the
        process is ended without waiting for it (no save, nothing more to answer).
        Requests that came before EOF are answered while the grace lasts.
        """
        self._queue.put(_QUEUE_END)
        self._channel.close()  # a call waiting for a person's answer ends now
        if self._exit_status is not None:
            return  # an exit signal is ending the process already
        try:
            self.state.shutdown()
        except Exception:
            log.exception("stopping the calculations at EOF failed")
        if self._loop_done.wait(EOF_GRACE):
            return  # the dispatcher was free: run() returns and the process ends normally
        log.warning("stdin closed while a request was being served; ending now")
        if self._on_busy_eof is not None:
            try:
                self._on_busy_eof()
                return
            except Exception:
                log.exception("ending the process at EOF failed")
        transport = self._transport
        if transport is not None:
            transport.close(timeout=EOF_FLUSH)  # the answers already queued go out first
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(0)

    def run(self, transport: StdioTransport) -> int:
        """Serve until stdin closes or the client is disconnected; returns the exit status."""
        self._send = transport.send
        self._transport = transport
        transport.start(self.on_event)
        try:
            while True:
                try:
                    msg = self._queue.get(timeout=0.25)
                except queue.Empty:
                    if transport.disconnected.is_set():
                        break
                    continue
                if msg is _QUEUE_END or transport.disconnected.is_set():
                    break
                if self._exit_status is not None:
                    break  # an exit signal arrived: nothing more is served
                self._serve_one(msg)
        finally:
            self._loop_done.set()
            self.state.shutdown()
            transport.close()
        if self._exit_status is not None:
            return self._exit_status
        # A client disconnected for not reading is an abnormal end.
        return 1 if transport.overflowed else 0

    def stop_for_signal(self, signum: int) -> None:
        """An exit signal (``molforma.exit_signals`` watcher thread): stop and end the loop.

        The calculations are stopped here, at once, not when the loop next looks at
        its queue: the loop may be inside a long tool call.
        """
        from molforma.exit_signals import exit_status

        self._exit_status = exit_status(signum)
        self._channel.close()  # a call waiting for a person's answer ends now
        self.state.shutdown()
        self._queue.put(_QUEUE_END)

    def _serve_one(self, msg: Any) -> None:
        rid = msg.get("id") if isinstance(msg, dict) else None
        tracked = P.is_valid_id(rid)
        with self._plock:
            skip = tracked and rid in self._cancelled
        try:
            out = None if skip else self.handle(msg)
        except Exception:  # a bug here must never end the connection
            log.exception("dispatch failed")
            out = P.error_response(
                rid if tracked else None, RpcError(P.INTERNAL_ERROR, "Internal error")
            )
        with self._plock:
            if tracked:
                self._pending.discard(rid)
                if rid in self._cancelled:
                    self._cancelled.discard(rid)
                    out = None  # nothing more is sent for a cancelled request
        if out is not None:
            self._send(out)
        # Any method value a client sends (a list, an object) must not break the loop.
        method = msg.get("method") if isinstance(msg, dict) else None
        if isinstance(method, str) and method not in _BEFORE_WARM_UP:
            self.warm_up()

    # -- one message -----------------------------------------------------------------------
    def handle(self, msg: Any) -> dict[str, Any] | None:
        """Answer one decoded JSON-RPC message (None for notifications and responses)."""
        if isinstance(msg, list):
            return P.error_response(
                None, RpcError(P.INVALID_REQUEST, "Invalid Request: batches are not supported")
            )
        if not isinstance(msg, dict):
            return P.error_response(None, RpcError(P.INVALID_REQUEST, "Invalid Request"))
        rid = msg.get("id")
        has_id = "id" in msg
        if has_id and not P.is_valid_id(rid):
            return P.error_response(None, RpcError(P.INVALID_REQUEST, "Invalid Request: bad id"))
        method = msg.get("method")
        if msg.get("jsonrpc") != "2.0" or not isinstance(method, str):
            if "method" not in msg and ("result" in msg or "error" in msg) and has_id:
                return None  # a response from the client: we send no requests, ignore it
            return P.error_response(
                rid if has_id else None, RpcError(P.INVALID_REQUEST, "Invalid Request")
            )
        if not has_id:
            self._on_notification(method, msg.get("params"))
            return None
        params = msg.get("params", {})
        if params is None:
            params = {}
        if not isinstance(params, dict):
            return P.error_response(
                rid, RpcError(P.INVALID_PARAMS, "Invalid params: params must be an object")
            )
        # A request here has a valid id (checked above): an int or a string.
        rid = cast("int | str", rid)
        try:
            era, version, caps = P.classify(params, method, self._legacy_initialized)
            req = Request(
                id=rid, method=method, params=params, era=era, version=version, capabilities=caps
            )
            result = self._dispatch(req)
        except RpcError as err:
            return P.error_response(rid, err)
        except Exception:
            log.exception("handler for %s failed", method)
            return P.error_response(rid, RpcError(P.INTERNAL_ERROR, "Internal error"))
        return P.response(rid, self._finish(req, result))

    def _on_notification(self, method: str, params: Any) -> None:
        if method == "notifications/cancelled":
            self._on_cancelled(params)
        # notifications/initialized and anything else: nothing to do, never answered.

    def _dispatch(self, req: Request) -> dict[str, Any]:
        handler = self.methods.get(req.method)
        if handler is None:
            raise RpcError(P.METHOD_NOT_FOUND, f"Method not found: {req.method}")
        if req.era == "legacy" and req.method in self._modern_only:
            raise RpcError(
                P.METHOD_NOT_FOUND,
                f"Method not found: {req.method} (not part of MCP {P.LEGACY_VERSION})",
            )
        if req.method == "ping" and req.era == "legacy":
            return {}
        if req.method in ("initialize", "server/discover"):
            # discover carries only the _meta checked above; answering it must not wait
            # for the wire models to import (start-up time).
            return handler(req)
        P.validate_params(req)
        return self._channel.serve(handler, req)

    def _finish(self, req: Request, result: dict[str, Any]) -> dict[str, Any]:
        if req.era != "modern":
            return result
        result.setdefault("resultType", "complete")
        meta = dict(result.get("_meta") or {})
        meta[P.SERVER_INFO_KEY] = {"name": SERVER_NAME, "version": __version__}
        result["_meta"] = meta
        if req.method in P.CACHEABLE_METHODS and result["resultType"] == "complete":
            result["ttlMs"] = 0
            result["cacheScope"] = "private"
        return result

    # -- lifecycle -------------------------------------------------------------------------
    def _on_initialize(self, req: Request) -> dict[str, Any]:
        if self._legacy_initialized:
            raise RpcError(P.INVALID_REQUEST, "Invalid Request: already initialized")
        # Checked by hand rather than with the wire models: a legacy client's first answer
        # should not wait for their import either.
        p = req.params
        info = p.get("clientInfo")
        if not (
            isinstance(p.get("protocolVersion"), str)
            and isinstance(p.get("capabilities"), dict)
            and isinstance(info, dict)
            and isinstance(info.get("name"), str)
            and isinstance(info.get("version"), str)
        ):
            raise RpcError(
                P.INVALID_PARAMS,
                "Invalid params: initialize needs protocolVersion, "
                "capabilities and clientInfo {name, version}",
            )
        self._legacy_initialized = True
        el = p["capabilities"].get("elicitation")
        if isinstance(el, dict) and (not el or isinstance(el.get("form"), dict)):
            # Form elicitation declared: questions go out as elicitation/create (docs/reference/mcp.md, Elicitation).
            self._channel.open()
        return {
            "protocolVersion": P.LEGACY_VERSION,
            "capabilities": {"tools": {"listChanged": False}, "resources": {}, "prompts": {}},
            "serverInfo": {"name": SERVER_NAME, "title": "MolForma", "version": __version__},
            "instructions": WINDOW_INSTRUCTIONS if self.mode == "gui" else INSTRUCTIONS,
        }

    def _on_ping(self, req: Request) -> dict[str, Any]:
        return {}

    def _on_discover(self, req: Request) -> dict[str, Any]:
        return {
            "supportedVersions": list(P.SUPPORTED_VERSIONS),
            "capabilities": {
                "tools": {},
                "resources": {},
                "prompts": {},
                "extensions": {P.TASKS_EXTENSION: {}},
            },
            "instructions": WINDOW_INSTRUCTIONS if self.mode == "gui" else INSTRUCTIONS,
        }

    # -- tools -----------------------------------------------------------------------------
    def tool_definitions(self) -> list[dict[str, Any]]:
        """The ``tools`` array (same set and order on every call)."""
        if self._tool_defs is None:
            allow = self.state.allow_execution_settings
            index = self._index() if self._tools is None else None
            if index is not None:
                from molforma.mcp.tool_index import index_definition

                self._tool_defs = [
                    index_definition(e, allow_execution_settings=allow) for e in index["tools"]
                ]
            else:
                self._tool_defs = [
                    t.definition(allow_execution_settings=allow) for t in self.tools.values()
                ]
        return self._tool_defs

    def _on_tools_list(self, req: Request) -> dict[str, Any]:
        side_methods.check_cursor(req.params)
        return {"tools": self.tool_definitions()}

    def _on_tools_call(self, req: Request) -> dict[str, Any]:
        return self.calls.call(req)

    def _after_warm_up(self) -> None:
        if self._warm:
            # A handler importing the same modules as the warm-up thread at the same time
            # can meet a module the other thread has only half initialised (seen once
            # under load as an internal error of the first add_atoms): the call waits for
            # the warm-up's imports, which it would need anyway.
            self._imports_done.wait(WARM_UP_WAIT)

    def tool_result(self, spec: ToolSpec, out: Any) -> dict[str, Any]:
        """A ``CallToolResult`` from a handler's output, validated against the schema."""
        return self.calls.tool_result(spec, out)


def _oversize_id(text: str) -> int | str | None:
    """The id :func:`molforma.mcp.transport.peek_id` found (JSON text), or None."""
    if not text:
        return None
    try:
        rid = json.loads(text)
    except ValueError:
        return None
    return rid if P.is_valid_id(rid) else None


def serve_headless(allow_dirs: list[Path], allow_execution_settings: bool) -> int:
    """``molforma --mcp``: serve MCP on stdin/stdout with one empty document."""
    # Applied when something is first logged: the first answers do not import logging.
    lazylog.basic_config(
        stream=sys.stderr, level="WARNING", format="molforma: %(levelname)s %(message)s"
    )
    from molforma import exit_signals

    transport = StdioTransport()
    state = HeadlessServices(
        allow_dirs=tuple(allow_dirs), allow_execution_settings=allow_execution_settings
    )
    server = Server(state, mode="headless")
    exit_signals.set_handler(server.stop_for_signal)
    return server.run(transport)
