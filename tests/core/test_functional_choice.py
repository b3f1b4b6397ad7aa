"""Functionals from every route that sets or brings one (no Qt): set_nwchem, ``.nw`` files,
saved projects. A name the table knows (or an equal hand-written ``xc`` line) becomes its
entry; an unknown one is refused when set, and when a file brings it the file opens with
the reason attached and no input is ever written with it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from molforma.app import ops
from molforma.document.document import Document
from molforma.errors import MolFormaError, ValidationError
from molforma.formats.nwchem_input import read_nwchem
from molforma.i18n import render
from molforma.jobs.runner import _check_runnable
from molforma.nwchem import functionals
from molforma.nwchem.input import input_errors, render_input
from tests.core.test_nwchem_input import block, water

GEOMETRY = (
    "geometry\n O 0 0 0.1173\n H 0 0.7572 -0.4692\n H 0 -0.7572 -0.4692\nend\n"
    "basis\n * library sto-3g\nend\n"
)


def _nw(dft: str) -> str:
    return GEOMETRY + f"dft\n{dft}\nend\ntask dft energy\n"


@pytest.mark.parametrize(
    ("dft", "name"),
    [
        (
            " xc xcamb88 1.00 lyp 0.81 vwn_5 0.19 hfexch 1.00\n cam 0.33 cam_alpha 0.19 cam_beta 0.46",
            "cam-b3lyp",
        ),
        (" XC xwpbe 1.0 cpbe96 1.0 HFexch 1.0\n cam 0.40 cam_alpha 0.0 cam_beta 1.00", "lc-wpbe"),
        (" xc xpbe96 cpbe96", "pbe96"),
        (" xc cpbe96 xpbe96 1.0", "pbe96"),
        (" xc xtpss03 ctpss03", "tpss"),
        (" xc b3lyp", "b3lyp"),
    ],
)
def test_an_xc_line_nwchem_accepts_maps_back_to_its_table_entry(dft: str, name: str) -> None:
    assert read_nwchem(_nw(dft)).calculation["functional"] == name


def test_a_hand_written_xc_line_of_nwchem_keywords_is_kept_and_written_as_read() -> None:
    s = read_nwchem(_nw(" xc HFexch 0.2 becke88 0.8 lyp"))
    assert s.calculation["functional"] == "hfexch 0.2 becke88 0.8 lyp"
    p = water(theory="dft", functional=s.calculation["functional"])
    assert input_errors(p) == []
    assert "xc hfexch 0.2 becke88 0.8 lyp" in block(render_input(p), "dft")


def _open(tmp_path: Path, name: str, text: str) -> Document:
    path = tmp_path / name
    path.write_text(text)
    doc = Document()
    ops.open_file(doc, str(path), preview=False)
    return doc


def _refused_by_name(doc: Document, code: str, value: str) -> None:
    problems = [p for p in input_errors(doc.project) if p["field"] == "calculation.functional"]
    assert [p["code"] for p in problems] == [code]
    assert value in problems[0]["message"]
    with pytest.raises(ValidationError) as info:
        render_input(doc.project)
    assert info.value.code == code
    with pytest.raises(MolFormaError) as start:
        _check_runnable(doc.project)  # what a run (window or MCP) meets before any file
    assert start.value.code == "input_invalid" and value in start.value.message()
    checks = ops.validate_document(doc)
    assert not checks["ok"] and code in {c["code"] for c in checks["checks"]}


def test_a_nw_file_with_range_separation_the_table_lacks_opens_and_is_refused_by_name(
    tmp_path: Path,
) -> None:
    # LC-wPBE with omega 0.3 (NWChem's QA) is not the table's 0.4: never silently 0.4.
    doc = _open(
        tmp_path,
        "lc.nw",
        _nw(" xc xwpbe 1.00 cpbe96 1.0 hfexch 1.00\n cam 0.3 cam_alpha 0.00 cam_beta 1.00"),
    )
    functional = doc.project["calculation"]["functional"]
    assert functional == "xwpbe 1.00 cpbe96 1.0 hfexch 1.00 cam 0.3 cam_alpha 0.00 cam_beta 1.00"
    assert len(doc.project["document"]["atoms"]) == 3  # the molecule is the person's
    _refused_by_name(doc, "unknown_functional", "cam 0.3")


def _project_file(tmp_path: Path, functional: str) -> str:
    doc = Document(water(theory="dft", functional="b3lyp", basis="sto-3g"))
    path = tmp_path / "saved.molforma.json"
    ops.save_project(doc, str(path))
    data = json.loads(path.read_text())
    data["calculation"]["functional"] = functional
    return json.dumps(data)


def test_a_saved_project_holding_a_table_name_opens_and_writes_the_same_input(
    tmp_path: Path,
) -> None:
    for name, xc in (
        ("tpss", "xc xtpss03 ctpss03"),
        ("pbe96", "xc xpbe96 cpbe96"),
        ("b3lyp", "xc b3lyp"),
    ):
        doc = _open(tmp_path, f"{name}.molforma.json", _project_file(tmp_path, name))
        assert doc.project["calculation"]["functional"] == name
        assert input_errors(doc.project) == []
        assert xc in block(render_input(doc.project), "dft")


def test_a_saved_project_with_an_unknown_functional_opens_with_the_reason_and_no_input(
    tmp_path: Path,
) -> None:
    doc = _open(tmp_path, "old.molforma.json", _project_file(tmp_path, "wb97x-d"))
    assert doc.project["calculation"]["functional"] == "wb97x-d"
    _refused_by_name(doc, "unknown_functional", "wb97x-d")
    # Setting a table name clears it.
    ops.set_nwchem(doc, {"functional": "wb97x-d3"}, preview=False)
    assert [p for p in input_errors(doc.project) if p["field"].startswith("calculation")] == []


def test_set_nwchem_refuses_an_unknown_functional_with_the_valid_names_in_both_languages() -> None:
    doc = Document(water(theory="dft"))
    before = (doc.revision, dict(doc.project["calculation"]))
    with pytest.raises(ValidationError) as info:
        ops.set_nwchem(doc, {"functional": "b3lyp-d4"}, preview=False)
    assert info.value.code == "unknown_functional"
    assert info.value.data["valid"] == functionals.names()
    assert "b3lyp-d3" in info.value.data["nearest"]
    assert (doc.revision, dict(doc.project["calculation"])) == before
    ja = render("unknown_functional", info.value.data, lang="ja")
    assert "汎関数「b3lyp-d4」" in ja and "b3lyp-d3" in ja


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("CAM-B3LYP", "cam-b3lyp"),
        ("ωB97X-D3", "wb97x-d3"),
        ("pbe", "pbe96"),
        ("xcamb88 1.00 lyp 0.81 vwn_5 0.19 hfexch 1.00", "cam-b3lyp"),
        ("m06-hf", "m06-hf"),
    ],
)
def test_set_nwchem_stores_a_functional_by_its_table_name(typed: str, stored: str) -> None:
    doc = Document(water(theory="dft"))
    ops.set_nwchem(doc, {"functional": typed}, preview=False)
    assert doc.project["calculation"]["functional"] == stored


def test_a_dispersion_asked_twice_is_refused_and_the_same_one_written_once() -> None:
    p = water(theory="dft", functional="b3lyp-d3")
    p["advanced"]["dispersion"] = "d3bj"
    assert [x["code"] for x in input_errors(p)] == ["dispersion_twice"]
    with pytest.raises(ValidationError):
        render_input(p)
    p["advanced"]["dispersion"] = "d3"
    assert block(render_input(p), "dft").count("disp vdw 3") == 1


def test_a_functional_newer_than_nwchem_7_0_is_accepted_with_a_warning() -> None:
    doc = Document(water(theory="dft"))
    out = ops.set_nwchem(doc, {"functional": "wb97x-d3"}, preview=False)
    codes: list[Any] = [w["code"] for w in out["info"]["warnings"]]
    assert codes == ["functional_needs_nwchem"]
    assert "7.2.0" in out["info"]["warnings"][0]["message"]
    assert "xc wb97x-d3" in block(render_input(doc.project), "dft")


def test_a_functional_with_a_dispersion_the_list_lacks_is_told_to_use_the_advanced_setting() -> (
    None
):
    doc = Document(water(theory="dft"))
    with pytest.raises(ValidationError) as info:
        ops.set_nwchem(doc, {"functional": "B3LYP-D3BJ"}, preview=False)
    assert info.value.code == "functional_dispersion_separate"
    assert info.value.data["base"] == "b3lyp" and info.value.data["dispersion"] == "d3bj"
    assert "dispersion" in info.value.message() and "b3lyp" in info.value.data["valid"]
