"""Fixed-width decimal fields decoded as byte arrays in numpy (no Qt).

PDB coordinates and CONECT serial numbers are fixed columns of digits: thousands of
them are read at once by a few array passes instead of one ``float``/``int`` call each.
Only the plain way of writing a number is taken (blanks, an optional minus, one run of
digits); the caller reads anything else with Python's own parser.
"""

from __future__ import annotations

from typing import Any

import numpy as np

SPACE, MINUS, POINT, ZERO, NINE = 32, 45, 46, 48, 57


def decimal_runs(chars: Any) -> tuple[Any, Any, Any] | None:
    """``(magnitude, negative, blank)`` per row of ``chars`` (an m x w byte array).

    A row holds blanks, then an optional minus right before its digits, then blanks; a
    blank row is ``blank``. None when any row is written otherwise.
    """
    col = np.ascontiguousarray(chars.T)  # a row per column: every test below is 1-D
    digit = (col >= ZERO) & (col <= NINE)
    minus = col == MINUS
    filled = col != SPACE
    if not (digit | minus | ~filled).all() or minus[-1].any():
        return None
    starts = filled[0].astype(np.int8)
    value: Any = np.zeros(col.shape[1], dtype=np.int64)
    for k in range(col.shape[0]):
        begins = filled[k] & ~filled[k - 1] if k else filled[k]
        if k:
            starts += begins
        # a minus only in front of the run, followed by a digit
        if (minus[k] & ~begins).any() or (
            k + 1 < col.shape[0] and (minus[k] & ~digit[k + 1]).any()
        ):
            return None
        # Horner's rule over the columns, skipping the blanks (the digits are one run)
        value = np.where(digit[k], value * 10 + (col[k].astype(np.int64) - ZERO), value)
    if (starts > 1).any():
        return None  # two runs of characters in one field
    return value, minus.any(axis=0), ~filled.any(axis=0)
