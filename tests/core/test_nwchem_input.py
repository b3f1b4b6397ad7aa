"""NWChem input generation: blocks, open shell, constraints, safety and field errors."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from molforma.document.envelope import new_atom, new_project
from molforma.errors import ValidationError
from molforma.nwchem.input import check_extra_input, input_errors, render_input


def make_project(
    atoms: list[tuple[str, float, float, float]],
    *,
    charge: int = 0,
    multiplicity: int = 1,
    **calculation: Any,
) -> dict[str, Any]:
    """A project with ``atoms`` (element, x, y, z) and calculation settings."""
    p = new_project()
    p["document"]["atoms"] = [
        new_atom(f"a{i}", el, x, y, z) for i, (el, x, y, z) in enumerate(atoms, start=1)
    ]
    p["document"]["nextAtomId"] = len(atoms) + 1
    p["document"]["charge"] = charge
    p["document"]["multiplicity"] = multiplicity
    p["calculation"].update(calculation)
    return p


WATER = [("O", 0.0, 0.0, 0.1173), ("H", 0.0, 0.7572, -0.4692), ("H", 0.0, -0.7572, -0.4692)]
OH = [("O", 0.0, 0.0, 0.0), ("H", 0.0, 0.0, 0.97)]


def water(**calculation: Any) -> dict[str, Any]:
    """Water with the given calculation settings."""
    return make_project(WATER, **calculation)


def block(text: str, name: str) -> list[str]:
    """The stripped lines inside the first ``name`` ... ``end`` block of ``text``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:1] == [name])
    end = next(i for i in range(start + 1, len(lines)) if lines[i].strip() == "end")
    return [line.strip() for line in lines[start + 1 : end]]


def tasks(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("task ")]


def test_same_project_gives_the_same_text_and_copies_agree() -> None:
    p = water(task="optimize+frequencies", theory="dft", basis="6-31g*")
    p["advanced"].update(memory_mb=400, scf_thresh=1e-7, dft_convergence_energy=1e-7)
    first = render_input(p)
    assert render_input(copy.deepcopy(p)) == first
    assert render_input(p) == first


def test_negative_zero_coordinates_print_like_zero() -> None:
    a = render_input(make_project([("H", -0.0, 0.0, 0.0), ("H", 0.0, 0.0, 0.74)]))
    b = render_input(make_project([("H", 0.0, -1e-13, 0.0), ("H", 0.0, 0.0, 0.74)]))
    assert a == b
    assert "-0.0000000000" not in a


def test_closed_shell_energy_input_has_every_block_in_order() -> None:
    text = render_input(water(basis="sto-3g"), prefix="job1")
    lines = text.splitlines()
    assert lines[0] == "start job1"
    assert 'title "H2O"' in lines
    assert "charge 0" in lines
    # No fixed atoms: symmetry and internal coordinates are used (the reader maps the
    # re-oriented results back to the document's frame).
    assert "geometry units angstrom" in lines
    assert block(text, "geometry")[0].split() == [
        "O",
        "0.0000000000",
        "0.0000000000",
        "0.1173000000",
    ]
    assert block(text, "basis") == ["* library sto-3g"]
    assert block(text, "scf") == ["rhf", "singlet"]
    assert "dft" not in lines
    assert "driver" not in lines
    assert tasks(text) == ["task scf energy"]
    order = [lines.index(x) for x in ("charge 0", "basis", "scf", "task scf energy")]
    assert order == sorted(order)


@pytest.mark.parametrize(
    ("task", "expected"),
    [
        ("energy", ["energy"]),
        ("optimize", ["optimize"]),
        ("frequencies", ["freq"]),
        ("optimize+frequencies", ["optimize", "freq"]),
    ],
)
@pytest.mark.parametrize("theory", ["scf", "dft", "mp2"])
def test_each_task_and_theory_gives_its_task_lines(
    task: str, expected: list[str], theory: str
) -> None:
    text = render_input(water(task=task, theory=theory))
    assert tasks(text) == [f"task {theory} {op}" for op in expected]
    assert ("driver" in text.splitlines()) == ("optimize" in task)
    assert ("dft" in text.splitlines()) == (theory == "dft")


def test_optimisation_writes_step_files_with_the_prefix_and_the_step_limit() -> None:
    p = water(task="optimize")
    p["advanced"]["opt_maxiter"] = 17
    assert block(render_input(p, prefix="run"), "driver") == ["maxiter 17", "xyz run"]


def test_radical_doublet_gets_uhf_and_doublet_in_scf_and_mult_odft_in_dft() -> None:
    text = render_input(make_project(OH, multiplicity=2, theory="dft", functional="b3lyp"))
    assert block(text, "scf") == ["uhf", "doublet"]
    dft = block(text, "dft")
    assert dft[:2] == ["mult 2", "odft"]
    assert "xc b3lyp" in dft


def test_explicit_rohf_reference_is_used_for_scf_and_restricted_open_dft() -> None:
    text = render_input(make_project(OH, multiplicity=2, theory="dft", reference="rohf"))
    assert block(text, "scf")[:2] == ["rohf", "doublet"]
    assert block(text, "dft")[:2] == ["mult 2", "rodft"]


