"""Formal charges a PDB file leaves blank, from the valence its bonds give (no Qt).

Deposited files and most programs write no charge in columns 79-80 of ``ATOM`` records,
even for a protonated structure: a lysine's NZ with three hydrogens, an N-terminus NH3,
a doubly protonated histidine. Read as neutral, such a nitrogen has four bonds, which no
neutral nitrogen can have; the window would ring it red and the structure's charge
would be wrong. What the bonds say is enough to give those atoms their charge:

* N or P with bond orders adding up to 4, O or S adding up to 3: +1 (ammonium,
  iminium, guanidinium, protonated imidazole, oxonium).
* O or S with one single bond and no hydrogen, in a residue that has hydrogens (so
  a missing hydrogen means a deprotonated group, not a file without hydrogens), whose
  neighbour holds a double bond: −1 (carboxylate, phenolate, thiolate of such a group).
  The double bond on the neighbour says the orders are known (CONECT orders or
  perception); where every bond stayed single no negative charge is guessed.

Only atoms whose charge the file left blank (0) are changed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_PLUS_AT = {"N": 4, "P": 4, "O": 3, "S": 3}  # bond-order sum that needs a +1 charge
_MINUS_ELEMENTS = ("O", "S")


def charges_from_valence(atoms: list[dict[str, Any]], bonds: list[dict[str, Any]]) -> int:
    """Set ``formalCharge`` of the atoms the rules above charge (in place); return how
    many atoms were given a charge."""
    n = len(atoms)
    if not n or not bonds:
        return 0
    index = {a["id"]: k for k, a in enumerate(atoms)}
    a = np.fromiter((index[b["a"]] for b in bonds), dtype=np.int64, count=len(bonds))
    b = np.fromiter((index[b["b"]] for b in bonds), dtype=np.int64, count=len(bonds))
    order = np.fromiter((int(b["order"]) for b in bonds), dtype=np.int64, count=len(bonds))
    symbols = np.array([str(x["element"]) for x in atoms], dtype=object)
    blank = np.fromiter((not x.get("formalCharge") for x in atoms), dtype=bool, count=n)
    valence = np.bincount(a, weights=order, minlength=n) + np.bincount(
        b, weights=order, minlength=n
    )
    degree = np.bincount(a, minlength=n) + np.bincount(b, minlength=n)
    is_h = symbols == "H"
    h_count = np.bincount(a[is_h[b]], minlength=n) + np.bincount(b[is_h[a]], minlength=n)
    double = np.zeros(n, dtype=bool)
    double[a[order >= 2]] = True
    double[b[order >= 2]] = True
    plus = np.zeros(n, dtype=bool)
    for element, at in _PLUS_AT.items():
        plus |= (symbols == element) & (valence == at)
    lone = np.isin(symbols, _MINUS_ELEMENTS) & (degree == 1) & (valence == 1) & (h_count == 0)
    minus = np.zeros(n, dtype=bool)
    if lone.any():
        # the one neighbour of each lone O/S, and whether its residue has hydrogens
        other = np.full(n, -1, dtype=np.int64)
        other[a[lone[a]]] = b[lone[a]]
        other[b[lone[b]]] = a[lone[b]]
        with_h = {_residue_key(atoms[k]) for k in np.flatnonzero(is_h).tolist()}
        for k in np.flatnonzero(lone).tolist():
            j = int(other[k])
            minus[k] = j >= 0 and bool(double[j]) and _residue_key(atoms[k]) in with_h
    changed = 0
    for k in np.flatnonzero(blank & (plus | minus)).tolist():
        atoms[k]["formalCharge"] = 1 if plus[k] else -1
        changed += 1
    return changed


def _residue_key(atom: dict[str, Any]) -> tuple[Any, ...]:
    """The residue an atom belongs to (chain, number, insertion code, name)."""
    return (
        atom.get("chain"),
        atom.get("residueNumber"),
        atom.get("insertionCode"),
        atom.get("residueName"),
    )
