"""The window's file dialogs offer what the format table (molforma.file_formats) says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QAction

from molforma import file_formats as ff
from molforma.formats import read_file
from molforma.gui.app import set_language

WATER = "3\nwater\nO 0 0 0.117\nH 0 0.757 -0.469\nH 0 -0.757 -0.469\n"


def _patterns(filter_text: str) -> list[str]:
    return filter_text[filter_text.rindex("(") + 1 : filter_text.rindex(")")].split()


def _last_call(dialog_log: Any, name: str) -> tuple[Any, ...]:
    return next(args for n, args in reversed(dialog_log.calls) if n == name)


def test_file_open_offers_every_readable_extension_and_the_result_files(
    make_main_window: Any, dialog_log: Any
) -> None:
    win = make_main_window()
    win.findChild(QAction, "molforma.file.open").trigger()
    _caption, filters = _last_call(dialog_log, "get_open_path")
    assert filters[0].startswith("Molecules and projects (")
    assert _patterns(filters[0]) == [f"*{e}" for f in ff.FORMATS for e in f.extensions]
    assert filters[1].startswith("Calculation results (")
    assert "*.nwo" in _patterns(filters[1]) and "*.molden" in _patterns(filters[1])
    assert filters[2] == "All files (*)"


def test_load_structure_file_offers_the_structure_formats_then_projects(
    make_main_window: Any, dialog_log: Any
) -> None:
    win = make_main_window()
    assert win.molecule_tab.load_structure_file() is False  # the dialog was cancelled
    _caption, filters = _last_call(dialog_log, "get_open_path")
    pats = _patterns(filters[0])
    assert filters[0].startswith("Structure files (")
    assert {"*.mdl", "*.sd", "*.ml2", "*.nwi", "*.gau"} <= set(pats)
    assert pats[-2:] == ["*.molforma.json", "*.json"]


def test_export_offers_every_writable_format_and_writes_cml(
    make_main_window: Any, dialog_log: Any, tmp_path: Path
) -> None:
    src = tmp_path / "w.xyz"
    src.write_text(WATER)
    win = make_main_window()
    dialog_log.answers.append(str(src))
    win.findChild(QAction, "molforma.file.open").trigger()
    out = tmp_path / "w.cml"
    dialog_log.answers.append(str(out))
    win.findChild(QAction, "molforma.file.export").trigger()
    _caption, filters, suggested = _last_call(dialog_log, "get_save_path")
    assert filters == [
        "XYZ file (*.xyz)",
        "MDL Molfile (*.mol)",
        "SD file (*.sdf)",
        "PDB file (*.pdb)",
        "NWChem input (*.nw)",
        "CML file (*.cml)",
        "MolForma project (*.molforma.json)",
    ]
    assert suggested == "water.xyz"
    back = read_file(out)
    assert [a["element"] for a in back.atoms] == ["O", "H", "H"]  # type: ignore[union-attr]


def test_export_to_an_unknown_ending_names_the_endings_in_the_window_language(
    make_main_window: Any, dialog_log: Any, tmp_path: Path
) -> None:
    win = make_main_window()
    dialog_log.answers.append(str(tmp_path / "w.mol2"))
    win.findChild(QAction, "molforma.file.export").trigger()
    _title, text = _last_call(dialog_log, "error")
    assert text == (
        "Choose a file name ending in one of: .xyz, .mol, .sdf, .pdb, .nw, .cml, .molforma.json."
    )
    assert not (tmp_path / "w.mol2").exists()
    set_language("ja", win.ctx)
    try:
        dialog_log.answers.append(str(tmp_path / "w.mol2"))
        win.findChild(QAction, "molforma.file.export").trigger()
        _title, text = _last_call(dialog_log, "error")
        assert text.startswith("次のいずれかで終わるファイル名を選んでください: .xyz, .mol")
        filters = _last_call(dialog_log, "get_save_path")[1]
        assert filters[0] == "XYZ ファイル (*.xyz)" and filters[5] == "CML ファイル (*.cml)"
    finally:
        set_language("en", win.ctx)


def test_the_results_tab_open_dialog_offers_outputs_molden_and_xyz(
    make_main_window: Any, dialog_log: Any
) -> None:
    win = make_main_window()
    panel = win.panels["results"]
    panel.open_file_button.click()
    _caption, filters = _last_call(dialog_log, "get_open_path")
    assert (
        filters[0]
        == f"NWChem output, MOLDEN, XYZ ({ff.result_patterns(('nwchem-output', 'molden', 'xyz'))})"
    )
    assert filters[1] == "All files (*)"
    set_language("ja", win.ctx)
    try:
        panel.open_file_button.click()
        filters = _last_call(dialog_log, "get_open_path")[1]
        assert filters[0].startswith("NWChem出力・MOLDEN・XYZ (*.out ")
    finally:
        set_language("en", win.ctx)
