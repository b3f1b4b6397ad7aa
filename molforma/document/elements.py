"""Elements and isotopes from RDKit's periodic table (no Qt).

RDKit ships the NIST isotope masses, so a mass number is valid exactly when RDKit
knows a mass for it. Covalent radii drive bond perception and fragment placement.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from rdkit import Chem
else:  # imported on first use (start-up time): molforma.lazy
    Chem = lazy_import("rdkit.Chem")

MAX_Z = 118

# The periodic table's symbols by atomic number (RDKit's spelling; a test checks they
# agree). Kept here so that reading symbols never waits for RDKit to import.
BY_Z: tuple[str, ...] = tuple(
    [
        "H",
        "He",
        "Li",
        "Be",
        "B",
        "C",
        "N",
        "O",
        "F",
        "Ne",
        "Na",
        "Mg",
        "Al",
        "Si",
        "P",
        "S",
        "Cl",
        "Ar",
        "K",
        "Ca",
        "Sc",
        "Ti",
        "V",
        "Cr",
        "Mn",
        "Fe",
        "Co",
        "Ni",
        "Cu",
        "Zn",
        "Ga",
        "Ge",
        "As",
        "Se",
        "Br",
        "Kr",
        "Rb",
        "Sr",
        "Y",
        "Zr",
        "Nb",
        "Mo",
        "Tc",
        "Ru",
        "Rh",
        "Pd",
        "Ag",
        "Cd",
        "In",
        "Sn",
        "Sb",
        "Te",
        "I",
        "Xe",
        "Cs",
        "Ba",
        "La",
        "Ce",
        "Pr",
        "Nd",
        "Pm",
        "Sm",
        "Eu",
        "Gd",
        "Tb",
        "Dy",
        "Ho",
        "Er",
        "Tm",
        "Yb",
        "Lu",
        "Hf",
        "Ta",
        "W",
        "Re",
        "Os",
        "Ir",
        "Pt",
        "Au",
        "Hg",
        "Tl",
        "Pb",
        "Bi",
        "Po",
        "At",
        "Rn",
        "Fr",
        "Ra",
        "Ac",
        "Th",
        "Pa",
        "U",
        "Np",
        "Pu",
        "Am",
        "Cm",
        "Bk",
        "Cf",
        "Es",
        "Fm",
        "Md",
        "No",
        "Lr",
        "Rf",
        "Db",
        "Sg",
        "Bh",
        "Hs",
        "Mt",
        "Ds",
        "Rg",
        "Cn",
        "Nh",
        "Fl",
        "Mc",
        "Lv",
        "Ts",
        "Og",
    ]
)
_Z_OF: dict[str, int] = {s: z for z, s in enumerate(BY_Z, start=1)}

# Looked up in a table: asking RDKit about an unknown symbol prints a C++ trace to stderr.
_SYMBOLS: dict[str, str] = {s.lower(): s for s in BY_Z}


@lru_cache(maxsize=1)
def _table() -> Any:
    """RDKit's periodic table, imported on the first question only RDKit can answer."""
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
    return BY_Z[z - 1] if 1 <= z <= MAX_Z else str(_table().GetElementSymbol(z))


# RDKit's covalent radii (PeriodicTable.GetRcovalent; a test compares them) by atomic
# number, 0 unused: the 3D view sizes its atoms by them before RDKit has loaded.
COVALENT_RADII: tuple[float, ...] = (
    0.0,
    0.31,
    0.28,
    1.28,
    0.96,
    0.84,
    0.76,
    0.71,
    0.66,
    0.57,
    0.58,
    1.66,
    1.41,
    1.21,
    1.11,
    1.07,
    1.05,
    1.02,
    1.06,
    2.03,
    1.76,
    1.7,
    1.6,
    1.52,
    1.39,
    1.39,
    1.32,
    1.26,
    1.24,
    1.32,
    1.22,
    1.22,
    1.2,
    1.19,
    1.2,
    1.2,
    1.16,
    2.2,
    1.95,
    1.9,
    1.75,
    1.64,
    1.54,
    1.47,
    1.46,
    1.42,
    1.39,
    1.45,
    1.44,
    1.42,
    1.39,
    1.39,
    1.38,
    1.39,
    1.4,
    2.44,
    2.15,
    2.07,
    2.04,
    2.03,
    2.01,
    1.99,
    1.98,
    1.98,
    1.96,
    1.94,
    1.92,
    1.92,
    1.89,
    1.9,
    1.87,
    1.87,
    1.75,
    1.7,
    1.62,
    1.51,
    1.44,
    1.41,
    1.36,
    1.36,
    1.32,
    1.45,
    1.46,
    1.48,
    1.4,
    1.5,
    1.5,
    2.6,
    2.2,
    2.15,
    2.06,
    2.0,
    1.96,
    1.9,
    1.87,
    1.8,
    1.69,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.9,
    1.36,
    1.43,
    1.62,
    1.75,
    1.65,
    1.57,
)


def covalent_radius(symbol: str) -> float:
    """Covalent radius in Angstrom (RDKit's table; 0.77 when unknown)."""
    r = COVALENT_RADII[atomic_number(symbol)]
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


# RDKit's default valence of each atomic number 0-118 (PeriodicTable.GetDefaultValence;
# a test compares them), -1 where any valence goes.
DEFAULT_VALENCE = (
    -1,
    1,
    0,
    1,
    2,
    3,
    4,
    3,
    2,
    1,
    0,
    1,
    2,
    3,
    4,
    3,
    2,
    1,
    0,
    1,
    2,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    3,
    4,
    3,
    2,
    1,
    0,
    1,
    2,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    3,
    2,
    3,
    2,
    1,
    0,
    1,
    2,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    2,
    3,
    2,
    1,
    0,
    1,
    2,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
)


def default_valence(symbol: str) -> int:
    """Default valence used to fill open valences with hydrogen (-1 when none)."""
    return DEFAULT_VALENCE[atomic_number(symbol)]
