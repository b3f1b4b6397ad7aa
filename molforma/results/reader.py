"""Opening result files and folders: format detection, folder listing, animations (no Qt).

:func:`read_results` takes a file, a folder, or the group key of a vibration
animation and returns one :class:`~molforma.results.results_model.Results`. A folder opens
``output.out`` first, else the first entry of :func:`list_result_files`. NWChem's
per-mode animation step files ``<name>.m-<mode>.s-<step>.xyz`` are grouped by mode
into one ``vibration-animation`` entry whose path is the group key
``<folder>/<name>.m-<mode>.s-*.xyz``; opening the key or any of its step files
reads the steps of that mode in order, re-globbed on every read (so ``reload``
picks up added or removed steps).

A *guard* (``Callable[[Path], Path]``, e.g. the MCP path policy) may be given: it is
asked about every file the loader opens, after links are resolved, and returns the
path to open or raises. An allowed folder can thus not serve a linked file from
elsewhere (docs/reference/safety.md, Allowed directories). A guard that also has ``open_for_read(path)`` (the
policy's :class:`~molforma.app.policy.ReadGuard`) opens each file itself and judges
where the open file really is, so a folder swapped for a link after the check cannot
serve another file; ``open_directory(path)`` likewise lists a folder through a judged
descriptor. Every file is opened without blocking and only a regular file is read: a
named pipe or a device is refused at once (it would never end).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from molforma.errors import FileAccessError, MolFormaError, ResultsError
from molforma.file_formats import RESULT_BY_NAME
from molforma.fileio import open_for_read as _plain_open
from molforma.nwchem.output_patterns import BANNER
from molforma.results.formats import parse_molden, parse_xyz, parse_xyz_frames, structure_summary
from molforma.results.frame import restore_input_frame
from molforma.results.irc import add_path_energies, is_irc_path
from molforma.results.limits import (
    DEFAULT_LIMITS,
    Limits,
    StructureCounter,
    check_cancel,
)
from molforma.results.results_model import FileEntry, Results, Structure

PREFERRED_OUTPUT = "output.out"
_STEP_FILE = re.compile(r"^(?P<stem>.+)\.m-(?P<mode>\d+)\.s-(?P<step>\d+)\.xyz$", re.IGNORECASE)
_STEP_KEY = re.compile(r"^(?P<stem>.+)\.m-(?P<mode>\d+)\.s-\*\.xyz$", re.IGNORECASE)
_OUTPUT_EXT = RESULT_BY_NAME["nwchem-output"].extensions
_MOLDEN_EXT = RESULT_BY_NAME["molden"].extensions
_SNIFF_BYTES = 64 * 1024
_BANNER = BANNER.encode()
_KIND_ORDER = {"nwchem-output": 0, "molden": 1, "xyz": 2, "vibration-animation": 2}

Guard = Callable[[Path], Path]


def _natural_key(name: str) -> list[object]:
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", name)]


def _open(path: Path, guard: Guard | None) -> BinaryIO:
    """Open one result file for reading: through ``guard`` when it can open, else after
    asking it; never blocking, regular files only. The file's ``name`` is the path
    read (the real one when the guard opened it).

    Raises:
        ResultsError: ``results_not_found`` / ``results_unreadable``.
        MolFormaError: what ``guard`` raises; ``not_regular_file``.
    """
    opener = getattr(guard, "open_for_read", None)
    if opener is not None:
        return opener(path)  # type: ignore[no-any-return]
    if guard is not None:
        path = guard(path)
    try:
        return _plain_open(path)
    except FileAccessError as exc:
        if exc.code != "file_error":
            raise
        cause = exc.__cause__
        if isinstance(cause, FileNotFoundError):
            raise ResultsError("results_not_found", path=str(path)) from None
        reason = (
            "is a folder"
            if exc.data.get("reason") == "is a directory"
            else str(exc.data.get("reason") or exc)
        )
        raise ResultsError("results_unreadable", path=str(path), reason=reason) from exc


def _opened_path(fh: BinaryIO, fallback: Path) -> Path:
    name = getattr(fh, "name", None)
    return Path(name) if isinstance(name, str) else fallback


def _sniff(path: Path, guard: Guard | None = None) -> bytes:
    """The head of a file; empty when it cannot (or may not) be read."""
    try:
        with _open(path, guard) as fh:
            return fh.read(_SNIFF_BYTES)
    except (OSError, MolFormaError):
        return b""


def _is_nwchem_output(head: bytes) -> bool:
    return _BANNER in head or (b"NWChem" in head and b"Output coordinates" in head)


def _is_molden(head: bytes) -> bool:
    return head[:4096].lstrip().lower().startswith(b"[molden format]")


def result_file_kind(path: str | os.PathLike[str]) -> str | None:
    """``"nwchem-output"`` or ``"molden"`` when the file's head says so, else None."""
    head = _sniff(Path(path))  # one read serves both checks
    if _is_nwchem_output(head):
        return "nwchem-output"
    if _is_molden(head):
        return "molden"
    return None


