"""Open shells read right, and every value says which level it comes from.

Checked against the lines NWChem printed in the fixtures (tests/data/nwchem/README.md)
and, where cclib reads them, against cclib: HOMO/LUMO per spin channel (never the alpha
HOMO beside the beta LUMO), Mulliken spin populations of the property task, the MOLDEN
file's own orbital list, the SCF density's dipole after an MP2 energy, and the densities
and electrostatic potential MolForma computes from a MOLDEN file against NWChem's
property task (``esp``, ``electrondensity``) at the nuclei.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from molforma.results import get_section, read_results
from molforma.results import orbitals as orb
from tests.paths import NWCHEM_DATA

CH3_OUT = NWCHEM_DATA / "ch3_udft_molden.out"
CH3_MOLDEN = NWCHEM_DATA / "ch3_udft_molden.molden"
OH_MOLDEN = NWCHEM_DATA / "oh_uhf_molden.molden"
MP2_OUT = NWCHEM_DATA / "water_mp2_property.out"
HARTREE_EV = 27.211386245988


def _cclib(path: object) -> object:
    cclib = pytest.importorskip("cclib")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cclib.io.ccread(str(path))


def test_an_unrestricted_summary_gives_homo_lumo_and_gap_per_spin_from_nwchem_lines() -> None:
    res = read_results(str(CH3_OUT))
    s = res.summary
    by_spin = {f.spin: f for f in s.frontier}
    assert set(by_spin) == {"alpha", "beta"}
    # NWChem's "DFT Final Alpha/Beta Molecular Orbital Analysis":
    #   alpha Vector 5 Occ=1 E=-2.242485D-01, Vector 6 Occ=0 E= 1.159630D-01
    #   beta  Vector 4 Occ=1 E=-4.075285D-01, Vector 5 Occ=0 E=-4.799710D-02
    assert by_spin["alpha"].homo == pytest.approx(-0.2242485)
    assert by_spin["alpha"].lumo == pytest.approx(0.115963)
    assert by_spin["beta"].homo == pytest.approx(-0.4075285)
    assert by_spin["beta"].lumo == pytest.approx(-0.0479971)
    for f in by_spin.values():
        assert f.gap == pytest.approx(f.lumo - f.homo)
        assert f.gapEv == pytest.approx(f.gap * HARTREE_EV)
        assert res.orbitals[f.homoIndex].spin == res.orbitals[f.lumoIndex].spin == f.spin
        assert res.orbitals[f.lumoIndex].energy == f.lumo
    # The headline pair is one channel's (alpha), never alpha's HOMO with beta's LUMO.
    assert (s.homo, s.lumo) == (by_spin["alpha"].homo, by_spin["alpha"].lumo)
    assert s.lumo != pytest.approx(-0.0479971)
    data = _cclib(CH3_OUT)
    for k, spin in enumerate(("alpha", "beta")):
        h = data.homos[k]
        assert by_spin[spin].homo == pytest.approx(data.moenergies[k][h] / HARTREE_EV, abs=1e-6)
        assert by_spin[spin].lumo == pytest.approx(data.moenergies[k][h + 1] / HARTREE_EV, abs=1e-6)


def test_a_restricted_open_shell_has_one_channel_whose_homo_is_the_singly_occupied() -> None:
    # "Vector 5 Occ=1.000000D+00 E=-2.340867D-01", "Vector 6 Occ=0.000000D+00 E= 2.242906D-01"
    for path in (NWCHEM_DATA / "oh_rohf_molden.out", NWCHEM_DATA / "oh_rohf_molden.molden"):
        [f] = read_results(str(path)).summary.frontier
        assert f.spin == "restricted"
        assert (f.homo, f.lumo) == (pytest.approx(-0.2340867), pytest.approx(0.2242906))


def test_a_restricted_summary_has_one_channel_and_the_same_headline() -> None:
    res = read_results(str(MP2_OUT))
    [f] = res.summary.frontier
    assert f.spin == "restricted"
    assert (f.homo, f.lumo) == (res.summary.homo, res.summary.lumo) == (-0.4978822, 0.2106237)


def test_the_summary_section_carries_the_per_spin_frontier_to_clients() -> None:
    page = get_section(read_results(str(CH3_OUT)), "summary")
    frontier = page["summary"]["frontier"]
    assert [f["spin"] for f in frontier] == ["alpha", "beta"]
    assert frontier[1]["lumo"] == pytest.approx(-0.0479971)


def test_mulliken_spin_populations_of_the_property_task_are_read_per_atom() -> None:
    res = read_results(str(CH3_OUT))
    # "----- Atomic spin population -----":  1 C 6.0 1.15533 / 2 H 1.0 -0.05178
    assert [c.element for c in res.charges] == ["C", "H", "H", "H"]
    assert [c.mullikenSpin for c in res.charges] == [1.15533, -0.05178, -0.05178, -0.05178]
    # "----- Total gross population on atoms -----": C 6.48854 electrons
    assert res.charges[0].mulliken == pytest.approx(6.0 - 6.48854)


def test_an_mp2_final_energy_stays_final_after_the_property_task_resolves_the_scf() -> None:
    res = read_results(str(MP2_OUT))
    s = res.summary
    # "Total MP2 energy -76.199026586480"; the property task's SCF repeats -76.010504991042.
    assert s.finalEnergyLevel == "mp2"
    assert s.finalEnergy == pytest.approx(-76.199026586480)
    assert s.energiesByKind["scf"] == pytest.approx(-76.010504991042)
    data = _cclib(MP2_OUT)
    assert s.finalEnergy == pytest.approx(
        data.mpenergies[-1][-1] / HARTREE_EV, abs=1e-5
    )  # cclib: older eV


def test_the_property_dipole_after_mp2_is_the_scf_densitys_and_says_so() -> None:
    res = read_results(str(MP2_OUT))
    m = res.summary.moments
    assert m is not None and m.source == "property"
    # "DMZ -0.8757858419" a.u. and "Dipole moment 2.2260423959 Debye(s)"
    assert m.dipole == pytest.approx([0.0, 0.0, -0.8757858419])
    assert m.dipoleDebye == pytest.approx(2.2260423959)
    assert m.level == "scf" != res.summary.finalEnergyLevel


def test_dft_moments_and_polarizabilities_say_dft() -> None:
    assert read_results(str(CH3_OUT)).summary.moments.level == "dft"
    polar = read_results(str(NWCHEM_DATA / "water_b3lyp_polar.out")).summary.polarizabilities
    assert polar and all(p.level == "dft" for p in polar)
    # A multipole analysis printed by the SCF module is the SCF density's.
    assert read_results(str(NWCHEM_DATA / "oh_uhf.out")).summary.moments.level == "scf"


def test_a_molden_file_lists_its_orbitals_with_the_frontier_the_orbitals_tab_uses() -> None:
    res = read_results(str(CH3_MOLDEN))
    assert len(res.orbitals) == 42 and res.summary.orbitalCount == 42
    assert [o.spin for o in res.orbitals].count("beta") == 21
    by_spin = {f.spin: f for f in res.summary.frontier}
    loaded = orb.load_orbitals(CH3_MOLDEN)
    assert [o.energy for o in loaded.orbitals] == [o.energy for o in res.orbitals]
    for spin in ("alpha", "beta"):
        assert loaded.frontier(spin) == (by_spin[spin].homoIndex, by_spin[spin].lumoIndex)
    # The same numbers as the output of the run that wrote the file.
    out = {f.spin: f for f in read_results(str(CH3_OUT)).summary.frontier}
    for spin in ("alpha", "beta"):
        assert by_spin[spin].lumo == pytest.approx(out[spin].lumo, abs=1e-6)
        assert by_spin[spin].homo == pytest.approx(out[spin].homo, abs=1e-6)
    restricted = read_results(str(NWCHEM_DATA / "methane_b3lyp_molden.molden"))
    assert [f.spin for f in restricted.summary.frontier] == ["restricted"]
    assert restricted.summary.homo == pytest.approx(-0.38966753755924)


def test_densities_and_potential_at_the_nuclei_match_nwchems_property_task() -> None:
    o = orb.load_orbitals(CH3_MOLDEN)
    nuclei = o.coordinates
    # "Total electron density" / "Total spin density" / "Total Potential(a.u.)" rows.
    assert orb.density_at(o, nuclei, "density") == pytest.approx(
        [117.617647, 0.417854, 0.417855, 0.417855], abs=2e-6
    )
    assert orb.density_at(o, nuclei, "spin") == pytest.approx(
        [0.109531, -0.015835, -0.015835, -0.015835], abs=2e-6
    )
    assert orb.potential_at(o, nuclei) == pytest.approx(
        [-14.742437, -1.108356, -1.108357, -1.108357], abs=2e-6
    )


@pytest.mark.parametrize(
    ("path", "electrons", "two_s"),
    [
        (CH3_MOLDEN, 9, 1),
        (OH_MOLDEN, 9, 1),
        # ROHF: one set of orbitals, the singly occupied one is alpha's
        (NWCHEM_DATA / "oh_rohf_molden.molden", 9, 1),
        (NWCHEM_DATA / "methane_b3lyp_molden.molden", 10, 0),
    ],
)
def test_the_densities_integrate_to_the_electron_count_and_2s_on_their_grid(
    path: object, electrons: int, two_s: int
) -> None:
    o = orb.load_orbitals(path)
    grid = orb.density_grid(o.coordinates)
    total = orb.integrate(orb.density_values(o, grid, "density"), grid)
    spin = orb.integrate(orb.density_values(o, grid, "spin"), grid)
    assert total == pytest.approx(electrons, rel=0.02)
    assert spin == pytest.approx(two_s, abs=0.02)
    assert o.open_shell is bool(two_s)


def test_the_esp_is_mapped_on_the_density_surface_vertex_by_vertex() -> None:
    o = orb.load_orbitals(CH3_MOLDEN)
    grid = orb.density_grid(o.coordinates)
    mesh = orb.density_surface(orb.density_values(o, grid), grid, orb.DENSITY_ISOVALUE)
    assert len(mesh.vertices) > 1000 and len(mesh.faces) > 1000
    esp = orb.esp_on_surface(o, mesh)
    assert esp.shape == (len(mesh.vertices),)
    # Every vertex lies on the 0.002 e/bohr^3 surface, and the ESP there equals the
    # potential computed point by point.
    rho = orb.density_at(o, mesh.vertices[::500] / orb.BOHR)
    assert rho == pytest.approx(np.full(len(rho), 0.002), rel=0.25)
    assert esp[::500] == pytest.approx(orb.potential_at(o, mesh.vertices[::500] / orb.BOHR))
    # The methyl hydrogens' side is positive, the carbon's p lobes (above the plane) less so.
    h_side = esp[np.abs(mesh.vertices[:, 2]) < 0.3]
    lobes = esp[np.abs(mesh.vertices[:, 2]) > 1.5]
    assert h_side.max() > 0 and lobes.mean() < h_side.mean()


def test_the_results_command_prints_each_spins_frontier_and_the_dipoles_density(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from molforma.subcommands.show_results import main

    assert main([str(CH3_OUT)]) == 0
    out = capsys.readouterr().out
    assert "HOMO (alpha):  -0.224248 hartree" in out
    assert "LUMO (beta):   -0.047997 hartree" in out
    assert "Gap (beta):    0.359531 hartree (9.783 eV)" in out
    assert not [ln for ln in out.splitlines() if ln.startswith(("HOMO:", "LUMO:", "Gap:"))]
    assert main([str(MP2_OUT)]) == 0
    out = capsys.readouterr().out
    assert "HOMO:          -0.497882 hartree" in out
    assert "a.u., property, SCF density" in out


def test_an_interleaved_molden_file_numbers_its_orbitals_as_the_orbitals_tab_does(
    tmp_path: object,
) -> None:
    import re
    from pathlib import Path

    head, mo = OH_MOLDEN.read_text().split("[MO]\n")
    blocks = [b for b in re.split(r"(?=^\s*Sym=)", mo, flags=re.M) if b.strip()]
    alpha = [b for b in blocks if "Alpha" in b]
    beta = [b for b in blocks if "Beta" in b]
    mixed = [x for pair in zip(alpha, beta, strict=False) for x in pair] + alpha[len(beta) :]
    path = Path(str(tmp_path)) / "interleaved.molden"
    path.write_text(head + "[MO]\n" + "".join(mixed))
    res = read_results(str(path))
    loaded = orb.load_orbitals(path)
    assert [(o.spin, o.energy) for o in res.orbitals] == [
        (o.spin, o.energy) for o in loaded.orbitals
    ]
    beta_lumo = next(f for f in res.summary.frontier if f.spin == "beta").lumoIndex
    assert loaded.frontier("beta")[1] == beta_lumo
