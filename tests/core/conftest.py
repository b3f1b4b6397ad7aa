"""Shared fixtures for the Qt-free core tests."""

from __future__ import annotations

import pytest

from molforma.app.ops import add_atoms
from molforma.document.document import Document
from tests.paths import NWCHEM_DATA

FIXTURES = NWCHEM_DATA


@pytest.fixture(autouse=True)
def _isolated_config(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")


WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.1173]},
    {"element": "H", "position": [0.0, 0.7572, -0.4692]},
    {"element": "H", "position": [0.0, -0.7572, -0.4692]},
]


@pytest.fixture
def water_doc() -> Document:
    """A confirmed water molecule (ids a1 O, a2 H, a3 H, bonded)."""
    doc = Document()
    add_atoms(doc, WATER, [{"a": "#0", "b": "#1"}, {"a": "#0", "b": "#2"}], preview=False)
    return doc
