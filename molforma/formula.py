"""Hill formulas (no Qt, no RDKit): one definition for documents, results and history."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping


def hill_formula(symbols: Iterable[str]) -> str:
    """C first, H second, then alphabetical; without carbon, all alphabetical."""
    return hill_formula_counts(Counter(map(str, symbols)))  # counted in C


def hill_formula_counts(counts: Mapping[str, int]) -> str:
    """:func:`hill_formula` of counts by symbol (a column table counts its elements)."""
    counts = {e: c for e, c in counts.items() if c}
    if not counts:
        return ""
    order: list[str] = []
    if "C" in counts:
        order.append("C")
        if "H" in counts:
            order.append("H")
    order += sorted(e for e in counts if e not in order)
    return "".join(f"{e}{counts[e] if counts[e] > 1 else ''}" for e in order)
