"""Cheap readers for the NWChem files of a job folder, used by the history scan (no Qt).

The history table needs a handful of facts per folder (title, formula, task, theory,
basis, status, final energy) for up to thousands of folders, so these readers look
only at what they need: the head of the input file and the tail of the output,
read backwards in blocks, never a whole multi-megabyte output. They are
deliberately tolerant: a folder they cannot understand still becomes a row, with
empty fields. Full parsing belongs to ``molforma.formats`` and ``molforma.nwchem``.

The lines they recognise are those of :mod:`molforma.nwchem.output_patterns`, shared
with the full reader and the live progress.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, BinaryIO

from molforma.errors import MolFormaError
from molforma.fileio import open_regular
from molforma.lazy import lazy_import
from molforma.nwchem import output_patterns as patterns
from molforma.nwchem.lexer import statements, walk

if TYPE_CHECKING:
    from molforma.document import elements as document_elements
else:  # imported on first use (start-up time): molforma.lazy
    document_elements = lazy_import("molforma.document.elements")

INPUT_HEAD_BYTES = 256 * 1024  # an input larger than this is read only this far
TAIL_BYTES = 64 * 1024  # enough for the closing lines of any NWChem run
ENERGY_SCAN_LIMIT = 32 * 1024 * 1024  # give up looking for an energy this far from the end
_BLOCK = 64 * 1024

# The status markers and the energy lines, as bytes (the tail is searched undecoded).
FAILED_MARKERS: tuple[bytes, ...] = tuple(m.encode("ascii") for m in patterns.FAILED_MARKERS)


def _anchor(pat: patterns.Pattern) -> bytes:
    assert pat.anchor is not None, pat
    return pat.anchor.encode("ascii")


_FINISHED = patterns.TOTAL_TIMES
_FINISHED_ANCHOR = _anchor(_FINISHED)
# The banner and the timings are NWChem's last lines on stdout (launcher aborts go to
# stderr, not to the output file), so the last 8 KiB are enough.
STATUS_TAIL_BYTES = 8 * 1024

# The energy lines with the literal that finds each from the end: the last match is
# found by rfind-ing the literal and matching the pattern at the start of its line, not
# by scanning the block front to back (a regex starting with "^\s*" that scans 1,000
# folders is 15x slower). "@" is one byte, which rfind searches with memrchr: many
# times faster than a multi-byte needle.
_ENERGY_PATTERNS: tuple[tuple[bytes, tuple[patterns.Pattern, ...]], ...] = (
    (_anchor(patterns.OPT_STEP_ENERGY), (patterns.OPT_STEP_ENERGY,)),
    (
        _anchor(patterns.TOTAL_ENERGY),
        (patterns.TOTAL_ENERGY, patterns.CC_ENERGY, patterns.OTHER_TOTAL_ENERGY),
    ),
)


@lru_cache(maxsize=1)
def _symbols() -> frozenset[str]:
    symbol_of = document_elements.symbol_of
    return frozenset(symbol_of(z).lower() for z in range(1, document_elements.MAX_Z + 1))


def element_of_tag(tag: str) -> str | None:
    """The element of an NWChem geometry tag (``O``, ``H1``, ``Ca2``, ``c``).

    NWChem reads the element from the tag's leading letters, two letters first.
    Ghost atoms (``bq...``) and dummies (``X``) are not atoms of the formula.
    """
    letters = ""
    for ch in tag:
        if not ch.isalpha():
            break
        letters += ch
    low = letters.lower()
    if not low or low.startswith("bq") or low in ("x", "xx"):
        return None
    syms = _symbols()
    for n in (2, 1):
        if len(low) >= n and low[:n] in syms:
            sym = low[:n]
            return sym[0].upper() + sym[1:]
    return None


_TASK_OPERATIONS = {
    "energy": "energy",
    "optimize": "optimize",
    "optimise": "optimize",
    "opt": "optimize",
    "saddle": "saddle",
    "freq": "frequencies",
    "frequencies": "frequencies",
    "hessian": "hessian",
    "gradient": "gradient",
    "property": "property",
    "dynamics": "dynamics",
}


@dataclass
class InputSummary:
    """What the history table shows from an input file."""

    title: str = ""
    start: str = ""
    elements: tuple[str, ...] = ()
    task: str = ""
    theory: str = ""
    functional: str = ""
    basis: str = ""
    charge: int | None = None
    multiplicity: int | None = None


# SCF's spin keywords (``scf; triplet; end``) as multiplicities.
_SPIN_WORDS = {
    "singlet": 1,
    "doublet": 2,
    "triplet": 3,
    "quartet": 4,
    "quintet": 5,
    "sextet": 6,
    "septet": 7,
    "octet": 8,
}


def _int_token(tok: str) -> int | None:
    try:
        value = float(tok.lower().replace("d", "e"))
    except ValueError:
        return None
    return int(value) if value.is_integer() else None


def _is_number(tok: str) -> bool:
    try:
        float(tok.lower().replace("d", "e"))
    except ValueError:
        return False
    return True


def _library_name(toks: list[str]) -> str | None:
    """``* library [tag_in_lib] name [file f] [except tags]`` -> ``name``."""
    rest: list[str] = []
    for tok in toks[2:]:
        if tok.lower() in ("file", "except"):
            break
        rest.append(tok)
    return rest[-1].strip('"') if rest else None


def _top_level(out: InputSummary, operations: list[str], toks: list[str], text: str) -> None:
    """Charge, title, start name and tasks: the top-level statements of a summary."""
    key = toks[0].lower()
    if key == "charge" and len(toks) > 1:
        out.charge = _int_token(toks[1])
    elif key == "title" and len(toks) > 1:
        out.title = text.split(None, 1)[1].strip().strip('"').strip()
    elif key in ("start", "restart") and len(toks) > 1:
        out.start = toks[1]
    elif key == "task" and len(toks) > 1:
        theory = toks[1].lower()
        if theory in ("shell", "python"):
            return
        op = toks[2].lower() if len(toks) > 2 else "energy"
        operations.append(_TASK_OPERATIONS.get(op, op))
        if not out.theory:
            out.theory = theory


def summarize_input(text: str) -> InputSummary:
    """Title, elements, task, theory, functional, basis, charge and multiplicity of an
    NWChem input text (multiplicity from ``dft; mult`` or SCF's spin keywords, None when
    the input leaves it to NWChem).

    Only the first geometry block counts (a second one is usually a fragment or a
    later stage); ``load``-ed geometries give no elements.
    """
    out = InputSummary()
    elements: list[str] = []
    operations: list[str] = []
    basis_names: list[str] = []
    geometries_seen = 0
    # The blocks and comments as NWChem reads them (molforma.nwchem.lexer); only the
    # first geometry's atoms count, outside its zcoord/system/z-matrix parts.
    for stmt in walk(statements(text)):
        toks = list(stmt.words)
        key = stmt.key
        block = stmt.block
        if stmt.kind == "open":
            if len(stmt.path) == 1 and key == "geometry":
                geometries_seen += 1
            continue
        if stmt.kind == "end":
            continue
        if block is None:
            _top_level(out, operations, toks, stmt.text)
            continue
        if block == "geometry" and geometries_seen == 1:
            sub = stmt.path[1] if len(stmt.path) > 1 else None
            if sub not in (None, "zmatrix", "zmt") or stmt.section:
                continue
            if key in ("symmetry", "units", "load"):
                continue
            if sub is not None or (len(toks) >= 4 and all(_is_number(t) for t in toks[1:4])):
                el = element_of_tag(toks[0])
                if el is not None:
                    elements.append(el)
        elif block == "basis" and len(toks) >= 3 and toks[1].lower() == "library":
            name = _library_name(toks)
            if name:
                basis_names.append(name)
        elif block == "dft" and key == "xc" and len(toks) > 1:
            out.functional = " ".join(toks[1:]).lower()
        elif block == "dft" and key == "mult" and len(toks) > 1:
            out.multiplicity = _int_token(toks[1])
        elif block == "scf" and key in _SPIN_WORDS:
            out.multiplicity = out.multiplicity or _SPIN_WORDS[key]
        elif block == "scf" and key == "nopen" and len(toks) > 1:
            nopen = _int_token(toks[1])
            if nopen is not None and out.multiplicity is None:
                out.multiplicity = nopen + 1
    out.elements = tuple(elements)
    out.basis = ", ".join(dict.fromkeys(basis_names))
    ops = list(dict.fromkeys(operations))
    if "optimize" in ops and "frequencies" in ops:
        out.task = "optimize+frequencies"
    else:
        useful = [o for o in ops if o != "property"]
        out.task = (useful or ops or [""])[0]
    if out.theory == "dft" and not out.functional:
        out.functional = "slater vwn_5"  # NWChem's default exchange-correlation
    return out


def _open_own(path: str | os.PathLike[str]) -> BinaryIO:
    # A job folder's file is read only when it is a regular file and not a link
    # (molforma.history.jobdir): a link could point anywhere, a named pipe would hang.
    return open_regular(path, follow=False)


def read_head(path: str | os.PathLike[str] | BinaryIO, limit: int = INPUT_HEAD_BYTES) -> str:
    """The first ``limit`` bytes of a text file (a path or an open file), decoded
    leniently ("" when unreadable, a link or not a regular file)."""
    try:
        if not isinstance(path, str | os.PathLike):
            return _head(path, limit)
        with _open_own(path) as fh:
            return _head(fh, limit)
    except (OSError, MolFormaError):
        return ""


def _head(fh: BinaryIO, limit: int) -> str:
    # read(n) allocates n bytes up front: ask only for what the file holds.
    size = os.fstat(fh.fileno()).st_size
    raw = fh.read(min(limit, size))
    return raw.decode("utf-8", errors="replace")


def read_tail(path: str | os.PathLike[str] | BinaryIO, limit: int = TAIL_BYTES) -> bytes:
    """The last ``limit`` bytes of a file, a path or an open file (b"" when unreadable,
    a link or not a regular file)."""
    try:
        if not isinstance(path, str | os.PathLike):
            return _tail(path, limit)
        with _open_own(path) as fh:
            return _tail(fh, limit)
    except (OSError, MolFormaError):
        return b""


def _tail(fh: BinaryIO, limit: int) -> bytes:
    size = os.fstat(fh.fileno()).st_size
    start = max(0, size - limit)
    fh.seek(start)
    return fh.read(size - start)


def status_from_tail(tail: bytes) -> str:
    """``finished``, ``failed`` or ``unknown`` from the closing part of an output.

    An error banner wins over "Total times": NWChem prints the timings on some
    failed runs too, but never prints the banner on a good one.
    """
    end = tail[-STATUS_TAIL_BYTES:]
    if any(marker in end for marker in FAILED_MARKERS):
        return "failed"
    at = end.rfind(_FINISHED_ANCHOR)
    if at >= 0 and _FINISHED.match_bytes(end, end.rfind(b"\n", 0, at) + 1):
        return "finished"
    return "unknown"


def _last_match(buf: bytes, lo: int = 0) -> tuple[int, float] | None:
    """Line start and value of the last energy line in ``buf[lo:]``.

    ``buf[lo]`` starts a line. Searching between indices, not in a slice, saves
    copying the block.
    """
    best: tuple[int, float] | None = None
    for literal, pats in _ENERGY_PATTERNS:
        end = len(buf)
        while True:
            at = buf.rfind(literal, lo, end)
            if at < 0:
                break
            start = max(buf.rfind(b"\n", lo, at) + 1, lo)
            if best is not None and start < best[0]:
                break
            value = _energy_at(buf, start, pats)
            if value is not None:
                best = (start, value)
                break
            end = at
    return best


def _energy_at(buf: bytes, start: int, pats: tuple[patterns.Pattern, ...]) -> float | None:
    for pat in pats:
        m = pat.match_bytes(buf, start)
        if m is not None:
            with contextlib.suppress(ValueError):
                return patterns.d_float(m.group(2).decode("ascii"))
    return None


def last_energy_in(data: bytes) -> float | None:
    """The last energy in ``data``, a whole output already in memory."""
    hit = _last_match(data)
    return hit[1] if hit else None


def last_energy(
    path: str | os.PathLike[str] | BinaryIO,
    *,
    scan_limit: int = ENERGY_SCAN_LIMIT,
    tail: bytes | None = None,
) -> float | None:
    """The energy of the last ``@`` step line or ``Total ... energy`` line of an output.

    The file is read backwards in blocks (growing from 64 KiB to 4 MiB) and the
    search stops at the first block holding a match, so a finished run costs one
    block read however large its output; at most ``scan_limit`` bytes are read.
    ``tail`` may pass the file's last bytes, already read, as the first block.
    """
    if not isinstance(path, str | os.PathLike):
        return _last_energy(path, scan_limit, tail)
    try:
        fh = _open_own(path)
    except (OSError, MolFormaError):
        return None
    with fh:
        return _last_energy(fh, scan_limit, tail)


def _last_energy(fh: BinaryIO, scan_limit: int, tail: bytes | None) -> float | None:
    try:
        pos = os.fstat(fh.fileno()).st_size
        carry = b""  # the first, possibly partial, line of the block read before
        read_total = 0
        block = _BLOCK
        while pos > 0 and read_total < scan_limit:
            if tail and read_total == 0 and 0 < len(tail) <= pos:
                data = tail
            else:
                step = min(block, pos, scan_limit - read_total)
                fh.seek(pos - step)
                data = fh.read(step)
                if not data:
                    break
            pos -= len(data)
            read_total += len(data)
            block = min(block * 4, 4 * 1024 * 1024)
            buf = data + carry if carry else data
            lo = 0
            if pos > 0:
                cut = buf.find(b"\n")
                if cut < 0:
                    carry = buf
                    continue
                carry, lo = buf[:cut], cut + 1
            hit = _last_match(buf, lo)
            if hit is not None:
                return hit[1]
        if pos == 0 and carry:
            hit = _last_match(carry)
            return hit[1] if hit else None
        return None
    except OSError:
        return None


def pick_files(names: list[str]) -> tuple[str | None, str | None]:
    """The input and output file names of a folder listing.

    ``input.nw`` and ``output.out`` (what the job runner writes) win; else the
    ``.nw`` whose stem has a matching ``.out``, else the first of each, by name.
    """
    nws = sorted(n for n in names if n.lower().endswith(".nw"))
    outs = sorted(n for n in names if n.lower().endswith(".out"))
    nw = "input.nw" if "input.nw" in names else None
    out = "output.out" if "output.out" in names else None
    if nw is None and out is None:
        stems = {os.path.splitext(n)[0]: n for n in outs}
        for n in nws:
            stem = os.path.splitext(n)[0]
            if stem in stems:
                return n, stems[stem]
    if nw is None and nws:
        nw = nws[0]
    if out is None and outs:
        out = outs[0]
    return nw, out
