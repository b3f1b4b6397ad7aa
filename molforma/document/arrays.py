"""Small numpy helpers for sorted integer keys.

They stand in for ``np.unique``, which imports ``numpy.ma`` on first use (20-25 ms):
opening a molecule should not pay for masked arrays it never uses.
"""

from __future__ import annotations

import numpy as np


def has_repeats(keys: np.ndarray) -> bool:
    """True when some value occurs more than once in ``keys`` (any order)."""
    s = np.sort(keys, kind="stable")
    return bool((s[1:] == s[:-1]).any())


def runs(sorted_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct values of a sorted array, the index where each begins and its count
    (``np.unique(sorted_keys, return_index=True, return_counts=True)``)."""
    n = len(sorted_keys)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return sorted_keys[:0], empty, empty
    starts = np.concatenate(([0], np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1))
    counts = np.diff(np.append(starts, n))
    return sorted_keys[starts], starts, counts


def first_of_each(keys: np.ndarray) -> np.ndarray:
    """Index of the first occurrence of each distinct value, in the values' sorted order
    (``np.unique(keys, return_index=True)[1]``)."""
    order: np.ndarray = np.argsort(keys, kind="stable")
    _, starts, _ = runs(keys[order])
    first: np.ndarray = order[starts]
    return first
