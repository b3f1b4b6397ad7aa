"""Paged views of a :class:`~molforma.results.results_model.Results` (no Qt).

Every section is a dict with ``section``, ``source``, ``kind``, ``items``,
``offset``, ``limit``, ``nextOffset`` and ``total``. Item sections come in pages
of about 40 KiB of JSON (an item over 40 KiB comes alone on its page; an item over
2 MiB fails); ``limit`` caps the item count. The ``log`` section pages characters
of the output file (at most 65,536 per call) and returns them as ``text``.
``excitations`` (TDDFT/CIS roots), ``orbitals`` (energies and occupations per spin)
and ``charges`` (Mulliken per atom) are empty lists when the output holds none; so is
``scan`` (a relaxed scan's points, :mod:`molforma.results.scan_profile`), whose page also gives the
scanned coordinate.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import BaseModel

from molforma.errors import ResultsError
from molforma.results.results_model import Results

SECTIONS = (
    "summary",
    "energies",
    "structures",
    "modes",
    "mode_displacements",
    "files",
    "log",
    "excitations",
    "orbitals",
    "charges",
    "scan",
)
PAGE_BYTES = 40 * 1024
MAX_ITEM_BYTES = 2 * 1024 * 1024
MAX_LOG_CHARS = 65_536


def _json_size(item: Any) -> int:
    return len(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _check_paging(offset: int, limit: int | None) -> None:
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise ResultsError("results_bad_paging", detail=f"offset must be >= 0 (got {offset!r})")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
        raise ResultsError("results_bad_paging", detail=f"limit must be >= 1 (got {limit!r})")


def page_items(
    section: str,
    items: Sequence[Any],
    offset: int,
    limit: int | None,
    dump: Callable[[Any], Any] | None = None,
) -> dict[str, Any]:
    """Cut ``items`` into one page starting at ``offset``.

    ``dump`` turns an item into its JSON-ready value; it runs only for the items
    looked at, so a page of a long trajectory does not serialise the whole of it.

    Raises:
        ResultsError: ``results_item_too_large`` for an item over 2 MiB.
    """
    out: list[Any] = []
    used = 0
    i = offset
    while i < len(items) and (limit is None or len(out) < limit):
        value = dump(items[i]) if dump is not None else items[i]
        size = _json_size(value) + 1
        if size > MAX_ITEM_BYTES:
            raise ResultsError(
                "results_item_too_large", section=section, index=i, size=size, limit=MAX_ITEM_BYTES
            )
        if out and used + size > PAGE_BYTES:
            break
        out.append(value)
        used += size
        i += 1
    return {
        "items": out,
        "offset": offset,
        "limit": limit,
        "nextOffset": i if i < len(items) else None,
        "total": len(items),
    }


def _head(results: Results, section: str) -> dict[str, Any]:
    return {"section": section, "source": results.source, "kind": results.kind}


def _mode_items(results: Results, mode: int | None) -> tuple[dict[str, Any], list[Any]]:
    if mode is None:
        raise ResultsError("results_mode_required")
    if isinstance(mode, bool) or not isinstance(mode, int) or not 0 <= mode < len(results.modes):
        raise ResultsError("results_bad_mode", mode=mode, count=len(results.modes))
    vecs = results.displacements(mode)
    ref = results.reference_structure()
    if vecs is None or ref is None or len(vecs) != len(ref.symbols):
        raise ResultsError("results_no_displacements", mode=mode)
    items = [
        {
            "atom": i,
            "element": ref.symbols[i],
            "position": ref.coordinates[i],
            "displacement": vecs[i],
        }
        for i in range(len(vecs))
    ]
    extra = {"mode": results.modes[mode].model_dump(), "referenceStructure": ref.index}
    return extra, items


def _open_log(path: str, guard: Any | None) -> BinaryIO:
    """The log file opened once: through ``guard`` when it can open (the file read is
    the file judged), never blocking, regular files only."""
    from molforma.errors import FileAccessError
    from molforma.fileio import open_regular

    opener = getattr(guard, "open_for_read", None)
    if opener is not None:
        return opener(Path(path))  # type: ignore[no-any-return]
    target = guard(Path(path)) if guard is not None else path
    try:
        return open_regular(target)
    except FileAccessError as exc:
        if exc.code != "file_error":
            raise
        raise ResultsError(
            "results_unreadable", path=path, reason=str(exc.data.get("reason") or exc)
        ) from exc


def read_log(
    path: str, offset: int, limit: int | None, ascii_only: bool, guard: Any | None = None
) -> tuple[str, int]:
    """Characters ``offset``..``offset+limit`` of ``path`` and its length in characters.

    ``guard`` (the one the results were loaded with) judges the file again.

    Raises:
        ResultsError: ``results_unreadable`` when the file cannot be read.
        MolFormaError: ``guard``'s refusal; ``not_regular_file``.
    """
    limit = MAX_LOG_CHARS if limit is None else min(limit, MAX_LOG_CHARS)
    try:
        with _open_log(path, guard) as fh:
            if ascii_only:
                # One byte per character: seek straight to the offset.
                total = os.fstat(fh.fileno()).st_size
                fh.seek(offset)
                return fh.read(limit).decode("utf-8", errors="replace"), total
            # Text mode as before: universal newlines, so offsets count "\n" once.
            with io.TextIOWrapper(fh, encoding="utf-8", errors="replace") as tf:
                text = tf.read()
        return text[offset : offset + limit], len(text)
    except OSError as exc:
        raise ResultsError(
            "results_unreadable", path=path, reason=exc.strerror or str(exc)
        ) from exc


def get_section(
    results: Results,
    section: str,
    *,
    offset: int = 0,
    limit: int | None = None,
    mode: int | None = None,
) -> dict[str, Any]:
    """One page of ``section`` of ``results`` as a JSON-ready dict.

    Raises:
        ResultsError: ``results_unknown_section``, ``results_bad_paging``,
            ``results_mode_required``, ``results_bad_mode``, ``results_no_displacements``,
            ``results_item_too_large``, ``results_unreadable`` (log).
    """
    if section not in SECTIONS:
        raise ResultsError("results_unknown_section", section=section, sections=", ".join(SECTIONS))
    _check_paging(offset, limit)
    head = _head(results, section)
    if section == "log":
        if results.logPath is None:
            text, total = "", 0
        else:
            text, total = read_log(
                results.logPath, offset, limit, results._log_ascii, results._file_guard
            )
        end = offset + len(text)
        return {
            **head,
            "logPath": results.logPath,
            "text": text,
            "offset": offset,
            "limit": min(limit or MAX_LOG_CHARS, MAX_LOG_CHARS),
            "nextOffset": end if end < total else None,
            "total": total,
        }
    extra: dict[str, Any] = {}
    models: Sequence[BaseModel] = ()
    if section == "summary":
        summ = results.summary.model_dump()
        extra = {"summary": summ}
        return {**head, **extra, **page_items(section, [summ], offset, limit)}
    if section == "mode_displacements":
        extra, items = _mode_items(results, mode)
        return {**head, **extra, **page_items(section, items, offset, limit)}
    if section == "energies":
        models = results.energies
    elif section == "structures":
        models = results.structures
    elif section == "modes":
        models = results.modes
        extra = {"referenceStructure": results.modeReferenceStructure}
    elif section == "files":
        models = results.files
    elif section == "excitations":
        models = results.excitations
    elif section == "orbitals":
        models = results.orbitals
        extra = {
            "homo": results.summary.homo,
            "lumo": results.summary.lumo,
            "gap": results.summary.gap,
        }
    elif section == "charges":
        models = results.charges
    elif section == "scan":
        from molforma.results.scan_profile import scan_profile

        profile = scan_profile(results) or {
            "coordinate": None,
            "atomNumbers": [],
            "unit": None,
            "planned": 0,
            "points": [],
        }
        points = profile.pop("points")
        return {**head, **profile, **page_items(section, points, offset, limit)}
    return {**head, **extra, **page_items(section, models, offset, limit, _dump)}


def _dump(model: BaseModel) -> dict[str, Any]:
    return model.model_dump()
