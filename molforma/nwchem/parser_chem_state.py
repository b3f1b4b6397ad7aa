"""The state the property handlers of the NWChem output reader fill (no Qt).

:class:`ChemState` is what :mod:`molforma.nwchem.parser_properties` and
:mod:`molforma.nwchem.parser_charges` collect while the output is read;
:mod:`molforma.nwchem.parser_summary` turns it into the results model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from molforma.results.results_model import Excitation, Message, Moments, Polarizability

if TYPE_CHECKING:
    from molforma.results.limits import StructureCounter
    from molforma.results.results_model import EnergyPoint, Structure


class PropertyState(Protocol):
    """What these handlers read and fill of :mod:`molforma.nwchem.parser`'s state.

    A protocol rather than an import of the parser's class: the parser imports this module.
    """

    chem: ChemState
    counter: StructureCounter
    energies: list[EnergyPoint]

    @property
    def structures(self) -> Sequence[Structure]:
        """The geometries read so far (the parser keeps them in a FrameStore)."""


@dataclass
class ChemState:
    """What the property handlers collected so far."""

    excitations: list[Excitation] = field(default_factory=list)
    td_last: Excitation | None = None
    orbital_raw: list[tuple[str, str, str]] = field(default_factory=list)
    orbital_channel: str = "restricted"
    orbitals_stale: bool = False
    mulliken: list[tuple[str, float]] = field(default_factory=list)
    mulliken_spin: list[float] = field(default_factory=list)
    charges_structure: int | None = None
    moments: Moments | None = None
    s2: float | None = None
    s2_exact: float | None = None
    charge: float | None = None
    multiplicity: int | None = None
    wavefunction: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    fd_active: bool = False
    fd_kinds: set[str] = field(default_factory=set)
    temperature: float | None = None
    thermal: dict[str, float] = field(default_factory=dict)
    entropy: float | None = None
    thermo_energies: int = 0
    dispersion: float | None = None
    solvation: float | None = None
    irc_line: int | None = None  # where the reaction path (mepgs) starts
    polarizabilities: list[Polarizability] = field(default_factory=list)
    md_steps: int = 0
    # Geometries (Angstrom) of the QMD steps as the output prints them: the frame before
    # the first step (the gradient of the start geometry), then one per step read.
    md_frames: list[list[list[float]]] = field(default_factory=list)
    md_last_gradient: list[list[float]] | None = None
    multipole: tuple[list[str], int | None, str | None] | None = None
    prefix: str | None = None
    failed: list[Message] = field(default_factory=list)
    failed_lines: dict[str, int] = field(default_factory=dict)
