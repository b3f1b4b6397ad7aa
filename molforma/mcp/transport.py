"""Newline-delimited JSON-RPC over stdin/stdout with byte-level framing (no Qt).

stdout belongs to the protocol: :meth:`StdioTransport.start` duplicates fd 1 for the
protocol and points fd 1 (and ``sys.stdout``) at stderr, so a stray ``print`` in a
library, a C extension writing to fd 1, or a child process (NWChem inherits fd 1
unless told otherwise) can never corrupt the wire.

The reader splits raw bytes on ``\\n`` before decoding, so a UTF-8 character split
across two reads is reassembled; a line over 8 MiB is dropped up to its newline and
reported (the connection survives). The writer runs on its own thread; when more
than 32 MiB of output waits because the client stopped reading, the client is
disconnected (docs/reference/mcp.md, Limits).
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from molforma.lazylog import get_logger
from molforma.mcp.protocol import dumps

log = get_logger("molforma.mcp")

MAX_MESSAGE = 8 * 1024 * 1024
MAX_BACKLOG = 32 * 1024 * 1024
_CHUNK = 1 << 16


class LineEvent:
    """What the reader hands over: a decoded line, an oversize marker, or EOF.

    An oversize marker's ``text`` is the JSON text of the message's ``id`` when
    :func:`peek_id` found it at the start of the message, else empty.
    """

    __slots__ = ("kind", "text")

    def __init__(self, kind: str, text: str = "") -> None:
        self.kind = kind  # "line" | "oversize" | "eof" | "bad_utf8"
        self.text = text


# How much of the start of an oversize message is searched for its id.
_PEEK = 4096
_ID_VALUE = re.compile(rb'\s*:\s*(-?(?:0|[1-9][0-9]*)(?![0-9.eE])|"(?:[^"\\\x00-\x1f]|\\.)*")')


def peek_id(head: bytes) -> str:
    """The JSON text of the top-level ``"id"`` member in the first bytes of a message.

    A message over 8 MiB is not decoded, but its answer should still carry its id
    (clients match answers by id). The usual writers put ``id`` before ``params``, so the
    first few KiB are scanned as JSON (strings skipped, nesting counted) for an ``"id"``
    key of the outer object with an integer or string value; "" when there is none
    there, when the text is not an object, or when anything looks off.
    """
    n = len(head)
    k = 0
    while k < n and head[k] in b" \t\r":
        k += 1
    if k >= n or head[k] != ord("{"):
        return ""
    depth = 0
    while k < n:
        c = head[k]
        if c == ord('"'):
            end = k + 1
            while end < n and head[end] != ord('"'):
                end += 2 if head[end] == ord("\\") else 1
            if end >= n:
                return ""
            if depth == 1 and head[k : end + 1] == b'"id"':
                m = _ID_VALUE.match(head, end + 1)
                if m:
                    return m.group(1).decode("utf-8", "replace")
                # a value "id" (not a key), or an id of another type: keep looking
            k = end + 1
            continue
        if c in b"{[":
            depth += 1
        elif c in b"}]":
            depth -= 1
            if depth <= 0:
                return ""
        k += 1
    return ""


def split_lines(buf: bytearray, chunk: bytes, skipping: bool) -> tuple[list[LineEvent], bool]:
    """Add ``chunk`` to ``buf`` and cut complete lines out of it (pure; used by tests).

    ``skipping`` is True while the rest of an oversize line is being dropped.
    Returns the events and the new ``skipping`` state; ``buf`` keeps the partial line.
    """
    events: list[LineEvent] = []
    start = 0
    data = bytes(buf) + chunk if buf else chunk
    buf.clear()
    while True:
        nl = data.find(b"\n", start)
        if nl < 0:
            rest = data[start:]
            if skipping:
                break
            if len(rest) > MAX_MESSAGE:
                events.append(LineEvent("oversize", peek_id(rest[:_PEEK])))
                skipping = True
                break
            buf.extend(rest)
            break
        line = data[start:nl]
        start = nl + 1
        if skipping:
            skipping = False
            continue
        if len(line) > MAX_MESSAGE:
            events.append(LineEvent("oversize", peek_id(line[:_PEEK])))
            continue
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line.strip():
            continue
        try:
            events.append(LineEvent("line", line.decode("utf-8")))
        except UnicodeDecodeError:
            events.append(LineEvent("bad_utf8"))
    return events, skipping


class StdioTransport:
    """Reader and writer threads over the process's stdin and (protected) stdout."""

    def __init__(self, in_fd: int = 0, out_fd: int = 1) -> None:
        self._in_fd = in_fd
        self._orig_out_fd = out_fd
        self._out_fd = -1
        self._out: deque[bytes] = deque()
        self._backlog = 0
        self._cond = threading.Condition()
        self._closed = False
        self.disconnected = threading.Event()
        self.overflowed = False
        self._writer: threading.Thread | None = None
        self._reader: threading.Thread | None = None

    # -- set-up ----------------------------------------------------------------------------
    def start(self, on_event: Callable[[LineEvent], None]) -> None:
        """Protect fd 1, then start the reader (calling ``on_event``) and the writer."""
        self._out_fd = os.dup(self._orig_out_fd)
        os.set_inheritable(self._out_fd, False)
        sys.stdout.flush()
        os.dup2(2, self._orig_out_fd)
        sys.stdout = sys.stderr
        self._writer = threading.Thread(target=self._write_loop, name="mcp-writer", daemon=True)
        self._writer.start()
        self._reader = threading.Thread(
            target=self._read_loop, args=(on_event,), name="mcp-reader", daemon=True
        )
        self._reader.start()

    # -- reading ---------------------------------------------------------------------------
    def _read_loop(self, on_event: Callable[[LineEvent], None]) -> None:
        buf = bytearray()
        skipping = False
        while True:
            try:
                chunk = os.read(self._in_fd, _CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                break
            events, skipping = split_lines(buf, chunk, skipping)
            for ev in events:
                self._deliver(on_event, ev)
        if buf and not skipping:
            # A last message without its newline still counts.
            events, _ = split_lines(buf, b"\n", False)
            for ev in events:
                self._deliver(on_event, ev)
        on_event(LineEvent("eof"))

    @staticmethod
    def _deliver(on_event: Callable[[LineEvent], None], ev: LineEvent) -> None:
        # The reader must survive anything a line does, or EOF would never be seen.
        try:
            on_event(ev)
        except Exception:
            log.exception("handling an input line failed")

    # -- writing ---------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> bool:
        """Queue one message; False when the connection is gone.

        Disconnects when the client let more than 32 MiB pile up unread.
        """
        try:
            data = dumps(message) + b"\n"
        except Exception:  # the connection must outlive one unencodable answer
            log.exception("cannot encode an answer")
            rid = message.get("id")
            err: dict[str, Any] = {
                "jsonrpc": "2.0",
                "error": {"code": -32603, "message": "Internal error"},
            }
            if isinstance(rid, str | int) and not isinstance(rid, bool):
                err["id"] = rid
            data = dumps(err) + b"\n"
        with self._cond:
            if self._closed:
                return False
            if self._backlog + len(data) > MAX_BACKLOG and self._backlog > 0:
                log.error("client stopped reading (%d bytes waiting); disconnecting", self._backlog)
                self._closed = True
                self.overflowed = True
                self._out.clear()
                self._cond.notify_all()
                self.disconnected.set()
                return False
            self._out.append(data)
            self._backlog += len(data)
            self._cond.notify()
        return True

    def _write_loop(self) -> None:
        while True:
            with self._cond:
                while not self._out and not self._closed:
                    self._cond.wait()
                if self._closed and not self._out:
                    return
                data = self._out.popleft()
            try:
                view = memoryview(data)
                while view:
                    n = os.write(self._out_fd, view)
                    view = view[n:]
            except OSError:
                with self._cond:
                    self._closed = True
                    self._out.clear()
                self.disconnected.set()
                return
            finally:
                with self._cond:
                    self._backlog -= len(data)

    def close(self, timeout: float = 1.0) -> None:
        """Flush what is queued (for at most ``timeout`` seconds) and stop writing."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._writer is not None:
            self._writer.join(timeout)
