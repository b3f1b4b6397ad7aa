"""The 13 window tools of ``--mcp-gui`` (no Qt).

Reads (``get_ui``, ``get_ui_item``, ``capture_screenshot``) run on the GUI thread
through ``ctx.bridge.read`` and answer at once, also while a dialog is open.
Window-changing tools take ``documentId`` and ``expectedRevision``, queue a
:class:`~molforma.mcp.window_commands.WindowCommand` and answer with its ``queued``
record (``get_ui_command`` follows it); with the Tasks extension declared they
answer with a task that ends with the same record and, for work the command
started, the matching ``get_app_state`` part under ``app`` (docs/reference/window.md, Commands, and docs/reference/mcp.md, Tasks).
A message box opened by a task's command becomes ``input_required`` when the
request declares form elicitation. The queuing itself and the window's error messages
are in :mod:`molforma.mcp.tools.window_submit`.
"""

from __future__ import annotations

import base64
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from molforma.i18n import render
from molforma.mcp.tasks import Background
from molforma.mcp.tool_registry import ToolContext, ToolInput, tool
from molforma.mcp.tools.document_models import _REV

# The queuing and its output model live in window_submit (tests import ``submit`` here).
from molforma.mcp.tools.window_submit import WindowCommandOutput, bridge_of, record_out, submit
from molforma.mcp.ui_paging import page_list

_GUI: tuple[Literal["gui"]] = ("gui",)
_DOC = "Id from list_documents (the window's document)."
_TARGET = "A ui-N id from get_ui or a unique objectName."


# -- reads ----------------------------------------------------------------------------------------
class GetUiInput(ToolInput):
    query: str | None = Field(
        None,
        description="Keep widgets whose text, class or objectName "
        "contains this (case-insensitive).",
    )
    includeHidden: bool = Field(
        False,
        description="Also widgets on other tabs and in "
        "collapsed groups (they can still be driven).",
    )
    includeBlocked: bool = Field(
        False,
        description="Also list the person-only controls (executable, launcher, …) with the reason.",
    )
    offset: int = Field(0, ge=0, description="First widget of the page.")
    limit: int | None = Field(None, ge=1, description="Widgets per page (default: ~32 KiB).")


class GetUiOutput(BaseModel):
    """Widgets as ui-N nodes (paged), the active modal dialog and the blocked widgets."""

    model_config = ConfigDict(extra="allow")

    nodes: list[dict[str, Any]] = Field(
        description="id, objectName, class, text, value, "
        "enabled, visible, tab, blocked, and drivable: the "
        "ui_* tools that may drive it (empty: read only)."
    )
    total: int = Field(description="Nodes in all pages.")
    nextOffset: int | None = Field(description="offset of the next page; null on the last.")
    activeModal: dict[str, Any] | None = Field(
        description="The open dialog: title, text, buttons with their ids."
    )
    blocked: list[dict[str, Any]] | None = Field(
        None, description="With includeBlocked: the person-only controls, with the reason."
    )
    currentTab: str | None = Field(description="The main tab shown.")
    dialogs: list[dict[str, Any]] = Field(description="Message boxes and file dialogs open.")


@tool("get_ui", title="Get UI", modes=_GUI, read_only=True, idempotent=True)
def get_ui(ctx: ToolContext, args: GetUiInput) -> GetUiOutput:
    """List the window's widgets and actions as ui-N ids (objectName, class, text, value,
    enabled, visible, tab, drivable: the ui_* tools for it), the open dialog and, with
    includeBlocked, the person-only ones. Pages of ~32 KiB."""
    bridge = bridge_of(ctx)
    data = bridge.read(lambda ui: ui.get_ui(args.model_dump()))
    nodes, nxt = page_list(data["nodes"], args.offset, args.limit)
    lang = ctx.lang
    blocked = (
        [
            dict(b, message=render(b["reason"], {"target": b["objectName"]}, lang))
            for b in data["blocked"]
        ]
        if args.includeBlocked
        else None
    )
    return GetUiOutput(
        nodes=nodes,
        total=len(data["nodes"]),
        nextOffset=nxt,
        activeModal=data["activeModal"],
        blocked=blocked,
        currentTab=data["currentTab"],
        dialogs=[d.to_dict() for d in bridge.dialogs()],
    )


