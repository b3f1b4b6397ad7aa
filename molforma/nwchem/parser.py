"""Reader of NWChem output text into the results model (no Qt).

Speed matters (outputs reach 128 MiB), so the file is never scanned line by line
with regexes. Instead a handful of literal anchors ("Output coordinates in
angstroms", "Total SCF energy =", ...) are located with ``str.find`` (a C-speed
substring search), the hits are visited in file order, and only the few lines
around each hit are split or matched. The regexes and the anchors shared with
the live progress and the history scan are in :mod:`molforma.nwchem.output_patterns`.

What is read: SCF/DFT/MP2 totals (separate labelled entries); optimisation steps
from the ``@`` lines (energy, gradient and step criteria); every geometry from the
``Output coordinates in angstroms`` blocks (``in a.u.`` ones are converted): the
input orientation, one per optimisation step, the final one; projected
frequencies with their normal-mode vectors (``P.Frequency`` blocks); projected IR
intensities; the zero-point energy; convergence of SCF and optimisation; the
warnings and errors NWChem printed.
"""

from __future__ import annotations

import codecs
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from molforma.errors import ResultsError
from molforma.nwchem import parser_frequencies as freq
from molforma.nwchem import parser_properties as chem
from molforma.nwchem import parser_summary as summ
from molforma.nwchem.output_patterns import (
    DEGENERATE_SYMMETRY,
    DEGENERATE_SYMMETRY_HINT,
    ECHO_RULE,
    ECHO_START,
    ERROR_CODE_TAIL,
    ERROR_INPUT_ANCHOR,
    INPUT_LINE,
    OPT_CONVERGED,
    OPT_FAILED,
    OPT_STEP,
    SCF_FAILED,
    TASK_TIMES,
    TIMES_ANCHOR,
    TOTAL_ENERGY,
    TOTAL_TIMES,
    VERSION,
    Pattern,
    d_float,
)
from molforma.nwchem.output_text import NeedMoreText, OutputText
from molforma.nwchem.parser_chem_state import ChemState
from molforma.results.atom_tags import symbol_from_label
from molforma.results.formats import BOHR_TO_ANGSTROM
from molforma.results.frames import FrameStore
from molforma.results.limits import DEFAULT_LIMITS, Limits, StructureCounter, check_cancel
from molforma.results.results_model import (
    EnergyKind,
    EnergyPoint,
    Message,
    Mode,
    Results,
    Structure,
    Summary,
    formula_of,
    make_mode,
)


def _anchor(pat: Pattern) -> str:
    """The literal a pattern's lines hold (each pattern used as an anchor here has one)."""
    if pat.anchor is None:
        raise ValueError(f"{pat!r} has no anchor")
    return pat.anchor


# Literal anchors: (text to find, event name).
_BASE_ANCHORS: tuple[tuple[str, str], ...] = (
    ("Output coordinates in angstroms", "geometry"),
    ("Output coordinates in a.u.", "geometry"),  # geometry given with "units au"
    # The rule under the driver's "Step  Energy ..." header; the "@" step line follows it.
    ("---- ---------------- -------- --------", "opt_step"),
    ("Total SCF energy", "energy"),
    ("Total DFT energy", "energy"),
    ("Total MP2 energy", "energy"),
    ("NWChem Geometry Optimization", "opt_start"),
    (_anchor(OPT_CONVERGED), "opt_converged"),
    (_anchor(OPT_FAILED), "opt_failed"),
    (_anchor(SCF_FAILED), "scf_failed"),
    ("NORMAL MODE EIGENVECTORS IN CARTESIAN COORDINATES", "modes"),
    ("Projected Infra Red Intensities", "ir"),
    ("Zero-Point correction to Energy", "zpe"),
    (ERROR_INPUT_ANCHOR, "error"),
    ("Warning", "warning"),
    ("WARNING", "warning"),
    (TIMES_ANCHOR, "completed"),  # "Total times" (the end) and "Task  times" (a task's)
)
_ANCHORS = (*_BASE_ANCHORS, *chem.ANCHORS)
_ENERGY_KIND: dict[str, EnergyKind] = {"SCF": "scf", "DFT": "dft", "MP2": "mp2"}
MAX_LISTED_WARNINGS = 100
_CANCEL_EVERY = 256


