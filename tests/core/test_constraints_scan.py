"""Constraints and relaxed scans without NWChem: the project values, the input text, the
refusals (nothing changed) and the reading back of a written input."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from molforma.app import ops
from molforma.document.document import Document
from molforma.errors import ValidationError
from molforma.formats.nwchem_input import read_nwchem
from molforma.nwchem.input import input_errors, render_input
from tests.core.test_nwchem_input import WATER, make_project

# H2O2 with a dihedral H3-O1-O2-H4 of 143.13 degrees.
H2O2 = [("O", 0.0, 0.7, 0.0), ("O", 0.0, -0.7, 0.0), ("H", 0.9, 0.9, 0.3), ("H", -0.9, -0.9, 0.3)]
TORSION = ["a3", "a1", "a2", "a4"]


def doc_of(project: dict[str, Any]) -> Document:
    doc = Document()
    doc.load(project, label="test", preview=False)
    return doc


def test_constraints_are_written_as_constant_zcoord_entries_with_symmetry_off() -> None:
    p = make_project(
        WATER,
        task="optimize",
        basis="sto-3g",
        constraints=[
            {"atoms": ["a2", "a1", "a3"], "value": 120.0},
            {"atoms": ["a1", "a2"], "value": 1.1},
        ],
    )
    text = render_input(p)
    geometry = text.split("geometry ", 1)[1].split("\nend\n", 1)[0]
    assert "noautosym" in geometry.splitlines()[0]
    assert "noautoz" not in geometry  # zcoord needs NWChem's internal coordinates
    assert (
        "  zcoord\n    angle 2 1 3 120.000000 c1 constant\n"
        "    bond 1 2 1.100000 c2 constant\n  end" in geometry
    )
    assert input_errors(p) == []


def test_a_scan_is_one_input_with_a_geometry_adjust_and_an_optimisation_per_point() -> None:
    p = make_project(
        H2O2,
        task="optimize",
        basis="sto-3g",
        scan={"atoms": TORSION, "start": 60.0, "end": 240.0, "steps": 3},
    )
    text = render_input(p)
    assert text.count("task scf optimize") == 4
    assert text.count("geometry adjust") == 3
    # 240 degrees is written as NWChem's -120; the first point sits in the geometry block.
    assert "    torsion 3 1 2 4 60.000000 scan constant" in text
    assert [line.split()[5] for line in text.splitlines() if " scan constant" in line] == [
        "60.000000",
        "120.000000",
        "180.000000",
        "-120.000000",
    ]
    # Each adjust comes after the previous point's task: it starts from that structure.
    lines = text.splitlines()
    first_task = lines.index("task scf optimize")
    assert lines.index("geometry adjust") == first_task + 2


def test_a_written_input_reads_back_to_the_same_constraints_and_scan() -> None:
    p = make_project(
        H2O2,
        task="optimize",
        basis="sto-3g",
        constraints=[{"atoms": ["a1", "a2"], "value": 1.45}],
        scan={"atoms": TORSION, "start": 0.0, "end": 360.0, "steps": 4},
    )
    structure = read_nwchem(render_input(p))
    calc = structure.calculation
    ids = [a["id"] for a in structure.atoms]
    assert calc["constraints"] == [{"kind": "distance", "atoms": ids[:2], "value": 1.45}]
    # 360 is written as 0; the reader unwraps the series back to 0..360.
    assert calc["scan"] == {
        "kind": "dihedral",
        "atoms": [ids[2], ids[0], ids[1], ids[3]],
        "start": 0.0,
        "end": 360.0,
        "steps": 4,
    }
    assert calc["task"] == "optimize"


def test_set_nwchem_fills_the_current_value_and_the_scan_start_from_the_geometry() -> None:
    doc = doc_of(make_project(H2O2, task="optimize"))
    ops.set_nwchem(
        doc,
        {
            "constraints": [{"atoms": ["a1", "a2"]}],
            "scan": {"atoms": TORSION, "end": 180.0, "steps": 2},
        },
        preview=False,
    )
    calc = doc.project["calculation"]
    assert calc["constraints"] == [
        {"kind": "distance", "atoms": ["a1", "a2"], "value": pytest.approx(1.4)}
    ]
    assert calc["scan"]["start"] == pytest.approx(143.130102)  # H3-O1-O2-H4 as drawn
    assert calc["scan"]["end"] == 180.0
    ops.set_nwchem(doc, {"constraints": [], "scan": None}, preview=False)
    assert doc.project["calculation"]["constraints"] == []
    assert doc.project["calculation"]["scan"] is None


@pytest.mark.parametrize(
    ("values", "code"),
    [
        ({"constraints": [{"atoms": ["a1"], "value": 1.0}]}, "constraint_bad_atoms"),
        ({"constraints": [{"atoms": ["a1", "a1"], "value": 1.0}]}, "constraint_bad_atoms"),
        ({"constraints": [{"atoms": ["a1", "a9"], "value": 1.0}]}, "constraint_unknown_atom"),
        ({"constraints": [{"atoms": ["a1", "a2"], "value": 0.05}]}, "constraint_bad_value"),
        ({"constraints": [{"atoms": ["a3", "a1", "a2"], "value": 180.0}]}, "constraint_bad_value"),
        ({"constraints": [{"atoms": TORSION, "value": float("nan")}]}, "constraint_bad_value"),
        (
            {
                "constraints": [
                    {"atoms": ["a1", "a2"], "value": 1.4},
                    {"atoms": ["a2", "a1"], "value": 1.5},
                ]
            },
            "constraint_duplicate",
        ),
        ({"scan": {"atoms": TORSION, "start": 0, "end": 180, "steps": 0}}, "scan_bad_steps"),
        ({"scan": {"atoms": TORSION, "start": 0, "end": 180, "steps": 51}}, "scan_bad_steps"),
        ({"scan": {"atoms": TORSION, "start": 90, "end": 90, "steps": 3}}, "scan_no_span"),
        ({"scan": {"atoms": TORSION, "start": -180, "end": 270, "steps": 3}}, "scan_span_too_wide"),
        (
            {"scan": {"atoms": TORSION, "end": 180, "steps": 3}, "task": "energy"},
            "scan_needs_optimize",
        ),
        (
            {
                "scan": {"atoms": TORSION, "end": 180, "steps": 3},
                "constraints": [{"atoms": list(reversed(TORSION)), "value": 90.0}],
            },
            "scan_also_constrained",
        ),
    ],
)
def test_bad_constraints_and_scans_are_refused_with_nothing_changed(
    values: dict[str, Any], code: str
) -> None:
    doc = doc_of(make_project(H2O2, task="optimize"))
    before, revision = copy.deepcopy(doc.project), doc.revision
    with pytest.raises(ValidationError) as info:
        ops.set_nwchem(doc, values, preview=False)
    assert info.value.code == code
    assert doc.project == before and doc.revision == revision
    # A sentence in each language, never the bare code.
    for lang in ("en", "ja"):
        assert info.value.message(lang) != code and code not in info.value.message(lang)
    assert any(
        "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in info.value.message("ja")
    )


def test_fixed_atoms_and_internal_constraints_are_refused_together() -> None:
    p = make_project(H2O2, task="optimize")
    p["document"]["atoms"][0]["fixed"] = True
    doc = doc_of(p)
    before = copy.deepcopy(doc.project)
    with pytest.raises(ValidationError) as info:
        ops.set_nwchem(doc, {"constraints": [{"atoms": ["a1", "a2"], "value": 1.4}]}, preview=False)
    assert info.value.code == "constraint_fixed_atoms"
    assert doc.project == before


def test_a_constraint_on_a_deleted_atom_stops_the_input_with_its_reason() -> None:
    p = make_project(
        H2O2, task="optimize", scan={"atoms": TORSION, "start": 60.0, "end": 180.0, "steps": 2}
    )
    del p["document"]["atoms"][3]
    p["document"]["charge"] = 1  # HOOH+ minus one H: an even count again
    problems = input_errors(p)
    assert [(x["field"], x["code"]) for x in problems] == [
        ("calculation.scan", "constraint_unknown_atom")
    ]
    assert "a4" in problems[0]["message"]
    with pytest.raises(ValidationError) as info:
        render_input(p)
    assert info.value.code == "constraint_unknown_atom"


def test_the_results_command_lists_a_scans_points(capsys: pytest.CaptureFixture[str]) -> None:
    from molforma.subcommands.show_results import main
    from tests.paths import NWCHEM_DATA

    assert main([str(NWCHEM_DATA / "ethane_scf_torsion_scan.out"), "--section", "scan"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 5
    assert rows[0].split() == [
        "1",
        "0.0000",
        "0.0000",
        "-78.3016054000",
        "2.870",
        "kcal/mol",
        "converged",
    ]
    assert rows[2].split()[4] == "0.000"  # staggered, the lowest


def test_cartesian_coordinates_asked_for_with_constraints_are_a_problem_before_run() -> None:
    p = make_project(
        WATER, task="optimize", constraints=[{"atoms": ["a2", "a1", "a3"], "value": 110.0}]
    )
    p["advanced"]["nocenter"] = True  # noautoz: NWChem would not hold the angle
    assert [(x["field"], x["code"]) for x in input_errors(p)] == [
        ("advanced.nocenter", "constraints_cartesian")
    ]
    with pytest.raises(ValidationError) as info:
        render_input(p)
    assert info.value.code == "constraints_cartesian"


def test_after_a_planar_dihedral_the_next_point_is_a_whole_geometry_block() -> None:
    from molforma.nwchem.constraints import measure

    p = make_project(
        H2O2,
        task="optimize",
        basis="sto-3g",
        scan={"atoms": TORSION, "start": 180.0, "end": 60.0, "steps": 2},
    )
    p["document"]["bonds"] = [
        {"a": "a1", "b": "a2", "order": 1},
        {"a": "a1", "b": "a3", "order": 1},
        {"a": "a2", "b": "a4", "order": 1},
    ]
    text = render_input(p)
    blocks = text.split("task scf optimize")
    # Point 2 (120°) follows the planar 180°: NWChem 7.0.2 cannot adjust from there.
    assert "\ngeometry adjust\n" not in blocks[1] and "geometry units angstrom" in blocks[1]
    assert "\ngeometry adjust\n" in blocks[2]  # point 3 (60°) adjusts point 2's structure
    # Each whole block holds the molecule with the coordinate already at its value.
    for block, value in ((blocks[0], 180.0), (blocks[1], 120.0)):
        lines = block.split("geometry units angstrom")[1].splitlines()[1:5]
        atoms = [
            {"id": f"a{i}", **dict(zip("xyz", map(float, line.split()[1:4]), strict=True))}
            for i, line in enumerate(lines, start=1)
        ]
        assert abs(measure(atoms, TORSION)) == pytest.approx(value, abs=1e-6)