def _refused_by(guard: Guard | None, path: Path, is_link: bool) -> bool:
    """True when ``guard`` refuses a linked ``path`` (plain entries of the folder pass)."""
    if guard is None or not is_link:
        return False
    try:
        guard(path)
    except MolFormaError:
        return True
    return False


def _listed(
    items: Iterator[os.DirEntry[str]] | Iterator[os.DirEntry[bytes]],
    base: Path,
    guard: Guard | None,
) -> list[tuple[str, int, bool]]:
    """(name, size, refused by the guard) of each file entry of a folder listing."""
    out: list[tuple[str, int, bool]] = []
    for it in items:
        name = os.fsdecode(it.name)
        try:
            if not it.is_file():
                continue
            is_link = it.is_symlink()
            refused = _refused_by(guard, base / name, is_link)
            # The size of a refused link's target is not ours to report.
            size = it.stat(follow_symlinks=not refused).st_size
        except OSError:
            continue
        out.append((name, size, refused))
    return out


def list_result_files(
    folder: str | os.PathLike[str], guard: Guard | None = None
) -> list[FileEntry]:
    """The result files of ``folder`` in the order used to pick the first one.

    ``output.out`` first, then other NWChem outputs, MOLDEN files, then XYZ files and
    vibration animations (one entry per mode), each group in natural name order.
    A link that ``guard`` refuses is never opened to sniff its kind: it is listed by
    its name alone (``output.out``, MOLDEN and XYZ extensions), so opening it later
    fails with the guard's reason instead of another file loading silently.

    Raises:
        ResultsError: ``results_not_found`` / ``results_unreadable`` for the folder.
    """
    base = Path(folder)
    listed: list[tuple[str, int, bool]] = []  # name, size, refused
    open_dir = getattr(guard, "open_directory", None)
    try:
        if open_dir is not None:
            # Listed through a judged descriptor: a folder swapped for a link after the
            # check shows nothing of where the link points.
            fd, _real = open_dir(base)
            try:
                with os.scandir(fd) as it_fd:
                    listed = _listed(it_fd, base, guard)
            finally:
                os.close(fd)
        else:
            with os.scandir(base) as it_path:
                listed = _listed(it_path, base, guard)
    except FileNotFoundError:
        raise ResultsError("results_not_found", path=str(folder)) from None
    except OSError as exc:
        raise ResultsError(
            "results_unreadable", path=str(folder), reason=exc.strerror or str(exc)
        ) from exc
    entries: list[tuple[int, int, list[object], dict[str, object]]] = []
    groups: dict[tuple[str, int], dict[str, object]] = {}
    for name, size, refused in listed:
        p = base / name
        low = name.lower()
        m = _STEP_FILE.match(name)
        if m:
            key = (m.group("stem"), int(m.group("mode")))
            g = groups.setdefault(key, {"size": 0, "steps": 0, "digits": m.group("mode")})
            g["size"] = int(g["size"]) + size  # type: ignore[call-overload]
            g["steps"] = int(g["steps"]) + 1  # type: ignore[call-overload]
            continue
        kind = None
        if low.endswith(".xyz") or is_irc_path(low):
            kind = "xyz"
        elif low.endswith(_MOLDEN_EXT) or (
            not refused and low.endswith(".input") and _is_molden(_sniff(p, guard))
        ):
            kind = "molden"
        elif (name == PREFERRED_OUTPUT and refused) or (
            not refused and low.endswith(_OUTPUT_EXT) and _is_nwchem_output(_sniff(p, guard))
        ):
            kind = "nwchem-output"
        if kind is None:
            continue
        first = 0 if name == PREFERRED_OUTPUT else 1
        entries.append(
            (
                first,
                _KIND_ORDER[kind],
                _natural_key(name),
                {"name": name, "path": str(p), "kind": kind, "size": size},
            )
        )
    for (stem, mode), g in groups.items():
        key_name = f"{stem}.m-{g['digits']}.s-*.xyz"
        entries.append(
            (
                1,
                _KIND_ORDER["vibration-animation"],
                _natural_key(key_name),
                {
                    "name": key_name,
                    "path": str(base / key_name),
                    "kind": "vibration-animation",
                    "size": g["size"],
                    "mode": mode,
                    "steps": g["steps"],
                },
            )
        )
    entries.sort(key=lambda e: (e[0], e[1], e[2]))
    return [FileEntry(index=i, **e[3]) for i, e in enumerate(entries)]


