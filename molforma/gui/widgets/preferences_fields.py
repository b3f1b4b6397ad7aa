"""The fields of Preferences read and checked: the environment table, and of a cluster
profile what each field holds, its refusal as typed, the whole profile by its grammar and
the sentence "Test connection" shows (Qt layer).

The checks are those of :func:`molforma.preferences.check_profile`; the texts keep the
``PreferencesDialog`` translation context they had in the dialog.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QTableWidget

from molforma.errors import MolFormaError
from molforma.gui.widgets.panel_workers import error_text
from molforma.nwchem import value_grammar as grammar
from molforma.preferences import ClusterProfile, check_profile

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def environment_of(table: QTableWidget) -> dict[str, str]:
    """The environment variables of the (name, value) ``table``.

    Raises:
        ValueError: a value without a name, a name that is not one, or a name twice.
    """
    env: dict[str, str] = {}
    for row in range(table.rowCount()):
        n_item = table.item(row, 0)
        v_item = table.item(row, 1)
        name = n_item.text().strip() if n_item else ""
        value = v_item.text() if v_item else ""
        if not name:
            if value:
                raise ValueError(
                    QCoreApplication.translate(
                        "PreferencesDialog", "A variable has a value but no name."
                    )
                )
            continue
        if not _ENV_NAME.match(name):
            raise ValueError(
                QCoreApplication.translate(
                    "PreferencesDialog", "Not a valid variable name: %1"
                ).replace("%1", name)
            )
        if name in env:
            raise ValueError(
                QCoreApplication.translate("PreferencesDialog", "Variable given twice: %1").replace(
                    "%1", name
                )
            )
        env[name] = value
    return env


def _tr_name_taken() -> str:
    return QCoreApplication.translate("PreferencesDialog", "Another profile is already called %1.")


def name_taken_text(name: str) -> str:
    """The refusal of a profile name another profile already has."""
    return _tr_name_taken().replace("%1", name)


def field_value(widget: QLineEdit | QPlainTextEdit, key: str) -> Any:
    """The value of a profile field as the profile holds it (lines; None for empty
    optional fields)."""
    if isinstance(widget, QPlainTextEdit):
        return [ln.strip() for ln in widget.toPlainText().splitlines() if ln.strip()]
    text = widget.text().strip()
    if key in ("ssh_config", "partition", "account", "qos"):
        return text or None
    return text


def field_refusal(key: str, value: Any, name: str, other_names: list[str]) -> str:
    """The refusal of ``value`` for ``key`` of the profile ``name`` ('' when it is
    acceptable): the grammar :func:`molforma.preferences.check_profile` applies, and
    names used once (``other_names``: those of the other profiles)."""
    check: dict[str, Callable[[], Any]] = {
        "name": lambda: grammar.validate_profile_name(value),
        "host": lambda: grammar.validate_ssh_host(value, name),
        "ssh_config": lambda: grammar.validate_ssh_config_path(value, name),
        "remote_folder": lambda: grammar.validate_remote_folder(value, name),
        "environment_lines": lambda: grammar.validate_remote_environment_lines(value, name),
    }
    try:
        if key in check:
            check[key]()
        elif key in ("partition", "account", "qos"):
            grammar.validate_slurm_name(key, value)
        else:
            grammar.validate_remote_command(key, value, name)
    except MolFormaError as exc:
        return error_text(exc)
    if key == "name" and other_names.count(value):
        return name_taken_text(str(value))
    return ""


def checked_profile(data: dict[str, Any]) -> ClusterProfile:
    """``data`` as a profile, each value by its grammar.

    Raises:
        ValueError: the sentence naming the profile and what is wrong.
    """
    try:
        check_profile(ClusterProfile.model_construct(**data))
        return ClusterProfile.model_validate(data)
    except MolFormaError as exc:
        raise ValueError(error_text(exc)) from None
    except Exception as exc:  # noqa: BLE001 - pydantic's own refusal, shown
        raise ValueError(
            QCoreApplication.translate("PreferencesDialog", "Cluster profile %1: %2")
            .replace("%1", str(data.get("name")))
            .replace("%2", str(exc))
        ) from None


def test_result_text(result: Any) -> tuple[str, bool]:
    """The sentence of a connection test's ``result`` and whether it is a failure."""
    if not result.get("reachable"):
        return QCoreApplication.translate("PreferencesDialog", "Not reachable: %1").replace(
            "%1", str(result.get("message") or result.get("error") or "")
        ), True
    names = [
        str(p.get("name"))
        + (
            QCoreApplication.translate("PreferencesDialog", " (default)")
            if p.get("default")
            else ""
        )
        for p in result.get("partitions") or []
    ]
    return QCoreApplication.translate("PreferencesDialog", "Reachable. Partitions: %1").replace(
        "%1", ", ".join(names) or QCoreApplication.translate("PreferencesDialog", "(none)")
    ), False
