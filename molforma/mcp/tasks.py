"""Long work followed by the Tasks extension ``io.modelcontextprotocol/tasks`` (no Qt).

A tool that starts work which goes on after the call (a calculation, a results
load) returns :class:`Background`. When the ``tools/call`` request declares the
extension the server turns it into a task (``resultType: "task"``) that stays
``working`` until the work ends and then holds the final tool result; otherwise the
call answers at once with ``Background.result`` and progress shows in
``get_app_state`` (docs/reference/mcp.md, Tasks). The last 128 tasks are kept.
"""

from __future__ import annotations

import contextvars
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, Literal, TypeVar

from molforma.errors import MolFormaError
from molforma.i18n import register, render
from molforma.mcp.protocol import INVALID_PARAMS, RpcError

log = logging.getLogger("molforma.mcp")

POLL_INTERVAL_MS = 500
MAX_TASKS = 128
# Progress is read and sent at most this often (4 a second); the last one always goes.
PROGRESS_INTERVAL = 0.25
TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL = frozenset({"completed", "failed", "cancelled"})
OutputT = TypeVar("OutputT")

register(
    {
        "progress_working": {
            "en": "{title}: working",
            "ja": "{title}: 実行中",
        },
        "progress_work_ended": {
            "en": "{title}: ended",
            "ja": "{title}: 終了",
        },
    }
)


def working_text(title: str, ended: bool, lang: str | None = None) -> str:
    """The progress text of work that reports no progress of its own (a results load)."""
    return render("progress_work_ended" if ended else "progress_working", {"title": title}, lang)


@dataclass
class Background(Generic[OutputT]):
    """Work a tool started that continues after the tool returned.

    A handler that may start such work is annotated ``-> XOutput | Background[XOutput]``:
    the registry takes ``XOutput`` as the tool's output model, and both the immediate
    and the final answer are ``XOutput``.

    Attributes:
        result: The immediate tool output (what a call without the extension returns).
        wait: Blocks until the work ends or ``timeout`` seconds pass; True when it ended.
        cancel: Stops the work (like the tool's own cancel action). A calculation's
            returns once the job has ended, so that what the cancel answer reports is
            already true everywhere. Returning False means it could not be stopped (a
            GUI call in progress) and the task goes on to its real result.
        final: The final tool output once the work ended (with ``app`` state).
        inputs: ``inputs(form)`` → (input requests keyed uniquely, status message): the
            questions the work waits on (window dialogs); form requests only when the
            polling request declares form elicitation, else a message saying how to answer.
        respond: ``respond(key, answer)`` passes one ``tasks/update`` answer on.
        progress: ``progress()`` → ``{"message": str, "progress"?: number, "total"?:
            number}`` or None: the work's progress now (read a few times a second while
            it runs and once more when it ended). It becomes the task's
            ``statusMessage`` and, when the call carried a ``progressToken``, a
            ``notifications/progress``. ``progress`` should only grow; when it does not,
            the sender makes it.
    """

    result: OutputT
    wait: Callable[[float | None], bool]
    cancel: Callable[[], bool | None]
    final: Callable[[], OutputT]
    inputs: Callable[[bool], tuple[dict[str, Any], str | None]] | None = None
    respond: Callable[[str, dict[str, Any]], None] | None = None
    # A batch job belongs to the cluster: closing the connection must not cancel it.
    survives_exit: bool = False
    progress: Callable[[], dict[str, Any] | None] | None = None


