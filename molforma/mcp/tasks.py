"""Long work followed by the Tasks extension ``io.modelcontextprotocol/tasks`` (no Qt).

A tool that starts work which goes on after the call (a calculation, a results
load) returns :class:`Background`. When the ``tools/call`` request declares the
extension the server turns it into a task (``resultType: "task"``) that stays
``working`` until the work ends and then holds the final tool result; otherwise the
call answers at once with ``Background.result`` and progress shows in
``get_app_state`` (SPEC.md section 9.3). The last 128 tasks are kept.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, Literal, TypeVar

from molforma.mcp.protocol import INVALID_PARAMS, RpcError

log = logging.getLogger("molforma.mcp")

POLL_INTERVAL_MS = 500
MAX_TASKS = 128
TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL = frozenset({"completed", "failed", "cancelled"})
OutputT = TypeVar("OutputT")


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
    """

    result: OutputT
    wait: Callable[[float | None], bool]
    cancel: Callable[[], bool | None]
    final: Callable[[], OutputT]
    inputs: Callable[[bool], tuple[dict[str, Any], str | None]] | None = None
    respond: Callable[[str, dict[str, Any]], None] | None = None
    # A batch job belongs to the cluster: closing the connection must not cancel it.
    survives_exit: bool = False


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
    cancel_requested: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def set_status(self, status: TaskStatus, *, message: str | None = None,
                   result: dict[str, Any] | None = None,
                   error: dict[str, Any] | None = None) -> bool:
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
                "taskId": self.task_id, "status": self.status,
                "createdAt": self.created_at, "lastUpdatedAt": self.last_updated_at,
                "ttlMs": None, "pollIntervalMs": POLL_INTERVAL_MS,
            }
            if self.status == "working" and asks:
                out["status"] = "input_required"
                out["inputRequests"] = asks
            if self.status_message or (self.status == "working" and note):
                out["statusMessage"] = self.status_message or note
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

    def start(self, bg: Background[Any], finish: Callable[[Any], dict[str, Any]],
              fail: Callable[[BaseException], dict[str, Any]]) -> Task:
        """Create a task for ``bg`` and a watcher thread that completes it.

        ``finish`` turns the final tool output into the ``CallToolResult`` dict;
        ``fail`` turns an exception into one (an ``isError`` result).
        """
        task = Task(task_id=secrets.token_urlsafe(18), background=bg)
        with self._lock:
            self._tasks[task.task_id] = task
            while len(self._tasks) > self._limit:
                self._tasks.popitem(last=False)

        def watch() -> None:
            try:
                bg.wait(None)
                if task.status in TERMINAL or task.cancel_requested:
                    return  # the work ended because of tasks/cancel: it stays cancelled
                result = finish(bg.final())
            except Exception as exc:
                log.exception("task %s failed", task.task_id)
                result = fail(exc)
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
