"""The panels' one error report: a failing slot shows its failure and answers its fallback.

``reports_errors`` replaced the try/except blocks each panel slot copied; these tests hold
what those blocks did: the failure reaches the panel's own display (with the reason in the
display language), the slot answers its fallback instead of raising into Qt's event loop,
and a slot that succeeds answers as it always did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from molforma.errors import MolFormaError


class _Panel:
    def __init__(self) -> None:
        self.shown: list[BaseException] = []


def _show(panel: _Panel, exc: BaseException) -> None:
    panel.shown.append(exc)


def test_a_failing_slot_shows_the_error_and_answers_its_fallback(qapp: Any) -> None:
    from molforma.gui.widgets.panel_workers import reports_errors

    class Panel(_Panel):
        @reports_errors(_show, returns=False)
        def act(self, value: int, *, fail: bool = False) -> bool:
            if fail:
                raise OSError(f"disk full at {value}")
            return True

    panel = Panel()
    assert panel.act(1) is True and panel.shown == []
    assert panel.act(2, fail=True) is False
    assert [str(e) for e in panel.shown] == ["disk full at 2"]
    assert Panel.act.__name__ == "act"  # the slot keeps its name for Qt and readers


def test_failure_text_words_the_reason_in_the_template(qapp: Any) -> None:
    from molforma.gui.widgets.panel_workers import failure_text

    exc = MolFormaError("path_required", action="export_csv")
    assert (
        failure_text("HistoryPanel", "Cannot export: %1", exc) == "Cannot export: " + exc.message()
    )
    assert failure_text("HistoryPanel", None, OSError("gone")) == "OSError: gone"


def test_history_export_to_a_folder_that_cannot_be_written_is_shown_not_raised(
    make_main_window: Any, tmp_path: Path
) -> None:
    window = make_main_window()
    panel = window.panels["history"]
    target = tmp_path / "missing" / "deeper" / "history.csv"
    (tmp_path / "missing").write_text("a file where a folder should be")
    assert panel.export_csv(str(target)) is None
    assert panel.status_label.text().startswith("Cannot export: ")
    assert not target.exists()
