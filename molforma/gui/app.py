"""The QApplication and its translators (Qt layer).

Every ``translations/*_<lang>.qm`` file is loaded for the display language (the
window's catalogue and the panels' catalogue), plus Qt's own ``qtbase`` catalogue
for standard buttons. :func:`set_language` switches at run time: Qt then sends
every widget a LanguageChange event, and each widget re-reads its texts.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QFont, QFontDatabase, QIcon
from PySide6.QtWidgets import QApplication

from molforma.gui.main_thread_gc import collect_in_this_thread
from molforma.i18n import LANGUAGES, display_language
from molforma.paths import data_dir
from molforma.subcommands.desktop_entry import APP_ID, SOURCE

log = logging.getLogger(__name__)

_installed: list[QTranslator] = []
_current: list[str] = []


def translations_dir() -> Path:
    """The folder holding the ``.qm`` files (the repository's ``translations/``)."""
    return data_dir("translations")


def create_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created once) with names set and translators installed."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("MolForma")
    app.setOrganizationName("MolForma")
    app.setApplicationDisplayName("MolForma")
    _set_desktop_identity(app)
    install_translators(display_language())

    collect_in_this_thread(app)  # no Qt object is ever freed by a worker thread's collection
    return app


def _set_desktop_identity(app: QApplication) -> None:
    """Tie the window to its menu entry and icon (``molforma --install-desktop``).

    Without the desktop file name, GNOME and KDE see the window as "python3" and show
    neither the entry's name nor its icon in the task switcher.
    """
    app.setDesktopFileName(APP_ID)
    icon = QIcon()
    for png in sorted((SOURCE / "icons" / "hicolor").glob(f"*/apps/{APP_ID}.png")):
        icon.addFile(str(png))
    if not icon.isNull():
        app.setWindowIcon(icon)


def install_translators(lang: str) -> list[str]:
    """Replace the installed translators by those of ``lang``; return the files loaded."""
    app = QCoreApplication.instance()
    if app is None:
        return []
    for tr in _installed:
        app.removeTranslator(tr)
    _installed.clear()
    loaded: list[str] = []
    if lang not in LANGUAGES:
        lang = "en"
    QLocale.setDefault(
        QLocale(QLocale.Language.Japanese if lang == "ja" else QLocale.Language.English)
    )
    files = sorted(translations_dir().glob(f"*_{lang}.qm"))
    for qm in files:
        tr = QTranslator(app)
        if tr.load(str(qm)):
            app.installTranslator(tr)
            _installed.append(tr)
            loaded.append(qm.name)
        else:
            log.warning("could not load translation %s", qm)
    if lang != "en":
        tr = QTranslator(app)
        qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if tr.load(f"qtbase_{lang}", qt_dir):
            app.installTranslator(tr)
            _installed.append(tr)
            loaded.append(f"qtbase_{lang}")
    _use_language_font(lang)
    _current[:] = [lang]
    return loaded


# Families that hold Latin letters, digits and Japanese in one design. Without one,
# Japanese text mixes the Latin font's digits with the CJK font's punctuation, and a
# number such as 0.021152 reads like 0,021152.
_JAPANESE_FONTS = (
    "IPAPGothic",
    "IPAGothic",
    "Noto Sans CJK JP",
    "Noto Sans JP",
    "Hiragino Sans",
    "Yu Gothic UI",
    "Meiryo",
)
_default_font: list[QFont] = []


def japanese_font_family() -> str | None:
    """The first installed family of :data:`_JAPANESE_FONTS`, or None."""
    families = set(QFontDatabase.families())
    return next((f for f in _JAPANESE_FONTS if f in families), None)


def _use_language_font(lang: str) -> None:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    if not _default_font:
        _default_font.append(QFont(app.font()))
    font = QFont(_default_font[0])
    family = japanese_font_family() if lang == "ja" else None
    if family is not None:
        font.setFamilies([family])
    app.setFont(font)


def current_language() -> str:
    """The language whose translators are installed."""
    return _current[0] if _current else display_language()


def set_language(lang: str, ctx: object | None = None) -> None:
    """Switch the window's language now (widgets re-read their texts).

    ``ctx`` (an AppContext) gets ``events.languageChanged`` emitted, for parts that
    render text outside Qt's translator. The core's messages follow
    ``MOLFORMA_LANGUAGE``, then the Preferences: when that variable is in force it is
    updated here so that both agree; otherwise the caller has saved the language in
    the Preferences, which the core reads.
    """
    if lang in LANGUAGES and os.environ.get("MOLFORMA_LANGUAGE"):
        os.environ["MOLFORMA_LANGUAGE"] = lang
    install_translators(lang)
    events = getattr(ctx, "events", None)
    if events is not None:
        events.languageChanged.emit()