class GetUiItemInput(ToolInput):
    target: str = Field(description=_TARGET)
    offset: int = Field(0, ge=0, description="First row/item/atom of the page.")
    limit: int | None = Field(None, ge=1, description="Rows per page (default: ~32 KiB).")


class GetUiItemOutput(BaseModel):
    """One widget in full: value, rectangle, items, table rows with cell rectangles, atoms."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(description="Its ui-N id.")
    objectName: str = Field(description="Its objectName.")


@tool("get_ui_item", title="Get UI item", modes=_GUI, read_only=True, idempotent=True)
def get_ui_item(ctx: ToolContext, args: GetUiItemInput) -> GetUiItemOutput:
    """Read one widget in detail: full text and value, its rectangle, combo items, tabs,
    table/list/tree rows (paged, with parentRows), the viewport and cell rectangles for
    ui_input, and for a 3D view the atoms with their screen positions."""
    data = bridge_of(ctx).read(lambda ui: ui.get_ui_item(args.model_dump()))
    return GetUiItemOutput(**data)


class GetUiCommandInput(ToolInput):
    commandId: str = Field(description="The commandId a window tool returned.")


@tool("get_ui_command", title="Get UI command", modes=_GUI, read_only=True, idempotent=True)
def get_ui_command(ctx: ToolContext, args: GetUiCommandInput) -> WindowCommandOutput:
    """Read a window command: queued, running, done (the window did it) or failed with the
    window's reason. Started work (calculation, load, scan) goes on in get_app_state."""
    rec = bridge_of(ctx).commands.get(args.commandId)
    return record_out(rec, ctx.lang)


class CaptureScreenshotInput(ToolInput):
    target: str | None = Field(
        None, description="Widget to capture (ui-N or objectName); default mainWindow."
    )
    path: str | None = Field(
        None, description="Also save the PNG here (inside the allowed directories)."
    )


class CaptureScreenshotOutput(BaseModel):
    """The PNG's size (the image itself is the image content item)."""

    model_config = ConfigDict(extra="forbid")

    width: int = Field(description="Pixels.")
    height: int = Field(description="Pixels.")
    bytes: int = Field(description="Size of the PNG.")
    mimeType: str = Field("image/png", description="image/png.")
    path: str | None = Field(None, description="Where it was saved, when asked.")
    _content: list[dict[str, Any]] = PrivateAttr(default_factory=list)


@tool("capture_screenshot", title="Capture screenshot", modes=_GUI, read_only=True)
def capture_screenshot(ctx: ToolContext, args: CaptureScreenshotInput) -> CaptureScreenshotOutput:
    """Capture a widget or the main window as PNG (at most 4,096 px wide and 8 MiB),
    returned as MCP image content and saved to path when given; the window is not
    disturbed."""
    saved = None
    if args.path is not None:
        ctx.state.policy.check_path(args.path, for_write=True)  # refused before any pixel
    png, w, h = bridge_of(ctx).read(lambda ui: ui.screenshot(args.target))
    if args.path is not None:
        saved = ctx.state.policy.write_atomic(args.path, png)  # checked and written as one
    out = CaptureScreenshotOutput(
        width=w, height=h, bytes=len(png), path=str(saved) if saved is not None else None
    )
    out._content = [
        {"type": "image", "mimeType": "image/png", "data": base64.b64encode(png).decode("ascii")}
    ]
    return out


# -- window commands --------------------------------------------------------------------------------
class _Cmd(ToolInput):
    documentId: str = Field(description=_DOC)
    expectedRevision: str = Field(description=_REV)


class UiActivateInput(_Cmd):
    target: str = Field(description=_TARGET + " A button or a menu action.")


