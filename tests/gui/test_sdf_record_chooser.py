"""The multi-record SDF chooser names each record (title, formula, atom count) and shows
its SD data fields; the record chosen in the list is the one read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from molforma.formats.sdf_records import sdf_records
from molforma.gui import dialogs
from molforma.gui.widgets import structure_choice
from molforma.gui.widgets.structure_choice import StructureChoiceDialog

MOLECULES = [
    ("CCO", "ethanol", "solvent", "46.07"),
    ("c1ccccc1", "benzene", "aromatic", "78.11"),
    ("CC(=O)[O-]", "acetate", "anion", "59.04"),
]


@pytest.fixture
def sdf(tmp_path: Path) -> Path:
    from rdkit import Chem
    from rdkit.Chem import AllChem

    path = tmp_path / "three.sdf"
    writer = Chem.SDWriter(str(path))
    for smi, name, kind, mw in MOLECULES:
        m = Chem.AddHs(Chem.MolFromSmiles(smi))
        AllChem.EmbedMolecule(m, randomSeed=1)
        m.SetProp("_Name", name)
        m.SetProp("KIND", kind)
        m.SetProp("MW", mw)
        writer.write(m)
    writer.close()
    return path


def test_records_named_with_formula_atoms_and_data(sdf: Path) -> None:
    records = sdf_records(sdf.read_text())
    assert [(r["title"], r["formula"], r["atomCount"]) for r in records] == [
        ("ethanol", "C2H6O", 9),
        ("benzene", "C6H6", 12),
        ("acetate", "C2H3O2", 7),
    ]
    assert records[2]["data"] == {"KIND": "anion", "MW": "59.04"}


def test_chooser_lists_records_and_shows_sd_data(qtbot: Any, sdf: Path) -> None:
    records = sdf_records(sdf.read_text())
    dlg = StructureChoiceDialog(None, 3, unit="record", records=records)
    qtbot.addWidget(dlg)
    panel = dlg.records_panel
    texts = [panel.list.item(k).text() for k in range(panel.list.count())]
    assert "benzene" in texts[1] and "C6H6" in texts[1] and "12" in texts[1]
    panel.list.setCurrentRow(2)
    assert dlg.values()[0] == 2
    cells = {
        panel.table.item(k, 0).text(): panel.table.item(k, 1).text()
        for k in range(panel.table.rowCount())
    }
    assert cells == {"KIND": "anion", "MW": "59.04"}
    dlg.frame.setValue(2)
    assert panel.list.currentRow() == 1


def test_the_record_chosen_is_read(qtbot: Any, sdf: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def choose(dlg: Any) -> bool:
        qtbot.addWidget(dlg)
        dlg.records_panel.list.setCurrentRow(1)
        return True

    monkeypatch.setattr(dialogs, "run_dialog", choose)
    loaded = structure_choice.read_with_choices(None, str(sdf))
    assert loaded.title == "benzene" and len(loaded.atoms) == 12
