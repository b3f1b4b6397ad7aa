"""Element symbols for the results readers (no Qt, no RDKit).

The readers only need to turn NWChem atom tags and MOLDEN/XYZ labels into element
symbols; a plain table keeps loading results free of the RDKit import cost.
"""

from __future__ import annotations

from molforma.document.elements import BY_Z

# Indexed by atomic number ("X" at 0 for a dummy): the document's one table of symbols.
SYMBOLS: tuple[str, ...] = ("X", *BY_Z)
_BY_LOWER = {s.lower(): s for s in SYMBOLS[1:]}
_CACHE: dict[str, str] = {}


def symbol_from_label(label: str, charge: float | None = None) -> str:
    """Element symbol of an atom label such as ``'H'``, ``'h2'``, ``'C_1'`` or ``'Bq'``.

    The leading letters are tried as a two- then a one-letter symbol; when they name no
    element the nuclear ``charge`` decides; ghost or unknown atoms are ``'X'``.
    """
    key = label if charge is None else f"{label}\0{charge}"
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    letters = ""
    for ch in label.strip():
        if not ch.isalpha():
            break
        letters += ch
    low = letters.lower()
    sym = None
    if low.startswith("bq"):
        sym = "X"
    elif low[:2] in _BY_LOWER and len(low) >= 2:
        sym = _BY_LOWER[low[:2]]
    elif low[:1] in _BY_LOWER:
        sym = _BY_LOWER[low[:1]]
    if sym is None and charge is not None and 1 <= round(charge) < len(SYMBOLS):
        sym = SYMBOLS[round(charge)]
    if sym is None and label.strip().isdigit() and 1 <= int(label) < len(SYMBOLS):
        sym = SYMBOLS[int(label)]
    sym = sym or "X"
    if len(_CACHE) < 4096:
        _CACHE[key] = sym
    return sym
