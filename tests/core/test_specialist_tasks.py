"""Excited states, COSMO solvation, transition states and frequency-step defaults: the
input MolForma writes, the settings it refuses, the .nw reader, and what the results reader
takes from real NWChem 7.0.2 outputs (tests/data/nwchem, see its README)."""

from __future__ import annotations

from typing import Any

import cclib
import pytest

from molforma.errors import ValidationError
from molforma.formats.nwchem_input import read_nwchem
from molforma.nwchem.input import input_errors, render_input
from molforma.results.reader import read_results
from tests.core.test_nwchem_input import OH, WATER, block, make_project, tasks
from tests.paths import NWCHEM_DATA


def _refused(project: dict[str, Any], code: str) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        render_input(project)
    assert code in (info.value.code, info.value.data.get("reason", ""))
    return info.value


# --- point 7: excited states ----------------------------------------------------------


def test_excited_states_write_a_tddft_block_and_task_with_roots_spin_and_method() -> None:
    text = render_input(
        make_project(
            WATER, task="excited-states", theory="dft", excited_roots=4, excited_method="tda"
        )
    )
    assert block(text, "tddft") == ["nroots 4", "notriplet", "cis"]
    assert tasks(text) == ["task tddft energy"]
    text = render_input(
        make_project(WATER, task="excited-states", theory="dft", excited_spin="triplets")
    )
    assert block(text, "tddft") == ["nroots 10", "nosinglet"]
    text = render_input(
        make_project(WATER, task="excited-states", theory="dft", excited_spin="both")
    )
    assert block(text, "tddft") == ["nroots 10"]


def test_excited_states_of_an_scf_reference_are_cis_on_a_hartree_fock_dft_block() -> None:
    text = render_input(
        make_project(WATER, task="excited-states", theory="scf", excited_method="tda")
    )
    assert "xc hfexch 1.0" in block(text, "dft")
    assert block(text, "tddft")[-1] == "cis"


def test_an_open_shell_gets_no_singlet_or_triplet_choice_nwchem_would_ignore() -> None:
    text = render_input(make_project(OH, multiplicity=2, task="excited-states", theory="dft"))
    assert block(text, "tddft") == ["nroots 10"]
    assert "odft" in block(text, "dft")


def test_excited_states_with_mp2_are_refused_in_both_languages() -> None:
    p = make_project(WATER, task="excited-states", theory="mp2")
    err = _refused(p, "excited_states_theory")
    assert "SCF" in err.message("en") and "励起状態" in err.message("ja")
    assert [e["code"] for e in input_errors(p)] == ["excited_states_theory"]


@pytest.mark.parametrize(
    ("values", "code", "ja"),
    [
        ({"excited_roots": 0}, "bad_excited_roots", "励起状態の数は 1 から 200"),
        ({"excited_roots": 201}, "bad_excited_roots", "励起状態の数は 1 から 200"),
        ({"excited_roots": 2.5}, "bad_excited_roots", "整数"),
        ({"excited_spin": "quartets"}, "bad_excited_choice", "singlets, triplets, both"),
        ({"excited_method": "cc2"}, "bad_excited_choice", "tddft, tda"),
    ],
)
def test_bad_excited_state_settings_are_refused_in_both_languages(
    values: dict[str, Any], code: str, ja: str
) -> None:
    err = _refused(make_project(WATER, task="excited-states", theory="dft", **values), code)
    assert err.code == code and ja in err.message("ja")


def test_the_nw_reader_reads_an_excited_state_input_back() -> None:
    for calc in (
        {
            "task": "excited-states",
            "theory": "dft",
            "basis": "sto-3g",
            "excited_roots": 4,
            "excited_method": "tda",
            "excited_spin": "singlets",
        },
        {
            "task": "excited-states",
            "theory": "scf",
            "basis": "sto-3g",
            "excited_roots": 3,
            "excited_spin": "both",
            "excited_method": "tddft",
        },
    ):
        read = read_nwchem(render_input(make_project(WATER, **calc))).calculation or {}
        assert {k: read.get(k, "tddft" if k == "excited_method" else None) for k in calc} == calc


