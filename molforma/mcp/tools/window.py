"""The 13 window tools of ``--mcp-gui`` (no Qt).

Reads (``get_ui``, ``get_ui_item``, ``capture_screenshot``) run on the GUI thread
through ``ctx.bridge.read`` and answer at once, also while a dialog is open.
Window-changing tools take ``documentId`` and ``expectedRevision``, queue a
:class:`~molforma.mcp.window_commands.WindowCommand` and answer with its ``queued``
record (``get_ui_command`` follows it); with the Tasks extension declared they
answer with a task that ends with the same record and, for work the command
started, the matching ``get_app_state`` part under ``app`` (docs/reference/window.md, Commands, and docs/reference/mcp.md, Tasks).
A message box opened by a task's command becomes ``input_required`` when the
request declares form elicitation.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from molforma.errors import MolFormaError
from molforma.i18n import register, render
from molforma.mcp.registry import ToolContext, ToolInput, tool
from molforma.mcp.tasks import Background
from molforma.mcp.tools.document_models import _REV
from molforma.mcp.ui_paging import page_list
from molforma.mcp.window_commands import CommandRecord, WindowCommand

if TYPE_CHECKING:
    from molforma.mcp.bridge import WindowBridge

register({
    "ui_not_found": {
        "en": "No widget '{target}' in the window. Similar names: {similar}. Call get_ui "
              "(with query) for the ids.",
        "ja": "ウィンドウにウィジェット「{target}」はありません。似た名前: {similar}。"
              "get_ui（query 付き）でIDを確認してください。",
    },
    "ui_expired": {
        "en": "Widget id {target} has expired (its dialog closed or the widget was removed). "
              "Call get_ui again for current ids.",
        "ja": "ウィジェットID {target} は期限切れです（ダイアログが閉じたかウィジェットが削除"
              "されました）。get_ui で現在のIDを取り直してください。",
    },
    "ui_ambiguous": {
        "en": "Several widgets are named '{target}'; use one of the ids {ids}.",
        "ja": "「{target}」という名前のウィジェットが複数あります。ID {ids} のどれかを使って"
              "ください。",
    },
    "blocked_execution_setting": {
        "en": "{target} is a protected execution setting (executable, launcher, environment, "
              "scheduler, account, batch directives): MCP may not drive it; the person sets "
              "it in the window (or start MolForma with --mcp-allow-execution-settings).",
        "ja": "{target} は保護された実行設定（実行ファイル、ランチャー、環境変数、スケジューラー、"
              "アカウント、バッチ指定）です。MCPからは操作"
              "できません。ウィンドウで人が設定してください（または "
              "--mcp-allow-execution-settings で起動）。",
    },
    "blocked_extra_input": {
        "en": "{target} edits the extra NWChem input, which can run arbitrary commands: MCP "
              "may not drive it (start MolForma with --mcp-allow-execution-settings to allow).",
        "ja": "{target} は任意のコマンドを実行できる追加のNWChem入力を編集します。MCPからは"
              "操作できません（--mcp-allow-execution-settings で起動すると可能）。",
    },
    "blocked_preferences": {
        "en": "{target}: the Preferences cannot be opened through MCP.",
        "ja": "{target}: 環境設定はMCPから開けません。",
    },
    "blocked_private_dialog": {
        "en": "{target} belongs to a question only the person can answer.",
        "ja": "{target} は人だけが答えられる確認ダイアログの一部です。",
    },
    "ui_not_drivable": {
        "en": "{target} is not a control MCP may drive (the window tools drive only the "
              "controls MolForma declares; get_ui shows each node's 'drivable' tools). Use "
              "the tool made for the job: ui_file_dialog for a file dialog, ui_activate on "
              "a molforma.* action instead of its shortcut, the document and settings tools "
              "for values; what only the person may do is done by the person.",
        "ja": "{target} はMCPから操作できるコントロールではありません（ウィンドウ操作ツールは"
              "MolFormaが宣言したコントロールだけを操作します。get_ui の各ノードの drivable "
              "を見てください）。専用のツールを使ってください: ファイルダイアログは "
              "ui_file_dialog、ショートカットの代わりに molforma.* アクションへの ui_activate、"
              "値は文書・設定ツール。人だけが行える操作は人が行います。",
    },
    "ui_wrong_tool": {
        "en": "{target} is a {kind}: it is driven with {tools}, not {tool}.",
        "ja": "{target} は {kind} です。{tool} ではなく {tools} で操作します。",
    },
    "ui_key_is_shortcut": {
        "en": "{key} is the shortcut of the action {action}; keys from MCP never trigger "
              "shortcuts. Use ui_activate with target {action} (if it is drivable).",
        "ja": "{key} はアクション {action} のショートカットです。MCPからのキー入力はショート"
              "カットを起動しません。ui_activate で {action} を指定してください（操作可能な"
              "場合）。",
    },
    "blocked_file_dialog": {
        "en": "{target} belongs to a file dialog: its folder listing is not shown to MCP; "
              "drive it with ui_file_dialog (directory, fileName, accept or cancel).",
        "ja": "{target} はファイルダイアログの一部です。フォルダーの一覧はMCPには見せません。"
              "ui_file_dialog（directory、fileName、accept / cancel）で操作してください。",
    },
    "ui_file_exists": {
        "en": "'{path}' already exists. Call ui_file_dialog again with overwrite: true to "
              "replace it.",
        "ja": "「{path}」は既に存在します。置き換えるには overwrite: true を付けて "
              "ui_file_dialog を再実行してください。",
    },
    "ui_disabled": {
        "en": "{target} is disabled right now; read get_ui_item for why (a message near it).",
        "ja": "{target} は現在無効です。理由は get_ui_item（近くのメッセージ）で確認してください。",
    },
    "ui_wrong_kind": {
        "en": "{target} is a {kind}; this action accepts {accepted}.",
        "ja": "{target} は {kind} です。この操作で使えるのは {accepted} です。",
    },
    "ui_read_only": {
        "en": "{target} is read-only.",
        "ja": "{target} は読み取り専用です。",
    },
    "ui_bad_value": {
        "en": "Value {value} does not fit this widget; expected {expected}.",
        "ja": "値 {value} はこのウィジェットに合いません。期待する値: {expected}。",
    },
    "ui_bad_choice": {
        "en": "'{value}' is not one of the choices: {choices}.",
        "ja": "「{value}」は選択肢にありません: {choices}。",
    },
    "ui_bad_index": {
        "en": "Index {index} is out of range (there are {count}; indices start at 0).",
        "ja": "インデックス {index} は範囲外です（{count} 個、0 から数えます）。",
    },
    "ui_bad_cell": {
        "en": "Cell ({row}, {column}) is outside the table ({rows} rows, {columns} columns).",
        "ja": "セル ({row}, {column}) は表の外です（{rows} 行、{columns} 列）。",
    },
    "ui_cell_read_only": {
        "en": "Cell ({row}, {column}) cannot be edited.",
        "ja": "セル ({row}, {column}) は編集できません。",
    },
    "ui_bad_point": {
        "en": "Point ({x}, {y}) is outside the widget ({width} × {height} px); take "
              "coordinates from get_ui_item.",
        "ja": "点 ({x}, {y}) はウィジェット（{width} × {height} px）の外です。座標は "
              "get_ui_item から取ってください。",
    },
    "ui_bad_key": {
        "en": "'{key}' is not a key (examples: Return, Escape, Ctrl+Z, Delete).",
        "ja": "「{key}」はキーではありません（例: Return, Escape, Ctrl+Z, Delete）。",
    },
    "ui_not_a_widget": {
        "en": "{target} is not a widget that can be captured.",
        "ja": "{target} は撮影できるウィジェットではありません。",
    },
    "ui_no_file_dialog": {
        "en": "No file dialog is open; activate the button or menu action that opens one first.",
        "ja": "ファイルダイアログが開いていません。先に開くボタンかメニューを実行してください。",
    },
    "ui_file_name_required": {
        "en": "accept needs fileName (a name in the dialog's folder, or an absolute path).",
        "ja": "accept には fileName（ダイアログのフォルダー内の名前か絶対パス）が必要です。",
    },
    "ui_dialog_gone": {
        "en": "Dialog {dialogId} is no longer open.",
        "ja": "ダイアログ {dialogId} はもう開いていません。",
    },
    "ui_person_dialog_open": {
        "en": "A question only the person can answer is open in the window; window commands "
              "wait for the person to answer it.",
        "ja": "人だけが答えられる確認がウィンドウに表示されています。人が答えるまで"
              "ウィンドウ操作はできません。",
    },
    "window_no_change": {
        "en": "Nothing changed: {message}",
        "ja": "何も変わりませんでした: {message}",
    },
    "ui_value_not_kept": {
        "en": "{target} did not keep the value {value}: it shows {shown}. The field's own "
              "check refused it without a message; read get_ui_item {target}.",
        "ja": "{target} は値 {value} を保持しませんでした（表示は {shown}）。欄の検査が"
              "メッセージなしで拒否しました。get_ui_item {target} で確認してください。",
    },
    "window_refused": {
        "en": "The window refused: {message}",
        "ja": "ウィンドウが拒否しました: {message}",
    },
    "history_nothing_selected": {
        "en": "No history row is selected; use history_action select first.",
        "ja": "履歴の行が選択されていません。先に history_action の select を使ってください。",
    },
    "screenshot_too_large": {
        "en": "The screenshot is {size} bytes, over the {limit}-byte limit; capture a "
              "smaller widget.",
        "ja": "スクリーンショットが {size} バイトで上限 {limit} バイトを超えています。"
              "より小さいウィジェットを撮影してください。",
    },
    "window_task_dialog": {
        "en": "A dialog of this command is open: '{title}'. Answer it with get_ui / "
              "ui_activate (or declare form elicitation on tasks/get to answer here).",
        "ja": "この操作のダイアログ「{title}」が開いています。get_ui / ui_activate で答えて"
              "ください（tasks/get でフォーム elicitation を宣言するとここで答えられます）。",
    },
})

_GUI: tuple[Literal["gui"]] = ("gui",)
_DOC = "Id from list_documents (the window's document)."
_TARGET = "A ui-N id from get_ui or a unique objectName."


class WindowCommandOutput(BaseModel):
    """A window command: commandId (for get_ui_command), tool, status (queued, running, done;
    failed: refused or no effect, error says why), createdAt, startedAt, finishedAt, result
    (what the window reported), dialogs it opened, app (a task's get_app_state part)."""

    model_config = ConfigDict(extra="allow")

    commandId: str = Field(description="Id for get_ui_command.")
    tool: str = Field(description="Window tool.")
    status: Literal["queued", "running", "done", "failed"] = Field(
        description="failed: refused or no effect (error says why).")
    createdAt: str = Field(description="Queued at (UTC).")
    startedAt: str | None = Field(None, description="Started at.")
    finishedAt: str | None = Field(None, description="Ended at.")
    result: dict[str, Any] = Field(default_factory=dict,
                                   description="What the GUI call reported (and revision).")
    error: dict[str, Any] | None = Field(None, description="Why it failed (error object).")
    dialogs: list[str] = Field(default_factory=list, description="Dialogs it opened.")
    app: dict[str, Any] | None = Field(None, description="Tasks: the get_app_state part of the "
                                       "work the command started, once it ended.")


def _bridge(ctx: ToolContext) -> WindowBridge:
    bridge = ctx.bridge
    if bridge is None:  # pragma: no cover - the window tools exist only in --mcp-gui
        raise MolFormaError("window_only_action", action="window tool")
    return bridge


def _record_out(rec: CommandRecord, lang: str, app: dict[str, Any] | None = None,
                ) -> WindowCommandOutput:
    return WindowCommandOutput(**rec.to_dict(lang), app=app)


def _app_part(ctx: ToolContext, rec: CommandRecord) -> dict[str, Any] | None:
    from molforma.mcp.tools.calculation import app_state

    if rec.work is None:
        return None
    full = app_state(ctx)
    keys = {"calculation": ("calculation", "workers"), "results_load": ("results", "workers"),
            "history_scan": ("workers",), "cleanup": ("documents", "workers"),
            "smiles": ("documents", "workers")}.get(rec.work.kind, ("workers",))
    return {k: full.get(k) for k in keys}


def _dialog_requests(bridge: WindowBridge, rec: CommandRecord) -> dict[str, Any]:
    from molforma.mcp.client_requests import dialog_question

    return {d.id: {"method": "elicitation/create", "params": dialog_question(d)}
            for d in bridge.dialogs()
            if d.command_id == rec.id and d.kind == "message" and d.buttons}


def submit(ctx: ToolContext, tool_name: str, args: BaseModel, *,
           document_id: str | None, expected_revision: str | None,
           edits_document: bool = True,
           ) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Queue a window command; its record, or a Background when tasks are declared."""
    bridge = _bridge(ctx)
    if document_id is not None:
        doc = ctx.state.document(document_id)
        if expected_revision is not None and expected_revision != doc.revision:
            from molforma.errors import StaleRevisionError

            raise StaleRevisionError(expected=expected_revision, actual=doc.revision)
    lang = ctx.lang
    store = bridge.commands
    # The command carries the validated model itself: the window's handler reads it.
    rec = store.add(WindowCommand(tool=tool_name, input=args, document_id=document_id,
                                  expected_revision=expected_revision,
                                  edits_document=edits_document), wake=False)
    queued = _record_out(rec, lang)  # the answer says "queued": taken before the runner wakes
    store.wake()
    if not ctx.request.declares_tasks:
        return queued

    def wait(timeout: float | None) -> bool:
        if not rec.ended.wait(timeout):
            return False
        work = rec.work
        return True if work is None else bool(work.wait(timeout))

    def cancel() -> bool:
        if bridge.commands.drop(rec):
            return True
        if rec.status == "running":
            return False  # a GUI call in progress (a dialog showing) gives its real result
        work = rec.work
        if work is not None and work.status() in ("running", "queued"):
            work.cancel()
            return True
        return False

    def final() -> WindowCommandOutput:
        if rec.error is not None:
            raise MolFormaError(rec.error.code, **rec.error.data, commandId=rec.id)
        work = rec.work
        failed = work.error() if work is not None and work.error is not None else None
        if failed is not None:
            raise failed  # the work the command started failed (a calculation NWChem ended)
        return _record_out(rec, lang, _app_part(ctx, rec))

    def progress() -> dict[str, Any] | None:
        work = rec.work
        return work.progress() if work is not None and work.progress is not None else None

    def inputs(form: bool) -> tuple[dict[str, Any], str | None]:
        requests = _dialog_requests(bridge, rec)
        if not requests:
            return {}, None
        if form:
            return requests, None
        title = next(iter(requests.values()))["params"]["message"].split("\n")[0]
        return {}, render("window_task_dialog", {"title": title}, lang)

    def respond(key: str, answer: dict[str, Any]) -> None:
        dialog = next((d for d in bridge.dialogs() if d.id == key and d.command_id == rec.id),
                      None)
        if dialog is None:
            return  # unknown or already answered: ignored (spec 6.4)
        action = answer.get("action")
        choice = (answer.get("content") or {}).get("choice") if isinstance(
            answer.get("content"), dict) else None
        if action == "accept" and choice in dialog.buttons:
            bridge.answer(key, str(choice))
        elif action in ("decline", "cancel"):
            bridge.answer(key, None)

    return Background(result=queued, wait=wait, cancel=cancel, final=final,
                      inputs=inputs, respond=respond, progress=progress)


# -- reads ----------------------------------------------------------------------------------------
class GetUiInput(ToolInput):

    query: str | None = Field(None, description="Keep widgets whose text, class or objectName "
                              "contains this (case-insensitive).")
    includeHidden: bool = Field(False, description="Also widgets on other tabs and in "
                                "collapsed groups (they can still be driven).")
    includeBlocked: bool = Field(False, description="Also list the person-only controls "
                                 "(executable, launcher, …) with the reason.")
    offset: int = Field(0, ge=0, description="First widget of the page.")
    limit: int | None = Field(None, ge=1, description="Widgets per page (default: ~32 KiB).")


class GetUiOutput(BaseModel):
    """Widgets as ui-N nodes (paged), the active modal dialog and the blocked widgets."""

    model_config = ConfigDict(extra="allow")

    nodes: list[dict[str, Any]] = Field(description="id, objectName, class, text, value, "
                                        "enabled, visible, tab, blocked, and drivable: the "
                                        "ui_* tools that may drive it (empty: read only).")
    total: int = Field(description="Nodes in all pages.")
    nextOffset: int | None = Field(description="offset of the next page; null on the last.")
    activeModal: dict[str, Any] | None = Field(description="The open dialog: title, text, "
                                               "buttons with their ids.")
    blocked: list[dict[str, Any]] | None = Field(
        None, description="With includeBlocked: the person-only controls, with the reason.")
    currentTab: str | None = Field(description="The main tab shown.")
    dialogs: list[dict[str, Any]] = Field(description="Message boxes and file dialogs open.")


@tool("get_ui", title="Get UI", modes=_GUI, read_only=True, idempotent=True)
def get_ui(ctx: ToolContext, args: GetUiInput) -> GetUiOutput:
    """List the window's widgets and actions as ui-N ids (objectName, class, text, value,
    enabled, visible, tab, drivable: the ui_* tools for it), the open dialog and, with
    includeBlocked, the person-only ones. Pages of ~32 KiB."""
    bridge = _bridge(ctx)
    data = bridge.read(lambda ui: ui.get_ui(args.model_dump()))
    nodes, nxt = page_list(data["nodes"], args.offset, args.limit)
    lang = ctx.lang
    blocked = [dict(b, message=render(b["reason"], {"target": b["objectName"]}, lang))
               for b in data["blocked"]] if args.includeBlocked else None
    return GetUiOutput(nodes=nodes, total=len(data["nodes"]), nextOffset=nxt,
                       activeModal=data["activeModal"], blocked=blocked,
                       currentTab=data["currentTab"],
                       dialogs=[d.to_dict() for d in bridge.dialogs()])


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
    data = _bridge(ctx).read(lambda ui: ui.get_ui_item(args.model_dump()))
    return GetUiItemOutput(**data)


class GetUiCommandInput(ToolInput):

    commandId: str = Field(description="The commandId a window tool returned.")


@tool("get_ui_command", title="Get UI command", modes=_GUI, read_only=True, idempotent=True)
def get_ui_command(ctx: ToolContext, args: GetUiCommandInput) -> WindowCommandOutput:
    """Read a window command: queued, running, done (the window did it) or failed with the
    window's reason. Started work (calculation, load, scan) goes on in get_app_state."""
    rec = _bridge(ctx).commands.get(args.commandId)
    return _record_out(rec, ctx.lang)


