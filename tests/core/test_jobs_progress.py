"""Live progress tracking of NWChem output (molforma.nwchem.progress), on real outputs."""

from __future__ import annotations

import pytest

from molforma.nwchem.progress import ProgressTracker
from tests.paths import NWCHEM_DATA

FIXTURES = NWCHEM_DATA


def track(name: str) -> ProgressTracker:
    tracker = ProgressTracker()
    with (FIXTURES / name).open(encoding="utf-8") as fh:
        for line in fh:
            tracker.feed(line)
    return tracker


def test_water_optimisation_steps_energies_and_convergence_are_read() -> None:
    t = track("water_scf_optfreq.out")
    assert t.energies == pytest.approx([-76.01050499, -76.01073828, -76.01074651, -76.01074651])
    assert t.optimization_step == 3
    assert t.optimization_converged is True
    assert t.scf_converged is True
    assert t.error is None
    assert t.final_energy("scf") == pytest.approx(-76.01074651)
    assert t.to_dict()["scfIteration"] == 2


def test_dft_single_point_final_energy_is_the_first_total_dft_energy() -> None:
    t = track("methane_b3lyp_molden.out")
    assert t.final_energy("dft") == pytest.approx(-40.518351921)
    assert t.energy == pytest.approx(-40.518350345)  # the property task's SCF came last
    assert t.optimization_converged is None
    assert t.scf_iteration is not None


def test_unconverged_scf_and_its_error_are_reported() -> None:
    t = track("scf_not_converged.out")
    assert t.scf_converged is False
    assert t.error == "scf energy failed"


def test_bad_basis_error_message_is_picked_up() -> None:
    t = track("bad_basis.out")
    assert t.error == "bas_tag_lib: failed opening basis file"
    assert t.scf_converged is None
    assert t.final_energy("scf") is None


def test_optimiser_running_out_of_steps_is_not_converged() -> None:
    t = ProgressTracker()
    for line in [
        "@    0     -74.96984185  0.0D+00  0.11211  0.06075  0.00000  0.00000      0.2",
        "@    1     -74.99986823 -3.0D-02  0.03850  0.01951  0.11601  0.25383      0.4",
        " Failed to converge in maximum number of steps or available time",
        "@    1     -74.99986823 -3.0D-02  0.03850  0.01951  0.11601  0.25383      0.4",
    ]:
        t.feed(line)
    assert t.optimization_converged is False
    assert t.energies == pytest.approx([-74.96984185, -74.99986823])


def test_feed_reports_whether_visible_progress_changed() -> None:
    t = ProgressTracker()
    assert t.feed("              iter       energy          gnorm     gmax       time") is False
    assert t.feed("                 1      -75.9747160549  8.31D-01  3.41D-01      0.1") is True
    assert t.scf_iteration == 1
    assert t.feed("  some unrelated text") is False
    assert t.feed("\n") is False
    # Outside an SCF table a line of numbers is not an SCF iteration.
    assert t.feed("                 2      -75.9747160549  8.31D-01  3.41D-01      0.1") is False