def test_the_hand_written_tddft_fixture_reads_as_excited_states_with_both_spins() -> None:
    calc = read_nwchem((NWCHEM_DATA / "water_b3lyp_tddft.nw").read_text()).calculation
    assert calc is not None
    assert (calc["task"], calc["theory"], calc["excited_roots"], calc["excited_spin"]) == (
        "excited-states",
        "dft",
        3,
        "both",
    )


def test_roots_and_dominant_transitions_agree_with_cclib() -> None:
    path = NWCHEM_DATA / "water_b3lyp_tddft.out"
    roots = read_results(str(path)).excitations
    data = cclib.io.ccread(str(path))
    assert len(roots) == len(data.etenergies) == 6
    for ex, cm, sym in zip(roots, data.etenergies, data.etsyms, strict=True):
        assert ex.energyEv == pytest.approx(cm / 8065.54, rel=1e-5)
        assert f"{ex.spin} {ex.symmetry}" == sym
    # cclib 1.8.1 keeps the transitions of the singlet block only (3 of 6 roots).
    assert len(data.etsecs) == 3
    for ex, secs in zip(roots, data.etsecs, strict=False):
        assert [(t.occupied - 1, t.virtual - 1, t.coefficient) for t in ex.transitions] == [
            (o[0], v[0], c) for o, v, c in secs
        ]


def test_tamm_dancoff_transitions_are_read_where_cclib_stops() -> None:
    # cclib 1.8.1 expects an X/Y column on every "Occ." line and raises on a TDA output.
    path = NWCHEM_DATA / "water_b3lyp_tda.out"
    with pytest.raises(ValueError):
        cclib.io.ccread(str(path))
    roots = read_results(str(path)).excitations
    assert [(r.root, r.spin, r.symmetry) for r in roots] == [
        (1, "singlet", "b2"),
        (2, "singlet", "a2"),
        (3, "singlet", "a1"),
        (4, "singlet", "b1"),
    ]
    assert roots[0].energyEv == pytest.approx(11.7137, abs=1e-4)
    assert roots[0].wavelengthNm == pytest.approx(1239.84193 / 11.7137, rel=1e-4)
    assert roots[0].oscillatorStrength == pytest.approx(0.0025870806)
    t = roots[0].transitions[0]
    assert (
        t.occupied,
        t.occupiedSymmetry,
        t.virtual,
        t.virtualSymmetry,
        t.coefficient,
        t.component,
    ) == (5, "b2", 6, "a1", -1.0, None)
    assert [t.coefficient for t in roots[2].transitions] == [0.06353, 0.22171, 0.97304]


def test_unrestricted_transitions_name_their_spin_and_component() -> None:
    roots = read_results(str(NWCHEM_DATA / "oh_b3lyp_tddft.out")).excitations
    first = roots[0].transitions
    assert [(t.spin, t.occupied, t.virtual, t.coefficient, t.component) for t in first] == [
        ("beta", 4, 5, 1.92332, "X"),
        ("beta", 4, 5, 1.64292, "Y"),
    ]
    assert {t.spin for t in roots[2].transitions} == {"alpha", "beta"}


# --- point 8: solvation ---------------------------------------------------------------


def test_a_solvent_writes_cosmo_with_its_dielectric_constant_and_says_which() -> None:
    text = render_input(make_project(WATER, solvent="acetonitrile"))
    assert block(text, "cosmo") == ["dielec 35.7"]
    assert "# solvent: acetonitrile (COSMO)" in text.splitlines()
    assert block(render_input(make_project(WATER, dielectric=12.5)), "cosmo") == ["dielec 12.5"]
    assert "cosmo" not in render_input(make_project(WATER)).splitlines()


@pytest.mark.parametrize(
    ("values", "code", "ja"),
    [
        ({"solvent": "seawater"}, "unknown_solvent", "不明な溶媒"),
        ({"dielectric": 1.0}, "bad_dielectric", "誘電率"),
        ({"dielectric": 5000}, "bad_dielectric", "誘電率"),
        ({"solvent": "water", "dielectric": 3.0}, "solvent_and_dielectric", "どちらか一方"),
    ],
)
def test_bad_solvent_settings_are_refused_in_both_languages(
    values: dict[str, Any], code: str, ja: str
) -> None:
    err = _refused(make_project(WATER, **values), code)
    assert err.code == code and ja in err.message("ja")
    if code == "unknown_solvent":
        assert "water" in err.message("en") and "hexane" in err.message("en")


