"""The one results model that every reader fills and every consumer reads (no Qt).

NWChem outputs, MOLDEN files, XYZ files and NWChem's per-mode animation step files
all become a :class:`Results`. Field names are the camelCase names of the MCP
``get_results`` payload, so ``model_dump()`` is what clients see. Units: energies
in hartree, frequencies in cm⁻¹, IR intensities in km/mol, coordinates in Å.

Normal-mode displacement vectors can be large (3N×3N numbers), so they are kept
apart from the pydantic fields in a private numpy array and served one mode at a
time through :meth:`Results.displacements`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    Field,
    PlainSerializer,
    PrivateAttr,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)

from molforma.formula import hill_formula
from molforma.results.frames import FrameStore
from molforma.results.structure import ResultsBaseModel as _Model
from molforma.results.structure import Structure as Structure

if TYPE_CHECKING:  # numpy is imported only by code that makes displacement arrays
    import numpy as np

ResultsKind = Literal["nwchem", "molden", "xyz", "animation"]
FileKind = Literal["nwchem-output", "molden", "xyz", "vibration-animation"]
EnergyKind = Literal["scf", "dft", "mp2", "ccsd", "ccsd(t)", "optimization", "md"]
SpinChannel = Literal["restricted", "alpha", "beta"]

HARTREE_TO_EV = 27.211386245988  # CODATA 2018
HARTREE_TO_KCAL = 627.5094740631
EV_NM = 1239.84198  # hc in eV nm
SIGNIFICANT_IMAGINARY_CM1 = (
    -10.0
)  # docs/reference/results.md, Sections: "significant" = frequency < -10 cm-1


class EnergyPoint(_Model):
    """One energy printed by the program: an SCF/DFT/MP2 total or an optimisation step."""

    index: int = Field(description="0-based position in the energies list.")
    kind: EnergyKind = Field(
        description="A level's total, an optimization ('@') step or an md (BOMD) step."
    )
    label: str = Field(description="What the program called it, e.g. 'Total SCF energy'.")
    energy: float = Field(description="Energy in hartree.")
    optimization: int | None = Field(None, description="0-based optimisation run (steps only).")
    step: int | None = Field(None, description="Optimisation step number as printed.")
    structureIndex: int | None = Field(None, description="Structure of this step, if known.")
    deltaE: float | None = Field(None, description="Energy change of the step, hartree.")
    gmax: float | None = Field(None, description="Largest gradient component (a.u.).")
    grms: float | None = Field(None, description="RMS gradient (a.u.).")
    xrms: float | None = Field(None, description="RMS step (a.u.).")
    xmax: float | None = Field(None, description="Largest step component (a.u.).")
    criteriaMet: int | None = Field(
        None, description="Convergence criteria 'ok' at this step (of 4)."
    )
    displaced: bool | None = Field(
        None, description="A displaced geometry's (numerical frequencies): never final."
    )
    time: float | None = Field(None, description="Simulation time in fs (md steps).")
    temperature: float | None = Field(None, description="Temperature in K (md steps).")
    kineticEnergy: float | None = Field(None, description="Kinetic energy, hartree (md).")
    potentialEnergy: float | None = Field(None, description="Potential energy, hartree (md).")
    line: int | None = Field(None, description="1-based line in the output file.")


class Transition(_Model):
    """Occupied -> virtual vector (NWChem's numbers), spin if unrestricted, X/Y part."""

    occupied: int = Field(description="Occupied orbital number as printed.")
    virtual: int = Field(description="Virtual orbital number as printed.")
    spin: str | None = Field(None, description="alpha or beta (unrestricted only).")
    occupiedSymmetry: str | None = Field(None, description="Symmetry of the occupied orbital.")
    virtualSymmetry: str | None = Field(None, description="Symmetry of the virtual orbital.")
    coefficient: float = Field(description="Its coefficient in the excitation vector.")
    component: str | None = Field(None, description="X or Y part (TDDFT), where printed.")


class Excitation(_Model):
    """One TDDFT/CIS excited state (root) as NWChem printed it."""

    index: int = Field(description="0-based position in the excitations list.")
    root: int = Field(description="Root number as printed (per spin manifold).")
    spin: str | None = Field(None, description="'singlet', 'triplet', or None (unrestricted).")
    symmetry: str | None = Field(None, description="Irreducible representation of the state.")
    energy: float = Field(description="Excitation energy, hartree.")
    energyEv: float = Field(description="Excitation energy, eV.")
    wavelengthNm: float | None = Field(None, description="Wavelength, nm (None for 0 eV).")
    oscillatorStrength: float | None = Field(
        None, description="Dipole oscillator strength; 0 for a spin-forbidden root."
    )
    totalOscillatorStrength: float | None = Field(
        None, description="Dipole + quadrupole + magnetic dipole strength, where printed."
    )
    spinForbidden: bool = Field(False, description="A spin-forbidden root (e.g. a triplet).")
    transitions: list[Transition] = Field(
        default_factory=list, description="Its dominant occupied -> virtual transitions."
    )


class Orbital(_Model):
    """One molecular orbital of the last wavefunction printed."""

    index: int = Field(description="0-based position in the orbitals list.")
    number: int = Field(description="NWChem's 1-based vector number within its spin.")
    spin: SpinChannel = Field(description="restricted, alpha or beta.")
    energy: float = Field(description="Orbital energy, hartree.")
    energyEv: float = Field(description="Orbital energy, eV.")
    occupation: float | None = Field(None, description="Occupation (2, 1 or 0 typically).")
    symmetry: str | None = Field(None, description="Irreducible representation, if printed.")


class Frontier(_Model):
    """HOMO, LUMO and gap of one spin channel, never mixed with the other channel's."""

    spin: SpinChannel = Field(description="restricted, alpha or beta.")
    homo: float | None = Field(None, description="Highest occupied orbital energy, hartree.")
    lumo: float | None = Field(None, description="Lowest unoccupied orbital energy, hartree.")
    gap: float | None = Field(None, description="LUMO - HOMO, hartree.")
    gapEv: float | None = Field(None, description="LUMO - HOMO, eV.")
    homoIndex: int | None = Field(None, description="The HOMO's index in the orbitals list.")
    lumoIndex: int | None = Field(None, description="The LUMO's index in the orbitals list.")


def frontier_of(orbitals: Sequence[Orbital]) -> list[Frontier]:
    """HOMO and LUMO per spin channel of ``orbitals`` (occupation above 0.5 is occupied).

    The one definition the summary, the orbital table and the Orbitals tab share, so the
    LUMO named in one is the LUMO named in the others. The index fields are positions
    in ``orbitals``.
    """
    out: list[Frontier] = []
    for spin in ("restricted", "alpha", "beta"):
        same = [o for o in orbitals if o.spin == spin and o.occupation is not None]
        if not same:
            continue
        occ = [o for o in same if (o.occupation or 0.0) > 0.5]
        virt = [o for o in same if (o.occupation or 0.0) <= 0.5]
        homo = max(occ, key=lambda o: o.energy) if occ else None
        lumo = min(virt, key=lambda o: o.energy) if virt else None
        gap = lumo.energy - homo.energy if homo is not None and lumo is not None else None
        out.append(
            Frontier(
                spin=spin,
                homo=homo.energy if homo else None,
                lumo=lumo.energy if lumo else None,
                gap=gap,
                gapEv=gap * HARTREE_TO_EV if gap is not None else None,
                homoIndex=homo.index if homo else None,
                lumoIndex=lumo.index if lumo else None,
            )
        )
    return out


def set_frontier(summary: Summary, orbitals: Sequence[Orbital]) -> None:
    """Fill ``summary.frontier`` and its homo/lumo/gap (the alpha channel of an open shell:
    one channel's HOMO is never paired with the other's LUMO)."""
    summary.frontier = frontier_of(orbitals)
    first = summary.frontier[0] if summary.frontier else None
    summary.homo = first.homo if first else None
    summary.lumo = first.lumo if first else None
    summary.gap = first.gap if first else None
    summary.gapEv = first.gapEv if first else None


class AtomCharge(_Model):
    """Population-analysis charges of one atom (0-based atom index of the structures)."""

    atom: int = Field(description="0-based atom index, the order of the output's geometry.")
    element: str = Field(description="Element symbol.")
    mulliken: float | None = Field(None, description="Mulliken charge, e.")
    lowdin: float | None = Field(None, description="Löwdin charge, e (where printed).")
    mullikenSpin: float | None = Field(None, description="Mulliken spin population (open shell).")


class Moments(_Model):
    """Electric moments of the density, atomic units, in the frame NWChem printed them."""

    dipole: list[float] | None = Field(None, description="Dipole vector x, y, z in e·bohr (a.u.).")
    dipoleDebye: float | None = Field(None, description="Dipole magnitude, Debye.")
    quadrupole: dict[str, float] | None = Field(
        None,
        description="xx, yy, zz, xy, xz, yz in a.u.: traceless (property task) or raw "
        "second moments (multipole analysis).",
    )
    origin: list[float] = Field(
        default_factory=lambda: [0.0, 0.0, 0.0],
        description="Expansion point, bohr (in the frame).",
    )
    frame: str = Field(
        description="The frame of the vector: NWChem's orientation of referenceStructure."
    )
    referenceStructure: int | None = Field(
        None, description="The structure (index) the frame belongs to, when known."
    )
    source: str = Field(description="'property' (property task) or 'multipole analysis'.")
    level: str | None = Field(None, description="Density used: scf or dft (also after MP2/CC).")


class Thermochemistry(_Model):
    """Thermochemistry of a frequency run at the printed temperature (ideal gas, RRHO)."""

    temperature: float = Field(description="K")
    zeroPointEnergy: float | None = Field(None, description="hartree")
    thermalEnergyCorrection: float | None = Field(None, description="hartree")
    enthalpyCorrection: float | None = Field(None, description="hartree")
    entropy: float | None = Field(None, description="cal/(mol K)")
    gibbsCorrection: float | None = Field(
        None, description="enthalpyCorrection - T*S, hartree (computed here)."
    )
    electronicEnergy: float | None = Field(
        None, description="Energy of the reference geometry, hartree."
    )
    enthalpy: float | None = Field(None, description="electronicEnergy + enthalpyCorrection.")
    gibbsFreeEnergy: float | None = Field(None, description="electronicEnergy + gibbsCorrection.")
    kcalPerMol: dict[str, float] = Field(
        default_factory=dict, description="The corrections above in kcal/mol."
    )


class Polarizability(_Model):
    """A linear-response polarizability tensor (a.u.)."""

    frequency: float = Field(description="Frequency, a.u. (0 = static).")
    tensor: list[list[float]] = Field(description="3x3 tensor, a.u.")
    isotropic: float = Field(description="Isotropic polarizability (trace / 3), a.u.")
    level: str | None = Field(None, description="Density used: scf or dft (also after MP2/CC).")


class Mode(_Model):
    """One vibrational mode (0-based index, projected frequency)."""

    index: int = Field(description="0-based mode index.")
    frequency: float = Field(description="Frequency in cm-1; negative means imaginary.")
    irIntensity: float | None = Field(None, description="IR intensity in km/mol.")
    imaginary: bool = Field(description="frequency < 0")
    significant: bool = Field(description="frequency < -10 cm-1")
    hasDisplacements: bool = Field(description="Its displacement vectors were read.")


class FileEntry(_Model):
    """A result file of a folder (animation step files are grouped into one entry per mode)."""

    index: int = Field(description="0-based position in the files list.")
    name: str = Field(description="File name (an animation: its group name).")
    path: str = Field(description="Path to pass to open_file (for an animation: its group key).")
    kind: FileKind = Field(description="nwchem-output, molden, xyz or vibration-animation.")
    size: int = Field(description="Bytes (for an animation: all its step files).")
    mode: int | None = Field(None, description="NWChem mode number of an animation (1-based).")
    steps: int | None = Field(None, description="Number of step files of an animation.")


class Message(_Model):
    """A warning or an error NWChem printed."""

    message: str = Field(description="The text NWChem printed.")
    line: int | None = Field(None, description="1-based line in the output file.")
    inputLine: str | None = Field(None, description="The input line NWChem was running.")


class Summary(_Model):
    """Headline of a result: energies, convergence and counts."""

    program: str | None = Field(None, description="The program that wrote it, e.g. NWChem.")
    finalEnergy: float | None = Field(None, description="Last energy, hartree.")
    finalEnergyLabel: str | None = Field(None, description="What the program called it.")
    finalEnergyLevel: str | None = Field(
        None, description="Level of finalEnergy: scf, dft, mp2, ccsd, ccsd(t) or md."
    )
    energiesByKind: dict[str, float] = Field(
        default_factory=dict,
        description="Last total per kind (scf, dft, mp2, ccsd, ccsd(t)), hartree.",
    )
    failedValues: list[Message] = Field(
        default_factory=list,
        description="Numbers NWChem printed as asterisks (a failed MP2 ...): never replaced.",
    )
    charge: float | None = Field(None, description="Total charge of the last wavefunction.")
    multiplicity: int | None = Field(None, description="Spin multiplicity 2S+1.")
    wavefunction: str | None = Field(None, description="RHF, ROHF, UHF, closed/open-shell DFT.")
    s2: float | None = Field(None, description="<S^2> of an unrestricted wavefunction.")
    s2Expected: float | None = Field(None, description="S(S+1) for the multiplicity.")
    spinContaminated: bool | None = Field(None, description="<S^2> more than 10 % off S(S+1).")
    homo: float | None = Field(None, description="Highest occupied orbital energy, hartree.")
    lumo: float | None = Field(None, description="Lowest unoccupied orbital energy, hartree.")
    gap: float | None = Field(None, description="LUMO - HOMO, hartree.")
    gapEv: float | None = Field(None, description="LUMO - HOMO, eV.")
    frontier: list[Frontier] = Field(
        default_factory=list,
        description="Per spin; homo/lumo/gap above are alpha's for open shells.",
    )
    moments: Moments | None = Field(None, description="Dipole (and quadrupole) where printed.")
    thermochemistry: Thermochemistry | None = Field(
        None, description="Zero-point, thermal, enthalpy and Gibbs corrections, entropy."
    )
    dispersionEnergy: float | None = Field(
        None, description="Empirical dispersion correction (DFT-D), hartree."
    )
    polarizabilities: list[Polarizability] = Field(
        default_factory=list, description="Polarizability tensors, where computed."
    )
    solvationEnergy: float | None = Field(None, description="COSMO solution - gas, Eh.")
    saddlePoint: bool | None = Field(None, description="Saddle task: 1 imaginary mode.")
    excitationCount: int = Field(0, description="Excited states read.")
    orbitalCount: int = Field(0, description="Orbitals read.")
    chargeCount: int = Field(0, description="Atoms with population charges read.")
    mdSteps: int = Field(0, description="BOMD (qmd) steps read.")
    zeroPointEnergy: float | None = Field(None, description="Zero-point correction, hartree.")
    scfConverged: bool | None = Field(
        None, description="False when NWChem printed 'Calculation failed to converge'."
    )
    optimizationConverged: bool | None = Field(
        None, description="'Optimization converged' printed; null: no optimisation."
    )
    optimizationSteps: int = Field(0, description="Optimisation steps read.")
    completed: bool | None = Field(None, description="NWChem reached its final 'Total times' line.")
    atomCount: int = Field(0, description="Atoms of the structures.")
    formula: str | None = Field(None, description="Hill formula of the structures.")
    energyCount: int = Field(0, description="Energies read.")
    structureCount: int = Field(0, description="Structures read.")
    modeCount: int = Field(0, description="Vibrational modes read.")
    imaginaryModes: int = Field(0, description="Modes with a negative frequency.")
    significantImaginaryModes: int = Field(0, description="Modes below -10 cm-1.")
    fileCount: int = Field(0, description="Result files of a folder.")
    animationMode: int | None = Field(
        None, description="NWChem mode number (1-based) of a vibration animation."
    )
    warningCount: int = Field(0, description="Warnings NWChem printed.")
    errorCount: int = Field(0, description="Errors NWChem printed.")
    warnings: list[Message] = Field(default_factory=list, description="At most the first 100.")
    errors: list[Message] = Field(default_factory=list, description="The errors NWChem printed.")


def _keep_frame_store(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    return value if isinstance(value, FrameStore) else handler(value)


def _frames_as_list(value: Any) -> list[Structure]:
    # a FrameStore is dumped as the list of structures it stands for
    return value if isinstance(value, list) else list(value)


class Results(_Model):
    """Everything read from one result source."""

    source: str = Field(description="The path that was opened, as given.")
    kind: ResultsKind
    summary: Summary
    energies: list[EnergyPoint] = Field(default_factory=list)
    # A reader may hand a FrameStore (frames kept as coordinate arrays, made into models
    # when asked for): it is kept as it is, not copied into a list of models.
    structures: Annotated[
        list[Structure],
        WrapValidator(_keep_frame_store),
        PlainSerializer(_frames_as_list, return_type=list[Structure]),
    ] = Field(default_factory=list)
    modes: list[Mode] = Field(default_factory=list)
    modeReferenceStructure: int | None = Field(
        None, description="Index of the structure the mode displacements refer to."
    )
    excitations: list[Excitation] = Field(default_factory=list)
    orbitals: list[Orbital] = Field(default_factory=list)
    charges: list[AtomCharge] = Field(default_factory=list)
    files: list[FileEntry] = Field(default_factory=list)
    logPath: str | None = Field(None, description="Text file served by the 'log' section.")
    resolvedPath: str | None = Field(None, description="The file actually read.")

    # (modes, atoms, 3) numpy array, or one flat array('d') of 3N numbers per mode
    _displacements: Any = PrivateAttr(default=None)
    _log_ascii: bool = PrivateAttr(default=False)
    _nwchem_prefix: str | None = PrivateAttr(default=None)
    _input_echo: str = PrivateAttr(default="")  # NWChem's echo of the input deck
    # BOMD geometries (Angstrom) the output printed: step 0, then one per md step.
    _md_output_frames: list[list[list[float]]] = PrivateAttr(default_factory=list)
    # The check the loader applied to every file it opened; the log is read later, so
    # the same check applies again then (the file may have been swapped for a link).
    _file_guard: Any = PrivateAttr(default=None)

    @property
    def log_path(self) -> str | None:
        """Snake-case alias of ``logPath``."""
        return self.logPath

    def set_displacements(self, array: np.ndarray | Sequence[Sequence[float]] | None) -> None:
        """Store displacement vectors: an array of shape (modes, atoms, 3), or one flat
        sequence of 3N numbers per mode (what the NWChem reader keeps, without numpy)."""
        self._displacements = array

    def displacements(self, mode: int) -> list[list[float]] | None:
        """Displacement vectors (one per atom) of 0-based ``mode``, or None when absent."""
        arr = self._displacements
        if arr is None or not 0 <= mode < len(arr):
            return None
        row = arr[mode]
        if getattr(row, "ndim", 1) == 2:
            return [[float(v) for v in r] for r in row]
        return [
            [float(row[i]), float(row[i + 1]), float(row[i + 2])] for i in range(0, len(row) - 2, 3)
        ]

    def reference_structure(self) -> Structure | None:
        """The structure the normal modes were computed at."""
        i = self.modeReferenceStructure
        if i is None or not 0 <= i < len(self.structures):
            return None
        return self.structures[i]


def make_mode(index: int, frequency: float, ir: float | None, has_disp: bool) -> Mode:
    """A :class:`Mode` with its ``imaginary`` and ``significant`` flags derived."""
    # NWChem prints projected translations/rotations as "-0.00"; a reader of the JSON
    # ("frequency": -0.0) would take the sign for an imaginary mode, so drop it.
    if frequency == 0.0:
        frequency = 0.0
    return Mode(
        index=index,
        frequency=frequency,
        irIntensity=ir,
        imaginary=frequency < 0.0,
        significant=frequency < SIGNIFICANT_IMAGINARY_CM1,
        hasDisplacements=has_disp,
    )


def formula_of(symbols: list[str]) -> str:
    """Hill formula of a list of element symbols (the project's one definition)."""
    return hill_formula(symbols)
