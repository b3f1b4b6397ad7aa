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

from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from molforma.formula import hill_formula

ResultsKind = Literal["nwchem", "molden", "xyz", "animation"]
FileKind = Literal["nwchem-output", "molden", "xyz", "vibration-animation"]
EnergyKind = Literal["scf", "dft", "mp2", "optimization"]

SIGNIFICANT_IMAGINARY_CM1 = -10.0  # SPEC.md section 6: "significant" = frequency < -10 cm-1


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class EnergyPoint(_Model):
    """One energy printed by the program: an SCF/DFT/MP2 total or an optimisation step."""

    index: int = Field(description="0-based position in the energies list.")
    kind: EnergyKind = Field(description="scf, dft, mp2 (totals) or optimization (an '@' step).")
    label: str = Field(description="What the program called it, e.g. 'Total SCF energy'.")
    energy: float = Field(description="Energy in hartree.")
    optimization: int | None = Field(None, description="0-based optimisation run (steps only).")
    step: int | None = Field(None, description="Optimisation step number as printed.")
    structureIndex: int | None = Field(None, description="Structure of this step, if known.")
    deltaE: float | None = None
    gmax: float | None = None
    grms: float | None = None
    xrms: float | None = None
    xmax: float | None = None
    criteriaMet: int | None = Field(
        None, description="How many of the four convergence criteria were 'ok' at this step."
    )
    line: int | None = Field(None, description="1-based line in the output file.")


class Structure(_Model):
    """One geometry: an input orientation, an optimisation step, a frame or the final one."""

    index: int
    label: str = Field(description="'input', 'step N', 'final', 'frame N', 'reference', ...")
    step: int | None = None
    energy: float | None = Field(None, description="Energy in hartree, when known.")
    comment: str | None = None
    symbols: list[str]
    coordinates: list[list[float]] = Field(description="Cartesian coordinates in Angstrom.")


class Mode(_Model):
    """One vibrational mode (0-based index, projected frequency)."""

    index: int
    frequency: float = Field(description="Frequency in cm-1; negative means imaginary.")
    irIntensity: float | None = Field(None, description="IR intensity in km/mol.")
    imaginary: bool = Field(description="frequency < 0")
    significant: bool = Field(description="frequency < -10 cm-1")
    hasDisplacements: bool


class FileEntry(_Model):
    """A result file of a folder (animation step files are grouped into one entry per mode)."""

    index: int
    name: str
    path: str = Field(description="Path to pass to open_file (for an animation: its group key).")
    kind: FileKind
    size: int = Field(description="Bytes (for an animation: all its step files).")
    mode: int | None = Field(None, description="NWChem mode number of an animation (1-based).")
    steps: int | None = Field(None, description="Number of step files of an animation.")


class Message(_Model):
    """A warning or an error NWChem printed."""

    message: str
    line: int | None = Field(None, description="1-based line in the output file.")
    inputLine: str | None = Field(None, description="The input line NWChem was running.")


class Summary(_Model):
    """Headline of a result: energies, convergence and counts."""

    program: str | None = None
    finalEnergy: float | None = Field(None, description="Last energy, hartree.")
    finalEnergyLabel: str | None = None
    energiesByKind: dict[str, float] = Field(
        default_factory=dict, description="Last total per kind (scf, dft, mp2), hartree."
    )
    zeroPointEnergy: float | None = Field(None, description="Zero-point correction, hartree.")
    scfConverged: bool | None = Field(
        None, description="False when NWChem printed 'Calculation failed to converge'."
    )
    optimizationConverged: bool | None = Field(
        None, description="True when 'Optimization converged' was printed; None: no optimisation."
    )
    optimizationSteps: int = 0
    completed: bool | None = Field(
        None, description="NWChem reached its final 'Total times' line."
    )
    atomCount: int = 0
    formula: str | None = None
    energyCount: int = 0
    structureCount: int = 0
    modeCount: int = 0
    imaginaryModes: int = 0
    significantImaginaryModes: int = 0
    fileCount: int = 0
    animationMode: int | None = Field(
        None, description="NWChem mode number (1-based) of a vibration animation."
    )
    warningCount: int = 0
    errorCount: int = 0
    warnings: list[Message] = Field(default_factory=list, description="At most the first 100.")
    errors: list[Message] = Field(default_factory=list)


class Results(_Model):
    """Everything read from one result source."""

    source: str = Field(description="The path that was opened, as given.")
    kind: ResultsKind
    summary: Summary
    energies: list[EnergyPoint] = Field(default_factory=list)
    structures: list[Structure] = Field(default_factory=list)
    modes: list[Mode] = Field(default_factory=list)
    modeReferenceStructure: int | None = Field(
        None, description="Index of the structure the mode displacements refer to."
    )
    files: list[FileEntry] = Field(default_factory=list)
    logPath: str | None = Field(None, description="Text file served by the 'log' section.")
    resolvedPath: str | None = Field(None, description="The file actually read.")

    _displacements: np.ndarray | None = PrivateAttr(default=None)
    _log_ascii: bool = PrivateAttr(default=False)
    # The check the loader applied to every file it opened; the log is read later, so
    # the same check applies again then (the file may have been swapped for a link).
    _file_guard: Any = PrivateAttr(default=None)

    @property
    def log_path(self) -> str | None:
        """Snake-case alias of ``logPath``."""
        return self.logPath

    def set_displacements(self, array: np.ndarray | None) -> None:
        """Store displacement vectors as an array of shape (modes, atoms, 3)."""
        self._displacements = array

    def displacements(self, mode: int) -> list[list[float]] | None:
        """Displacement vectors (one per atom) of 0-based ``mode``, or None when absent."""
        arr = self._displacements
        if arr is None or not 0 <= mode < arr.shape[0]:
            return None
        return [[float(v) for v in row] for row in arr[mode]]

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