class ProgressReporter:
    """Sends ``notifications/progress`` for one request's ``progressToken``.

    Rate-limited to one notification per :data:`PROGRESS_INTERVAL`; a note that comes
    sooner is held and sent by :meth:`flush` (the last one always goes). ``progress``
    strictly increases as the protocol asks: a note whose number did not grow (only
    its text changed) is sent a little above the previous one. Thread-safe.
    """

    def __init__(self, token: str | int, send: Callable[[dict[str, Any]], Any]) -> None:
        self.token = token
        self._send = send
        self._lock = threading.Lock()
        self._last_progress: float | None = None
        self._last_message: str | None = None
        self._last_time = 0.0
        self._held: dict[str, Any] | None = None
        self._closed = False

    def report(self, note: dict[str, Any], *, final: bool = False) -> None:
        """Send ``note`` (``message``, optional ``progress`` and ``total``) if due."""
        with self._lock:
            if self._closed:
                return
            now = time.monotonic()
            if not final and now - self._last_time < PROGRESS_INTERVAL:
                self._held = note
                return
            self._held = None
            if final and note.get("total") is None:
                # The last note says the work is complete: total = progress.
                note = {**note, "total": float("inf")}
            self._emit(note, now)
            if final:
                self._closed = True

    def flush(self) -> None:
        """Send the note held back by the rate limit, if any."""
        with self._lock:
            held, self._held = self._held, None
            if held is not None and not self._closed:
                self._emit(held, time.monotonic())

    def close(self) -> None:
        """Nothing more is sent (the request or the task ended)."""
        with self._lock:
            self._closed = True

    def _emit(self, note: dict[str, Any], now: float) -> None:
        message = note.get("message")
        value = note.get("progress")
        if not isinstance(value, int | float) or isinstance(value, bool):
            value = (self._last_progress or 0) + 1
        total = note.get("total")
        if self._last_progress is not None and value <= self._last_progress:
            if message == self._last_message and total is None:
                return  # nothing new to say
            value = round(self._last_progress + 0.01, 6)
        params: dict[str, Any] = {"progressToken": self.token, "progress": value}
        if isinstance(total, int | float) and not isinstance(total, bool):
            params["total"] = value if total == float("inf") or total < value else total
        if isinstance(message, str) and message:
            params["message"] = message
        self._last_progress = float(value)
        self._last_message = message if isinstance(message, str) else None
        self._last_time = now
        try:
            self._send({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
        except Exception:
            log.exception("sending progress failed")


_CURRENT: contextvars.ContextVar[ProgressReporter | None] = contextvars.ContextVar(
    "molforma_progress", default=None
)


def current_progress() -> ProgressReporter | None:
    """The reporter of the ``tools/call`` being handled on this thread, if it carried a
    ``progressToken`` (None otherwise). A synchronous long operation reports through
    it: ``rep = current_progress(); if rep: rep.report({"message": ..., "progress": n})``.
    """
    return _CURRENT.get()


def set_current_progress(reporter: ProgressReporter | None) -> contextvars.Token[Any]:
    """Make ``reporter`` the current one (the server does, around a tool handler)."""
    return _CURRENT.set(reporter)


def reset_current_progress(token: contextvars.Token[Any]) -> None:
    """Undo :func:`set_current_progress`."""
    _CURRENT.reset(token)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Task:
    """One task: status, times and, when completed, the tool result."""

    task_id: str
    status: TaskStatus = "working"
    status_message: str | None = None
    created_at: str = field(default_factory=_now)
    last_updated_at: str = field(default_factory=_now)
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    background: Background[Any] | None = None
    # The work's progress text while working (below a question's status message).
    progress_message: str | None = None
    cancel_requested: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def set_status(
        self,
        status: TaskStatus,
        *,
        message: str | None = None,
        result: dict[str, Any] | None = None,
        error: dict[str, Any] | None = None,
    ) -> bool:
        """Move to ``status`` unless already terminal; True when it moved."""
        with self.lock:
            if self.status in TERMINAL:
                return False
            self.status = status
            self.status_message = message
            self.result = result
            self.error = error
            self.last_updated_at = _now()
            return True

    def to_wire(self, *, detailed: bool, form: bool = False) -> dict[str, Any]:
        """The flat ``Task`` fields (``DetailedTask`` with result or error when detailed).

        A working task whose work waits on a question is ``input_required`` with the
        questions when ``form`` (the poll declared form elicitation), else ``working``
        with a status message that says how to answer.
        """
        asks: dict[str, Any] = {}
        note: str | None = None
        bg = self.background
        if detailed and self.status == "working" and bg is not None and bg.inputs is not None:
            try:
                asks, note = bg.inputs(form)
            except Exception:
                log.exception("reading the questions of task %s", self.task_id)
        with self.lock:
            out: dict[str, Any] = {
                "taskId": self.task_id,
                "status": self.status,
                "createdAt": self.created_at,
                "lastUpdatedAt": self.last_updated_at,
                "ttlMs": None,
                "pollIntervalMs": POLL_INTERVAL_MS,
            }
            if self.status == "working" and asks:
                out["status"] = "input_required"
                out["inputRequests"] = asks
            working = self.status == "working"
            message = (
                self.status_message
                or (note if working else None)
                or (self.progress_message if working else None)
            )
            if message:
                out["statusMessage"] = message
            if detailed and self.status == "completed" and self.result is not None:
                out["result"] = self.result
            if detailed and self.status == "failed" and self.error is not None:
                out["error"] = self.error
            return out


class TaskStore:
    """The tasks of the process, oldest evicted beyond :data:`MAX_TASKS`."""

    def __init__(self, limit: int = MAX_TASKS) -> None:
        self._tasks: OrderedDict[str, Task] = OrderedDict()
        self._limit = limit
        self._lock = threading.Lock()

    def start(
        self,
        bg: Background[Any],
        finish: Callable[[Any], dict[str, Any]],
        fail: Callable[[BaseException], dict[str, Any]],
        reporter: ProgressReporter | None = None,
        working: Callable[[bool], str] | None = None,
    ) -> Task:
        """Create a task for ``bg`` and a watcher thread that completes it.

        ``finish`` turns the final tool output into the ``CallToolResult`` dict;
        ``fail`` turns an exception into one (an ``isError`` result): a
        :class:`~molforma.errors.MolFormaError` raised by ``bg.final`` is how work that
        ended badly (a failed calculation) makes its result an error. While the work
        runs its progress (``bg.progress``, else ``working(ended)``'s text) becomes the
        task's status message and goes to ``reporter`` (the call's ``progressToken``),
        at most a few times a second; the last note goes before the task completes.
        """
        task = Task(task_id=secrets.token_urlsafe(18), background=bg)
        with self._lock:
            self._tasks[task.task_id] = task
            while len(self._tasks) > self._limit:
                self._tasks.popitem(last=False)

        def note(ended: bool) -> dict[str, Any] | None:
            try:
                if bg.progress is not None:
                    return bg.progress()
                return {"message": working(ended)} if working is not None else None
            except Exception:
                log.exception("reading the progress of task %s", task.task_id)
                return None

        def tell(ended: bool) -> None:
            current = note(ended)
            if not current:
                return
            text = current.get("message")
            if isinstance(text, str) and text:
                with task.lock:
                    task.progress_message = text
            if reporter is not None:
                reporter.report(current, final=ended)

        def watch() -> None:
            try:
                while not bg.wait(PROGRESS_INTERVAL):
                    if task.status in TERMINAL:
                        break
                    tell(False)
                if task.status in TERMINAL or task.cancel_requested:
                    return  # the work ended because of tasks/cancel: it stays cancelled
                tell(True)
                result = finish(bg.final())
            except MolFormaError as exc:
                result = fail(exc)  # the work ended badly: an error result, no traceback
            except Exception as exc:
                log.exception("task %s failed", task.task_id)
                result = fail(exc)
            finally:
                if reporter is not None:
                    reporter.close()
            task.set_status("completed", result=result)

        threading.Thread(target=watch, name=f"task-{task.task_id[:6]}", daemon=True).start()
        return task

    def get(self, task_id: Any) -> Task:
        """The task, or -32602 for an unknown or evicted id.

        Raises:
            RpcError: -32602.
        """
        if not isinstance(task_id, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: taskId must be a string")
        with self._lock:
            task = self._tasks.get(task_id)
        if task is None:
            raise RpcError(INVALID_PARAMS, f"Unknown task: {task_id}", {"taskId": task_id})
        return task

    def cancel(self, task_id: Any) -> None:
        """Stop the task's work and mark it cancelled (a terminal task stays as it is).

        For a calculation this returns once the job has ended (its
        ``Background.cancel`` waits): the task, the job record and ``get_app_state``
        then all say cancelled together.
        """
        task = self.get(task_id)
        if task.status in TERMINAL:
            return
        with task.lock:
            task.cancel_requested = True
        if task.background is not None:
            try:
                stopped = task.background.cancel()
            except Exception:
                log.exception("cancelling task %s", task_id)
                stopped = None
            if stopped is False:
                with task.lock:
                    task.cancel_requested = False
                return  # cannot be stopped now: it ends with its real result
        task.set_status("cancelled")

    def all(self) -> list[Task]:
        """Every kept task, oldest first."""
        with self._lock:
            return list(self._tasks.values())
