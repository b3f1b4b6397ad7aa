"""Bonds of a document as numpy columns (no Qt).

A stored project keeps its ``document["bonds"]`` as a :class:`BondTable`: the id
numbers of both ends and the order, as read-only columns, beside the atoms'
:class:`~molforma.document.molecule.AtomTable` (which re-exports it). A bond names its
ends by atom id, not row, so deleting atoms never renumbers a bond.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol, overload

import numpy as np

from molforma.document.columns import IDS, RecordTable, frozen, int_id, same_column

BOND_KEYS: Final = ("a", "b", "order")
_BOND_STANDARD = frozenset(BOND_KEYS)
_BOND_KEYS = operator.itemgetter(*BOND_KEYS)


class AtomRows(Protocol):
    """What a bond table asks of the atoms its ends name (an
    :class:`~molforma.document.molecule.AtomTable`): the rows of id numbers."""

    def index_of(self, id_numbers: np.ndarray | Sequence[int]) -> np.ndarray:
        """Rows of the given id numbers (-1 where no atom has that id)."""
        ...


class BondTable(RecordTable):
    """Bonds as columns: the id numbers of both ends and the order (1, 2, 3).

    Ends are atom ids, not rows, so deleting atoms never renumbers a bond; rows come
    from :meth:`rows_in`. ``extra`` holds unknown fields by bond position.
    """

    __slots__ = ("_later", "_rows", "a", "b", "extra", "order")

    a: np.ndarray
    b: np.ndarray
    order: np.ndarray
    extra: Mapping[int, Mapping[str, Any]]

    def __init__(
        self,
        a: np.ndarray,
        b: np.ndarray,
        order: np.ndarray | None = None,
        extra: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        self.a = frozen(np.asarray(a, dtype=np.int64))
        self.b = frozen(np.asarray(b, dtype=np.int64))
        self.order = frozen(
            np.ones(len(self.a), np.int8) if order is None else np.asarray(order, dtype=np.int8)
        )
        if not len(self.a) == len(self.b) == len(self.order):
            raise ValueError("columns of different lengths")
        self.extra = extra if extra is not None else {}
        self._rows: tuple[AtomRows, np.ndarray, np.ndarray] | None = None
        self._later: tuple[AtomRows, np.ndarray, np.ndarray] | None = None

    def by_later_row(self, atoms: AtomRows) -> tuple[np.ndarray, np.ndarray]:
        """Bond positions sorted by the row of their later atom in ``atoms`` (stable), and
        those rows: the bonds of atoms ``i``..``j`` are one ``searchsorted`` away (a page of
        a document costs a page). Kept for the last table asked."""
        cached = self._later
        if cached is not None and cached[0] is atoms:
            return cached[1], cached[2]
        ia, ib = self.rows_in(atoms)
        later = np.maximum(ia, ib)
        order = np.argsort(later, kind="stable")
        self._later = (atoms, order, later[order])
        return order, later[order]

    @classmethod
    def empty(cls) -> BondTable:
        """No bonds."""
        return cls(np.zeros(0, np.int64), np.zeros(0, np.int64))

    @classmethod
    def from_records(cls, records: Sequence[Mapping[str, Any]]) -> BondTable:
        """Bonds from ``{"a", "b", "order"}`` dicts (already checked).

        Raises:
            ValueError: a record the columns cannot hold.
        """
        if not records:
            return cls.empty()
        n = len(records)
        try:
            if set(map(len, records)) == {3}:  # the usual bonds: a, b, order and no more
                ca, cb, co = zip(*map(_BOND_KEYS, records), strict=True)
                joined = "\n".join(ca) + "\n" + "\n".join(cb) + "\n"
                if (
                    set(map(type, co)) == {int}
                    and set(co) <= {1, 2, 3}
                    and IDS.fullmatch(joined)
                    and joined.count("\n") == 2 * n
                ):
                    return cls(
                        np.array([i[1:] for i in ca]).astype(np.int64),
                        np.array([i[1:] for i in cb]).astype(np.int64),
                        np.array(co, dtype=np.int8),
                    )
        except (KeyError, TypeError):
            pass
        try:
            a = np.fromiter((int_id(r["a"]) for r in records), np.int64, count=n)
            b = np.fromiter((int_id(r["b"]) for r in records), np.int64, count=n)
            orders = [r.get("order", 1) for r in records]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"a bond record the columns cannot hold: {exc}") from exc
        if set(map(type, orders)) - {int} or not set(orders) <= {1, 2, 3}:
            raise ValueError("a bond order other than 1, 2 or 3")
        extra = {
            i: {k: v for k, v in r.items() if k not in _BOND_STANDARD}
            for i, r in enumerate(records)
            if len(r) != 3 or r.keys() != _BOND_STANDARD
        }
        return cls(a, b, np.array(orders, dtype=np.int8), {i: m for i, m in extra.items() if m})

    def __len__(self) -> int:
        return len(self.a)

    def to_records(self, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        """Bond dicts ``start``..``stop`` (new dicts)."""
        sl = slice(start, stop)
        out = [
            {"a": f"a{i}", "b": f"a{j}", "order": o}
            for i, j, o in zip(
                self.a[sl].tolist(), self.b[sl].tolist(), self.order[sl].tolist(), strict=True
            )
        ]
        if self.extra:
            first = range(len(self))[sl].start if out else 0
            for k, rec in enumerate(out):
                more = self.extra.get(first + k)
                if more:
                    rec.update(more)
        return out

    def records_at(self, rows: Sequence[int] | np.ndarray) -> list[dict[str, Any]]:
        """Bond dicts of the bonds at ``rows`` (in that order)."""
        rows = np.asarray(rows, dtype=np.int64)
        out = [
            {"a": f"a{i}", "b": f"a{j}", "order": o}
            for i, j, o in zip(
                self.a[rows].tolist(), self.b[rows].tolist(), self.order[rows].tolist(), strict=True
            )
        ]
        if self.extra:
            for r, rec in zip(rows.tolist(), out, strict=True):
                more = self.extra.get(r)
                if more:
                    rec.update(more)
        return out

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            return self.to_records()[i] if step != 1 else self.to_records(start, stop)
        j = int(i) + (len(self) if int(i) < 0 else 0)
        if not 0 <= j < len(self):
            raise IndexError("bond index out of range")
        return self.to_records(j, j + 1)[0]

    def __repr__(self) -> str:
        return f"BondTable({len(self)} bonds)"

    def rows_in(self, atoms: AtomRows) -> tuple[np.ndarray, np.ndarray]:
        """Rows in ``atoms`` of both ends of every bond (kept for the last table asked)."""
        cached = self._rows
        if cached is not None and cached[0] is atoms:
            return cached[1], cached[2]
        ia, ib = atoms.index_of(self.a), atoms.index_of(self.b)
        self._rows = (atoms, ia, ib)
        return ia, ib

    def arrays(self) -> list[np.ndarray]:
        """Every column (what an undo step may keep)."""
        return [self.a, self.b, self.order]

    def take(self, rows: np.ndarray) -> BondTable:
        """The bonds at ``rows``."""
        rows = np.asarray(rows, dtype=np.int64)
        extra = {}
        if self.extra:
            where = {int(r): k for k, r in enumerate(rows.tolist())}
            extra = {where[i]: m for i, m in self.extra.items() if i in where}
        return BondTable(self.a[rows], self.b[rows], self.order[rows], extra)

    def concat(self, other: BondTable) -> BondTable:
        """These bonds, then ``other``'s."""
        if not len(other):
            return self
        extra = dict(self.extra)
        extra.update({len(self) + k: m for k, m in other.extra.items()})
        return BondTable(
            np.concatenate([self.a, other.a]),
            np.concatenate([self.b, other.b]),
            np.concatenate([self.order, other.order]),
            extra,
        )

    def shared_with(self, old: BondTable) -> BondTable:
        """This table, or ``old`` when they hold the same bonds in the same order."""
        if (
            len(self) == len(old)
            and self.extra == old.extra
            and all(same_column(s, o) for s, o in zip(self.arrays(), old.arrays(), strict=True))
        ):
            return old
        return self


def component_labels(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The connected component of each of ``n`` atoms bonded by pairs ``(a, b)``: the
    smallest atom index in it (hooking and pointer jumping, all in numpy)."""
    lab = np.arange(n, dtype=np.int64)
    if not len(a):
        return lab
    while True:
        la, lb = lab[a], lab[b]
        diff = la != lb
        if not diff.any():
            return lab
        lo, hi = np.minimum(la[diff], lb[diff]), np.maximum(la[diff], lb[diff])
        np.minimum.at(lab, hi, lo)
        while True:
            nxt = lab[lab]
            if np.array_equal(nxt, lab):
                break
            lab = nxt