class CaptureScreenshotInput(ToolInput):

    target: str | None = Field(None, description="Widget to capture (ui-N or objectName); "
                               "default mainWindow.")
    path: str | None = Field(None, description="Also save the PNG here (inside the allowed "
                             "directories).")


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
    png, w, h = _bridge(ctx).read(lambda ui: ui.screenshot(args.target))
    if args.path is not None:
        saved = ctx.state.policy.write_atomic(args.path, png)  # checked and written as one
    out = CaptureScreenshotOutput(width=w, height=h, bytes=len(png),
                                  path=str(saved) if saved is not None else None)
    out._content = [{"type": "image", "mimeType": "image/png",
                     "data": base64.b64encode(png).decode("ascii")}]
    return out


# -- window commands --------------------------------------------------------------------------------
class _Cmd(ToolInput):

    documentId: str = Field(description=_DOC)
    expectedRevision: str = Field(description=_REV)


class UiActivateInput(_Cmd):
    target: str = Field(description=_TARGET + " A button or a menu action.")


@tool("ui_activate", title="Activate UI element", modes=_GUI, destructive=True)
def ui_activate(ctx: ToolContext, args: UiActivateInput,
                ) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Press a button or trigger a menu action (as a click would), queued onto the window;
    answers at once with a commandId (or a task)."""
    return submit(ctx, "ui_activate", args, document_id=args.documentId,
                  expected_revision=args.expectedRevision)


class UiSetValueInput(_Cmd):
    target: str = Field(description=_TARGET)
    value: str | int | float | bool | None = Field(
        description="Text (line edits, text editors), a number (spin boxes, sliders), a "
        "choice text or index (combo boxes, tabs), true/false (check boxes).")


@tool("ui_set_value", title="Set UI value", modes=_GUI)
def ui_set_value(ctx: ToolContext, args: UiSetValueInput,
                 ) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Set a field's value and commit it the way typing and Enter do (the panel's own
    checks and messages apply), queued onto the window."""
    return submit(ctx, "ui_set_value", args, document_id=args.documentId,
                  expected_revision=args.expectedRevision)