_d_float = d_float
_Text = OutputText


@dataclass
class _State:
    source: str
    counter: StructureCounter
    energies: list[EnergyPoint] = field(default_factory=list)
    # Geometries as coordinate arrays, made into models when asked for: an output
    # with tens of thousands of steps loads in bounded memory.
    structures: FrameStore = field(default_factory=FrameStore)
    opt_run: int = -1
    opt_last_step: int | None = None
    opt_steps_in_run: int = 0
    opt_status: bool | None = None
    pending_label: str | None = None
    first_unclaimed: int = 0
    scf_failed: bool = False
    freqs: list[float] = field(default_factory=list)
    # The frequencies before translations and rotations are projected out (cm-1).
    unprojected: list[float] = field(default_factory=list)
    disp_columns: list[array[float]] = field(default_factory=list)
    modes_reference: int | None = None
    ir: dict[int, float] = field(default_factory=dict)
    zpe: float | None = None
    completed: bool = False
    version: str | None = None
    warnings: list[Message] = field(default_factory=list)
    warning_texts: set[str] = field(default_factory=set)
    errors: list[Message] = field(default_factory=list)
    chem: ChemState = field(default_factory=ChemState)
    nwchem_seen: bool = False
    input_echo: str = ""
    ascii_only: bool = True


__all__ = ["parse_nwchem_file", "parse_nwchem_output"]

# The output is read in windows: events are taken from the first WINDOW characters
# (cut at a line end) while handlers look LOOKAHEAD characters further (more on
# demand, see NeedMoreText), so a 100 MB output is never held whole in memory.
WINDOW = 1024 * 1024
LOOKAHEAD = 256 * 1024
_ECHO_START = ECHO_START
_ECHO_END = "\n" + ECHO_RULE
_READ_BYTES = 256 * 1024
_HEAD_CHARS = 20000
_SNIFF_BYTES = 64 * 1024


def _find_events(text: str, stop: int, gates: set[str]) -> list[tuple[int, str]]:
    events: list[tuple[int, str]] = []
    find = text.find
    anchors = list(_ANCHORS)
    pos = find(chem.MODULE_NEEDLE, 0, stop)
    while pos >= 0:
        line_end = find("\n", pos)
        line = text[text.rfind("\n", 0, pos) + 1 : line_end if line_end >= 0 else len(text)]
        gates.update(g for g in chem.MODULE_GATES if g in line)
        events.append((pos, "banner"))
        pos = find(chem.MODULE_NEEDLE, pos + 1, stop)
    for gate in gates:
        anchors += chem.MODULE_GATES[gate]
    for needle, name in anchors:
        pos = find(needle, 0, stop)
        while pos >= 0:
            events.append((pos, name))
            pos = find(needle, pos + len(needle), stop)
    events.sort()
    return events


