"""CONECT records of a PDB file as bond orders, read column-wise in numpy (no Qt).

A CONECT record lists an atom's serial number in columns 7-11 and up to four bonded
partners in columns 12-31, five columns each; a pair listed twice (three times) from
one end is a double (triple) bond, as RDKit writes them. A protein-ligand complex has
thousands of these records, so the usual ones (plain decimal serial numbers, padded
with spaces) are decoded as one byte array; anything else (a tab, a letter, a second
minus sign) goes through the record-by-record reader, which names the line of an error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from molforma.document.arrays import runs
from molforma.formats.byte_fields import decimal_runs
from molforma.formats.common import syntax

FMT = "pdb"
_FIELDS = (6, 11, 16, 21, 26)  # first column (0-based) of each five-column field
_WIDTH = 25  # columns 7-31
_LARGEST_SERIAL = 99_999  # five columns


class Conect:
    """Bonds the CONECT records give between kept atoms, and the atoms they name.

    ``lo[k] < hi[k]`` are atom indices (sorted by pair), ``order[k]`` is 1-3; ``named``
    is a boolean array over the atoms.
    """

    __slots__ = ("hi", "lo", "named", "order")

    def __init__(self, lo: list[int], hi: list[int], order: list[int], named: Any) -> None:
        self.lo, self.hi, self.order, self.named = lo, hi, order, named


def read_conect(
    lines: list[str], rows: list[int], serials: list[str] | None, numbers: Any, n: int
) -> Conect:
    """The CONECT records ``lines[rows]`` between ``n`` atoms.

    ``serials`` are the atoms' serial numbers as written (None when they repeat: then no
    record can be placed, but every record is still checked); ``numbers`` are the same
    as integers when every one is a plain positive decimal (else None).
    """
    if serials is not None and numbers is not None and rows:
        fast = _columns(lines, rows, numbers, n)
        if fast is not None:
            return fast
    return _records(lines, rows, serials, n)


def _pairs(a: Any, b: Any, n: int, named: Any) -> Conect:
    """Orders from the listed (origin ``a``, partner ``b``) index pairs."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    # times a pair is listed from one end: 2 for a double bond, 3 for a triple bond
    keys = np.sort((lo * n + hi) * 2 + (a == lo), kind="stable")
    side_keys, _, side_counts = runs(keys)
    pair_keys, starts, _ = runs(side_keys // 2)
    most = np.maximum.reduceat(side_counts, starts) if len(starts) else side_counts
    return Conect(
        (pair_keys // n).tolist(), (pair_keys % n).tolist(), np.minimum(most, 3).tolist(), named
    )


def _columns(lines: list[str], rows: list[int], numbers: Any, n: int) -> Conect | None:
    """The fast reader: None when some record is unusual (the record reader decides)."""
    text = "".join([lines[i][6:31].ljust(_WIDTH) for i in rows])
    if not text.isascii():
        return None
    m = len(rows)
    found = decimal_runs(np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(m * 5, 5))
    if found is None:
        return None
    magnitude, negative, blank = found
    value = np.where(negative, -magnitude, magnitude).reshape(m, 5)
    blank = blank.reshape(m, 5)
    if blank[:, 0].any():
        return None  # a record without its atom: the record reader names the line
    index_of = np.full(_LARGEST_SERIAL + 1, -1, dtype=np.int64)
    index_of[np.asarray(numbers, dtype=np.int64)] = np.arange(n)
    inside = (value > 0) & (value <= _LARGEST_SERIAL) & ~blank
    index = np.where(inside, index_of[np.where(inside, value, 0)], -1)
    origin = index[:, :1]
    kept = (origin >= 0) & (index[:, 1:] >= 0) & (index[:, 1:] != origin)
    named = np.zeros(n, dtype=bool)
    named[origin[origin >= 0]] = True  # an atom of another model or altloc is not placed
    a = np.broadcast_to(origin, kept.shape)[kept]
    b = index[:, 1:][kept]
    named[b] = True
    return _pairs(a, b, n, named)


def _records(lines: list[str], rows: list[int], serials: list[str] | None, n: int) -> Conect:
    """Record by record, every field checked (the line of an error is named)."""
    index = {s: k for k, s in enumerate(serials)} if serials is not None else {}
    a_list: list[int] = []
    b_list: list[int] = []
    named = np.zeros(n, dtype=bool)
    for i in rows:
        line = lines[i]
        # columns 7-31: up to five serial numbers; those past the line's end are blank
        fields = [line[s : s + 5].strip() for s in _FIELDS]
        if not fields[0]:
            syntax(FMT, i + 1, "a CONECT record needs an atom serial number")
        for f in fields:
            if f and not f.lstrip("-").isdigit():
                syntax(FMT, i + 1, f"bad serial number '{f}' in CONECT")
        a = index.get(fields[0])
        if a is None:
            continue  # an atom of another model or alternate location
        named[a] = True
        for f in fields[1:]:
            b = index.get(f) if f else None
            if b is not None and b != a:
                named[b] = True
                a_list.append(a)
                b_list.append(b)
    return _pairs(np.asarray(a_list, dtype=np.int64), np.asarray(b_list, dtype=np.int64), n, named)
