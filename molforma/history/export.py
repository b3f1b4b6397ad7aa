"""Export history rows as CSV (no Qt).

One header row with the :class:`~molforma.history.folder_scan.HistoryRow` field names,
then one line per row, UTF-8, written atomically (a temporary file renamed over
the target), so a failed export never leaves a torn file. Text cells that a
spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, tab
or carriage return) get a leading apostrophe: titles come from files that anyone
may have written. Numbers (charge, multiplicity, the energy with full precision) are
plain numbers, a negative one included.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError as PydanticError

from molforma.errors import ValidationError
from molforma.fileio import atomic_write_text
from molforma.history.folder_scan import HistoryRow

COLUMNS: tuple[str, ...] = (
    "date",
    "title",
    "formula",
    "charge",
    "multiplicity",
    "task",
    "theory",
    "functional",
    "basis",
    "status",
    "finalEnergy",
    "folder",
    "source",
    "where",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    # Numbers stay numbers: a charge of -1 is not a formula (and "'-1" is text to a
    # spreadsheet); only text cells are guarded.
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def rows_to_csv(rows: Iterable[HistoryRow | Mapping[str, Any]]) -> str:
    """The CSV text of ``rows`` (dicts are validated as :class:`HistoryRow`).

    Raises:
        ValidationError: a dict row is not a history row.
    """
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(COLUMNS)
    for i, row in enumerate(rows):
        try:
            r = row if isinstance(row, HistoryRow) else HistoryRow.model_validate(row)
        except PydanticError as exc:
            raise ValidationError(
                "invalid_argument", detail=f"row {i}: {exc.errors()[0]['msg']}", row=i
            ) from exc
        data = r.model_dump()
        data["where"] = r.where_text  # one cell: local, slurm or remote:<profile>@<host>
        writer.writerow([_cell(data[c]) for c in COLUMNS])
    return buf.getvalue()


def export_csv(
    rows: Iterable[HistoryRow | Mapping[str, Any]], path: str, *, guard: Any | None = None
) -> None:
    """Write ``rows`` to ``path`` as UTF-8 CSV with a header row, atomically.

    ``guard`` (MCP's path policy, ``write_atomic``) writes it through the judged folder.

    Raises:
        FileAccessError: the file cannot be written (the old file, if any, is kept), or
            ``guard``'s refusal.
        ValidationError: a dict row is not a history row (nothing written).
    """
    text = rows_to_csv(rows)  # fully built before the file is touched
    write = getattr(guard, "write_atomic", None)
    if write is not None:
        write(path, text.encode("utf-8"))
        return
    atomic_write_text(os.path.expanduser(path), text)
