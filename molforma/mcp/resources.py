"""MCP resources: app state and per-document views (SPEC.md section 9.4; no Qt).

Reads return the current content; there are no subscriptions. Text resources are
cut to their last 100,000 characters behind a leading note saying so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from molforma.errors import MolFormaError
from molforma.mcp.protocol import INVALID_PARAMS, RpcError

if TYPE_CHECKING:
    from molforma.mcp.server import ServerState

MAX_TEXT = 100_000
APP_STATE_URI = "molforma://app/state"
_DOC_URI = re.compile(r"^molforma://documents/(?P<doc>[A-Za-z0-9_-]+)/(?P<view>[a-z/]+)$")
LEGACY_NOT_FOUND = -32002

# view -> (name, title, mimeType, description)
VIEWS: dict[str, tuple[str, str, str, str]] = {
    "project": ("project", "Project JSON", "application/json",
                "The confirmed project envelope (*.molforma.json)."),
    "xyz": ("xyz", "XYZ coordinates", "chemical/x-xyz",
            "The confirmed structure as XYZ."),
    "nwchem": ("nwchem_input", "NWChem input", "text/plain",
               "The NWChem input generated from the confirmed project."),
    "calculation/output": ("calculation_output", "Calculation output", "text/plain",
                           "output.out of the document's latest calculation."),
    "results/summary": ("results_summary", "Results summary", "application/json",
                        "Summary of the loaded results."),
    "results/log": ("results_log", "Results log", "text/plain",
                    "Log text of the loaded results."),
}


def _clip(text: str) -> str:
    if len(text) <= MAX_TEXT or text.startswith("[MolForma: showing the last"):
        return text
    return (f"[MolForma: showing the last {MAX_TEXT:,} of {len(text):,} characters]\n"
            + text[-MAX_TEXT:])


def list_templates() -> list[dict[str, Any]]:
    """The ``resourceTemplates`` of every per-document view."""
    return [{"uriTemplate": f"molforma://documents/{{documentId}}/{view}", "name": name,
             "title": title, "mimeType": mime, "description": desc}
            for view, (name, title, mime, desc) in VIEWS.items()]


def list_resources(state: ServerState) -> list[dict[str, Any]]:
    """The app state plus each view of each open document."""
    out: list[dict[str, Any]] = [{
        "uri": APP_STATE_URI, "name": "app_state", "title": "Application state",
        "mimeType": "application/json",
        "description": "Documents, calculation, results and workers (as get_app_state).",
    }]
    for doc_id in list(state.documents):
        for view, (name, title, mime, desc) in VIEWS.items():
            out.append({"uri": f"molforma://documents/{doc_id}/{view}",
                        "name": f"{doc_id}_{name}", "title": f"{title} ({doc_id})",
                        "mimeType": mime, "description": desc})
    return out


def _not_found(uri: Any, era: str) -> RpcError:
    code = INVALID_PARAMS if era == "modern" else LEGACY_NOT_FOUND
    return RpcError(code, "Resource not found", {"uri": uri})


def read_resource(state: ServerState, uri: Any, *, era: str = "modern") -> list[dict[str, Any]]:
    """The ``contents`` of ``uri``.

    Raises:
        RpcError: not found (-32602 modern, -32002 legacy).
    """
    if not isinstance(uri, str):
        raise RpcError(INVALID_PARAMS, "Invalid params: uri must be a string")
    if uri == APP_STATE_URI:
        return [{"uri": uri, "mimeType": "application/json",
                 "text": _clip(json.dumps(_app_state(state), ensure_ascii=False))}]
    m = _DOC_URI.match(uri)
    if m is None or m["view"] not in VIEWS or m["doc"] not in state.documents:
        raise _not_found(uri, era)
    doc = state.documents[m["doc"]]
    reader = _READERS[m["view"]]
    try:
        text = reader(state, doc)
    except MolFormaError as exc:
        # The resource exists but has no content now (no calculation yet, no results).
        # A JSON view says so in JSON, so a client that parses by mimeType still can.
        if VIEWS[m["view"]][2] == "application/json":
            text = json.dumps(exc.to_dict(state.lang), ensure_ascii=False)
        else:
            text = exc.message(state.lang)
    return [{"uri": uri, "mimeType": VIEWS[m["view"]][2], "text": _clip(text)}]


def _app_state(state: ServerState) -> dict[str, Any]:
    from molforma.mcp.protocol import Request
    from molforma.mcp.registry import ToolContext
    from molforma.mcp.tools.calculation import app_state

    ctx = ToolContext(state=state, request=Request(id=0, method="resources/read", params={},
                                                   era="modern", version=""))
    return app_state(ctx)


def _project(state: ServerState, doc: Any) -> str:
    return json.dumps(doc.project, ensure_ascii=False, indent=1)


def _export(fmt: str) -> Callable[[ServerState, Any], str]:
    def read(state: ServerState, doc: Any) -> str:
        from molforma.document.ops import export_document

        return str(export_document(doc, fmt))

    return read


def _calc_output(state: ServerState, doc: Any) -> str:
    job = state.last_job.get(doc.id)
    if job is None:
        raise MolFormaError("no_calculation")
    text = str(job.output_tail(MAX_TEXT + 1))
    if len(text) > MAX_TEXT:
        text = (f"[MolForma: showing the last {MAX_TEXT:,} characters of "
                f"{job.folder / 'output.out'}]\n" + text[-MAX_TEXT:])
    return text


def _results_summary(state: ServerState, doc: Any) -> str:
    from molforma.results import get_section

    sess = state.results_if_any(doc.id)
    cur = sess.current if sess is not None else None
    if cur is None:
        raise MolFormaError("results_none_loaded")
    return json.dumps(get_section(cur, "summary"), ensure_ascii=False, indent=1)


def _results_log(state: ServerState, doc: Any) -> str:
    from molforma.results import get_section

    sess = state.results_if_any(doc.id)
    cur = sess.current if sess is not None else None
    if cur is None:
        raise MolFormaError("results_none_loaded")
    first = get_section(cur, "log", offset=0, limit=1)
    total = int(first.get("total") or 0)
    start = max(0, total - MAX_TEXT)
    parts: list[str] = []
    offset = start
    while offset < total:
        page = get_section(cur, "log", offset=offset, limit=65_536)
        text = page.get("text") or ""
        if not text:
            break
        parts.append(text)
        offset += len(text)
    text = "".join(parts)
    if start > 0:
        text = (f"[MolForma: showing the last {MAX_TEXT:,} of {total:,} characters]\n" + text)
    return text


_READERS: dict[str, Callable[[ServerState, Any], str]] = {
    "project": _project,
    "xyz": _export("xyz"),
    "nwchem": _export("nwchem"),
    "calculation/output": _calc_output,
    "results/summary": _results_summary,
    "results/log": _results_log,
}
