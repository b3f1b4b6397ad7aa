"""Errors carry a code and data; their sentence renders in Japanese or English without Qt."""

from __future__ import annotations

import importlib
import string

import pytest

from molforma import i18n
from molforma.errors import StaleRevisionError


def _load_every_core_module() -> None:
    for name in i18n.core_module_names():
        importlib.import_module(name)


def test_messages_follow_molforma_language(monkeypatch: pytest.MonkeyPatch) -> None:
    err = StaleRevisionError(expected="r1", actual="r2")
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "ja")
    assert "文書が変更されています" in err.message()
    assert err.to_dict()["code"] == "stale_revision"
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")
    assert err.message().startswith("The document has changed")
    assert err.to_dict()["details"] == {"expected": "r1", "actual": "r2"}


def test_the_locale_decides_when_nothing_else_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MOLFORMA_LANGUAGE", raising=False)
    monkeypatch.setenv("LC_ALL", "ja_JP.UTF-8")
    assert i18n.display_language() == "ja"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert i18n.display_language() == "en"


def test_every_registered_message_has_both_languages_with_the_same_placeholders() -> None:
    _load_every_core_module()
    cat = i18n.catalogue()
    assert len(cat) > 40
    fmt = string.Formatter()
    for code, texts in cat.items():
        names = {lang: {f for _, f, _, _ in fmt.parse(t) if f} for lang, t in texts.items()}
        assert names["en"] == names["ja"], code
        assert any(ord(c) > 0x3000 for c in texts["ja"]), f"{code} has no Japanese text"


def test_an_unknown_code_still_renders_its_data() -> None:
    assert i18n.render("no_such_code", {"x": 1}, "en") == "no_such_code: x=1"


def test_rendering_japanese_loads_no_qt() -> None:
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from molforma.errors import ValidationError\n"
        "e = ValidationError('atoms_too_close', a='a1', b='a2', distance=0.0, min=0.1)\n"
        "sys.stdout.write(e.message())\n"
        "assert not [m for m in sys.modules if m.startswith('PySide6')]\n"
    )
    env = {**os.environ, "MOLFORMA_LANGUAGE": "ja", "QT_QPA_PLATFORM": ""}
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert res.returncode == 0, res.stderr
    assert "座標が重複しています" in res.stdout