def parse_nwchem_output(
    text: str,
    *,
    source: str = "<text>",
    cancel: threading.Event | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Results:
    """Read the text of an NWChem output into a :class:`Results` of kind ``nwchem``.

    Raises:
        ResultsError: ``results_unknown_format`` when the text is no NWChem output, a
            limit code when it is too large, ``results_cancelled`` when ``cancel`` is set.
    """
    pieces = (text[i : i + WINDOW] for i in range(0, max(len(text), 1), WINDOW))
    return _parse_pieces(pieces, source, cancel, limits)


def parse_nwchem_file(
    path: str,
    *,
    source: str | None = None,
    cancel: threading.Event | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Results:
    """Read an NWChem output file as a stream (memory stays bounded by the window size).

    Bad bytes decode as U+FFFD; ``logPath`` is set so the ``log`` section serves the file.

    Raises:
        ResultsError: ``results_not_found``, ``results_unreadable``,
            ``results_file_too_large``, ``results_unknown_format``, a limit code, or
            ``results_cancelled``.
    """
    src = path if source is None else source
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed by the generator below
    except FileNotFoundError:
        raise ResultsError("results_not_found", path=path) from None
    except IsADirectoryError:
        raise ResultsError("results_unreadable", path=path, reason="is a folder") from None
    except OSError as exc:
        raise ResultsError(
            "results_unreadable", path=path, reason=exc.strerror or str(exc)
        ) from exc
    with fh:
        return parse_nwchem_stream(fh, path, source=src, cancel=cancel, limits=limits)


def parse_nwchem_stream(
    fh: BinaryIO,
    path: str,
    *,
    source: str | None = None,
    cancel: threading.Event | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Results:
    """:func:`parse_nwchem_file` of a file the caller opened (and closes) itself.

    For callers that must read the very file they checked (the results reader under
    MCP's path policy); ``path`` names it in errors and becomes ``logPath``.
    """
    flags = {"ascii": True}
    res = _parse_pieces(
        _decoded(fh, path, limits, flags), path if source is None else source, cancel, limits
    )
    res.logPath = path
    res._log_ascii = flags["ascii"]
    return res


def _decoded(fh: object, path: str, limits: Limits, flags: dict[str, bool]) -> Iterator[str]:
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    total = 0
    first = True
    while True:
        try:
            raw = fh.read(_READ_BYTES)  # type: ignore[attr-defined]
        except OSError as exc:
            raise ResultsError(
                "results_unreadable", path=path, reason=exc.strerror or str(exc)
            ) from exc
        if first:
            if b"\0" in raw[:_SNIFF_BYTES]:
                raise ResultsError("results_unknown_format", path=path)
            first = False
        if not raw:
            tail = decoder.decode(b"", final=True)
            if tail:
                yield tail
            return
        total += len(raw)
        if total > limits.max_file_bytes:
            raise ResultsError(
                "results_file_too_large", path=path, size=total, limit=limits.max_file_bytes
            )
        if flags["ascii"] and not raw.isascii():
            flags["ascii"] = False
        yield decoder.decode(raw)


def _pull(it: Iterator[str], buf: str, size: int) -> tuple[str, bool]:
    """``buf`` extended from ``it`` to at least ``size`` characters; True at the end."""
    parts = [buf]
    have = len(buf)
    while have < size:
        piece = next(it, None)
        if piece is None:
            return "".join(parts), True
        parts.append(piece)
        have += len(piece)
    return "".join(parts), False


def _read_head(st: _State, buf: str) -> None:
    head = buf[:_HEAD_CHARS]
    st.nwchem_seen = "NWChem" in head
    m = VERSION.search(head)
    st.version = m.group(1) if m else None
    chem.read_prefix(st, head)
    # Keep the echoed input deck (small) so the results can be mapped back to its frame.
    echo = buf.find(_ECHO_START)
    if echo >= 0:
        stop = buf.find(_ECHO_END, buf.find("\n", echo) + 1)
        st.input_echo = buf[echo : stop if stop >= 0 else len(buf)] + "\n" + "=" * 40 + "\n"


def _parse_pieces(
    pieces: Iterable[str], source: str, cancel: threading.Event | None, limits: Limits
) -> Results:
    st = _State(source=source, counter=StructureCounter(limits.for_output(), source))
    handlers: dict[str, Callable[[_State, OutputText, str, int, int], None]] = {
        "geometry": _on_geometry,
        "opt_step": _on_opt_step,
        "energy": _on_energy,
        "opt_start": _on_opt_start,
        "opt_converged": _on_opt_converged,
        "opt_failed": _on_opt_failed,
        "scf_failed": _on_scf_failed,
        "modes": freq.on_modes,
        "ir": freq.on_ir,
        "zpe": freq.on_zpe,
        "error": _on_error,
        "warning": _on_warning,
        "completed": _on_completed,
        **chem.HANDLERS,
        "banner": lambda st, tx, line, start, end: chem.on_banner(st, tx, line, end),
    }
    it = iter(pieces)
    buf, exhausted = _pull(it, "", WINDOW + LOOKAHEAD)
    gates: set[str] = set()
    first_line = 1
    _read_head(st, buf)
    n = 0
    while True:
        if not exhausted and len(buf) < WINDOW + LOOKAHEAD:
            buf, exhausted = _pull(it, buf, WINDOW + LOOKAHEAD)
        last_window = exhausted
        own = len(buf) if last_window else (buf.rfind("\n", 0, WINDOW) + 1 or WINDOW)
        tx = OutputText(buf, first_line, complete=exhausted)
        last_line_start = -1
        events = _find_events(buf, own, gates)
        i = 0
        while i < len(events):
            pos, name = events[i]
            if n % _CANCEL_EVERY == 0:
                check_cancel(cancel, source)
            try:
                line, start, end = tx.line_at(pos)
                if name == "warning" and start == last_line_start:
                    i += 1
                    continue  # "Warning" and "WARNING" on one line
                handlers[name](st, tx, line, start, end)
            except NeedMoreText:
                # A block longer than the look-ahead: grow the window and run it again.
                buf, exhausted = _pull(it, buf, 2 * len(buf))
                tx = OutputText(buf, first_line, complete=exhausted)
                continue
            if name == "warning":
                last_line_start = start
            n += 1
            i += 1
        if last_window:
            break
        first_line += buf.count("\n", 0, own)
        buf = buf[own:]
    check_cancel(cancel, source)
    if not st.nwchem_seen and not st.structures and not st.energies:
        raise ResultsError("results_unknown_format", path=source)
    return _build(st)


# --- event handlers ------------------------------------------------------------------


def _on_geometry(st: _State, tx: _Text, line: str, start: int, end: int) -> None:
    scale = 1.0 if "angstroms" in line else BOHR_TO_ANGSTROM
    symbols: list[str] = []
    coords: list[list[float]] = []
    seen_rule = False
    cur = end
    while True:
        nxt = tx.next_line(cur)
        if nxt is None:
            break
        ln, cur = nxt
        if not seen_rule:
            if ln.startswith(" ----"):
                seen_rule = True
            elif len(symbols) == 0 and ln.strip() and not ln.lstrip().startswith("No."):
                break
            continue
        parts = ln.split()
        if len(parts) < 6 or not parts[0].isdigit():
            break
        try:
            xyz = [float(parts[-3]) * scale, float(parts[-2]) * scale, float(parts[-1]) * scale]
            charge = float(parts[-4])
        except ValueError:
            break
        symbols.append(symbol_from_label(parts[1], charge))
        coords.append(xyz)
        if len(symbols) > st.counter.limits.max_atoms:
            st.counter.add(len(symbols))
    if not symbols:
        return
    st.counter.add(len(symbols))
    label = st.pending_label or ("input" if not st.structures else "geometry")
    st.structures.append(
        Structure(index=len(st.structures), label=label, symbols=symbols, coordinates=coords)
    )
    st.pending_label = None


def _on_opt_start(st: _State, tx: _Text, line: str, start: int, end: int) -> None:
    st.opt_run += 1
    st.opt_last_step = None
    st.opt_steps_in_run = 0
    st.opt_status = None
    st.first_unclaimed = len(st.structures)


def _on_opt_step(st: _State, tx: _Text, rule: str, rule_start: int, rule_end: int) -> None:
    step_line = tx.next_line(rule_end)
    if step_line is None:
        return
    line, end = step_line
    start = rule_end + 1
    m = OPT_STEP.match(line)
    if not m:
        return
    step = int(m.group(1))
    if st.opt_run < 0 or (st.opt_last_step is not None and step < st.opt_last_step):
        st.opt_run += 1  # steps without a driver banner (concatenated output)
        st.opt_steps_in_run = 0
        st.opt_status = None
    if st.opt_last_step == step and st.opt_steps_in_run:
        st.first_unclaimed = len(st.structures)
        return  # the driver repeats the last step after "Optimization converged"
    st.opt_last_step = step
    st.opt_steps_in_run += 1
    nxt = tx.next_line(end)
    met = nxt[0].split().count("ok") if nxt is not None and "ok" in nxt[0] else 0
    energy = _d_float(m.group(2))
    # The driver prints the geometry of step N before its "@ N" line: the newest
    # structure printed since the previous step (or the optimisation banner) is step N's.
    sidx = None
    if len(st.structures) > st.first_unclaimed:
        last = st.structures[-1]
        last.label, last.step, last.energy = f"step {step}", step, energy
        sidx = last.index
        st.first_unclaimed = len(st.structures)
    st.energies.append(
        EnergyPoint(
            index=len(st.energies),
            kind="optimization",
            label=f"Optimization step {step}",
            energy=energy,
            optimization=st.opt_run,
            step=step,
            structureIndex=sidx,
            deltaE=_d_float(m.group(3)),
            gmax=_d_float(m.group(4)),
            grms=_d_float(m.group(5)),
            xrms=_d_float(m.group(6)),
            xmax=_d_float(m.group(7)),
            criteriaMet=met,
            line=tx.line_number(start),
        )
    )


def _on_energy(st: _State, tx: _Text, line: str, start: int, end: int) -> None:
    m = TOTAL_ENERGY.match(line)
    if not m:
        if "energy:" in line:  # "Total MP2 energy:" of the coupled-cluster modules
            chem.HANDLERS["cc_energy"](st, tx, line, start, end)
        else:
            chem.on_failed_total(st, tx, line, start)
        return
    chem.add_total(
        st, tx, _ENERGY_KIND[m.group(1)], f"Total {m.group(1)} energy", _d_float(m.group(2)), start
    )
    chem.after_total(st, tx, m.group(1), end)


def _on_opt_converged(st: _State, tx: _Text, line: str, start: int, end: int) -> None:
    if line.strip() == "Optimization converged":
        st.opt_status = True
        st.pending_label = "final"


def _on_opt_failed(st: _State, tx: _Text, line: str, start: int, end: int) -> None:
    st.opt_status = False
    _add_warning(st, tx, line.strip(), start)


def _on_scf_failed(st: _State, tx: _Text, line: str, start: int, end: int) -> None:
    st.scf_failed = True
    _add_warning(st, tx, line.strip(), start)


def _on_error(st: _State, tx: _Text, line: str, start: int, end: int) -> None:
    lineno = tx.line_number(start)
    # The message sits above the rules that frame "current input line".
    above = _text_near(tx.prev_line, start)
    nxt = tx.next_line(end)
    input_line = None
    cur = end
    if nxt is not None:
        m = INPUT_LINE.match(nxt[0])
        input_line = m.group(1) if m else nxt[0].strip() or None
        cur = nxt[1]
    if above:
        message, _pos, back = above
        mt = ERROR_CODE_TAIL.match(message)
        message = mt.group(1) if mt else message
        st.errors.append(Message(message=message, line=lineno - back, inputLine=input_line))
    # The hint NWChem prints below, e.g. "There is an error in the specified basis set".
    below = _text_near(tx.next_line, cur)
    if below:
        hint, pos, _distance = below
        if not (hint.startswith("For more information") or hint.startswith("For further details")):
            st.errors.append(Message(message=hint, line=tx.line_number(pos), inputLine=input_line))


def _text_near(
    step: Callable[[int], tuple[str, int] | None], pos: int, limit: int = 6
) -> tuple[str, int, int] | None:
    """The first line with text (not blank, not a rule of dashes) within ``limit`` steps.

    ``step`` is :meth:`_Text.prev_line` or :meth:`_Text.next_line`; the answer is the
    stripped text, its position and how many lines away it is.
    """
    for distance in range(1, limit + 1):
        found = step(pos)
        if found is None:
            return None
        line, pos = found
        s = line.strip()
        if s and set(s) != {"-"}:
            return s, pos, distance
    return None


def _add_warning(st: _State, tx: _Text, text: str, start: int) -> None:
    if text in st.warning_texts:
        return
    st.warning_texts.add(text)
    if len(st.warnings) < MAX_LISTED_WARNINGS:
        st.warnings.append(Message(message=text, line=tx.line_number(start)))


def _add_warning_text(st: _State, text: str) -> None:
    """A warning of MolForma's own (no output line), listed first."""
    if text not in st.warning_texts:
        st.warning_texts.add(text)
        st.warnings.insert(0, Message(message=text))


def _on_warning(st: _State, tx: _Text, line: str, start: int, end: int) -> None:
    _add_warning(st, tx, line.strip(), start)


def _on_completed(st: _State, tx: _Text, line: str, start: int, end: int) -> None:
    if TOTAL_TIMES.match(line):
        st.completed = True
    elif TASK_TIMES.match(line):
        chem.on_task_end(st)


# --- assembling ------------------------------------------------------------------------


def _build(st: _State) -> Results:
    modes: list[Mode] = []
    disp = None
    if st.freqs:
        ncoord = len(st.disp_columns[0]) if st.disp_columns else 0
        ok = ncoord > 0 and ncoord % 3 == 0 and all(len(c) == ncoord for c in st.disp_columns)
        if ok:
            disp = st.disp_columns  # one flat array('d') of 3N numbers per mode
        for i, f in enumerate(st.freqs):
            modes.append(make_mode(i, f, st.ir.get(i), disp is not None))
    totals = [e for e in st.energies if e.kind in summ.LEVEL_RANK]
    steps = [e for e in st.energies if e.kind == "optimization"]
    by_kind: dict[str, float] = {}
    for e in totals:
        if not e.displaced:
            by_kind[e.kind] = e.energy
    irc = st.chem.irc_line
    # A reaction path (mepgs) after a transition-state search ends at a minimum: the
    # energy of the run is the transition state's, printed before the path starts.
    final = summ.choose_final(
        [e for e in st.energies if irc is None or (e.line or 0) < irc] or st.energies
    )
    level: str | None = final.kind if final is not None else None
    if level == "optimization":
        level = max(by_kind, key=lambda k: summ.LEVEL_RANK[k]) if by_kind else None
    final_energy = final.energy if final else None
    final_label = final.label if final else None
    for kind, line in st.chem.failed_lines.items():
        # A failed number at or above the final's level, printed after it, is the real
        # end of the run: say so rather than quote a lower level's energy.
        rank = summ.LEVEL_RANK.get(kind, 0)
        if final is None or (
            line > (final.line or 0) and rank >= summ.LEVEL_RANK.get(level or "scf", 0)
        ):
            final_energy = None
            final_label = f"Total {kind.upper()} energy failed (printed as asterisks)"
            level = kind
    if st.structures and steps:
        last = st.structures[-1]
        if last.label == "final" and last.energy is None:
            last.energy = steps[-1].energy
    opt_conv: bool | None = None
    if st.opt_run >= 0:
        opt_conv = bool(st.opt_status)
    scf_conv: bool | None = None
    if st.scf_failed:
        scf_conv = False
    elif totals:
        scf_conv = True
    atoms = st.structures[-1].symbols if st.structures else []
    residual = freq.residual_gradient_warning(st)
    if residual is not None:
        _add_warning_text(st, residual)
    saddle = freq.saddle_check(st, modes)
    if saddle is not None and saddle[1] is not None:
        _add_warning_text(st, saddle[1])
    if st.errors and any(DEGENERATE_SYMMETRY in w for w in st.warning_texts):
        # Why the run failed, with the fix: NWChem's last line only says that it did.
        st.errors.append(Message(message=DEGENERATE_SYMMETRY_HINT))
    summary = Summary(
        program=f"NWChem {st.version}" if st.version else "NWChem",
        finalEnergy=final_energy,
        finalEnergyLabel=final_label,
        finalEnergyLevel=level,
        energiesByKind=by_kind,
        zeroPointEnergy=st.zpe,
        scfConverged=scf_conv,
        optimizationConverged=opt_conv,
        optimizationSteps=len(steps),
        completed=st.completed,
        atomCount=len(atoms),
        formula=formula_of(atoms) if atoms else None,
        energyCount=len(st.energies),
        structureCount=len(st.structures),
        modeCount=len(modes),
        imaginaryModes=sum(m.imaginary for m in modes),
        significantImaginaryModes=sum(m.significant for m in modes),
        saddlePoint=saddle[0] if saddle is not None else None,
        warningCount=len(st.warning_texts),
        errorCount=len(st.errors),
        warnings=st.warnings,
        errors=st.errors,
    )
    excitations, orbitals, charges = summ.finish(st, summary, atoms)
    res = Results(
        source=st.source,
        kind="nwchem",
        summary=summary,
        energies=st.energies,
        structures=st.structures,
        modes=modes,
        modeReferenceStructure=st.modes_reference if modes else None,
        excitations=excitations,
        orbitals=orbitals,
        charges=charges,
    )
    res.set_displacements(disp)
    res._nwchem_prefix = st.chem.prefix
    res._md_output_frames = st.chem.md_frames
    res._input_echo = st.input_echo
    return res