def test_cation_writes_charge_and_the_triplet_and_high_multiplicities() -> None:
    text = render_input(water(), prefix="x").replace("charge 0", "")
    assert "charge" not in text
    cation = make_project(WATER, charge=1, multiplicity=2)
    assert "charge 1" in render_input(cation).splitlines()
    o2 = make_project([("O", 0, 0, 0), ("O", 0, 0, 1.21)], multiplicity=3)
    assert block(render_input(o2), "scf") == ["uhf", "triplet"]
    fe = make_project([("Fe", 0, 0, 0)], multiplicity=9, charge=-2)
    assert block(render_input(fe), "scf") == ["uhf", "nopen 8"]


def test_closed_shell_dft_has_mult_1_and_no_odft() -> None:
    dft = block(render_input(water(theory="dft", functional="pbe0")), "dft")
    assert dft == ["mult 1", "xc pbe0"]


def test_dft_and_scf_advanced_settings_reach_their_blocks() -> None:
    p = water(theory="dft", functional="xpbe96 cpbe96")
    p["advanced"].update(
        dft_grid="fine",
        dft_iterations=80,
        dft_convergence_energy=1e-7,
        dispersion="d3bj",
        scf_maxiter=70,
        scf_thresh=1e-8,
        input_movecs="/tmp/in.movecs",
        output_movecs="out.movecs",
    )
    text = render_input(p)
    assert block(text, "dft") == [
        "mult 1",
        "xc xpbe96 cpbe96",
        "grid fine",
        "iterations 80",
        "convergence energy 1.000e-07",
        "disp vdw 4",
        "vectors input /tmp/in.movecs output out.movecs",
    ]
    assert block(text, "scf") == ["rhf", "singlet", "maxiter 70", "thresh 1.000e-08"]


def test_memory_directories_print_level_and_geometry_options_follow_advanced_settings() -> None:
    p = water()
    p["advanced"].update(
        memory_mb=512,
        scratch_dir="/tmp/scr",
        permanent_dir="/tmp/perm",
        print_level="low",
        noautosym=False,
        nocenter=False,
    )
    lines = render_input(p).splitlines()
    for expected in (
        "memory total 512 mb",
        "scratch_dir /tmp/scr",
        "permanent_dir /tmp/perm",
        "print low",
        "geometry units angstrom",
    ):
        assert expected in lines


def test_fixed_atoms_become_fix_atom_constraints_with_1_based_numbers() -> None:
    p = water(task="optimize")
    p["document"]["atoms"][0]["fixed"] = True
    p["document"]["atoms"][2]["fixed"] = True
    assert block(render_input(p), "constraints") == ["fix atom 1 3"]
    assert "constraints" not in render_input(water(task="optimize"))


def test_isotopes_and_masses_get_their_own_tag_and_mass() -> None:
    p = water()
    p["document"]["atoms"][1]["massNumber"] = 2
    p["document"]["atoms"][2]["mass"] = 3.5
    geo = block(render_input(p), "geometry")
    assert geo[1].split()[0] == "H2"
    assert geo[1].split()[-2:] == ["mass", "2.01410178"]
    assert geo[2].split()[0] == "H3"
    assert geo[2].split()[-2:] == ["mass", "3.50000000"]
    assert geo[0].split()[0] == "O"
    assert "mass" not in geo[0]


def test_frequency_animation_adds_the_freq_block() -> None:
    p = water(task="frequencies")
    assert "freq" not in render_input(p).splitlines()
    p["advanced"]["freq_animate"] = True
    assert block(render_input(p), "freq") == ["animate"]


def test_extra_input_and_extra_tasks_come_before_and_after_the_main_tasks() -> None:
    p = water(
        extra_input="property\n  dipole\nend", extra_tasks=["scf property", "task dft energy"]
    )
    lines = render_input(p).splitlines()
    assert lines.index("property") < lines.index("task scf energy")
    assert tasks("\n".join(lines)) == ["task scf energy", "task scf property", "task dft energy"]


@pytest.mark.parametrize(
    "extra",
    [
        "task shell ls",
        "TASK   Shell 'rm -rf /'",
        "\ttask\tshell echo hi",
        "scf; maxiter 3; end; task shell ls",
        "task \\\n shell ls",
        "python\n  print('hi')\nend",
        "Python noprint\nend",
        "  PYTHON",
        'task "shell" ls',
        'task "sh"ell ls',
        "task sh'ell' ls",
        "task python",
    ],
)
def test_task_shell_and_python_blocks_are_always_refused(extra: str) -> None:
    with pytest.raises(ValidationError) as info:
        check_extra_input(extra, [])
    assert info.value.code == "forbidden_extra_input"
    with pytest.raises(ValidationError):
        render_input(water(extra_input=extra))


@pytest.mark.parametrize("task", ["shell ls", "task shell", "SHELL", " Shell echo x", "python"])
def test_extra_tasks_naming_shell_or_python_are_refused(task: str) -> None:
    with pytest.raises(ValidationError) as info:
        check_extra_input("", [task])
    assert info.value.code == "forbidden_extra_input"


