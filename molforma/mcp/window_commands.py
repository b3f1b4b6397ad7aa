"""Window commands queued for the Qt event loop: ids, states, limits, handlers (no Qt).

A window-changing tool puts its validated input model into a :class:`WindowCommand`
and hands it to :meth:`CommandStore.add`, which answers at once with a ``queued`` record. The
window's runner (``molforma.gui.commands``) takes records in order, re-checks the
document revision and the candidate just before running one, and moves it to
``running`` and then ``done`` (the GUI call returned) or ``failed`` with the reason
(docs/reference/window.md, Commands). At most :data:`MAX_PENDING` commands wait or run at once; the
last :data:`MAX_RECORDS` records are kept for ``get_ui_command``.

Work a command started (a clean-up, a calculation, a results load, a history scan)
is attached to its record as a :class:`StartedWork`, which a task follows to its end.

The runner finds each command's handler in a :class:`CommandTable`: the tool name maps
to the input model the command carries and to a handler typed for that model (MCP SDK
``lowlevel/server.py``: a method, its params model, its handler), so a handler reads
fields of a checked model, never keys of a dict.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from molforma.errors import MolFormaError
from molforma.i18n import register

MAX_PENDING = 16
MAX_RECORDS = 128
CommandStatus = Literal["queued", "running", "done", "failed"]

register(
    {
        "gui_queue_full": {
            "en": "{pending} window commands are already waiting (at most {limit}); wait for "
            "them with get_ui_command before sending more.",
            "ja": "ウィンドウ操作が既に {pending} 件待っています（最大 {limit} 件）。get_ui_command "
            "で終わりを確かめてから送ってください。",
        },
        "unknown_command": {
            "en": "No window command {commandId} (only the last {limit} are kept).",
            "ja": "ウィンドウ操作 {commandId} はありません（最新の {limit} 件だけ保持します）。",
        },
        "command_dropped": {
            "en": "The window command was cancelled before it ran; nothing changed.",
            "ja": "ウィンドウ操作は実行前に取り消されました。何も変わっていません。",
        },
        "command_timeout": {
            "en": "The window did not finish the command within {seconds} s; it may already "
            "have run. Read it with get_ui_command {commandId} before retrying.",
            "ja": "ウィンドウが {seconds} 秒以内に操作を終えませんでした。既に実行された可能性が"
            "あります。再送する前に get_ui_command {commandId} で確認してください。",
        },
        "unknown_window_command": {
            "en": "The window has no command {tool}.",
            "ja": "ウィンドウには操作 {tool} がありません。",
        },
        "bad_window_command": {
            "en": "The window command {tool} has invalid arguments: {detail}",
            "ja": "ウィンドウ操作 {tool} の引数が不正です: {detail}",
        },
        "command_timeout_not_run": {
            "en": "The window did not start the command within {seconds} s (a dialog may be "
            "open); it was withdrawn and did not run.",
            "ja": "ウィンドウが {seconds} 秒以内に操作を始めませんでした（ダイアログが開いている"
            "可能性があります）。操作は取り下げられ、実行されていません。",
        },
    }
)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class StartedWork:
    """Work a command started that goes on after the GUI call returned.

    Attributes:
        kind: ``cleanup``, ``calculation``, ``results_load`` or ``history_scan``.
        wait: Blocks until the work ends or ``timeout`` seconds pass; True when it ended.
        cancel: Stops it like its own cancel action.
        status: The current status word (``running``, ``finished``, ``cancelled``,
            ``failed``, ``unchanged`` …).
        error: The error the window showed when the work failed or did nothing.
        progress: ``progress()`` → ``{"message": str, "progress"?: number, "total"?:
            number}`` or None: what the work reports now (for a calculation
            :func:`molforma.jobs.progress_note`); read a few times a second from the
            server's thread, so it must be thread-safe and must not touch Qt. It becomes
            the task's ``statusMessage`` and ``notifications/progress`` (pass it on as
            :attr:`molforma.mcp.tasks.Background.progress`).
    """

    kind: str
    wait: Callable[[float | None], bool]
    cancel: Callable[[], None]
    status: Callable[[], str]
    # Why the work failed or changed nothing, as the window showed it (None: it did not).
    error: Callable[[], MolFormaError | None] | None = None
    # What the work reports while it runs (thread-safe, no Qt); None: it reports nothing.
    progress: Callable[[], dict[str, Any] | None] | None = None


# The fields of a window tool's input that the command carries as its own envelope.
ENVELOPE = frozenset({"documentId", "expectedRevision"})


@dataclass
class WindowCommand:
    """What a window tool asks the window to do.

    Attributes:
        tool: The tool name (the runner's :class:`CommandTable` is keyed by it).
        input: The tool's validated input model (what the handler reads), or None for
            a command queued with ``args`` alone (the window's own dialog answers).
        args: The arguments as plain data: ``input`` dumped when it is given (for the
            command's record); else what the table validates into the tool's model.
        document_id: Document whose revision is re-checked before running.
        expected_revision: The revision the caller saw.
        edits_document: A change to the document: refused behind a modal dialog.
        allow_candidate: Whether a candidate may exist when it runs.
    """

    tool: str
    args: dict[str, Any] = field(default_factory=dict)
    document_id: str | None = None
    expected_revision: str | None = None
    edits_document: bool = False
    allow_candidate: bool = True
    input: BaseModel | None = None

    def __post_init__(self) -> None:
        if self.input is not None and not self.args:
            self.args = self.input.model_dump(mode="json", exclude=set(ENVELOPE))


class AnswerDialogInput(BaseModel):
    """A press in an open dialog, queued by the window's dialog service (not a tool)."""

    model_config = ConfigDict(extra="forbid")
    dialogId: str = Field(description="The dialog's id.")
    button: str | None = Field(None, description="The button; null: Escape.")


@dataclass
class CommandRecord:
    """One queued command and what became of it."""

    id: str
    command: WindowCommand
    status: CommandStatus = "queued"
    created_at: str = field(default_factory=_now)
    started_at: str | None = None
    finished_at: str | None = None
    error: MolFormaError | None = None
    result: dict[str, Any] = field(default_factory=dict)
    work: StartedWork | None = None
    dialogs: list[str] = field(default_factory=list)
    ended: threading.Event = field(default_factory=threading.Event)
    queued_at: float = field(default_factory=time.perf_counter)
    done_at: float | None = None

    @property
    def terminal(self) -> bool:
        """``done`` or ``failed``."""
        return self.status in ("done", "failed")

    def to_dict(self, lang: str | None = None) -> dict[str, Any]:
        """The public record (``get_ui_command``)."""
        out: dict[str, Any] = {
            "commandId": self.id,
            "tool": self.command.tool,
            "status": self.status,
            "createdAt": self.created_at,
            "startedAt": self.started_at,
            "finishedAt": self.finished_at,
            "result": dict(self.result),
            "error": self.error.to_dict(lang) if self.error is not None else None,
            "dialogs": list(self.dialogs),
        }
        action = self.command.args.get("action")
        if isinstance(action, str):
            out["action"] = action
        if self.work is not None:
            out["work"] = {"kind": self.work.kind, "status": self.work.status()}
            err = self.work.error() if self.work.error is not None else None
            if err is not None:
                out["work"]["error"] = err.to_dict(lang)
        return out


class CommandStore:
    """The queue and the kept records of window commands (thread-safe)."""

    def __init__(
        self,
        max_pending: int = MAX_PENDING,
        max_records: int = MAX_RECORDS,
        on_add: Callable[[], None] | None = None,
    ) -> None:
        self._records: OrderedDict[str, CommandRecord] = OrderedDict()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.max_pending = max_pending
        self.max_records = max_records
        self.on_add = on_add

    def add(self, command: WindowCommand, *, wake: bool = True) -> CommandRecord:
        """Queue ``command``; the runner is woken (unless ``wake`` is False: call :meth:`wake`).

        Raises:
            MolFormaError: ``gui_queue_full`` when :attr:`max_pending` wait or run already.
        """
        with self._lock:
            pending = sum(1 for r in self._records.values() if not r.terminal)
            if pending >= self.max_pending:
                raise MolFormaError("gui_queue_full", pending=pending, limit=self.max_pending)
            rec = CommandRecord(id=f"cmd-{next(self._ids)}", command=command)
            self._records[rec.id] = rec
            # Evict the oldest finished records; pending ones are always kept.
            while len(self._records) > self.max_records:
                victim = next((k for k, r in self._records.items() if r.terminal), None)
                if victim is None:
                    break
                del self._records[victim]
        if wake:
            self.wake()
        return rec

    def wake(self) -> None:
        """Tell the runner that commands wait."""
        if self.on_add is not None:
            self.on_add()

    def get(self, command_id: str) -> CommandRecord:
        """The record of ``command_id``.

        Raises:
            MolFormaError: ``unknown_command``.
        """
        with self._lock:
            rec = self._records.get(command_id)
        if rec is None:
            raise MolFormaError("unknown_command", commandId=command_id, limit=self.max_records)
        return rec

    def queued(self) -> list[CommandRecord]:
        """Records waiting to run, oldest first."""
        with self._lock:
            return [r for r in self._records.values() if r.status == "queued"]

    def pending(self) -> list[CommandRecord]:
        """Records queued or running, oldest first."""
        with self._lock:
            return [r for r in self._records.values() if not r.terminal]

    def start(self, rec: CommandRecord) -> bool:
        """Mark ``rec`` running; False when it is no longer queued (dropped)."""
        with self._lock:
            if rec.status != "queued":
                return False
            rec.status = "running"
            rec.started_at = _now()
            return True

    def finish(
        self,
        rec: CommandRecord,
        result: dict[str, Any] | None = None,
        work: StartedWork | None = None,
    ) -> None:
        """Mark ``rec`` done with the GUI call's result."""
        with self._lock:
            if rec.terminal:
                return
            rec.status = "done"
            rec.result = dict(result or {})
            rec.work = work
            rec.finished_at = _now()
            rec.done_at = time.perf_counter()
        rec.ended.set()

    def fail(self, rec: CommandRecord, error: MolFormaError) -> None:
        """Mark ``rec`` failed with ``error`` (the reason the caller reads)."""
        with self._lock:
            if rec.terminal:
                return
            rec.status = "failed"
            rec.error = error
            rec.finished_at = _now()
            rec.done_at = time.perf_counter()
        rec.ended.set()

    def drop(self, rec: CommandRecord) -> bool:
        """Fail a still-queued command as cancelled; False when it already started."""
        with self._lock:
            if rec.status != "queued":
                return False
        self.fail(rec, MolFormaError("command_dropped"))
        return rec.error is not None and rec.error.code == "command_dropped"

    def wait(self, rec: CommandRecord, timeout: float) -> CommandRecord:
        """Wait for ``rec`` to end (a synchronous window call).

        Raises:
            MolFormaError: ``command_timeout`` saying whether it may already have run.
        """
        if not rec.ended.wait(timeout):
            if self.drop(rec):
                raise MolFormaError(
                    "command_timeout_not_run", seconds=timeout, commandId=rec.id, ran=False
                )
            raise MolFormaError(
                "command_timeout", seconds=timeout, commandId=rec.id, status=rec.status, ran=True
            )
        return rec


ModelT = TypeVar("ModelT", bound=BaseModel)
ResultT = TypeVar("ResultT")


@dataclass(frozen=True)
class CommandHandler(Generic[ModelT, ResultT]):
    """One entry of a :class:`CommandTable`: the input model and the handler typed for it."""

    model: type[ModelT]
    run: Callable[[CommandRecord, ModelT], ResultT]


class CommandTable(Generic[ResultT]):
    """The window commands a runner knows: tool name -> (input model, handler).

    :meth:`add` ties a handler to the model it reads, so mypy checks the pair;
    :meth:`dispatch` gives the handler the model the command carries, or validates the
    command's ``args`` into it (a command queued with plain data), so every handler
    runs on a checked model.
    """

    def __init__(self) -> None:
        self._entries: dict[str, CommandHandler[Any, ResultT]] = {}

    def add(
        self, tool: str, model: type[ModelT], run: Callable[[CommandRecord, ModelT], ResultT]
    ) -> None:
        """Register ``run`` for ``tool``, whose commands carry a ``model``.

        Raises:
            ValueError: ``tool`` is registered already.
        """
        if tool in self._entries:
            raise ValueError(f"window command {tool!r} registered twice")
        self._entries[tool] = CommandHandler(model, run)

    def __contains__(self, tool: object) -> bool:
        return tool in self._entries

    def tools(self) -> list[str]:
        """The registered tool names."""
        return list(self._entries)

    def model_of(self, rec: CommandRecord) -> BaseModel:
        """The checked input model of ``rec``'s command.

        Raises:
            MolFormaError: ``unknown_window_command``, or ``bad_window_command`` when
                plain ``args`` do not fit the tool's model.
        """
        cmd = rec.command
        entry = self._entries.get(cmd.tool)
        if entry is None:
            raise MolFormaError("unknown_window_command", tool=cmd.tool)
        if isinstance(cmd.input, entry.model):
            given: BaseModel = cmd.input
            return given
        data = dict(cmd.args)
        fields = entry.model.model_fields
        # A command queued with plain data names its document in the envelope only.
        if "documentId" in fields:
            data.setdefault("documentId", cmd.document_id or "")
        if "expectedRevision" in fields:
            data.setdefault("expectedRevision", cmd.expected_revision or "")
        try:
            checked: BaseModel = entry.model.model_validate(data)
        except PydanticValidationError as exc:
            detail = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                for e in exc.errors(include_url=False)[:5]
            )
            raise MolFormaError("bad_window_command", tool=cmd.tool, detail=detail) from exc
        return checked

    def dispatch(self, rec: CommandRecord) -> ResultT:
        """Run ``rec``'s handler on its checked input model.

        Raises:
            MolFormaError: as :meth:`model_of`, or what the handler raises.
        """
        entry = self._entries.get(rec.command.tool)
        model = self.model_of(rec)
        assert entry is not None  # model_of refused an unknown tool
        return entry.run(rec, model)