def animation_steps(path: str | os.PathLike[str]) -> tuple[int, str, list[Path]] | None:
    """(mode, group key, step files in step order) when ``path`` names an animation.

    ``path`` is a step file or a group key; the steps are globbed now, so the list
    reflects the files present at this moment. None when ``path`` is neither.
    """
    p = Path(path)
    m = _STEP_FILE.match(p.name) or _STEP_KEY.match(p.name)
    if m is None:
        return None
    stem, digits = m.group("stem"), m.group("mode")
    mode = int(digits)
    pat = re.compile(rf"^{re.escape(stem)}\.m-0*{mode}\.s-(\d+)\.xyz$", re.IGNORECASE)
    found: list[tuple[int, Path]] = []
    try:
        for it in os.scandir(p.parent):
            mm = pat.match(it.name)
            if mm and it.is_file():
                found.append((int(mm.group(1)), p.parent / it.name))
    except FileNotFoundError:
        raise ResultsError("results_not_found", path=str(p.parent)) from None
    except OSError as exc:
        raise ResultsError(
            "results_unreadable", path=str(p.parent), reason=exc.strerror or str(exc)
        ) from exc
    found.sort()
    key = str(p.parent / f"{stem}.m-{digits}.s-*.xyz")
    return mode, key, [f for _, f in found]


def read_text_file(path: Path, limits: Limits = DEFAULT_LIMITS, guard: Guard | None = None) -> str:
    """Read a whole result file (at most 128 MiB), decoding bad bytes as U+FFFD.

    Raises:
        ResultsError: ``results_not_found``, ``results_unreadable`` or
            ``results_file_too_large``.
        MolFormaError: whatever ``guard`` raises for a file it refuses.
    """
    with _open(path, guard) as fh:
        return _read_open_text(fh, _opened_path(fh, path), limits)


def _read_open_text(fh: BinaryIO, path: Path, limits: Limits) -> str:
    """The whole text of an open result file (see :func:`read_text_file`)."""
    try:
        size = os.fstat(fh.fileno()).st_size
        if size > limits.max_file_bytes:
            raise ResultsError(
                "results_file_too_large", path=str(path), size=size, limit=limits.max_file_bytes
            )
        # Ask for what fstat saw (plus one byte to notice growth past the limit),
        # never for the limit itself: read(n) allocates n bytes up front.
        raw = fh.read(min(size, limits.max_file_bytes) + 1)
    except OSError as exc:
        raise ResultsError(
            "results_unreadable", path=str(path), reason=exc.strerror or str(exc)
        ) from exc
    if len(raw) > limits.max_file_bytes:
        raise ResultsError(
            "results_file_too_large", path=str(path), size=len(raw), limit=limits.max_file_bytes
        )
    if b"\0" in raw[:_SNIFF_BYTES]:
        raise ResultsError("results_unknown_format", path=str(path))
    return raw.decode("utf-8", errors="replace")