def test_extra_task_with_a_line_break_is_refused() -> None:
    with pytest.raises(ValidationError) as info:
        render_input(water(extra_tasks=["scf energy\npython"]))
    assert info.value.code in ("bad_extra_task", "forbidden_extra_input")


def test_harmless_extra_input_mentioning_shells_of_orbitals_is_accepted() -> None:
    check_extra_input('dft\n  print "final vectors analysis"\nend\n# open shells are fine', [])
    check_extra_input("", ["scf property", "dft energy"])


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("basis", "6-31g*; task shell ls", "bad_basis_name"),
        ("basis", "sto-3g\npython", "bad_basis_name"),
        ("functional", "b3lyp\ntask shell ls", "bad_functional"),
        ("functional", "b3lyp;end", "bad_functional"),
    ],
)
def test_names_that_could_smuggle_directives_are_refused(field: str, value: str, code: str) -> None:
    p = water(theory="dft", **{field: value})
    with pytest.raises(ValidationError) as info:
        render_input(p)
    assert info.value.code == code
    assert any(e["code"] == code and e["field"] == f"calculation.{field}" for e in input_errors(p))


def test_paths_with_spaces_or_separators_are_refused_and_titles_are_cleaned() -> None:
    p = water()
    p["advanced"]["scratch_dir"] = "/tmp/a b"
    with pytest.raises(ValidationError) as info:
        render_input(p)
    assert info.value.code == "bad_path"
    q = water()
    q["document"]["title"] = 'evil"; task shell ls\npython'
    title_line = next(line for line in render_input(q).splitlines() if line.startswith("title"))
    assert re.fullmatch(r'title "[^";\\#\n]*"', title_line)
    assert tasks(render_input(q)) == ["task scf energy"]


def test_bad_prefix_is_refused() -> None:
    with pytest.raises(ValidationError):
        render_input(water(), prefix="a b;c")


def test_input_errors_is_empty_for_a_runnable_project() -> None:
    assert input_errors(water()) == []
    assert input_errors(make_project(OH, multiplicity=2, theory="mp2")) == []


def test_input_errors_names_the_field_of_each_problem() -> None:
    empty = new_project()
    assert [(e["field"], e["code"]) for e in input_errors(empty)] == [
        ("document.atoms", "empty_molecule")
    ]
    parity = make_project(WATER, multiplicity=2)
    assert ("document.multiplicity", "multiplicity_parity") in {
        (e["field"], e["code"]) for e in input_errors(parity)
    }
    too_high = make_project([("H", 0, 0, 0)], multiplicity=4)
    assert "multiplicity_parity" in {e["code"] for e in input_errors(too_high)}
    theory = water()
    theory["calculation"]["theory"] = "ccsd(t)"
    errors = input_errors(theory)
    assert [(e["field"], e["code"]) for e in errors] == [("calculation.theory", "unknown_theory")]
    assert "ccsd(t)" in errors[0]["message"]


def test_reference_that_cannot_describe_the_spin_state_is_reported() -> None:
    rhf_radical = make_project(OH, multiplicity=2, reference="rhf")
    assert "reference_multiplicity" in {e["code"] for e in input_errors(rhf_radical)}
    mp2_rohf = make_project(OH, multiplicity=2, theory="mp2", reference="rohf")
    assert "mp2_reference" in {e["code"] for e in input_errors(mp2_rohf)}


def test_all_atoms_fixed_cannot_be_optimised_but_can_be_computed() -> None:
    p = water(task="optimize")
    for atom in p["document"]["atoms"]:
        atom["fixed"] = True
    assert "all_atoms_fixed" in {e["code"] for e in input_errors(p)}
    p["calculation"]["task"] = "energy"
    assert input_errors(p) == []


def test_forbidden_extra_input_shows_as_a_field_error() -> None:
    errors = input_errors(water(extra_input="task shell ls"))
    assert [(e["field"], e["code"]) for e in errors] == [
        ("calculation.extra_input", "forbidden_extra_input")
    ]


def test_field_error_messages_follow_the_display_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "ja")
    message = input_errors(new_project())[0]["message"]
    assert "原子" in message


def test_bare_relative_directories_get_a_leading_dot_slash() -> None:
    p = water()
    p["advanced"].update(scratch_dir="scr", permanent_dir="./perm")
    lines = render_input(p).splitlines()
    assert "scratch_dir ./scr" in lines
    assert "permanent_dir ./perm" in lines


@pytest.mark.parametrize(
    ("key", "value", "code"),
    [("element", "H\ntask shell ls", "bad_element"), ("x", float("nan"), "bad_coordinate")],
)
def test_hand_made_atoms_with_bad_element_or_coordinate_are_refused(
    key: str, value: Any, code: str
) -> None:
    p = water()
    p["document"]["atoms"][0][key] = value
    with pytest.raises(ValidationError) as info:
        render_input(p)
    assert info.value.code == code
