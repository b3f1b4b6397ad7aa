"""What the atom and the bond tables share: read-only columns and ids (no Qt).

:mod:`molforma.document.molecule` (atoms) and :mod:`molforma.document.bond_table`
(bonds) both freeze their arrays, read ids as JSON spells them and compare columns
bit for bit; the pieces live here so that neither table module imports the other's.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

# Rows built at once while iterating: a few thousand dicts live at a time, never a million.
CHUNK = 4096
# Ids as JSON spells them, one a line ("a17\n"): a whole column checked by one match.
IDS = re.compile(r"(?:a[1-9][0-9]*\n)*")


def frozen(a: np.ndarray) -> np.ndarray:
    """``a``, made read-only (a table's columns are shared between snapshots)."""
    a.flags.writeable = False
    return a


def int_id(aid: Any) -> int:
    """The number of an atom id (``"a17"`` is 17).

    Raises:
        ValueError: not an atom id.
    """
    if (
        not isinstance(aid, str)
        or len(aid) < 2
        or aid[0] != "a"
        or not aid[1:].isdigit()
        or not aid.isascii()  # "a١" is no id, though Python reads ١ as a digit
        or aid[1] == "0"
    ):
        raise ValueError(f"not an atom id: {aid!r}")
    return int(aid[1:])


# Atom ids one per line, each "a" and a number without a leading zero, of at most 18 digits
# (an int64 holds them all).
_ID_LINES = re.compile(r"(?:a[1-9][0-9]{0,17}\n)*a[1-9][0-9]{0,17}")
_BIGGEST = 10**18


def int_ids(ids: Iterable[Any]) -> np.ndarray:
    """Numbers of atom ids as an int64 array (``"a17"`` is 17), -1 for anything that is not
    an atom id (or one too large for any atom). A list of well-formed ids is checked and
    parsed in C (one regular expression over the joined text): selecting all of a million
    atoms asks for a million rows at once."""
    listed = list(ids)
    if listed and all(type(i) is str for i in listed):
        text = "\n".join(listed)
        if _ID_LINES.fullmatch(text):
            return np.array(text.replace("a", "").split("\n"), dtype=np.int64)
    out = np.full(len(listed), -1, dtype=np.int64)
    for k, aid in enumerate(listed):
        try:
            n = int_id(aid)
        except ValueError:
            continue
        if n < _BIGGEST:
            out[k] = n
    return out


def same_column(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    """Whether two columns hold the same values, saved alike (so one can stand for the
    other in an undo step)."""
    if a is b:
        return True
    if a is None or b is None or a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype == np.float64:
        # equal and saved alike: the same bits (-0.0 is not 0.0, NaN is NaN)
        return bool(np.array_equal(a.view(np.int64), b.view(np.int64)))
    return bool(np.array_equal(a, b))


class RecordTable(Sequence[dict[str, Any]]):
    """What an atom or bond table shares as a sequence of records: iteration in chunks,
    equality with another table of its kind or with a list of records, and copies that are
    plain records (a copy is for changing, as the dict world had them)."""

    def __len__(self) -> int:
        raise NotImplementedError

    def to_records(self, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        """Records ``start``..``stop`` (plain, new dicts)."""
        raise NotImplementedError

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for lo in range(0, len(self), CHUNK):
            yield from self.to_records(lo, lo + CHUNK)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, type(self)):
            return self is other or (
                len(self) == len(other) and self.to_records() == other.to_records()
            )
        if isinstance(other, list):
            return len(self) == len(other) and self.to_records() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> list[dict[str, Any]]:
        return self.to_records()

    def __deepcopy__(self, memo: dict[int, Any]) -> list[dict[str, Any]]:
        return copy.deepcopy(self.to_records(), memo)
