"""The Preferences file: its own format only, old files of the known keys, defaults otherwise."""

from __future__ import annotations

import json

import pytest

from molforma.preferences import (
    PREFERENCES_FORMAT,
    Preferences,
    load_preferences,
    preferences_path,
    save_preferences,
)


def test_saved_preferences_carry_the_format_marker_and_read_back() -> None:
    save_preferences(
        Preferences(
            executable="/opt/nwchem",
            launcher="mpiexec",
            environment={"OMP_STACKSIZE": "64M"},
            language="ja",
        )
    )
    data = json.loads(preferences_path().read_text(encoding="utf-8"))
    assert data["format"] == PREFERENCES_FORMAT and data["version"] == 1
    prefs = load_preferences()
    assert (prefs.executable, prefs.launcher, prefs.language) == ("/opt/nwchem", "mpiexec", "ja")
    assert prefs.environment == {"OMP_STACKSIZE": "64M"}


def test_an_old_file_with_only_known_keys_is_read_and_gets_the_marker_on_save() -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {"language": None, "executable": "/opt/nwchem", "launcher": "mpirun", "environment": {}}
        )
    )
    prefs = load_preferences()
    assert prefs.executable == "/opt/nwchem"
    save_preferences(prefs)
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == PREFERENCES_FORMAT


@pytest.mark.parametrize(
    "data",
    [
        {"executable": "sh -c 'touch x' --", "format": "molforma-project", "document": {}},
        {"format": PREFERENCES_FORMAT, "version": 1, "executable": "evil", "colour": "red"},
        {"format": PREFERENCES_FORMAT, "version": 99, "executable": "evil"},
        {"format": "something-else", "executable": "evil"},
        {"executable": ["sh", "-c"]},
        {"executable": "evil", "environment": {"LD_PRELOAD": 1}},
        # Values no document could carry (the execution settings' grammar) are not trusted.
        {"format": PREFERENCES_FORMAT, "version": 1, "executable": "nwchem\ntouch /tmp/x"},
        {"format": PREFERENCES_FORMAT, "version": 1, "launcher": "mpirun\u0000"},
        {"format": PREFERENCES_FORMAT, "version": 1, "environment": {"A B": "1"}},
        {"format": PREFERENCES_FORMAT, "version": 1, "account": 'x" --chdir=/tmp "'},
        {"format": PREFERENCES_FORMAT, "version": 1, "batch_directives": ["--chdir=/tmp"]},
        ["executable", "evil"],
        "evil",
    ],
)
def test_anything_else_is_refused_with_a_message_and_nothing_in_it_is_trusted(
    data: object, capsys: pytest.CaptureFixture[str]
) -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    prefs = load_preferences()
    assert prefs == Preferences()
    err = capsys.readouterr().err
    assert str(path) in err and "refused" in err


def test_non_finite_numbers_and_broken_json_give_the_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    for text in ('{"executable": "evil", "language": NaN}', '{"executable": "evil"'):
        path.write_text(text)
        assert load_preferences() == Preferences()
    assert "refused" in capsys.readouterr().err


def test_a_missing_file_gives_the_defaults_silently(capsys: pytest.CaptureFixture[str]) -> None:
    assert not preferences_path().exists()
    assert load_preferences() == Preferences()
    assert capsys.readouterr().err == ""