def _read_animation(
    source: str, cancel: threading.Event | None, limits: Limits, guard: Guard | None
) -> Results:
    found = animation_steps(source)
    assert found is not None
    mode, key, files = found
    if not files:
        raise ResultsError(
            "results_no_animation_steps",
            mode=mode,
            pattern=Path(key).name,
            folder=str(Path(key).parent),
        )
    counter = StructureCounter(limits, key)
    structures: list[Structure] = []
    for n, f in enumerate(files):
        check_cancel(cancel, source)
        frames = parse_xyz_frames(
            read_text_file(f, limits, guard),
            source=str(f),
            counter=counter,
            first_index=len(structures),
            label_prefix="step",
        )
        for fr in frames:
            fr.label = f"step {n + 1}"
            fr.step = n + 1
            fr.comment = f.name
        structures.extend(frames)
    summary = structure_summary(structures)
    summary.animationMode = mode
    return Results(
        source=source, kind="animation", summary=summary, structures=structures, resolvedPath=key
    )


def _read_file(
    path: Path, source: str, cancel: threading.Event | None, limits: Limits, guard: Guard | None
) -> Results:
    low = path.name.lower()
    # Opened once: the file sniffed, sized and parsed is the file the guard judged.
    with _open(path, guard) as fh:
        path = _opened_path(fh, path)
        try:
            head = fh.read(_SNIFF_BYTES)
            fh.seek(0)
        except OSError as exc:
            raise ResultsError(
                "results_unreadable", path=str(path), reason=exc.strerror or str(exc)
            ) from exc
        if (
            low.endswith(_MOLDEN_EXT)
            or low.endswith(".xyz")
            or _is_molden(head)
            or is_irc_path(low)
        ):
            text = _read_open_text(fh, path, limits)
            check_cancel(cancel, source)
            if is_irc_path(low):
                res = add_path_energies(
                    parse_xyz(text, source=source, cancel=cancel, limits=limits), low
                )
            elif low.endswith(".xyz") and not low.endswith(_MOLDEN_EXT):
                res = parse_xyz(text, source=source, cancel=cancel, limits=limits)
            else:
                res = parse_molden(text, source=source, cancel=cancel, limits=limits)
        else:
            # Imported here: the parser imports molforma.results, which imports this module.
            from molforma.nwchem.parser import parse_nwchem_stream

            _check_size(fh, path, limits)
            # Read as a stream: a 100 MB output is never held whole in memory.
            res = parse_nwchem_stream(fh, str(path), source=source, cancel=cancel, limits=limits)
            _attach_md_trajectory(res, path, cancel, limits, guard)
            restore_input_frame(res, res._input_echo)
    res.resolvedPath = str(path)
    return res


def _check_size(fh: BinaryIO, path: Path, limits: Limits) -> None:
    try:
        size = os.fstat(fh.fileno()).st_size
    except OSError as exc:
        raise ResultsError(
            "results_unreadable", path=str(path), reason=exc.strerror or str(exc)
        ) from exc
    if size > limits.max_file_bytes:
        raise ResultsError(
            "results_file_too_large", path=str(path), size=size, limit=limits.max_file_bytes
        )


