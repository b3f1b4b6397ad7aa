"""What each record of an SDF file is: title, formula, atom count, SD data (no Qt).

A chooser of records names them as people know them (the title line, the formula, how
many atoms) and shows each record's SD data fields (``> <NAME>`` items after ``M  END``).
This reads only those parts, so a file of thousands of records is summarised without
building any molecule; the record chosen is then read by :func:`molforma.formats.mdl.
read_sdf` as usual.
"""

from __future__ import annotations

import re
from typing import Any

from molforma.document.elements import normalize_symbol
from molforma.formats.common import numbered_lines
from molforma.formats.mdl import _records
from molforma.formula import hill_formula

# "> <NAME>", ">  <NAME>  (12)", "> 12 <NAME>": the field's name between angle brackets.
_FIELD = re.compile(r"^>.*?<([^>]*)>")
_V30_ATOM = re.compile(r"^M  V30\s+\d+\s+(\S+)\s")


def _elements(lines: list[str], start: int, end: int) -> list[str]:
    """The element symbols of the connection table at ``start`` (V2000 or V3000)."""
    if start + 3 >= end:
        return []
    counts = lines[start + 3]
    if "V3000" in counts.upper():
        out: list[str] = []
        inside = False
        for line in lines[start + 4 : end]:
            if line.startswith("M  V30 BEGIN ATOM"):
                inside = True
            elif line.startswith("M  V30 END ATOM"):
                break
            elif inside:
                m = _V30_ATOM.match(line)
                if m:
                    out.append(m.group(1))
        return out
    try:
        n = int(counts[0:3])
    except ValueError:
        return []
    return [lines[k][31:34].strip() for k in range(start + 4, min(start + 4 + n, end))]


def _data(lines: list[str], start: int, end: int) -> dict[str, str]:
    """The record's SD data fields (name -> value, lines joined by newlines)."""
    out: dict[str, str] = {}
    k = start
    while k < end and not lines[k].startswith("M  END"):
        k += 1
    k += 1
    while k < end:
        m = _FIELD.match(lines[k])
        if m is None:
            k += 1
            continue
        name = m.group(1).strip()
        k += 1
        values = []
        while k < end and lines[k].strip():
            values.append(lines[k].rstrip())
            k += 1
        out[name] = "\n".join(values)
    return out


def sdf_records(text: str) -> list[dict[str, Any]]:
    """``[{"title", "formula", "atomCount", "data"}]``, one per record, in file order."""
    lines = numbered_lines(text)
    out = []
    for start, end in _records(lines):
        symbols = [s for s in (normalize_symbol(e) for e in _elements(lines, start, end)) if s]
        out.append(
            {
                "title": lines[start].strip(),
                "formula": hill_formula(symbols),
                "atomCount": len(symbols),
                "data": _data(lines, start, end),
            }
        )
    return out
