"""Orbitals without the optional ``orbitals`` extra: a clear error naming what to install."""

from __future__ import annotations

import sys

import pytest

from molforma.errors import ResultsError
from molforma.results.orbitals import INSTALL_ORBITALS, load_orbitals
from tests.paths import NWCHEM_DATA

METHANE = NWCHEM_DATA / "methane_b3lyp_molden.molden"


@pytest.mark.parametrize(
    ("hidden", "named", "not_named"),
    [
        ("pyscf.tools.molden", "PySCF (pyscf)", "scikit-image (skimage)"),
        ("skimage.measure", "scikit-image (skimage)", "PySCF (pyscf)"),
    ],
)
def test_reading_orbitals_without_one_package_names_it_and_the_install_command(
    monkeypatch: pytest.MonkeyPatch, hidden: str, named: str, not_named: str
) -> None:
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


def test_in_the_bundle_the_missing_packages_send_the_user_to_the_wheel(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    # The bundle has no PySCF and nothing can be pip-installed into it.
    from molforma.results.orbitals import INSTALL_ORBITALS_BUNDLE

    monkeypatch.setitem(sys.modules, "pyscf.tools.molden", None)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    with pytest.raises(ResultsError) as err:
        load_orbitals(METHANE)
    assert INSTALL_ORBITALS_BUNDLE in err.value.message("en")
    assert "pip install 'molforma[orbitals]'\"" not in err.value.message("en")
    assert err.value.to_dict("en")["details"]["install"] == INSTALL_ORBITALS_BUNDLE
