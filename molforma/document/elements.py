"""Elements and isotopes from RDKit's periodic table (no Qt).

RDKit ships the NIST isotope masses, so a mass number is valid exactly when RDKit
knows a mass for it. Covalent radii drive bond perception and fragment placement.
"""

from __future__ import annotations

from functools import lru_cache

from rdkit import Chem

_PT = Chem.GetPeriodicTable()
MAX_Z = 118


# Looked up in a table: asking RDKit about an unknown symbol prints a C++ trace to stderr.
_SYMBOLS: dict[str, str] = {
    str(_PT.GetElementSymbol(z)).lower(): str(_PT.GetElementSymbol(z)) for z in range(1, MAX_Z + 1)
}

SYMBOLS: frozenset[str] = frozenset(_SYMBOLS.values())


def normalize_symbol(symbol: str) -> str | None:
    """``'cl'`` → ``'Cl'``; None when it is not an element (dummy ``*`` excluded)."""
    return _SYMBOLS.get(symbol.strip().lower()) if isinstance(symbol, str) else None


def atomic_number(symbol: str) -> int:
    """Atomic number of a valid symbol."""
    return int(_PT.GetAtomicNumber(symbol))


def symbol_of(z: int) -> str:
    """Element symbol of atomic number ``z``."""
    return str(_PT.GetElementSymbol(int(z)))


@lru_cache(maxsize=256)
def covalent_radius(symbol: str) -> float:
    """Covalent radius in Angstrom (RDKit's table; 0.77 when unknown)."""
    r = float(_PT.GetRcovalent(atomic_number(symbol)))
    return r if r > 0 else 0.77


@lru_cache(maxsize=256)
def vdw_radius(symbol: str) -> float:
    """Van der Waals radius in Angstrom."""
    r = float(_PT.GetRvdw(atomic_number(symbol)))
    return r if r > 0 else 1.8


@lru_cache(maxsize=256)
def average_mass(symbol: str) -> float:
    """Standard atomic weight."""
    return float(_PT.GetAtomicWeight(atomic_number(symbol)))


@lru_cache(maxsize=4096)
def isotope_mass(symbol: str, mass_number: int) -> float | None:
    """Exact mass of ``mass_number`` of ``symbol``, or None when not in the isotope table."""
    if mass_number < 1 or mass_number > 400:
        return None
    m = float(_PT.GetMassForIsotope(atomic_number(symbol), int(mass_number)))
    return m if m > 0 else None


@lru_cache(maxsize=256)
def default_valence(symbol: str) -> int:
    """Default valence used to fill open valences with hydrogen (-1 when none)."""
    return int(_PT.GetDefaultValence(atomic_number(symbol)))


@lru_cache(maxsize=256)
def valence_list(symbol: str) -> tuple[int, ...]:
    """Allowed valences (RDKit's list; -1 means any)."""
    return tuple(int(v) for v in _PT.GetValenceList(atomic_number(symbol)))
