"""More building blocks in the Molecule tab: common molecules by name in the SMILES field,
ring templates on the parts palette (placed with the Place tool like any fragment)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QListWidget

from molforma.app import ops
from molforma.document.building import valence_problem_ids
from molforma.document.document import summary_of
from molforma.document.envelope import atoms_of
from tests.gui.helpers import click_atom, type_into


def test_a_name_typed_in_the_smiles_field_builds_the_molecule_and_says_which_smiles(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab, doc = win.molecule_tab, win.ctx.document
    field = win.findChild(QLineEdit, "smilesInput")
    assert "DMSO" in field.toolTip()
    type_into(qtbot, field, "DMSO")
    assert "CS(C)=O" in tab.message.text()
    qtbot.waitUntil(lambda: not tab.worker_running, timeout=30000)
    assert doc.candidate is not None
    assert summary_of(doc.candidate)["formula"] == "C2H6OS"
    assert tab.message.text() == (
        "3D structure of dimethyl sulfoxide (SMILES CS(C)=O) ready: "
        "confirm or cancel the candidate."
    )
    tab.confirm_button.click()
    # A Japanese name too (typed through an input method: QTest cannot type kana).
    field.setText("ベンゼン")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not tab.worker_running, timeout=30000)
    assert summary_of(doc.candidate)["formula"] == "C6H6"
    tab.cancel_button.click()
    # Neither SMILES nor a name: refused at once, nothing changes.
    rev = doc.revision
    type_into(qtbot, field, "unobtainium")
    assert not tab.worker_running and doc.candidate is None and doc.revision == rev
    assert "unobtainium" in tab.message.text()


def test_ring_templates_are_on_the_palette_and_placed_like_fragments(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    tab, view, doc = win.molecule_tab, win.molecule_tab.view, win.ctx.document
    ops.add_atoms(
        doc, [{"element": "C", "position": [0.0, 0.0, 0.0]}], preview=False, adjust_hydrogens=True
    )
    view.fit()
    tab.palette_toggle.click()
    rings = win.findChild(QListWidget, "ringList")
    assert rings is not None and rings.isVisible() and rings.toolTip()
    names = [rings.item(i).data(256) for i in range(rings.count())]
    assert names[:6] == [
        "cyclopropyl",
        "cyclobutyl",
        "cyclopentyl",
        "cyclohexyl",
        "cycloheptyl",
        "cyclooctyl",
    ]
    assert {"phenyl", "2-pyridyl", "2-furyl", "2-thienyl", "2-pyrrolyl", "2-naphthyl"} <= set(names)
    fragments = tab.palette.fragments
    frag_names = {fragments.item(i).data(256) for i in range(fragments.count())}
    assert "methyl" in frag_names and not frag_names & set(names)  # listed once
    rings.setCurrentRow(names.index("cyclohexyl"))
    assert tab.tool == "place" and tab.palette.current_part() == ("fragment", "cyclohexyl")
    click_atom(qtbot, view, "a1")
    assert doc.candidate is not None
    assert summary_of(doc.candidate)["formula"] == "C7H14"  # methylcyclohexane
    click_atom(qtbot, view, "a1")  # the same atom again: confirm
    assert doc.candidate is None and summary_of(doc.project)["formula"] == "C7H14"
    assert valence_problem_ids(doc.project) == []
    # An aromatic ring: thiophene on the next carbon's hydrogen site.
    rings.setCurrentRow(names.index("2-thienyl"))
    ring_c = next(a["id"] for a in atoms_of(doc.project) if a["element"] == "C" and a["id"] != "a1")
    click_atom(qtbot, view, ring_c)
    assert doc.candidate is not None
    assert summary_of(doc.candidate)["formula"] == "C11H16S"
