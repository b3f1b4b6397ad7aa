"""Server→client requests on a 2025-11-25 connection: ``elicitation/create`` (no Qt).

The 2026-07-28 era asks through ``input_required`` results (MRTR,
:mod:`molforma.mcp.elicitation`); a legacy connection cannot, so when its client
declared form elicitation in ``initialize`` the server sends the question as a
JSON-RPC request of its own and waits for the answer on the same stdio connection
(docs/reference/mcp.md, Elicitation). Claude Code and Codex speak that era on stdio by default.

Threads: the request is written by the thread that asks (the dispatcher for
``save_file``, a short-lived thread per window dialog); the transport's reader hands
every response to :meth:`ClientRequests.on_response`, which only records it and wakes
the waiting thread, so the reader never blocks. Responses are matched by id; one with
an id this server never issued (or already settled) is not ours and is ignored. A
client that never answers is given up on after :data:`ANSWER_TIMEOUT_S` and told so
with ``notifications/cancelled``; EOF ends every wait at once.
"""

from __future__ import annotations

import contextvars
import itertools
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from molforma.lazylog import get_logger

if TYPE_CHECKING:
    from molforma.mcp.bridge import DialogInfo, WindowBridge

log = get_logger("molforma.mcp")

# How long a question may stay unanswered (a person away from the keyboard): as long
# as an MRTR requestState lives. Then the question counts as not answered.
ANSWER_TIMEOUT_S = 600.0
# How often the window's open dialogs are looked at while a legacy client may be asked.
DIALOG_POLL_S = 0.1

ELICIT = "elicitation/create"
ANSWER_ACTIONS = frozenset({"accept", "decline", "cancel"})


class _Pending:
    __slots__ = ("answered", "done", "origin", "result")

    def __init__(self, origin: Any) -> None:
        self.done = threading.Event()
        self.origin = origin  # the client's request this question belongs to, if any
        self.result: dict[str, Any] | None = None
        self.answered = False  # a response came (result or error)


class ClientRequests:
    """Requests this server sends to the client, and their answers, by id."""

    def __init__(self, send: Callable[[dict[str, Any]], bool]) -> None:
        self._send = send
        self._lock = threading.Lock()
        self._pending: dict[str, _Pending] = {}
        self._ids = itertools.count(1)
        self._closed = False

    @property
    def closed(self) -> bool:
        """True once stdin ended: nothing more is asked."""
        return self._closed

    def waiting(self) -> bool:
        """True while a question is out."""
        with self._lock:
            return bool(self._pending)

    # -- asking (any thread but the reader) ---------------------------------------------------
    def begin(self, method: str, params: dict[str, Any], origin: Any = None) -> str | None:
        """Send a request; its id, or None when the connection is gone."""
        with self._lock:
            if self._closed:
                return None
            rid = f"molforma-{next(self._ids)}"
            self._pending[rid] = _Pending(origin)
        if not self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}):
            with self._lock:
                self._pending.pop(rid, None)
            return None
        return rid

    def wait(self, rid: str, timeout: float = ANSWER_TIMEOUT_S) -> dict[str, Any] | None:
        """The ``result`` of the client's response to ``rid``.

        None when the client answered with an error, gave no answer in ``timeout``
        seconds, the question was withdrawn (:meth:`abort`), or stdin ended. A question
        given up on is withdrawn with ``notifications/cancelled`` so the client can
        close its form.
        """
        with self._lock:
            p = self._pending.get(rid)
        if p is None:
            return None
        p.done.wait(max(0.0, timeout))
        with self._lock:
            self._pending.pop(rid, None)
            closed = self._closed
        if p.answered:
            return p.result
        if not closed:
            self._send(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/cancelled",
                    "params": {"requestId": rid, "reason": "no longer needed"},
                }
            )
        return None

    def ask(
        self,
        method: str,
        params: dict[str, Any],
        *,
        origin: Any = None,
        timeout: float = ANSWER_TIMEOUT_S,
    ) -> dict[str, Any] | None:
        """Send a request and wait for its result (see :meth:`wait`)."""
        rid = self.begin(method, params, origin)
        return None if rid is None else self.wait(rid, timeout)

    def abort(self, rid: str) -> None:
        """Stop waiting for ``rid`` (the waiting thread withdraws the question)."""
        with self._lock:
            p = self._pending.get(rid)
        if p is not None:
            p.done.set()

    def abort_origin(self, origin: Any) -> None:
        """Stop waiting for the questions asked for the client's request ``origin``."""
        with self._lock:
            found = [p for p in self._pending.values() if p.origin == origin]
        for p in found:
            p.done.set()

    # -- the reader thread ----------------------------------------------------------------------
    def on_response(self, msg: dict[str, Any]) -> bool:
        """Take a response to one of our requests; False when its id is not ours."""
        rid = msg.get("id")
        if not isinstance(rid, str):
            return False
        with self._lock:
            p = self._pending.get(rid)
            if p is None or p.answered:
                return False
            result = msg.get("result")
            p.result = result if isinstance(result, dict) else None
            p.answered = True
        p.done.set()
        return True

    def close(self) -> None:
        """stdin ended: every wait returns now and nothing more is sent."""
        with self._lock:
            self._closed = True
            found = list(self._pending.values())
        for p in found:
            p.done.set()


