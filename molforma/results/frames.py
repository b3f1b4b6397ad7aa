"""Structures of a result kept compactly and made into models when asked for (no Qt).

A long optimisation or trajectory prints thousands of geometries; as pydantic
:class:`~molforma.results.structure.Structure` models with lists of Python floats each
atom costs about 200 bytes. :class:`FrameStore` keeps each frame's coordinates as one
``array('d')`` (24 bytes an atom), shares the element list between frames of the same
composition, and builds a ``Structure`` only for the frame asked for, so memory grows
with the coordinates only and ``get_results`` pages through the frames a page at a time.

The newest frame stays a live model until the next one comes: readers fill in its
label, step and energy after they read its geometry (NWChem prints a step's energy
after its coordinates), and those changes must stick.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import overload

from molforma.results.structure import Structure


class FrameStore(Sequence[Structure]):
    """A read-mostly sequence of structures; :meth:`append` adds one at the end."""

    __slots__ = (
        "_comments",
        "_coords",
        "_energies",
        "_indices",
        "_kinds",
        "_labels",
        "_steps",
        "_symbol_ids",
        "_symbols",
        "_tail",
    )

    def __init__(self, structures: Iterable[Structure] = ()) -> None:
        self._coords: list[array[float]] = []
        self._kinds: list[int] = []  # index into _symbols per frame
        self._symbols: list[tuple[str, ...]] = []
        self._symbol_ids: dict[tuple[str, ...], int] = {}
        self._indices: list[int] = []
        self._labels: list[str] = []
        self._steps: list[int | None] = []
        self._energies: list[float | None] = []
        self._comments: list[str | None] = []
        self._tail: Structure | None = None
        for s in structures:
            self.append(s)

    def append(self, structure: Structure) -> None:
        """Add a structure at the end (it stays live until the next one is added)."""
        if self._tail is not None:
            self._store(self._tail)
        self._tail = structure

    def extend(self, structures: Iterable[Structure]) -> None:
        """Add structures at the end."""
        for s in structures:
            self.append(s)

    def _store(self, s: Structure) -> None:
        key = tuple(s.symbols)
        kind = self._symbol_ids.get(key)
        if kind is None:
            kind = self._symbol_ids[key] = len(self._symbols)
            self._symbols.append(key)
        self._kinds.append(kind)
        self._coords.append(array("d", chain.from_iterable(s.coordinates)))
        self._indices.append(s.index)
        self._labels.append(s.label)
        self._steps.append(s.step)
        self._energies.append(s.energy)
        self._comments.append(s.comment)

    def __setitem__(self, i: int, structure: Structure) -> None:
        """Replace frame ``i`` (a reader that moves every frame, e.g. back to the input
        orientation, stores each moved model back)."""
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("structure index out of range")
        if self._tail is not None and i == n - 1:
            self._tail = structure
            return
        key = tuple(structure.symbols)
        kind = self._symbol_ids.get(key)
        if kind is None:
            kind = self._symbol_ids[key] = len(self._symbols)
            self._symbols.append(key)
        self._kinds[i] = kind
        self._coords[i] = array("d", chain.from_iterable(structure.coordinates))
        self._indices[i] = structure.index
        self._labels[i] = structure.label
        self._steps[i] = structure.step
        self._energies[i] = structure.energy
        self._comments[i] = structure.comment

    def __len__(self) -> int:
        return len(self._coords) + (self._tail is not None)

    def _make(self, i: int) -> Structure:
        flat = self._coords[i]
        coords = [[flat[k], flat[k + 1], flat[k + 2]] for k in range(0, len(flat) - 2, 3)]
        # model_construct: the values were validated when the frame was read
        return Structure.model_construct(
            index=self._indices[i],
            label=self._labels[i],
            step=self._steps[i],
            energy=self._energies[i],
            comment=self._comments[i],
            symbols=list(self._symbols[self._kinds[i]]),
            coordinates=coords,
        )

    @overload
    def __getitem__(self, i: int) -> Structure: ...

    @overload
    def __getitem__(self, i: slice) -> list[Structure]: ...

    def __getitem__(self, i: int | slice) -> Structure | list[Structure]:
        n = len(self)
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(n))]
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("structure index out of range")
        if self._tail is not None and i == n - 1:
            return self._tail
        return self._make(i)

    def __iter__(self) -> Iterator[Structure]:
        for i in range(len(self)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"FrameStore({len(self)} structures)"