def test_the_nw_reader_reads_a_solvent_or_a_custom_constant_back() -> None:
    assert (
        read_nwchem(render_input(make_project(WATER, solvent="thf"))).calculation["solvent"]
        == "thf"
    )  # type: ignore[index]
    calc = read_nwchem(render_input(make_project(WATER, dielectric=12.5))).calculation
    assert calc is not None and calc["dielectric"] == 12.5 and "solvent" not in calc


def test_the_solvation_energy_is_read_as_solution_minus_gas() -> None:
    summary = read_results(str(NWCHEM_DATA / "water_scf_cosmo.out")).summary
    # NWChem prints gas - solution = 0.0068551369; gas -74.9630231288, sol -74.9698782656.
    assert summary.solvationEnergy == pytest.approx(-0.0068551369)
    assert summary.solvationEnergy == pytest.approx(-74.9698782656 + 74.9630231288, abs=1e-9)
    assert read_results(str(NWCHEM_DATA / "water_scf_optfreq.out")).summary.solvationEnergy is None


# --- point 10: transition states --------------------------------------------------------


def test_a_transition_state_task_searches_a_saddle_then_computes_frequencies() -> None:
    text = render_input(make_project(WATER, task="transition-state", theory="scf"))
    assert tasks(text) == ["task scf saddle", "task scf freq"]
    assert block(text, "driver")[-1] == "xyz molforma"
    calc = read_nwchem(text).calculation
    assert calc is not None and calc["task"] == "transition-state"


def test_a_saddle_search_that_ends_at_a_minimum_is_not_called_a_transition_state() -> None:
    summary = read_results(str(NWCHEM_DATA / "water_saddle_from_minimum.out")).summary
    assert summary.saddlePoint is False and summary.significantImaginaryModes == 0
    assert summary.warnings[0].message.startswith(
        "Not a transition state: the saddle search ended at a minimum"
    )


def test_frequencies_without_a_saddle_search_are_not_judged_as_one() -> None:
    summary = read_results(str(NWCHEM_DATA / "nh3_planar_scf_freq.out")).summary
    assert summary.significantImaginaryModes == 1 and summary.saddlePoint is None


# --- point 11: frequency steps ----------------------------------------------------------


@pytest.mark.parametrize("task", ["frequencies", "optimize+frequencies", "transition-state"])
def test_dft_frequency_steps_get_a_fine_grid_and_tight_convergence_and_say_so(task: str) -> None:
    text = render_input(make_project(WATER, task=task, theory="dft"))
    dft = block(text, "dft")
    assert "grid fine" in dft and "convergence energy 1.000e-08" in dft
    lines = text.splitlines()
    comment = lines[lines.index("dft") - 1]
    assert comment.startswith("# frequencies: grid fine and convergence energy 1e-08")
    # Read back, the defaults are no choice of the file's: the same input comes out.
    s = read_nwchem(text)
    assert not s.advanced or "dft_grid" not in s.advanced


def test_the_frequency_defaults_yield_to_advanced_settings_and_skip_other_tasks() -> None:
    p = make_project(WATER, task="frequencies", theory="dft")
    p["advanced"].update(dft_grid="xfine", dft_convergence_energy=1e-7)
    text = render_input(p)
    assert "grid xfine" in block(text, "dft") and "grid fine" not in block(text, "dft")
    assert not any(line.startswith("# frequencies") for line in text.splitlines())
    p["advanced"].update(dft_grid=None)
    text = render_input(p)
    assert "# frequencies: grid fine for every step (NWChem" in text
    for task in ("energy", "optimize", "excited-states"):
        assert "grid" not in " ".join(
            block(render_input(make_project(WATER, task=task, theory="dft")), "dft")
        )
    assert "dft" not in render_input(make_project(WATER, task="frequencies")).splitlines()


# --- progress -------------------------------------------------------------------------


