"""One label table per language for tasks, theories and settings, in the core (no Qt)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from molforma.catalog import get_catalog, setting_label, setting_labels
from molforma.errors import ValidationError
from molforma.nwchem.settings import TASKS, THEORIES, AdvancedSettings

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_task_theory_and_setting_has_its_label_in_each_language(lang: str) -> None:
    tasks, theories = setting_labels("tasks", lang), setting_labels("theories", lang)
    advanced = setting_labels("advanced_keys", lang)
    assert set(tasks) == set(TASKS) and set(theories) == set(THEORIES)
    assert set(advanced) == set(AdvancedSettings.model_fields)
    catalogue = {e["name"]: e["label"][lang] for e in get_catalog("tasks")["tasks"]}
    assert tasks == catalogue
    if lang == "ja":  # a label of its own, not the English one
        assert all(tasks[k] != setting_labels("tasks", "en")[k] for k in TASKS)


def test_the_display_language_picks_the_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "ja")
    assert setting_label("tasks", "optimize+frequencies") == "構造最適化＋振動数計算"
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")
    assert setting_label("tasks", "optimize+frequencies") == "Optimisation + frequencies"
    assert setting_label("tasks", "no-such-task") == "no-such-task"


def test_one_spelling_of_optimisation() -> None:
    labels = [*setting_labels("tasks", "en").values()]
    assert not any("optimization" in t.lower() for t in labels)
    assert setting_labels("tasks", "en")["optimize"] == "Geometry optimisation"


def test_an_unlabelled_kind_is_refused() -> None:
    with pytest.raises(ValidationError) as exc:
        setting_labels("fragments")
    assert exc.value.code == "unknown_catalog"


def test_no_qt_catalogue_holds_a_second_copy_of_the_labels() -> None:
    """The window takes these words from the table, so no .ts file translates them."""
    sources = set()
    for ts in (ROOT / "translations").glob("*.ts"):
        sources |= set(re.findall(r"<source>(.*?)</source>", ts.read_text(encoding="utf-8"), re.S))
    for kind in ("tasks", "theories"):
        for label in setting_labels(kind, "en").values():
            assert label not in sources, label
