"""The project envelope as pydantic models: the schema of docs/reference/project-file.md, The envelope (no Qt).

Projects are plain dicts at run time (:mod:`molforma.document.envelope`); these models
give the defaults of a new project and validate the settings blocks. They import
pydantic and the NWChem settings models, so they load on first use only.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from molforma.nwchem.settings import AdvancedSettings, CalculationSettings, ExecutionSettings

# model.PROJECT_FORMAT / PROJECT_VERSION: repeated so this module never imports the model,
# which imports it (lazily) for a new project's defaults
PROJECT_FORMAT: Final = "molforma-project"
PROJECT_VERSION: Final = 1


class AtomModel(BaseModel):
    """One atom of the ``document`` block."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(description="Stable id such as 'a7'; never reused in a document.")
    element: str = Field(description="Element symbol, e.g. 'C'.")
    x: float = Field(description="x in Angstrom.")
    y: float = Field(description="y in Angstrom.")
    z: float = Field(description="z in Angstrom.")
    name: str = Field("", description="Optional label, at most 16 characters.")
    formalCharge: int = Field(0, description="Formal charge, -99..20.")
    unpairedElectrons: int = Field(0, description="Unpaired electrons on this atom, 0..8.")
    massNumber: int | None = Field(None, description="Isotope mass number from the table.")
    mass: float | None = Field(None, description="Arbitrary atomic mass (overrides massNumber).")
    fixed: bool = Field(False, description="Fixed atoms cannot move (and are NWChem constraints).")


class BondModel(BaseModel):
    """One bond between two atom ids."""

    model_config = ConfigDict(extra="allow")

    a: str
    b: str
    order: Literal[1, 2, 3] = 1


class DocumentModel(BaseModel):
    """The ``document`` block: molecule, charge, multiplicity."""

    model_config = ConfigDict(extra="allow")

    title: str = ""
    charge: int = 0
    multiplicity: int = Field(1, ge=1, le=20)
    atoms: list[AtomModel] = Field(default_factory=list)
    bonds: list[BondModel] = Field(default_factory=list)
    nextAtomId: int = Field(1, ge=1)


class ProjectModel(BaseModel):
    """The whole envelope of a ``*.molforma.json`` file."""

    model_config = ConfigDict(extra="allow")

    format: Literal["molforma-project"] = PROJECT_FORMAT
    version: int = PROJECT_VERSION
    document: DocumentModel = Field(default_factory=DocumentModel)
    calculation: CalculationSettings = Field(default_factory=CalculationSettings)
    advanced: AdvancedSettings = Field(default_factory=AdvancedSettings)
    execution: ExecutionSettings = Field(default_factory=ExecutionSettings)


SETTINGS_MODELS: dict[str, type[BaseModel]] = {
    "calculation": CalculationSettings,
    "advanced": AdvancedSettings,
    "execution": ExecutionSettings,
}
