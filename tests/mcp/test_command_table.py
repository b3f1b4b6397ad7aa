"""Window commands carry their tool's validated input model, and the runner finds each
handler in a typed table (tool -> input model -> handler), not in a dict of dicts."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from molforma.errors import MolFormaError
from molforma.mcp.tools.window import UiSetValueInput, ViewInput, submit
from molforma.mcp.window_commands import (
    AnswerDialogInput,
    CommandRecord,
    CommandStore,
    CommandTable,
    WindowCommand,
)


def _table(seen: list[Any]) -> CommandTable[str]:
    table: CommandTable[str] = CommandTable()

    def set_value(rec: CommandRecord, a: UiSetValueInput) -> str:
        seen.append(a)
        return f"{a.target}={a.value}"

    def view(rec: CommandRecord, a: ViewInput) -> str:
        seen.append(a)
        return f"{a.view}:{a.action}"

    def answer(rec: CommandRecord, a: AnswerDialogInput) -> str:
        seen.append(a)
        return f"{a.dialogId}/{a.button}"

    table.add("ui_set_value", UiSetValueInput, set_value)
    table.add("view", ViewInput, view)
    table.add("answer_dialog", AnswerDialogInput, answer)
    return table


def _record(command: WindowCommand) -> CommandRecord:
    return CommandStore().add(command, wake=False)


def test_the_handler_gets_the_very_model_the_tool_validated() -> None:
    seen: list[Any] = []
    table = _table(seen)
    args = UiSetValueInput(
        documentId="d1", expectedRevision="r1", target="calc.basis", value="6-31g*"
    )
    rec = _record(
        WindowCommand(tool="ui_set_value", input=args, document_id="d1", expected_revision="r1")
    )
    assert table.dispatch(rec) == "calc.basis=6-31g*"
    assert seen == [args] and seen[0] is args
    # The record's plain data is the model dumped, without the envelope fields.
    assert rec.command.args == {"target": "calc.basis", "value": "6-31g*"}


def test_a_command_queued_with_plain_data_is_checked_into_its_model_first() -> None:
    seen: list[Any] = []
    table = _table(seen)
    rec = _record(WindowCommand(tool="view", args={"action": "zoom", "factor": 2.0}))
    assert table.dispatch(rec) == "molecule:zoom"
    assert isinstance(seen[0], ViewInput) and seen[0].factor == 2.0
    rec = _record(WindowCommand(tool="answer_dialog", args={"dialogId": "dlg-1", "button": "Yes"}))
    assert table.dispatch(rec) == "dlg-1/Yes"
    assert isinstance(seen[1], AnswerDialogInput)


@pytest.mark.parametrize(
    "args",
    [{"action": "spin"}, {"action": "zoom", "factor": -1}, {"action": "fit", "colour": "red"}],
)
def test_plain_data_that_does_not_fit_the_model_never_reaches_the_handler(
    args: dict[str, Any],
) -> None:
    seen: list[Any] = []
    rec = _record(WindowCommand(tool="view", args=args))
    with pytest.raises(MolFormaError) as err:
        _table(seen).dispatch(rec)
    assert err.value.code == "bad_window_command"
    assert "view" in err.value.message("en") and "view" in err.value.message("ja")
    assert seen == []


def test_an_unknown_command_is_refused_and_a_tool_is_registered_once() -> None:
    seen: list[Any] = []
    table = _table(seen)
    with pytest.raises(MolFormaError) as err:
        table.dispatch(_record(WindowCommand(tool="ui_paint", args={})))
    assert err.value.code == "unknown_window_command"
    with pytest.raises(ValueError, match="twice"):
        table.add("view", ViewInput, lambda rec, a: "again")
    assert "view" in table and sorted(table.tools()) == ["answer_dialog", "ui_set_value", "view"]


def test_a_window_tool_queues_its_validated_model_not_a_rebuilt_dict() -> None:
    store = CommandStore()
    doc = SimpleNamespace(revision="r7")
    state = SimpleNamespace(window=SimpleNamespace(commands=store), document=lambda _id: doc)
    ctx = SimpleNamespace(
        state=state, bridge=state.window, lang="en", request=SimpleNamespace(declares_tasks=False)
    )
    args = ViewInput(documentId="d1", expectedRevision="r7", action="rotate", dx=30.0)
    out = submit(
        ctx,
        "view",
        args,
        document_id="d1",  # type: ignore[arg-type]
        expected_revision="r7",
        edits_document=False,
    )
    rec = store.get(out.commandId)  # type: ignore[union-attr]
    assert rec.command.input is args
    assert rec.command.tool == "view" and rec.command.expected_revision == "r7"