@tool("ui_activate", title="Activate UI element", modes=_GUI, destructive=True)
def ui_activate(
    ctx: ToolContext,
    args: UiActivateInput,
) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Press a button or trigger a menu action (as a click would), queued onto the window;
    answers at once with a commandId (or a task)."""
    return submit(
        ctx,
        "ui_activate",
        args,
        document_id=args.documentId,
        expected_revision=args.expectedRevision,
    )


class UiSetValueInput(_Cmd):
    target: str = Field(description=_TARGET)
    value: str | int | float | bool | None = Field(
        description="Text (line edits, text editors), a number (spin boxes, sliders), a "
        "choice text or index (combo boxes, tabs), true/false (check boxes)."
    )


@tool("ui_set_value", title="Set UI value", modes=_GUI)
def ui_set_value(
    ctx: ToolContext,
    args: UiSetValueInput,
) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Set a field's value and commit it the way typing and Enter do (the panel's own
    checks and messages apply), queued onto the window."""
    return submit(
        ctx,
        "ui_set_value",
        args,
        document_id=args.documentId,
        expected_revision=args.expectedRevision,
    )


class UiEditCellInput(_Cmd):
    target: str = Field(description=_TARGET + " A table.")
    row: int = Field(ge=0, description="0-based row.")
    column: int = Field(ge=0, description="0-based column.")
    value: str | int | float | bool | None = Field(
        description="New cell text (true/false for a check-box cell)."
    )


@tool("ui_edit_cell", title="Edit table cell", modes=_GUI)
def ui_edit_cell(
    ctx: ToolContext,
    args: UiEditCellInput,
) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Edit one cell of a table (e.g. an atom's element or coordinate in the coordinate
    table) as typing into it would, queued onto the window."""
    return submit(
        ctx,
        "ui_edit_cell",
        args,
        document_id=args.documentId,
        expected_revision=args.expectedRevision,
    )


class UiSelectInput(_Cmd):
    target: str = Field(
        description=_TARGET + " A tab widget, table, list, tree, combo box or 3D view."
    )
    index: int | None = Field(None, ge=0, description="0-based tab/row/item/entry.")
    text: str | None = Field(None, description="Tab/item/entry by its text.")
    rows: list[int] | None = Field(None, description="Table rows (0-based) to select.")
    atomIds: list[str] | None = Field(None, description="3D view: atoms to select by id.")


@tool("ui_select", title="Select in UI", modes=_GUI)
def ui_select(
    ctx: ToolContext,
    args: UiSelectInput,
) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Select a tab, table rows, a list or tree item, a combo entry, or atoms by id in a 3D
    view, queued onto the window."""
    return submit(
        ctx, "ui_select", args, document_id=args.documentId, expected_revision=args.expectedRevision
    )


class UiInputInput(_Cmd):
    target: str = Field(
        description=_TARGET + " Coordinates are the widget's own (for a "
        "table/list: its viewport, as get_ui_item's rectangles)."
    )
    kind: Literal["click", "double_click", "right_click", "key", "drag"] = Field(
        "click", description="Mouse click at (x, y), a key press, or a left drag to (x2, y2)."
    )
    x: float | None = Field(None, ge=-100_000, le=100_000, description="x in widget pixels.")
    y: float | None = Field(None, ge=-100_000, le=100_000, description="y in widget pixels.")
    x2: float | None = Field(None, ge=-100_000, le=100_000, description="Drag end x.")
    y2: float | None = Field(None, ge=-100_000, le=100_000, description="Drag end y.")
    key: str | None = Field(
        None,
        max_length=64,
        description="Key for kind 'key' (Return, "
        "Escape, Up, a letter); a key that is the shortcut of an action "
        "is refused (ui_key_is_shortcut): use ui_activate on the action.",
    )
    modifiers: list[Literal["shift", "ctrl", "alt"]] | None = Field(
        None, description="Modifier keys held."
    )