def elicit_result(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """An ``ElicitResult`` from a response's result, or None when it is not one."""
    if not isinstance(result, dict) or result.get("action") not in ANSWER_ACTIONS:
        return None
    content = result.get("content")
    if content is not None and not isinstance(content, dict):
        return None
    return result


# The channel of the legacy connection whose request the current thread serves; set by
# the server around a tool handler (None: the request cannot be asked about).
_current: contextvars.ContextVar[ClientRequests | None] = contextvars.ContextVar(
    "molforma_client_requests", default=None
)


def current() -> ClientRequests | None:
    """The channel a handler may ask through (legacy, form elicitation declared), or None."""
    return _current.get()


def serving(channel: ClientRequests | None) -> contextvars.Token[ClientRequests | None]:
    """Make ``channel`` the current one (reset with :func:`done_serving`)."""
    return _current.set(channel)


def done_serving(token: contextvars.Token[ClientRequests | None]) -> None:
    """Undo :func:`serving`."""
    _current.reset(token)


def dialog_question(d: DialogInfo) -> dict[str, Any]:
    """``elicitation/create`` params for a message box: its text and a ``choice`` of buttons.

    The same question a task's ``input_required`` carries (docs/reference/mcp.md, Tasks).
    """
    return {
        "mode": "form",
        "message": f"{d.title}\n\n{d.text}" if d.title else d.text,
        "requestedSchema": {
            "type": "object",
            "properties": {
                "choice": {"type": "string", "title": d.title or "Choice", "enum": list(d.buttons)}
            },
            "required": ["choice"],
        },
    }


def is_askable(d: DialogInfo) -> bool:
    """A public message box with buttons (the registry never lists private ones)."""
    return d.kind == "message" and bool(d.buttons) and d.command_id is not None


class DialogElicitor:
    """Sends the message boxes a legacy client's window commands open as elicitations.

    A registered public message box (``molforma.gui.dialogs``) opened by a window
    command this connection queued becomes ``elicitation/create`` with a ``choice``
    enum of its buttons; an accept presses the chosen button, a decline or cancel the
    box's Escape button. No answer (time-out, error): the box stays for the person or
    ``get_ui`` / ``ui_activate``. A box closed meanwhile withdraws its question.
    Private dialogs (the Run confirmation, Preferences) are never listed by the
    bridge, so they are never sent. Boxes the person opened by hand carry no command
    and are not sent either.
    """

    def __init__(self, channel: ClientRequests, bridge: WindowBridge) -> None:
        self._channel = channel
        self._bridge = bridge
        self._lock = threading.Lock()
        self._commands: set[str] = set()
        self._asked: dict[str, str | None] = {}  # dialog id -> our request id while out
        self._thread: threading.Thread | None = None

    def track(self, command_id: str) -> None:
        """Dialogs of ``command_id`` (queued for this connection) are to be asked."""
        with self._lock:
            self._commands.add(command_id)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._watch, name="mcp-dialog-elicitor", daemon=True
                )
                self._thread.start()

    def _watch(self) -> None:
        while not self._channel.closed:
            try:
                self.poll()
            except Exception:  # the watcher must outlive one bad snapshot
                log.exception("looking at the window's dialogs failed")
            time.sleep(DIALOG_POLL_S)

    def poll(self) -> None:
        """One look at the open dialogs: ask new ones, withdraw questions of closed ones."""
        open_now = {d.id: d for d in self._bridge.dialogs()}
        with self._lock:
            for dialog_id, rid in list(self._asked.items()):
                if dialog_id not in open_now and rid is not None:
                    self._channel.abort(rid)
            new = [
                d
                for d in open_now.values()
                if is_askable(d) and d.id not in self._asked and d.command_id in self._commands
            ]
            for d in new:
                self._asked[d.id] = None
        for d in new:
            threading.Thread(
                target=self._ask, args=(d,), name="mcp-dialog-question", daemon=True
            ).start()

    def _ask(self, d: DialogInfo) -> None:
        rid = self._channel.begin(ELICIT, dialog_question(d))
        if rid is None:
            return
        with self._lock:
            self._asked[d.id] = rid
        answer = elicit_result(self._channel.wait(rid))
        with self._lock:
            self._asked[d.id] = None
        if answer is None:
            return  # no answer: the box stays for get_ui / ui_activate or the person
        content = answer.get("content") or {}
        choice = content.get("choice")
        try:
            if answer["action"] == "accept" and isinstance(choice, str) and choice in d.buttons:
                self._bridge.answer(d.id, choice)
            elif answer["action"] in ("decline", "cancel"):
                self._bridge.answer(d.id, None)
            else:
                log.warning("elicitation answer for %s names no button: %r", d.id, choice)
        except Exception:  # a full command queue: the box stays, answerable with ui_activate
            log.exception("answering dialog %s failed", d.id)
