"""The server's side of a legacy connection that asks its client (no Qt).

A 2025-11-25 client that declared form elicitation in ``initialize`` is asked with
requests of ours (:mod:`molforma.mcp.client_requests`): this channel opens them, hands
the reader thread's responses to the question waiting for each, answers a ``ping``
while the dispatcher waits for a person, and runs a legacy tool call so that it (and the
message boxes a window command it queued opens) may ask the client
(docs/reference/mcp.md, Elicitation). Without that declaration the channel stays closed
and every method here does nothing. ``client_requests`` is imported only when a client
declares elicitation, so the first answers do not wait for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from molforma.mcp import protocol as P

if TYPE_CHECKING:
    from molforma.mcp.client_requests import ClientRequests, DialogElicitor
    from molforma.mcp.protocol import Request
    from molforma.mcp.state import AppServices


class ClientChannel:
    """The questions a :class:`~molforma.mcp.server.Server` may ask its legacy client."""

    def __init__(self, send: Callable[[dict[str, Any]], bool], state: AppServices) -> None:
        self._send = send
        self._state = state
        self._client: ClientRequests | None = None
        self._dialog_asker: DialogElicitor | None = None

    def open(self) -> None:
        """``initialize`` declared form elicitation: questions go out as elicitation/create."""
        from molforma.mcp.client_requests import ClientRequests

        self._client = ClientRequests(self._send)

    def close(self) -> None:
        """EOF or an exit signal: a call waiting for a person's answer ends now."""
        if self._client is not None:
            self._client.close()

    def abort_origin(self, rid: Any) -> None:
        """The request ``rid`` was cancelled: a call of it waiting for a person stops."""
        if self._client is not None:
            self._client.abort_origin(rid)

    def take(self, msg: dict[str, Any]) -> bool:
        """Reader thread: True when ``msg`` was taken (a response to us, or an urgent ping).

        A response to one of our questions wakes the call waiting for it (an unknown id
        goes on and is ignored like any response). While a call waits for a person, the
        dispatcher is busy, so a ``ping`` is answered here.
        """
        client = self._client
        if client is None:
            return False
        if "method" not in msg and ("result" in msg or "error" in msg):
            return client.on_response(msg)
        params = msg.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        if (
            msg.get("method") == "ping"
            and P.is_valid_id(msg.get("id"))
            and client.waiting()
            and not (isinstance(meta, dict) and P.PROTOCOL_VERSION_KEY in meta)
        ):
            self._send(P.response(msg["id"], {}))
            return True
        return False

    def serve(self, handler: Callable[[Request], dict[str, Any]], req: Request) -> dict[str, Any]:
        """Run ``handler`` on ``req``; a legacy tool call on an open channel may ask the client.

        Its handler finds the channel with ``client_requests.current()``; a window
        command it queued has the message boxes it opens asked of the client.
        """
        asking = self._client
        if req.era != "legacy" or req.method != "tools/call" or asking is None or asking.closed:
            return handler(req)
        from molforma.mcp import client_requests

        token = client_requests.serving(asking)
        try:
            result = handler(req)
        finally:
            client_requests.done_serving(token)
        structured = result.get("structuredContent")
        command_id = structured.get("commandId") if isinstance(structured, dict) else None
        bridge = self._state.window
        if isinstance(command_id, str) and bridge is not None and not result.get("isError"):
            if self._dialog_asker is None:
                self._dialog_asker = client_requests.DialogElicitor(asking, bridge)
            self._dialog_asker.track(command_id)
        return result
