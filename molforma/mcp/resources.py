"""MCP resources: app state and per-document views (docs/reference/mcp.md, Resources and Size of results; no Qt).

Reads return the current content; there are no subscriptions. Log-like text
resources (calculation output, results log, app state) are cut to their last
100,000 characters behind a leading note saying so. Structure resources (project,
XYZ, MOL, NWChem input, a results structure or mode, the spectrum, one results
item) are whole: tool results link to them (``resource_link``) exactly because
their content is too big to inline, so they must hold all of it.

A resource with nothing to show (no calculation yet, no results loaded, results
without modes or log, a document without atoms) answers with a JSON-RPC error whose
message says what to do first, never with a sentence under a chemical, CSV or JSON
MIME type: a client that parses the body by its MIME type would read that sentence
as a molecule or a table (docs/reference/mcp.md, Resources).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from molforma.errors import MolFormaError
from molforma.file_formats import mime_of
from molforma.i18n import register
from molforma.lazy import lazy_import
from molforma.mcp.paging import DOCUMENT_VIEWS
from molforma.mcp.protocol import INVALID_PARAMS, Request, RpcError

if TYPE_CHECKING:
    # Both modes' services (headless and window) serve resources; the server imports this.
    from molforma import results as results_package
    from molforma.app import ops
    from molforma.mcp import list_schema, tool_registry
    from molforma.mcp.state import AppServices as ServerState
    from molforma.mcp.tools import calculation
else:  # imported on first use (start-up time): molforma.lazy
    calculation = lazy_import("molforma.mcp.tools.calculation")
    list_schema = lazy_import("molforma.mcp.list_schema")
    ops = lazy_import("molforma.app.ops")
    results_package = lazy_import("molforma.results")
    tool_registry = lazy_import("molforma.mcp.tool_registry")

MAX_TEXT = 100_000
APP_STATE_URI = "molforma://app/state"
_DOC_URI = re.compile(r"^molforma://documents/(?P<doc>[A-Za-z0-9_-]+)/(?P<view>[a-z/]+)$")
_INDEXED_URI = re.compile(
    r"^molforma://documents/(?P<doc>[A-Za-z0-9_-]+)/results/"
    r"(?P<view>structures|modes|items/(?P<section>[a-z_]+))/"
    r"(?P<index>0|[1-9][0-9]{0,8})$"
)
LEGACY_NOT_FOUND = -32002

register(
    {
        "resource_no_calculation": {
            "en": "Nothing to show yet: no calculation of this document has started. Start one "
            "with the calculation tool (action start), then read this resource again.",
            "ja": "まだ表示するものがありません。この文書の計算は始まっていません。calculation "
            "ツール（action start）で計算を始めてから、このリソースを読み直してください。",
        },
        "resource_no_results": {
            "en": "Nothing to show yet: no results are loaded for this document. Load them with "
            "results_action (action open_file or open_directory) first.",
            "ja": "まだ表示するものがありません。この文書には結果が読み込まれていません。先に "
            "results_action（action open_file か open_directory）で読み込んでください。",
        },
        "resource_no_modes": {
            "en": "Nothing to show: the loaded results ({source}) hold no vibrational modes. Load "
            "the output of a frequency calculation with results_action first.",
            "ja": "表示するものがありません。読み込まれた結果（{source}）には基準振動がありません。"
            "先に results_action で振動数計算の出力を読み込んでください。",
        },
        "resource_no_displacements": {
            "en": "Nothing to show: mode {mode} of the loaded results ({source}) has no "
            "displacement vectors (get_results section modes gives its frequency). Load a "
            "file that prints them (the frequency output or its MOLDEN file) with "
            "results_action first.",
            "ja": "表示するものがありません。読み込まれた結果（{source}）のモード {mode} には変位"
            "ベクトルがありません（振動数は get_results の section modes で読めます）。"
            "変位ベクトルを含むファイル（振動数計算の出力か MOLDEN ファイル）を先に "
            "results_action で読み込んでください。",
        },
        "resource_no_log": {
            "en": "Nothing to show: the loaded results ({source}) have no log text. Load the "
            "calculation's output file (output.out) with results_action open_file to read "
            "its log.",
            "ja": "表示するものがありません。読み込まれた結果（{source}）にはログがありません。"
            "ログを読むには results_action open_file で計算の出力ファイル（output.out）を"
            "読み込んでください。",
        },
        "resource_no_atoms": {
            "en": "Nothing to show yet: the document has no confirmed atoms. Add some first "
            "(add_atoms, import_document or open_file, then confirm the candidate with the "
            "history tool).",
            "ja": "まだ表示するものがありません。文書に確定した原子がありません。先に原子を加えて"
            "ください（add_atoms、import_document か open_file のあと、history ツールで"
            "候補を確定）。",
        },
    }
)

# view -> (name, title, mimeType, description)
VIEWS: dict[str, tuple[str, str, str, str]] = {
    **DOCUMENT_VIEWS,
    "calculation/output": (
        "calculation_output",
        "Calculation output",
        "text/plain",
        "output.out of the document's latest calculation.",
    ),
    "results/summary": (
        "results_summary",
        "Results summary",
        "application/json",
        "Summary of the loaded results.",
    ),
    "results/log": ("results_log", "Results log", "text/plain", "Log text of the loaded results."),
    "results/spectrum": (
        "results_spectrum",
        "IR spectrum",
        "text/csv",
        "Normal modes of the loaded results as CSV: mode, frequency (cm-1; "
        "negative = imaginary), IR intensity (km/mol).",
    ),
}
# Views that are cut to their last 100,000 characters (logs); the others are whole.
CLIPPED = frozenset({"calculation/output", "results/log"})

# Templates with an index (a trajectory frame, a mode, one item of any results section).
INDEXED: dict[str, tuple[str, str, str, str]] = {
    "results/structures/{index}": (
        "results_structure",
        "Results structure",
        mime_of("xyz"),
        "Structure {index} (0-based) of the loaded results (trajectory frame) as XYZ.",
    ),
    "results/modes/{index}": (
        "results_mode",
        "Normal mode",
        mime_of("xyz"),
        "Mode {index} (0-based) as XYZ of the reference structure with the displacement "
        "vector of each atom in columns 5-7 (as Jmol and Molden read it).",
    ),
    "results/items/{section}/{index}": (
        "results_item",
        "Results item",
        "application/json",
        "Item {index} (0-based) of a get_results section, whole, as JSON.",
    ),
}


def _clip(text: str) -> str:
    if len(text) <= MAX_TEXT or text.startswith("[MolForma: showing the last"):
        return text
    return (
        f"[MolForma: showing the last {MAX_TEXT:,} of {len(text):,} characters]\n"
        + text[-MAX_TEXT:]
    )


def list_templates() -> list[dict[str, Any]]:
    """The ``resourceTemplates`` of every per-document view and of the tool output schemas."""
    both = {**VIEWS, **INDEXED}
    return [
        *(
            {
                "uriTemplate": f"molforma://documents/{{documentId}}/{view}",
                "name": name,
                "title": title,
                "mimeType": mime,
                "description": desc,
            }
            for view, (name, title, mime, desc) in both.items()
        ),
        dict(list_schema.SCHEMA_TEMPLATE),
    ]


def list_resources(state: ServerState) -> list[dict[str, Any]]:
    """The app state plus each view of each open document."""
    out: list[dict[str, Any]] = [
        {
            "uri": APP_STATE_URI,
            "name": "app_state",
            "title": "Application state",
            "mimeType": "application/json",
            "description": "Documents, calculation, results and workers (as get_app_state).",
        }
    ]
    for doc_id in list(state.documents):
        for view, (name, title, mime, desc) in VIEWS.items():
            out.append(
                {
                    "uri": f"molforma://documents/{doc_id}/{view}",
                    "name": f"{doc_id}_{name}",
                    "title": f"{title} ({doc_id})",
                    "mimeType": mime,
                    "description": desc,
                }
            )
    return out


def _not_found(uri: Any, era: str) -> RpcError:
    code = INVALID_PARAMS if era == "modern" else LEGACY_NOT_FOUND
    return RpcError(code, "Resource not found", {"uri": uri})


def _nothing_to_show(uri: str, era: str, exc: MolFormaError, lang: str) -> RpcError:
    """The resource error of a resource that exists but has nothing to show now.

    The code is the era's "resource not found" (there is no content to find); the
    message, in the display language, names what to do first, and ``data.code`` is the
    stable reason an agent can act on.
    """
    code = INVALID_PARAMS if era == "modern" else LEGACY_NOT_FOUND
    return RpcError(code, exc.message(lang), {"uri": uri, "code": exc.code})


def read_resource(state: ServerState, uri: Any, *, era: str = "modern") -> list[dict[str, Any]]:
    """The ``contents`` of ``uri``.

    Raises:
        RpcError: not found, or nothing to show yet (-32602 modern, -32002 legacy).
    """
    if not isinstance(uri, str):
        raise RpcError(INVALID_PARAMS, "Invalid params: uri must be a string")
    if uri == APP_STATE_URI:
        return [
            {
                "uri": uri,
                "mimeType": "application/json",
                "text": _clip(json.dumps(_app_state(state), ensure_ascii=False)),
            }
        ]
    if uri.startswith("molforma://tools/"):
        # A tool's full output schema (tools/list sends a thin one; molforma.mcp.list_schema).
        schema = tool_registry.output_schema_resource(state.mode, uri)
        if schema is None:
            raise _not_found(uri, era)
        return schema
    indexed = _INDEXED_URI.match(uri)
    if indexed is not None:
        if indexed["doc"] not in state.documents:
            raise _not_found(uri, era)
        return _read_indexed(state, indexed, uri, era)
    m = _DOC_URI.match(uri)
    if m is None or m["view"] not in VIEWS or m["doc"] not in state.documents:
        raise _not_found(uri, era)
    doc = state.documents[m["doc"]]
    reader = _READERS[m["view"]]
    try:
        text = reader(state, doc)
    except MolFormaError as exc:
        raise _nothing_to_show(uri, era, exc, state.lang) from exc
    if m["view"] in CLIPPED:
        text = _clip(text)
    return [{"uri": uri, "mimeType": VIEWS[m["view"]][2], "text": text}]


def _current_results(state: ServerState, doc_id: str) -> Any:
    sess = state.results_if_any(doc_id)
    cur = sess.current if sess is not None else None
    if cur is None:
        raise MolFormaError("resource_no_results")
    return cur


def _source(results: Any) -> str:
    return str(getattr(results, "source", "") or "")


def _read_indexed(state: ServerState, m: re.Match[str], uri: str, era: str) -> list[dict[str, Any]]:
    """A results structure or mode as XYZ, or one item of a section as JSON."""
    index = int(m["index"])
    try:
        cur = _current_results(state, m["doc"])
        if m["view"] == "structures":
            if index >= len(cur.structures):
                raise _not_found(uri, era)
            return [
                {
                    "uri": uri,
                    "mimeType": mime_of("xyz"),
                    "text": structure_xyz(cur.structures[index]),
                }
            ]
        if m["view"] == "modes":
            if not cur.modes:
                raise MolFormaError("resource_no_modes", source=_source(cur))
            if index >= len(cur.modes):
                raise _not_found(uri, era)
            vecs = cur.displacements(index)
            ref = cur.reference_structure()
            if vecs is None or ref is None or len(vecs) != len(ref.symbols):
                # The mode exists, but these results carry no vectors to draw it with.
                raise MolFormaError("resource_no_displacements", mode=index, source=_source(cur))
            return [
                {
                    "uri": uri,
                    "mimeType": mime_of("xyz"),
                    "text": mode_xyz(ref, vecs, cur.modes[index]),
                }
            ]
        page = results_package.get_section(cur, m["section"], offset=index, limit=1)
    except MolFormaError as exc:
        if exc.code in ("results_unknown_section", "results_mode_required"):
            raise _not_found(uri, era) from exc
        raise _nothing_to_show(uri, era, exc, state.lang) from exc
    items = page.get("items") or []
    if not items:
        raise _not_found(uri, era)
    return [
        {
            "uri": uri,
            "mimeType": "application/json",
            "text": json.dumps(items[0], ensure_ascii=False),
        }
    ]


def structure_xyz(st: Any) -> str:
    """One results structure as XYZ (energy in hartree on the comment line when known)."""
    comment = st.label + (f" energy={st.energy!r}" if st.energy is not None else "")
    lines = [str(len(st.symbols)), " ".join(comment.split())]
    lines += [
        f"{el:<3}{x:16.8f}{y:16.8f}{z:16.8f}"
        for el, (x, y, z) in zip(st.symbols, st.coordinates, strict=True)
    ]
    return "\n".join(lines) + "\n"


def mode_xyz(ref: Any, vecs: list[list[float]], mode: Any) -> str:
    """A normal mode as XYZ: reference position and displacement vector of each atom."""
    lines = [str(len(ref.symbols)), f"mode {mode.index} frequency={mode.frequency!r} cm-1"]
    lines += [
        f"{el:<3}{x:16.8f}{y:16.8f}{z:16.8f}{dx:12.6f}{dy:12.6f}{dz:12.6f}"
        for el, (x, y, z), (dx, dy, dz) in zip(ref.symbols, ref.coordinates, vecs, strict=True)
    ]
    return "\n".join(lines) + "\n"


def spectrum_csv(results: Any) -> str:
    """The normal modes as CSV (what a plotting tool or a spreadsheet reads)."""
    rows = ["mode,frequency_cm-1,ir_intensity_km/mol"]
    for m in results.modes:
        ir = "" if m.irIntensity is None else repr(float(m.irIntensity))
        rows.append(f"{m.index},{float(m.frequency)!r},{ir}")
    return "\n".join(rows) + "\n"


def _app_state(state: ServerState) -> dict[str, Any]:
    ctx = tool_registry.ToolContext(
        state=state,
        request=Request(id=0, method="resources/read", params={}, era="modern", version=""),
    )
    return calculation.app_state(ctx)


def _export(fmt: str) -> Callable[[ServerState, Any], str]:
    # The project (settings too) and the NWChem input have content for an empty document;
    # a structure format with no atoms would be an empty molecule, so it is nothing to show.
    structure = fmt not in ("project", "nwchem")

    def read(state: ServerState, doc: Any) -> str:
        if structure:
            with doc.lock:
                summary = doc.stored_summary(doc.project) or {}
            if not summary.get("atomCount"):
                raise MolFormaError("resource_no_atoms")
        return str(ops.export_document(doc, fmt))

    return read


def _calc_output(state: ServerState, doc: Any) -> str:
    job = state.last_job.get(doc.id)
    if job is None and state.window is not None:
        # The window has one document: a run the person started (or MCP through the Run
        # button) is its calculation too, though no calculation tool call recorded it.
        jobs = state.jobs_if_any()
        job = jobs.current() if jobs is not None else None
    if job is None:
        raise MolFormaError("resource_no_calculation")
    text = str(job.output_tail(MAX_TEXT + 1))
    if len(text) > MAX_TEXT:
        text = (
            f"[MolForma: showing the last {MAX_TEXT:,} characters of "
            f"{job.folder / 'output.out'}]\n" + text[-MAX_TEXT:]
        )
    return text


def _results_summary(state: ServerState, doc: Any) -> str:
    cur = _current_results(state, doc.id)
    return json.dumps(results_package.get_section(cur, "summary"), ensure_ascii=False, indent=1)


def _results_log(state: ServerState, doc: Any) -> str:
    cur = _current_results(state, doc.id)
    first = results_package.get_section(cur, "log", offset=0, limit=1)
    total = int(first.get("total") or 0)
    if total == 0:
        raise MolFormaError("resource_no_log", source=_source(cur))
    start = max(0, total - MAX_TEXT)
    parts: list[str] = []
    offset = start
    while offset < total:
        page = results_package.get_section(cur, "log", offset=offset, limit=65_536)
        text = page.get("text") or ""
        if not text:
            break
        parts.append(text)
        offset += len(text)
    text = "".join(parts)
    if start > 0:
        text = f"[MolForma: showing the last {MAX_TEXT:,} of {total:,} characters]\n" + text
    return text


def _results_spectrum(state: ServerState, doc: Any) -> str:
    cur = _current_results(state, doc.id)
    if not cur.modes:
        raise MolFormaError("resource_no_modes", source=_source(cur))
    return spectrum_csv(cur)


_READERS: dict[str, Callable[[ServerState, Any], str]] = {
    # One view per writable format of the format table (molforma.file_formats).
    **{view: _export(view) for view in DOCUMENT_VIEWS},
    "results/spectrum": _results_spectrum,
    "calculation/output": _calc_output,
    "results/summary": _results_summary,
    "results/log": _results_log,
}
