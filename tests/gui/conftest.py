"""Fixtures for the window tests: offscreen Qt, painter renderer, isolated Preferences,
no blocking dialogs, and a main-window factory that cleans up after itself."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")
# The tests read English texts; the Japanese tests switch explicitly.
os.environ["MOLFORMA_LANGUAGE"] = "en"


class DialogLog:
    """What the patched dialogs were asked, and what they answer next."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.answers: list[Any] = []  # consumed by ask / get_open_path / get_save_path

    def next_answer(self, default: Any) -> Any:
        return self.answers.pop(0) if self.answers else default

    def names(self) -> list[str]:
        return [c[0] for c in self.calls]


@pytest.fixture(autouse=True, scope="session")
def _translators(qapp: Any) -> None:
    """Install the English catalogues and the main-thread garbage collection as the
    application does at start (collection goes back to Python after the last window
    test, see pytest_runtest_teardown)."""
    from molforma.gui.app import install_translators
    from molforma.gui.main_thread_gc import collect_in_this_thread

    install_translators("en")
    collect_in_this_thread(qapp)


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Leaving the window's tests, Python collects garbage itself again (the tests after
    them spin no Qt event loop for the timer)."""
    if nextitem is None or Path(__file__).parent not in Path(nextitem.path).parents:
        from molforma.gui.main_thread_gc import stop_collecting

        stop_collecting()


@pytest.fixture(autouse=True)
def _isolated_config(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


@pytest.fixture(autouse=True)
def dialog_log(monkeypatch: pytest.MonkeyPatch) -> DialogLog:
    """Patch molforma.gui.dialogs so that no modal box blocks a test."""
    from molforma.gui import dialogs

    log = DialogLog()

    def ask(
        parent: Any,
        title: str,
        text: str,
        buttons: list[str],
        default: str | None = None,
        escape: str | None = None,
    ) -> str:
        log.calls.append(("ask", (title, text, list(buttons))))
        return str(log.next_answer(escape if escape is not None else buttons[-1]))

    def info(parent: Any, title: str, text: str) -> None:
        log.calls.append(("info", (title, text)))

    def error(parent: Any, title: str, text: str) -> None:
        log.calls.append(("error", (title, text)))

    def get_open_path(parent: Any, caption: str, filters: Any) -> str | None:
        log.calls.append(("get_open_path", (caption, filters)))
        return log.next_answer(None)

    def get_save_path(parent: Any, caption: str, filters: Any, suggested: str = "") -> str | None:
        log.calls.append(("get_save_path", (caption, filters, suggested)))
        return log.next_answer(None)

    def get_directory(parent: Any, caption: str, start: str = "") -> str | None:
        log.calls.append(("get_directory", (caption, start)))
        return log.next_answer(None)

    def run_dialog(dialog: Any, *, private: bool = False) -> int:
        log.calls.append(("run_dialog", (type(dialog).__name__,)))
        return 0

    for name, fn in (
        ("ask", ask),
        ("info", info),
        ("error", error),
        ("get_open_path", get_open_path),
        ("get_save_path", get_save_path),
        ("get_directory", get_directory),
        ("run_dialog", run_dialog),
    ):
        monkeypatch.setattr(dialogs, name, fn)
    return log


@pytest.fixture
def make_main_window(qtbot: Any, tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Factory: ``make_main_window(doc=None, mcp_mode=False)`` → a shown MainWindow."""
    from molforma.gui.context import AppContext
    from molforma.gui.main_window import MainWindow

    windows: list[Any] = []

    def factory(doc: Any = None, *, mcp_mode: bool = False) -> Any:
        ctx = AppContext.create(document=doc, data_dir=tmp_path, mcp_mode=mcp_mode)
        win = MainWindow(ctx)
        qtbot.addWidget(win)
        win.resize(1200, 800)
        win.show()
        qtbot.waitExposed(win)
        windows.append(win)
        return win

    yield factory
    for win in windows:
        win.molecule_tab.shutdown()
        win._confirm_discard = lambda: True  # tests decide about unsaved work themselves
        win._confirm_stop_jobs = lambda: True  # and about running calculations
        win.close()
