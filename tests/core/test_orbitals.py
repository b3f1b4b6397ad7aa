"""Orbitals of a MOLDEN file on a grid: normalisation, both lobes, cube files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from molforma.errors import ResultsError
from molforma.results.orbitals import (
    BOHR,
    grid_around,
    isosurfaces,
    load_orbitals,
    norm_on_grid,
    orbital_values,
    read_cube,
    write_cube,
)
from tests.paths import NWCHEM_DATA

METHANE = NWCHEM_DATA / "methane_b3lyp_molden.molden"


@pytest.fixture(scope="module")
def methane() -> object:
    return load_orbitals(METHANE)


def test_the_methane_molden_file_lists_23_orbitals_with_homo_and_lumo(methane: object) -> None:
    orbs = methane.orbitals  # type: ignore[attr-defined]
    assert len(orbs) == 23
    assert [o.occupation for o in orbs[:6]] == [2.0] * 5 + [0.0]
    homo, lumo = methane.frontier()  # type: ignore[attr-defined]
    assert (homo, lumo) == (4, 5)
    assert orbs[0].energy == pytest.approx(-10.16543692, abs=1e-6)
    assert methane.symbols == ["C", "H", "H", "H", "H"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("index", [1, 4, 5])
def test_an_orbital_on_the_grid_integrates_to_one(methane: object, index: int) -> None:
    grid = grid_around(methane.coordinates, spacing=0.2, margin=6.0)  # type: ignore[attr-defined]
    values = orbital_values(methane, index, grid)  # type: ignore[arg-type]
    assert norm_on_grid(values, grid) == pytest.approx(1.0, abs=0.01)


def test_a_p_like_orbital_has_two_lobes_of_opposite_sign(methane: object) -> None:
    grid = grid_around(methane.coordinates, spacing=0.3)  # type: ignore[attr-defined]
    values = orbital_values(methane, 4, grid)  # type: ignore[arg-type]
    plus, minus = isosurfaces(values, grid, 0.05)
    assert len(plus.faces) > 50 and len(minus.faces) > 50
    # Both lobes lie around the molecule (Å), on opposite sides of the carbon.
    carbon = methane.coordinates[0] * BOHR  # type: ignore[attr-defined]
    a, b = plus.vertices.mean(axis=0) - carbon, minus.vertices.mean(axis=0) - carbon
    assert float(np.dot(a, b)) < 0


def test_the_cube_file_round_trips(methane: object, tmp_path: Path) -> None:
    grid = grid_around(methane.coordinates, spacing=0.4)  # type: ignore[attr-defined]
    values = orbital_values(methane, 4, grid)  # type: ignore[arg-type]
    path = tmp_path / "homo.cube"
    write_cube(path, methane, 4, grid, values)  # type: ignore[arg-type]
    cube = read_cube(path.read_text())
    assert cube.numbers == [6, 1, 1, 1, 1]
    assert np.allclose(cube.coordinates, methane.coordinates, atol=1e-6)  # type: ignore[attr-defined]
    assert np.allclose(cube.origin, grid.origin, atol=1e-6)
    assert np.allclose(np.diag(cube.axes), grid.step)
    assert cube.values.shape == grid.shape
    assert np.allclose(cube.values, values, rtol=1e-4, atol=1e-9)


def test_a_missing_orbital_and_a_file_without_orbitals_are_clear_errors(
    methane: object, tmp_path: Path
) -> None:
    grid = grid_around(methane.coordinates, spacing=0.5)  # type: ignore[attr-defined]
    with pytest.raises(ResultsError) as err:
        orbital_values(methane, 99, grid)  # type: ignore[arg-type]
    assert err.value.code == "orbital_index"
    bad = tmp_path / "x.molden"
    bad.write_text("[Molden Format]\n[Atoms] AU\n C 1 6 0 0 0\n")
    with pytest.raises(ResultsError) as err:
        load_orbitals(bad)
    assert err.value.code == "orbitals_unreadable"