class UiEditCellInput(_Cmd):
    target: str = Field(description=_TARGET + " A table.")
    row: int = Field(ge=0, description="0-based row.")
    column: int = Field(ge=0, description="0-based column.")
    value: str | int | float | bool | None = Field(description="New cell text (true/false "
                                                   "for a check-box cell).")


@tool("ui_edit_cell", title="Edit table cell", modes=_GUI)
def ui_edit_cell(ctx: ToolContext, args: UiEditCellInput,
                 ) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Edit one cell of a table (e.g. an atom's element or coordinate in the coordinate
    table) as typing into it would, queued onto the window."""
    return submit(ctx, "ui_edit_cell", args, document_id=args.documentId,
                  expected_revision=args.expectedRevision)


class UiSelectInput(_Cmd):
    target: str = Field(description=_TARGET + " A tab widget, table, list, tree, combo box "
                        "or 3D view.")
    index: int | None = Field(None, ge=0, description="0-based tab/row/item/entry.")
    text: str | None = Field(None, description="Tab/item/entry by its text.")
    rows: list[int] | None = Field(None, description="Table rows (0-based) to select.")
    atomIds: list[str] | None = Field(None, description="3D view: atoms to select by id.")


@tool("ui_select", title="Select in UI", modes=_GUI)
def ui_select(ctx: ToolContext, args: UiSelectInput,
              ) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Select a tab, table rows, a list or tree item, a combo entry, or atoms by id in a 3D
    view, queued onto the window."""
    return submit(ctx, "ui_select", args, document_id=args.documentId,
                  expected_revision=args.expectedRevision)


