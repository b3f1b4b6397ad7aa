"""Display language and the message catalogue for errors and results (no Qt).

Core errors carry a code and data; their sentence is rendered here in Japanese or
English. Each module registers the messages of the codes it raises with
:func:`register`, so the catalogue grows with the code that needs it. The window
uses Qt's translator for its own strings; these catalogues serve the headless
server and the command line, which must render Japanese without a Qt plugin.
"""

from __future__ import annotations

import locale
import os
import string
from collections.abc import Callable, Mapping
from typing import Any

LANGUAGES = ("en", "ja")

_MESSAGES: dict[str, dict[str, str]] = {}


def register(catalog: Mapping[str, Mapping[str, str]]) -> None:
    """Add ``{code: {"en": ..., "ja": ...}}`` entries; a code registered twice must agree."""
    for code, texts in catalog.items():
        if "en" not in texts or "ja" not in texts:
            raise ValueError(f"message {code!r} needs both 'en' and 'ja'")
        old = _MESSAGES.get(code)
        if old is not None and dict(old) != dict(texts):
            raise ValueError(f"message {code!r} registered twice with different texts")
        _MESSAGES[code] = dict(texts)


def catalogue() -> dict[str, dict[str, str]]:
    """A copy of every registered message (used by tests to check completeness)."""
    # One C-level copy of the items: a module registering its messages on the warm-up
    # thread while a tool call imports another must not break this iteration.
    return {k: dict(v) for k, v in list(_MESSAGES.items())}


# Where the Preferences language comes from. molforma.preferences sits above this module
# (it registers and renders messages of its own), so the package root plugs it in
# (molforma/__init__.py) rather than this module importing it: that import was a circle.
_language_source: Callable[[], str | None] | None = None


def set_language_source(source: Callable[[], str | None] | None) -> None:
    """Install the function that gives the Preferences language (None when unset)."""
    global _language_source
    _language_source = source


def _preferred_language() -> str | None:
    source = _language_source
    return source() if source is not None else None


def display_language() -> str:
    """``MOLFORMA_LANGUAGE``, else the Preferences setting, else the system locale."""
    env = os.environ.get("MOLFORMA_LANGUAGE", "").strip().lower()
    if env in LANGUAGES:
        return env
    pref = _preferred_language()
    if pref in LANGUAGES:
        return str(pref)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        val = os.environ.get(var, "")
        if val:
            return "ja" if val.lower().startswith("ja") else "en"
    loc = locale.getlocale()[0] or ""
    return "ja" if loc.lower().startswith("ja") else "en"


_searched = False


def _find_late(code: str) -> dict[str, str] | None:
    """Import the modules that register messages, once, when a code is not known yet.

    Errors can be built (and rendered) before the module that owns their code is
    imported, e.g. in a tool layer that only imports ``molforma.errors``.
    """
    global _searched
    if _searched:
        return None
    _searched = True
    import importlib

    for name in core_module_names():
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - an optional module that fails to import has no texts
            continue
    return _MESSAGES.get(code)


def core_module_names() -> list[str]:
    """Every module of the package outside ``molforma.gui``, found without importing any."""
    import pkgutil
    from pathlib import Path

    root = Path(__file__).resolve().parent
    names: list[str] = []

    def walk(path: Path, prefix: str) -> None:
        for info in pkgutil.iter_modules([str(path)]):
            name = prefix + info.name
            if name in ("molforma.gui", "molforma.__main__"):
                continue
            names.append(name)
            if info.ispkg:
                walk(path / info.name, name + ".")

    walk(root, "molforma.")
    return names


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render(code: str, data: Mapping[str, Any] | None = None, lang: str | None = None) -> str:
    """The sentence for ``code`` in ``lang`` with ``data`` filled in.

    Unknown codes fall back to the code and its data, so no error is ever silent.
    """
    lang = lang if lang in LANGUAGES else display_language()
    data = dict(data or {})
    texts = _MESSAGES.get(code) or _find_late(code)
    if texts is None:
        details = ", ".join(f"{k}={v}" for k, v in data.items())
        return f"{code}: {details}" if details else code
    template = texts[lang]
    try:
        return string.Formatter().vformat(template, (), _Lenient(data))
    except (ValueError, IndexError, KeyError):
        return template


register(
    {
        "error": {"en": "Error: {detail}", "ja": "エラー: {detail}"},
        "invalid_argument": {"en": "Invalid argument: {detail}", "ja": "引数が不正です: {detail}"},
        "stale_revision": {
            "en": "The document has changed (expected revision {expected}, current {actual}). "
            "Read it again and retry.",
            "ja": "文書が変更されています（期待したリビジョン {expected}、現在 {actual}）。"
            "読み直してから再実行してください。",
        },
        "unknown_atom": {
            "en": "No atom with id {id} in the document.",
            "ja": "ID {id} の原子は文書にありません。",
        },
        "candidate_exists": {
            "en": "The document has a candidate. Confirm or cancel it first "
            "(history with action 'confirm' or 'cancel', or the Confirm / Cancel buttons).",
            "ja": "候補があります。先に確定または取り消してください"
            "（history の action に confirm か cancel、または「確定」「取り消し」ボタン）。",
        },
        "no_candidate": {
            "en": "There is no candidate to confirm or cancel.",
            "ja": "確定または取り消す候補がありません。",
        },
        "busy": {
            "en": "Busy: {detail}. Try again when it has finished.",
            "ja": "処理中です: {detail}。終わってから再実行してください。",
        },
        "format_error": {
            "en": "Cannot read {format}{where}: {reason}",
            "ja": "{format} を読み込めません{where}: {reason}",
        },
        "file_error": {
            "en": "File error: {path}: {reason}",
            "ja": "ファイルエラー: {path}: {reason}",
        },
        "protected_setting": {
            "en": "'{setting}' is protected: MCP may not change it. Start MolForma with "
            "--mcp-allow-execution-settings, or change it in the window.",
            "ja": "「{setting}」は保護されています。MCPからは変更できません。"
            "--mcp-allow-execution-settings 付きで起動するか、ウィンドウで変更してください。",
        },
        "calculation_error": {"en": "Calculation error: {detail}", "ja": "計算エラー: {detail}"},
        "results_error": {"en": "Results error: {detail}", "ja": "結果エラー: {detail}"},
    }
)