def _attach_md_trajectory(
    res: Results,
    path: Path,
    cancel: threading.Event | None,
    limits: Limits,
    guard: Guard | None = None,
) -> None:
    """Frames of a BOMD run: NWChem's ``<prefix>.xyz`` beside the output, else the
    geometries the output itself prints (each step's gradient block).

    The qmd module writes every frame (step 0 = the input geometry) to the trajectory
    file, with more digits than the output; frames are kept only when their count and
    atoms match the steps read from the output. An output copied without its trajectory
    still gives every step's geometry from its own text.
    """
    steps = [e for e in res.energies if e.kind == "md"]
    if not steps or not res.structures:
        return
    symbols = res.structures[0].symbols
    frames = _trajectory_frames(res, path, cancel, limits, guard)
    if frames is None or len(frames) != len(steps) + 1 or any(f.symbols != symbols for f in frames):
        printed = res._md_output_frames
        if len(printed) != len(steps) + 1 or any(len(c) != len(symbols) for c in printed):
            return
        frames = [
            Structure(
                index=len(res.structures) + n,
                label=f"frame {n}",
                symbols=list(symbols),
                coordinates=coords,
            )
            for n, coords in enumerate(printed)
        ]
    for n, fr in enumerate(frames[1:]):
        step = steps[n]
        fr.label, fr.step, fr.energy = f"md step {step.step}", step.step, step.energy
        fr.comment = f"t = {step.time} fs" if step.time is not None else None
        fr.index = len(res.structures)
        step.structureIndex = fr.index
        res.structures.append(fr)
    res.summary.structureCount = len(res.structures)


def _trajectory_frames(
    res: Results, path: Path, cancel: threading.Event | None, limits: Limits, guard: Guard | None
) -> list[Structure] | None:
    """The frames of ``<prefix>.xyz`` beside the output, or None when there is none."""
    prefix = res._nwchem_prefix
    if not prefix or "/" in prefix:
        return None
    traj = path.parent / f"{prefix}.xyz"
    if not traj.is_file():
        return None
    try:
        text = read_text_file(traj, limits, guard)  # the guard judges this file too
        # the run's own trajectory: read with the output's limits (no structure cap)
        return parse_xyz_frames(
            text,
            source=str(traj),
            counter=StructureCounter(limits.for_output(), str(traj)),
            cancel=cancel,
            first_index=len(res.structures),
        )
    except MolFormaError as exc:
        # An unreadable or refused trajectory leaves the output's own frames.
        if exc.code == "results_cancelled":
            raise
        return None


def read_results(
    path: str | os.PathLike[str],
    *,
    cancel: threading.Event | None = None,
    limits: Limits = DEFAULT_LIMITS,
    guard: Guard | None = None,
) -> Results:
    """Read a result file, a job folder, or an animation group key.

    ``source`` of the result is ``path`` as given; ``files`` lists the folder of the
    source. ``guard`` is asked about every file opened (see the module text), and the
    results keep it for the ``log`` section, which reads its file later.

    Raises:
        ResultsError: with a code: ``results_not_found``, ``results_unreadable``,
            ``results_unknown_format``, ``results_bad_file``, ``results_no_result_files``,
            ``results_no_animation_steps``, ``results_cancelled`` or a limit code.
    """
    source = str(path)
    p = Path(os.path.expanduser(source))
    check_cancel(cancel, source)
    if p.is_dir():
        files = list_result_files(p, guard)
        if not files:
            raise ResultsError("results_no_result_files", path=source)
        first = files[0]
        if first.kind == "vibration-animation":
            res = _read_animation(first.path, cancel, limits, guard)
        else:
            res = _read_file(Path(first.path), source, cancel, limits, guard)
        res.source = source
    else:
        if animation_steps(p) is not None and (p.exists() or "*" in p.name):
            res = _read_animation(str(p), cancel, limits, guard)
            res.source = source
        elif not p.exists():
            raise ResultsError("results_not_found", path=source)
        else:
            res = _read_file(p, source, cancel, limits, guard)
        files = list_result_files(p.parent, guard)
    check_cancel(cancel, source)
    res._file_guard = guard
    res.files = files
    res.summary.fileCount = len(files)
    return res
