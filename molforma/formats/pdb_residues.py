"""PDB residue fields of each atom, read and written (no Qt).

A PDB atom belongs to a residue (name, number, insertion code) of a chain, has an
alternate-location label, a B-factor and an occupancy. The reader keeps them as the
atom's optional project fields (unknown atom fields are kept through every edit and save:
docs/reference/project-file.md, What a round trip keeps), so they survive a save and are written back by the PDB writer:

``residueName`` (str, columns 18-20), ``residueNumber`` (int, 23-26), ``chain`` (str,
22), ``insertionCode`` (str, 27; only when not blank), ``altloc`` (str, 17; only when
not blank), ``bFactor`` (float, 61-66), ``occupancy`` (float, 55-60).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from molforma.document.residue_names import POLYMER
from molforma.i18n import register, render

RESIDUE_KEYS: Final = (
    "residueName",
    "residueNumber",
    "chain",
    "insertionCode",
    "altloc",
    "bFactor",
    "occupancy",
)

register(
    {
        "pdb_altlocs_dropped": {
            "en": "{count} alternate-location record(s) were not kept (one location per atom "
            "is read: label {kept}).",
            "ja": "別位置（altloc）のレコード {count} 件は読み込んでいません（原子ごとに 1 つの"
            "位置を読みます: ラベル {kept}）。",
        },
    }
)

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def decode_number(field: str) -> int:
    """A residue number of columns 23-26: decimal, or hybrid-36 past 9,999 (``A000`` is
    10,000); 0 for a blank or unreadable field."""
    text = field.strip()
    if not text:
        return 0
    try:
        return int(text)
    except ValueError:
        pass
    if len(field) == 4 and field[0].isupper() and field.isalnum() and field.upper() == field:
        try:
            return int(field, 36) - 10 * 36**3 + 10000
        except ValueError:
            return 0
    return 0


def encode_number(n: int) -> str:
    """``n`` in four columns: decimal up to 9,999, then hybrid-36 (``A000`` is 10,000)."""
    if -999 <= n <= 9999:
        return f"{n:>4}"
    v = n - 10000 + 10 * 36**3
    if v >= 36**4 or v < 0:
        return f"{n % 10000:>4}"
    out = ""
    while v:
        v, r = divmod(v, 36)
        out = _DIGITS[r] + out
    return out


def add_residue_fields(
    atoms: list[dict[str, Any]], lines: list[str], occupancy: list[float]
) -> None:
    """Write the residue fields of each atom's record line into its dict (in place)."""
    names = {f: f.strip() for f in {line[17:20] for line in lines}}
    numbers = {f: decode_number(f) for f in {line[22:26] for line in lines}}
    b_text = [line[60:66] for line in lines]
    b_values = {}
    for f in set(b_text):
        try:
            b_values[f] = float(f) if f.strip() else 0.0
        except ValueError:
            b_values[f] = 0.0
    for atom, line, occ, b in zip(atoms, lines, occupancy, b_text, strict=True):
        atom["residueName"] = names[line[17:20]]
        atom["residueNumber"] = numbers[line[22:26]]
        atom["chain"] = line[21:22].strip()
        code = line[26:27].strip()
        if code:
            atom["insertionCode"] = code
        alt = line[16:17].strip()
        if alt:
            atom["altloc"] = alt
        atom["bFactor"] = b_values[b]
        atom["occupancy"] = occ


def altloc_warning(dropped: int, kept: list[str], lang: str | None = None) -> dict[str, Any]:
    """The open result's warning that ``dropped`` alternate-location records were left."""
    details = {"count": dropped, "kept": kept}
    return {
        "code": "pdb_altlocs_dropped",
        "message": render(
            "pdb_altlocs_dropped", {"count": dropped, "kept": ", ".join(kept) or "-"}, lang
        ),
        "details": details,
    }


def residue_columns(atom: Mapping[str, Any]) -> str | None:
    """Columns 17-27 of an atom's record (altloc .. insertion code) from its residue
    fields, or None when the atom has none (the writer's defaults apply)."""
    if "residueName" not in atom:
        return None
    alt = str(atom.get("altloc") or " ")[:1]
    name = str(atom.get("residueName") or "")[:3]
    chain = str(atom.get("chain") or " ")[:1]
    code = str(atom.get("insertionCode") or " ")[:1]
    try:
        number = int(atom.get("residueNumber") or 0)
    except (TypeError, ValueError):
        number = 0
    return f"{alt}{name:>3} {chain}{encode_number(number)}{code}"


def record_name(atom: Mapping[str, Any]) -> str:
    """``ATOM`` for a polymer residue, else ``HETATM``."""
    return "ATOM  " if atom.get("residueName") in POLYMER else "HETATM"


def number_field(atom: Mapping[str, Any], key: str, default: float) -> float:
    """A float residue field of ``atom`` (occupancy, B-factor), ``default`` when absent."""
    value = atom.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value)
