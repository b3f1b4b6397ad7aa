"""Orbitals without the optional ``orbitals`` extra: a clear error naming what to install."""

from __future__ import annotations

import sys

import pytest

from molforma.errors import ResultsError
from molforma.results.orbitals import INSTALL_ORBITALS, load_orbitals
from tests.paths import NWCHEM_DATA

METHANE = NWCHEM_DATA / "methane_b3lyp_molden.molden"


@pytest.mark.parametrize(("hidden", "named", "not_named"), [
    ("pyscf.tools.molden", "PySCF (pyscf)", "scikit-image (skimage)"),
    ("skimage.measure", "scikit-image (skimage)", "PySCF (pyscf)"),
])
def test_reading_orbitals_without_one_package_names_it_and_the_install_command(
        monkeypatch: pytest.MonkeyPatch, hidden: str, named: str, not_named: str) -> None:
    # None in sys.modules makes the import fail as for a package that is not installed.
    monkeypatch.setitem(sys.modules, hidden, None)
    with pytest.raises(ResultsError) as err:
        load_orbitals(METHANE)
    assert err.value.code == "orbitals_unavailable"
    english = err.value.message("en")
    assert named in english and not_named not in english
    assert INSTALL_ORBITALS == "pip install 'molforma[orbitals]'"
    assert INSTALL_ORBITALS in english
    japanese = err.value.message("ja")
    assert "インストールしてください" in japanese and INSTALL_ORBITALS in japanese
    assert err.value.to_dict("en")["details"] == {"missing": named, "install": INSTALL_ORBITALS}


def test_with_both_packages_the_orbitals_read_as_before() -> None:
    assert len(load_orbitals(METHANE).orbitals) == 23