class UiInputInput(_Cmd):
    target: str = Field(description=_TARGET + " Coordinates are the widget's own (for a "
                        "table/list: its viewport, as get_ui_item's rectangles).")
    kind: Literal["click", "double_click", "right_click", "key", "drag"] = Field(
        "click", description="Mouse click at (x, y), a key press, or a left drag to (x2, y2).")
    x: float | None = Field(None, ge=-100_000, le=100_000, description="x in widget pixels.")
    y: float | None = Field(None, ge=-100_000, le=100_000, description="y in widget pixels.")
    x2: float | None = Field(None, ge=-100_000, le=100_000, description="Drag end x.")
    y2: float | None = Field(None, ge=-100_000, le=100_000, description="Drag end y.")
    key: str | None = Field(None, max_length=64, description="Key for kind 'key' (Return, "
                            "Escape, Up, a letter); a key that is the shortcut of an action "
                            "is refused (ui_key_is_shortcut): use ui_activate on the action.")
    modifiers: list[Literal["shift", "ctrl", "alt"]] | None = Field(
        None, description="Modifier keys held.")


@tool("ui_input", title="Mouse and key input", modes=_GUI, destructive=True)
def ui_input(ctx: ToolContext, args: UiInputInput,
             ) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Click, drag or press a key at coordinates of a widget (list items, the 3D view: take
    positions from get_ui_item), queued onto the window."""
    return submit(ctx, "ui_input", args, document_id=args.documentId,
                  expected_revision=args.expectedRevision)


class UiFileDialogInput(_Cmd):
    action: Literal["accept", "cancel"] = Field(description="accept the chosen path or cancel.")
    directory: str | None = Field(None, description="Folder to show (inside the allowed "
                                  "directories).")
    fileName: str | None = Field(None, description="File name in that folder (or an absolute "
                                 "path); checked against the allowed directories on accept.")
    dialogId: str | None = Field(None, description="Which file dialog (default: the newest).")
    overwrite: bool | None = Field(None, description="Saving onto an existing file: true "
                                   "replaces it; otherwise the command fails (ui_file_exists).")


@tool("ui_file_dialog", title="Drive file dialog", modes=_GUI)
def ui_file_dialog(ctx: ToolContext, args: UiFileDialogInput,
                   ) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """The only way into a file dialog: set folder and file name, accept (the path is
    checked against --mcp-allow-dir; replacing needs overwrite: true) or cancel."""
    return submit(ctx, "ui_file_dialog", args, document_id=args.documentId,
                  expected_revision=args.expectedRevision)


class ChemistryInput(_Cmd):
    action: Literal["smiles", "cleanup", "cancel"] = Field(
        description="smiles: make a 3D candidate from SMILES; cleanup: force-field clean-up "
        "in the worker (a candidate); cancel: stop the running one.")
    smiles: str | None = Field(None, description="SMILES for action smiles.")


@tool("chemistry", title="Chemistry", modes=_GUI)
def chemistry(ctx: ToolContext, args: ChemistryInput,
              ) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """SMILES to a 3D candidate, geometry clean-up (worker), or cancel, in the window.
    With a task it stays working until the worker ended; confirm with history confirm."""
    return submit(ctx, "chemistry", args, document_id=args.documentId,
                  expected_revision=args.expectedRevision)


class HistoryActionInput(_Cmd):
    action: Literal["scan", "select", "reuse", "open_results", "open_folder", "trash",
                    "export_csv"] = Field(description="What to do in the History tab.")
    index: int | None = Field(None, ge=0, description="select: 0-based table row.")
    path: str | None = Field(None, description="export_csv: the CSV file to write.")


@tool("history_action", title="History action", modes=_GUI, destructive=True)
def history_action(ctx: ToolContext, args: HistoryActionInput,
                   ) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """In the History tab: scan the job folders (a task waits for the scan), select a row,
    reuse its input, open its results or folder, move it to the trash (asks), export CSV."""
    return submit(ctx, "history_action", args, document_id=args.documentId,
                  expected_revision=args.expectedRevision)


class ViewInput(_Cmd):
    action: Literal["fit", "reset", "rotate", "zoom", "style"] = Field(
        description="Camera action.")
    view: Literal["molecule", "results"] = Field("molecule", description="Which 3D view.")
    dx: float | None = Field(None, ge=-3600, le=3600,
                             description="rotate: degrees about the screen's y axis.")
    dy: float | None = Field(None, ge=-3600, le=3600,
                             description="rotate: degrees about the screen's x axis.")
    factor: float | None = Field(None, gt=0, le=1000, description="zoom: >1 zooms in.")
    style: Literal["ball_and_stick", "spacefill", "sticks"] | None = Field(
        None, description="style: the drawing style.")


@tool("view", title="View", modes=_GUI)
def view(ctx: ToolContext, args: ViewInput,
         ) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Move the camera of a 3D view: fit, reset, rotate, zoom, or set the drawing style."""
    return submit(ctx, "view", args, document_id=args.documentId,
                  expected_revision=args.expectedRevision, edits_document=False)

