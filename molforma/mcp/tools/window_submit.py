"""Queuing a window command for the window tools, and the window's error messages (no Qt).

The 13 window tools (``molforma.mcp.tools.window``) validate their arguments and hand
them to :func:`submit`: it checks the revision, queues a
:class:`~molforma.mcp.window_commands.WindowCommand` and answers with its ``queued``
record, or, with the Tasks extension declared, with a task that ends with the same
record and the matching ``get_app_state`` part under ``app`` (docs/reference/window.md,
Commands, and docs/reference/mcp.md, Tasks). The error codes the window raises while it
runs a command are registered here, once, with the tools that report them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from molforma.errors import MolFormaError, StaleRevisionError
from molforma.i18n import register, render
from molforma.lazy import lazy_import
from molforma.mcp.tasks import Background
from molforma.mcp.tool_registry import ToolContext
from molforma.mcp.window_commands import CommandRecord, WindowCommand

if TYPE_CHECKING:
    from molforma.mcp import client_requests
    from molforma.mcp.bridge import WindowBridge
    from molforma.mcp.tools import calculation
else:  # imported on first use (start-up time): molforma.lazy
    calculation = lazy_import("molforma.mcp.tools.calculation")
    client_requests = lazy_import("molforma.mcp.client_requests")

register(
    {
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
    }
)


class WindowCommandOutput(BaseModel):
    """A window command: commandId (for get_ui_command), tool, status (queued, running, done;
    failed: refused or no effect, error says why), createdAt, startedAt, finishedAt, result
    (what the window reported), dialogs it opened, app (a task's get_app_state part)."""

    model_config = ConfigDict(extra="allow")

    commandId: str = Field(description="Id for get_ui_command.")
    tool: str = Field(description="Window tool.")
    status: Literal["queued", "running", "done", "failed"] = Field(
        description="failed: refused or no effect (error says why)."
    )
    createdAt: str = Field(description="Queued at (UTC).")
    startedAt: str | None = Field(None, description="Started at.")
    finishedAt: str | None = Field(None, description="Ended at.")
    result: dict[str, Any] = Field(
        default_factory=dict, description="What the GUI call reported (and revision)."
    )
    error: dict[str, Any] | None = Field(None, description="Why it failed (error object).")
    dialogs: list[str] = Field(default_factory=list, description="Dialogs it opened.")
    app: dict[str, Any] | None = Field(
        None,
        description="Tasks: the get_app_state part of the work the command started, once it ended.",
    )


def bridge_of(ctx: ToolContext) -> WindowBridge:
    """The window bridge of a window tool's call."""
    bridge = ctx.bridge
    if bridge is None:  # pragma: no cover - the window tools exist only in --mcp-gui
        raise MolFormaError("window_only_action", action="window tool")
    return bridge


def record_out(
    rec: CommandRecord,
    lang: str,
    app: dict[str, Any] | None = None,
) -> WindowCommandOutput:
    """A command's record as the tools answer it (``app``: a task's get_app_state part)."""
    return WindowCommandOutput(**rec.to_dict(lang), app=app)


def _app_part(ctx: ToolContext, rec: CommandRecord) -> dict[str, Any] | None:
    if rec.work is None:
        return None
    full = calculation.app_state(ctx)
    keys = {
        "calculation": ("calculation", "workers"),
        "results_load": ("results", "workers"),
        "history_scan": ("workers",),
        "cleanup": ("documents", "workers"),
        "smiles": ("documents", "workers"),
    }.get(rec.work.kind, ("workers",))
    return {k: full.get(k) for k in keys}


def _dialog_requests(bridge: WindowBridge, rec: CommandRecord) -> dict[str, Any]:
    return {
        d.id: {"method": "elicitation/create", "params": client_requests.dialog_question(d)}
        for d in bridge.dialogs()
        if d.command_id == rec.id and d.kind == "message" and d.buttons
    }


def submit(
    ctx: ToolContext,
    tool_name: str,
    args: BaseModel,
    *,
    document_id: str | None,
    expected_revision: str | None,
    edits_document: bool = True,
) -> WindowCommandOutput | Background[WindowCommandOutput]:
    """Queue a window command; its record, or a Background when tasks are declared."""
    bridge = bridge_of(ctx)
    if document_id is not None:
        doc = ctx.state.document(document_id)
        if expected_revision is not None and expected_revision != doc.revision:
            raise StaleRevisionError(expected=expected_revision, actual=doc.revision)
    lang = ctx.lang
    store = bridge.commands
    # The command carries the validated model itself: the window's handler reads it.
    rec = store.add(
        WindowCommand(
            tool=tool_name,
            input=args,
            document_id=document_id,
            expected_revision=expected_revision,
            edits_document=edits_document,
        ),
        wake=False,
    )
    queued = record_out(rec, lang)  # the answer says "queued": taken before the runner wakes
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
        return record_out(rec, lang, _app_part(ctx, rec))

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
        dialog = next((d for d in bridge.dialogs() if d.id == key and d.command_id == rec.id), None)
        if dialog is None:
            return  # unknown or already answered: ignored (spec 6.4)
        action = answer.get("action")
        choice = (
            (answer.get("content") or {}).get("choice")
            if isinstance(answer.get("content"), dict)
            else None
        )
        if action == "accept" and choice in dialog.buttons:
            bridge.answer(key, str(choice))
        elif action in ("decline", "cancel"):
            bridge.answer(key, None)

    return Background(
        result=queued,
        wait=wait,
        cancel=cancel,
        final=final,
        inputs=inputs,
        respond=respond,
        progress=progress,
    )
