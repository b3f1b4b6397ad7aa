"""One geometry of a result, and the base every results model shares (no Qt).

Kept below :mod:`molforma.results.results_model` so that :mod:`molforma.results.frames`
(which builds :class:`Structure` models on demand) and the model (which keeps a
:class:`~molforma.results.frames.FrameStore` as it is) import it without a circle.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ResultsBaseModel(BaseModel):
    """The configuration every results model shares: unknown fields refused."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class Structure(ResultsBaseModel):
    """One geometry: an input orientation, an optimisation step, a frame or the final one."""

    index: int = Field(description="0-based position in the structures list.")
    label: str = Field(description="'input', 'step N', 'final', 'frame N', 'reference', ...")
    step: int | None = Field(None, description="Optimisation step number, when one.")
    energy: float | None = Field(None, description="Energy in hartree, when known.")
    comment: str | None = Field(None, description="The XYZ comment line, when one.")
    symbols: list[str] = Field(description="Element symbols, one per atom.")
    coordinates: list[list[float]] = Field(description="Cartesian coordinates in Angstrom.")
