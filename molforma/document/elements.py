"""Elements and isotopes from RDKit's periodic table (no Qt).

RDKit ships the NIST isotope masses, so a mass number is valid exactly when RDKit
knows a mass for it. Covalent radii drive bond perception and fragment placement.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

MAX_Z = 118

# The periodic table's symbols by atomic number (RDKit's spelling; a test checks they
# agree). Kept here so that reading symbols never waits for RDKit to import.
_BY_Z: tuple[str, ...] = tuple(
    ["H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "Ar", "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr", "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr", "Rf", "Db", "Sg", "Bh", "Hs", "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc", "Lv", "Ts", "Og"])
_Z_OF: dict[str, int] = {s: z for z, s in enumerate(_BY_Z, start=1)}

# Looked up in a table: asking RDKit about an unknown symbol prints a C++ trace to stderr.
_SYMBOLS: dict[str, str] = {s.lower(): s for s in _BY_Z}


@lru_cache(maxsize=1)
def _table() -> Any:
    """RDKit's periodic table, imported on the first question only RDKit can answer."""
    from rdkit import Chem

    return Chem.GetPeriodicTable()


SYMBOLS: frozenset[str] = frozenset(_SYMBOLS.values())


def normalize_symbol(symbol: str) -> str | None:
    """``'cl'`` → ``'Cl'``; None when it is not an element (dummy ``*`` excluded)."""
    return _SYMBOLS.get(symbol.strip().lower()) if isinstance(symbol, str) else None


def atomic_number(symbol: str) -> int:
    """Atomic number of a valid symbol."""
    z = _Z_OF.get(symbol)
    return z if z is not None else int(_table().GetAtomicNumber(symbol))


def symbol_of(z: int) -> str:
    """Element symbol of atomic number ``z``."""
    z = int(z)
    return _BY_Z[z - 1] if 1 <= z <= MAX_Z else str(_table().GetElementSymbol(z))


@lru_cache(maxsize=256)
def covalent_radius(symbol: str) -> float:
    """Covalent radius in Angstrom (RDKit's table; 0.77 when unknown)."""
    r = float(_table().GetRcovalent(atomic_number(symbol)))
    return r if r > 0 else 0.77


@lru_cache(maxsize=256)
def vdw_radius(symbol: str) -> float:
    """Van der Waals radius in Angstrom."""
    r = float(_table().GetRvdw(atomic_number(symbol)))
    return r if r > 0 else 1.8


@lru_cache(maxsize=256)
def average_mass(symbol: str) -> float:
    """Standard atomic weight."""
    return float(_table().GetAtomicWeight(atomic_number(symbol)))


@lru_cache(maxsize=4096)
def isotope_mass(symbol: str, mass_number: int) -> float | None:
    """Exact mass of ``mass_number`` of ``symbol``, or None when not in the isotope table."""
    if mass_number < 1 or mass_number > 400:
        return None
    m = float(_table().GetMassForIsotope(atomic_number(symbol), int(mass_number)))
    return m if m > 0 else None


@lru_cache(maxsize=256)
def default_valence(symbol: str) -> int:
    """Default valence used to fill open valences with hydrogen (-1 when none)."""
    return int(_table().GetDefaultValence(atomic_number(symbol)))


@lru_cache(maxsize=256)
def valence_list(symbol: str) -> tuple[int, ...]:
    """Allowed valences (RDKit's list; -1 means any)."""
    return tuple(int(v) for v in _table().GetValenceList(atomic_number(symbol)))
