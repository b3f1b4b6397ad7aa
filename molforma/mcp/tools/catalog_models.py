"""The input and output models of ``get_catalog`` (no Qt).

The catalogue entries (fragments, ligands, basis sets, functionals, tasks, theories,
advanced keys) are records of their own, one model each, so the answer's schema types
and describes every field (docs/reference/mcp.md, Tools). The other document tools'
models are in :mod:`molforma.mcp.tools.document_models`, which re-exports these two.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from molforma.mcp.tool_registry import SparseOutput, ToolInput


class GetCatalogInput(ToolInput):
    kind: (
        Literal[
            "fragments",
            "ligands",
            "basis_sets",
            "functionals",
            "tasks",
            "theories",
            "advanced_keys",
        ]
        | None
    ) = Field(None, description="One catalogue (default: all).")


_LABEL = "Display names by language code ('en', 'ja')."


_ALIASES = "Other names accepted for it (place_fragment takes these too)."


class FragmentEntry(SparseOutput):
    """A substituent place_fragment can attach (kind fragment)."""

    name: str = Field(description="Name to pass to place_fragment, e.g. 'methyl'.")
    label: dict[str, str] = Field(description=_LABEL)
    smiles: str = Field(description="SMILES with [*] at the attachment point.")
    formula: str = Field(description="Formula of the group.")
    attachmentElement: str = Field(description="Element bonded to the site.")
    aliases: list[str] = Field(description=_ALIASES)


class LigandEntry(SparseOutput):
    """A ligand place_fragment can coordinate to a metal (kind ligand)."""

    name: str = Field(description="Name to pass to place_fragment, e.g. 'NH3'.")
    label: dict[str, str] = Field(description=_LABEL)
    smiles: str = Field(description="SMILES of the free ligand.")
    aliases: list[str] = Field(description=_ALIASES)
    formula: str = Field(description="Formula of the ligand.")
    charge: int = Field(description="Formal charge of the ligand.")
    donorElement: str = Field(description="Element that binds the metal.")


class BasisSetEntry(SparseOutput):
    """A basis set of the catalogue (set_nwchem basis)."""

    name: str = Field(description="Name to pass as basis, e.g. '6-31g*'.")
    label: dict[str, str] = Field(description=_LABEL)
    family: str = Field(description="e.g. pople, dunning, karlsruhe.")
    elements: list[str] = Field(description="Elements it covers.")
    spherical: bool = Field(description="Spherical (pure) functions by definition.")
    ecp: str | None = Field(
        None, description="The effective core potential it goes with (absent when none)."
    )
    ecpElements: list[str] | None = Field(
        None, description="Elements that get the ECP (absent when no ECP)."
    )


class FunctionalEntry(SparseOutput):
    """A DFT functional of the catalogue (set_nwchem functional)."""

    name: str = Field(description="Name to pass as functional, e.g. 'b3lyp'.")
    xc: str = Field(description="What NWChem's xc directive gets.")
    lines: list[str] | None = Field(None, description="Other dft lines it needs (cam, disp).")
    kind: str = Field(description="e.g. lda, gga, hybrid, meta-gga, range-separated.")
    label: dict[str, str] = Field(description=_LABEL)
    aliases: list[str] | None = Field(None, description="Other names accepted for it.")
    nwchem: str | None = Field(None, description="First NWChem release that knows it.")


class TaskEntry(SparseOutput):
    """A calculation task (set_nwchem task)."""

    name: str = Field(description="Name to pass as task, e.g. 'optimize+frequencies'.")
    label: dict[str, str] = Field(description=_LABEL)
    operations: list[str] = Field(description="NWChem task operations run in order.")


class TheoryEntry(SparseOutput):
    """A level of theory (set_nwchem theory)."""

    name: str = Field(description="Name to pass as theory, e.g. 'dft'.")
    label: dict[str, str] = Field(description=_LABEL)


class AdvancedKeyEntry(SparseOutput):
    """An advanced setting (set_advanced values)."""

    key: str = Field(description="Key in set_advanced values, e.g. 'memory_mb'.")
    label: dict[str, str] = Field(description=_LABEL)
    type: Literal["integer", "number", "string", "boolean", "choice"] = Field(
        description="Type of its value."
    )
    nullable: bool = Field(description="null is accepted (it means automatic/unset).")
    default: bool | int | float | str | None = Field(description="Value when not set.")
    min: int | float | None = Field(None, description="Smallest value (absent: none).")
    max: int | float | None = Field(None, description="Largest value (absent: none).")
    exclusiveMin: int | float | None = Field(
        None, description="Values must be above this (absent: no such bound)."
    )
    choices: list[str] | None = Field(
        None, description="The values of a choice (absent for other types)."
    )
    path: bool = Field(description="The value is a path (checked against the allowed directories).")
    description: dict[str, str] = Field(description="What it does, by language code.")


class GetCatalogOutput(SparseOutput):
    """Catalogue entries by kind: the kind asked for, or all seven."""

    fragments: list[FragmentEntry] | None = Field(None, description="Substituents.")
    ligands: list[LigandEntry] | None = Field(None, description="Ligands.")
    basis_sets: list[BasisSetEntry] | None = Field(None, description="Basis sets.")
    functionals: list[FunctionalEntry] | None = Field(None, description="DFT functionals.")
    tasks: list[TaskEntry] | None = Field(None, description="Calculation tasks.")
    theories: list[TheoryEntry] | None = Field(None, description="Levels of theory.")
    advanced_keys: list[AdvancedKeyEntry] | None = Field(None, description="Advanced settings.")