@tool("ui_input", title="Mouse and key input", modes=_GUI, destructive=True)
def ui_input(
    ctx: ToolContext,
    args: UiInputInput,
) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Click, drag or press a key at coordinates of a widget (list items, the 3D view: take
    positions from get_ui_item), queued onto the window."""
    return submit(
        ctx, "ui_input", args, document_id=args.documentId, expected_revision=args.expectedRevision
    )


class UiFileDialogInput(_Cmd):
    action: Literal["accept", "cancel"] = Field(description="accept the chosen path or cancel.")
    directory: str | None = Field(
        None, description="Folder to show (inside the allowed directories)."
    )
    fileName: str | None = Field(
        None,
        description="File name in that folder (or an absolute "
        "path); checked against the allowed directories on accept.",
    )
    dialogId: str | None = Field(None, description="Which file dialog (default: the newest).")
    overwrite: bool | None = Field(
        None,
        description="Saving onto an existing file: true "
        "replaces it; otherwise the command fails (ui_file_exists).",
    )


@tool("ui_file_dialog", title="Drive file dialog", modes=_GUI)
def ui_file_dialog(
    ctx: ToolContext,
    args: UiFileDialogInput,
) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """The only way into a file dialog: set folder and file name, accept (the path is
    checked against --mcp-allow-dir; replacing needs overwrite: true) or cancel."""
    return submit(
        ctx,
        "ui_file_dialog",
        args,
        document_id=args.documentId,
        expected_revision=args.expectedRevision,
    )


class ChemistryInput(_Cmd):
    action: Literal["smiles", "cleanup", "cancel"] = Field(
        description="smiles: make a 3D candidate from SMILES; cleanup: force-field clean-up "
        "in the worker (a candidate); cancel: stop the running one."
    )
    smiles: str | None = Field(None, description="SMILES for action smiles.")


@tool("chemistry", title="Chemistry", modes=_GUI)
def chemistry(
    ctx: ToolContext,
    args: ChemistryInput,
) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """SMILES to a 3D candidate, geometry clean-up (worker), or cancel, in the window.
    With a task it stays working until the worker ended; confirm with history confirm."""
    return submit(
        ctx, "chemistry", args, document_id=args.documentId, expected_revision=args.expectedRevision
    )


class HistoryActionInput(_Cmd):
    action: Literal[
        "scan", "select", "reuse", "open_results", "open_folder", "trash", "export_csv"
    ] = Field(description="What to do in the History tab.")
    index: int | None = Field(None, ge=0, description="select: 0-based table row.")
    path: str | None = Field(None, description="export_csv: the CSV file to write.")


@tool("history_action", title="History action", modes=_GUI, destructive=True)
def history_action(
    ctx: ToolContext,
    args: HistoryActionInput,
) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """In the History tab: scan the job folders (a task waits for the scan), select a row,
    reuse its input, open its results or folder, move it to the trash (asks), export CSV."""
    return submit(
        ctx,
        "history_action",
        args,
        document_id=args.documentId,
        expected_revision=args.expectedRevision,
    )


class ViewInput(_Cmd):
    action: Literal["fit", "reset", "rotate", "zoom", "style"] = Field(description="Camera action.")
    view: Literal["molecule", "results"] = Field("molecule", description="Which 3D view.")
    dx: float | None = Field(
        None, ge=-3600, le=3600, description="rotate: degrees about the screen's y axis."
    )
    dy: float | None = Field(
        None, ge=-3600, le=3600, description="rotate: degrees about the screen's x axis."
    )
    factor: float | None = Field(None, gt=0, le=1000, description="zoom: >1 zooms in.")
    style: Literal["ball_and_stick", "spacefill", "sticks"] | None = Field(
        None, description="style: the drawing style."
    )


@tool("view", title="View", modes=_GUI)
def view(
    ctx: ToolContext,
    args: ViewInput,
) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Move the camera of a 3D view: fit, reset, rotate, zoom, or set the drawing style."""
    return submit(
        ctx,
        "view",
        args,
        document_id=args.documentId,
        expected_revision=args.expectedRevision,
        edits_document=False,
    )
