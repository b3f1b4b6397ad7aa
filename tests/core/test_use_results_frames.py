"""Using one structure of results with many frames builds that frame only: the frame
store is indexed, never turned into a list of every frame as a model."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from types import SimpleNamespace
from typing import Any, overload

import pytest

from molforma.app import ops
from molforma.app.actor import Actor
from molforma.errors import ResultsError
from molforma.results.results_model import Structure
from tests.core.test_use_structure import water_doc

WATER_XYZ = [[0.0, 0.0, 0.1], [0.0, 0.76, -0.47], [0.0, -0.76, -0.47]]


class CountingFrames(Sequence[Structure]):
    """A frame store of ``n`` frames that counts the frames it builds."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.built: list[int] = []

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, i: int) -> Structure: ...
    @overload
    def __getitem__(self, i: slice) -> list[Structure]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.n))]
        if not 0 <= i < self.n:
            raise IndexError(i)
        self.built.append(i)
        return Structure(
            index=i, label=f"frame {i}", symbols=["O", "H", "H"], coordinates=WATER_XYZ
        )

    def __iter__(self) -> Iterator[Structure]:
        for k in range(self.n):
            yield self[k]


def test_the_last_frame_of_5000_is_built_alone() -> None:
    doc = water_doc()
    frames = CountingFrames(5000)
    results = SimpleNamespace(structures=frames, source="run.xyz")
    out = ops.use_results_structure(doc, results, preview=True, actor=Actor.PERSON)
    assert out["info"]["structureIndex"] == 4999
    assert frames.built == [4999]


def test_a_frame_past_the_end_is_refused_without_building_any() -> None:
    doc = water_doc()
    frames = CountingFrames(5000)
    results = SimpleNamespace(structures=frames, source="run.xyz")
    with pytest.raises(ResultsError):
        ops.use_results_structure(doc, results, 5000, preview=True, actor=Actor.PERSON)
    assert frames.built == []
    assert doc.candidate is None
