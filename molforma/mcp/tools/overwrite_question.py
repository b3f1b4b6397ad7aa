"""Asking the person before ``save_file`` replaces a file (no Qt).

docs/reference/mcp.md, Elicitation: with ``overwrite`` omitted the client is asked, by an
``input_required`` round trip (2026-07-28) or an ``elicitation/create`` request
(2025-11-25 with elicitation declared); a decline is remembered for the path until
the document changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from molforma.errors import FileAccessError, MolFormaError
from molforma.lazy import lazy_import
from molforma.mcp import elicitation as E
from molforma.mcp.tool_registry import ToolContext

if TYPE_CHECKING:
    from molforma.mcp import client_requests
else:  # imported on first use (start-up time): molforma.lazy
    client_requests = lazy_import("molforma.mcp.client_requests")


def ask_overwrite(ctx: ToolContext, doc_id: str, path: str, rev: str, shown: str) -> None:
    """Return only when the person accepted; raise InputRequired or an error otherwise.

    2026-07-28: an ``input_required`` round trip. 2025-11-25 with elicitation declared
    in ``initialize``: an ``elicitation/create`` request, answered on the same
    connection while this call waits. A decline or cancel is remembered for the path
    until the document changes; asking the person again stays possible.
    """
    req = ctx.request
    bound = E.save_state_payload(doc_id, path, rev)
    state_text = req.params.get("requestState")
    if state_text is not None and req.era == "modern":
        payload = ctx.state.signer.verify(state_text)  # forged or tampered: JSON-RPC error
        if E.state_is_current(payload, bound):
            answer = E.overwrite_answer(req.params.get("inputResponses"))
            _settle(answer, doc_id, path, rev, shown)
            if answer is not None:
                return
        # A genuine but stale state, or no answer: ask again (below).
    channel = client_requests.current() if req.era == "legacy" else None
    if channel is not None:
        question = E.overwrite_question(shown, ctx.lang)[E.OVERWRITE_KEY]["params"]
        result = client_requests.elicit_result(
            channel.ask(client_requests.ELICIT, question, origin=req.id)
        )
        answer = E.overwrite_answer({E.OVERWRITE_KEY: result}) if result is not None else None
        if answer is None:
            raise MolFormaError(
                "overwrite_unanswered",
                path=shown,
                minutes=round(client_requests.ANSWER_TIMEOUT_S / 60),
            )
        _settle(answer, doc_id, path, rev, shown)
        return
    if not req.declares_form_elicitation:
        if E.DECLINES.stands(doc_id, path, rev):
            raise MolFormaError("overwrite_declined", path=shown, standing=True)
        raise FileAccessError("file_exists", path=shown)
    raise E.InputRequired(E.overwrite_question(shown, ctx.lang), ctx.state.signer.sign(bound))


def _settle(answer: str | None, doc_id: str, path: str, rev: str, shown: str) -> None:
    """Act on the person's answer: an accept returns, a decline or cancel is refused."""
    if answer == "accept":
        E.DECLINES.clear(doc_id, path)
    elif answer in ("decline", "cancel"):
        E.DECLINES.record(doc_id, path, rev)
        raise MolFormaError("overwrite_declined", path=shown, action=answer)