def test_the_progress_shows_the_excited_state_phase_and_the_roots_found() -> None:
    from molforma.jobs.run_outcome import progress_note
    from molforma.nwchem.progress import ProgressTracker, progress_limits

    tracker = ProgressTracker()
    for line in (NWCHEM_DATA / "water_b3lyp_tddft.out").read_text().splitlines():
        tracker.feed(line)
    prog = tracker.to_dict()
    assert prog["excitedStates"] is True and prog["roots"] == 6
    record = {"status": "running", "progress": prog, "folder": "/jobs/x"}
    assert progress_note(record, "en")["message"].startswith(
        "Excited states (TDDFT) · 6 roots found"
    )
    assert progress_note(record, "ja")["message"].startswith("励起状態（TDDFT） · 6 個")
    tracker = ProgressTracker()
    for line in ("  Step       Energy", "          Gonzalez & Schlegel IRC Optimization"):
        tracker.feed(line)
    record = {"status": "running", "progress": tracker.to_dict(), "folder": "/jobs/x"}
    assert progress_note(record, "en")["message"].startswith("Reaction path (IRC)")
    assert progress_note(record, "ja")["message"].startswith("反応経路（IRC）")
    # A saddle search counts optimiser steps as an optimisation does.
    assert progress_limits({"calculation": {"task": "transition-state"}})["kind"] == "optimization"


# --- set_nwchem -------------------------------------------------------------------------


def test_set_nwchem_choosing_a_solvent_clears_a_custom_constant_and_back() -> None:
    from molforma.app import ops
    from molforma.document.document import Document

    doc = Document(make_project(WATER))
    ops.set_nwchem(doc, {"dielectric": 12.5}, preview=False)
    ops.set_nwchem(doc, {"solvent": "water"}, preview=False)
    calc = doc.project["calculation"]
    assert (calc["solvent"], calc["dielectric"]) == ("water", None)
    ops.set_nwchem(doc, {"dielectric": 3.5}, preview=False)
    assert (calc := doc.project["calculation"])["solvent"] is None and calc["dielectric"] == 3.5
    before = doc.project
    with pytest.raises(ValidationError) as info:
        ops.set_nwchem(doc, {"solvent": "seawater"}, preview=False)
    assert info.value.code == "unknown_solvent" and doc.project == before
    with pytest.raises(ValidationError) as info:
        ops.set_nwchem(doc, {"solvent": "water", "dielectric": 2.0}, preview=False)
    assert info.value.code == "solvent_and_dielectric" and doc.project == before


# --- point 10: the reaction path (IRC) ---------------------------------------------------

HCN = [("C", 0.0, 0.0, 0.0), ("N", 1.18, 0.0, 0.0), ("H", 0.45, 1.1, 0.0)]


def test_irc_follows_the_frequencies_with_a_mepgs_block_and_task_and_reads_back() -> None:
    text = render_input(make_project(HCN, task="transition-state", irc=True))
    assert tasks(text) == ["task scf saddle", "task scf freq", "task scf mepgs"]
    assert block(text, "mepgs") == ["maxmep 60", "inhess 2", "stride 0.1", "xyz"]
    calc = read_nwchem(text).calculation
    assert calc is not None and (calc["task"], calc["irc"]) == ("transition-state", True)
    # Only a transition-state task has a path to follow.
    assert "mepgs" not in render_input(make_project(HCN, task="optimize", irc=True))


def test_the_two_sides_of_a_reaction_path_open_with_an_energy_per_point() -> None:
    from molforma.results.reader import list_result_files

    forward = read_results(str(NWCHEM_DATA / "hcn_scf_irc.fxyz"))
    backward = read_results(str(NWCHEM_DATA / "hcn_scf_irc.bxyz"))
    assert (len(forward.structures), len(backward.structures)) == (23, 27)
    for side in (forward, backward):
        assert side.structures[0].energy == pytest.approx(-91.56485097)
        assert [e.energy for e in side.energies] == [s.energy for s in side.structures]
        # Downhill from the transition state on both sides.
        assert side.energies[-1].energy < side.energies[0].energy
    assert forward.summary.finalEnergy == pytest.approx(-91.67520747)  # HCN
    assert backward.summary.finalEnergy == pytest.approx(-91.64443721)  # HNC
    names = {e.name: e.kind for e in list_result_files(str(NWCHEM_DATA))}
    assert names["hcn_scf_irc.fxyz"] == names["hcn_scf_irc.bxyz"] == "xyz"
