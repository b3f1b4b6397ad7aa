"""Normal modes, IR intensities and the zero-point energy of an NWChem output (no Qt).

Event handlers of :mod:`molforma.nwchem.parser` for the frequency task, and the two checks
made of what they read: whether the geometry was a stationary point and whether a saddle
search found a transition state.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from molforma.nwchem.output_patterns import ZERO_POINT, d_float
from molforma.nwchem.output_text import OutputText

if TYPE_CHECKING:
    from molforma.results.results_model import Mode, Structure


class ParserState(Protocol):
    """What these handlers read and fill of :mod:`molforma.nwchem.parser`'s state.

    A protocol rather than an import of the parser's class: the parser imports this module.
    """

    freqs: list[float]
    unprojected: list[float]
    disp_columns: list[array[float]]
    modes_reference: int | None
    ir: dict[int, float]
    zpe: float | None
    input_echo: str

    @property
    def structures(self) -> Sequence[Structure]:
        """The geometries read so far."""


def on_modes(st: ParserState, tx: OutputText, line: str, start: int, end: int) -> None:
    """The projected normal modes (frequencies and displacement columns); an unprojected block gives only its frequencies."""
    cur = end
    projected = False
    for _ in range(4):
        nxt = tx.next_line(cur)
        if nxt is None:
            return
        ln, cur = nxt
        if "Projected Frequencies" in ln:
            projected = True
            break
    if not projected:
        # The unprojected block comes first: only its frequencies are kept, to tell
        # whether the geometry was a stationary point (see residual_gradient_warning).
        st.unprojected = _unprojected_frequencies(tx, end, st)
        return
    freqs: list[float] = []
    columns: list[array[float]] = []
    while True:
        # column numbers
        nxt = tx.next_line(cur)
        while nxt is not None and not nxt[0].strip():
            cur = nxt[1]
            nxt = tx.next_line(cur)
        if nxt is None:
            break
        header = nxt[0].split()
        if not header or not all(h.isdigit() for h in header):
            break
        cur = nxt[1]
        nxt = tx.next_line(cur)
        while nxt is not None and not nxt[0].strip():
            cur = nxt[1]
            nxt = tx.next_line(cur)
        if nxt is None or not nxt[0].lstrip().startswith("P.Frequency"):
            break
        block_freqs = [float(v) for v in nxt[0].split()[1:]]
        cur = nxt[1]
        block_cols: list[list[float]] = [[] for _ in block_freqs]
        nxt = tx.next_line(cur)
        while nxt is not None and not nxt[0].strip():
            cur = nxt[1]
            nxt = tx.next_line(cur)
        while nxt is not None:
            parts = nxt[0].split()
            if len(parts) != len(block_freqs) + 1 or not parts[0].isdigit():
                break
            for c, v in enumerate(parts[1:]):
                block_cols[c].append(float(v))
            cur = nxt[1]
            nxt = tx.next_line(cur)
        freqs.extend(block_freqs)
        # array('d') keeps 8 bytes a number (a float object takes 24 plus its pointer)
        columns.extend(array("d", c) for c in block_cols)
    if freqs:
        st.freqs = freqs
        st.disp_columns = columns
        st.modes_reference = len(st.structures) - 1 if st.structures else None
        st.ir = {}


def _unprojected_frequencies(tx: OutputText, end: int, st: ParserState) -> list[float]:
    """The ``Frequency`` rows of the unprojected normal-mode block after ``end``."""
    natoms = len(st.structures[-1].symbols) if st.structures else 10_000
    out: list[float] = []
    cur = end
    # The block has 3N rows per six modes; past that, or at the projected Hessian, stop.
    for _ in range((3 * natoms // 6 + 1) * (3 * natoms + 6) + 20):
        nxt = tx.next_line(cur)
        if nxt is None:
            break
        ln, cur = nxt
        head = ln.lstrip()
        if head.startswith("Frequency"):
            try:
                out.extend(float(v) for v in head.split()[1:])
            except ValueError:
                break
        elif "PROJECTED" in ln or "Projected" in ln:
            break
    return out


# A translation or rotation of a true stationary point stays within a few cm-1 before
# projection (grid noise in DFT up to ~20); far above this, the gradient was not zero.
RESIDUAL_FREQUENCY_LIMIT = 50.0


def residual_gradient_warning(st: ParserState) -> str | None:
    """A warning when the unprojected translations and rotations are far from zero.

    Each projected vibration takes away its nearest unprojected frequency; what is left
    are the translations and rotations, which are zero only at a stationary point.
    """
    if not st.freqs or not st.unprojected or len(st.unprojected) != len(st.freqs):
        return None
    left = list(st.unprojected)
    for f in sorted((f for f in st.freqs if abs(f) > 1.0), key=abs, reverse=True):
        nearest = min(range(len(left)), key=lambda i: abs(left[i] - f))
        left.pop(nearest)
    worst = max((abs(f) for f in left), default=0.0)
    if worst <= RESIDUAL_FREQUENCY_LIMIT:
        return None
    return (
        f"Not a stationary point: before projection, translations and rotations reach "
        f"{worst:.0f} cm-1 (a residual gradient), so these frequencies and the "
        "thermochemistry are not meaningful; optimise the geometry with the same method "
        "first (task optimize+frequencies)"
    )


_SADDLE_TASK = re.compile(r"^\s*task\s+\S+\s+saddle\b", re.IGNORECASE | re.MULTILINE)


def saddle_check(st: ParserState, modes: list[Mode]) -> tuple[bool, str | None] | None:
    """(one significant imaginary mode?, warning) of a saddle search whose frequencies were
    read, else None. A transition state has exactly one; none is a minimum, two or more a
    higher-order saddle point: neither connects reactant and product."""
    if not modes or not _SADDLE_TASK.search(st.input_echo):
        return None
    imaginary = [m.frequency for m in modes if m.significant]
    if len(imaginary) == 1:
        return True, None
    if not imaginary:
        return False, (
            "Not a transition state: the saddle search ended at a minimum (no "
            "imaginary frequency below -10 cm-1); start from a geometry nearer the "
            "transition state"
        )
    listed = ", ".join(f"{f:.1f}" for f in sorted(imaginary))
    return False, (
        f"Not a transition state: {len(imaginary)} imaginary frequencies ({listed} "
        "cm-1), a higher-order saddle point; displace the geometry along the extra "
        "modes and search again"
    )


def on_ir(st: ParserState, tx: OutputText, line: str, start: int, end: int) -> None:
    """The projected IR intensities (km/mol) of the modes, by mode index."""
    cur = end
    rules = 0
    ir: dict[int, float] = {}
    while True:
        nxt = tx.next_line(cur)
        if nxt is None:
            break
        ln, cur = nxt
        if ln.lstrip().startswith("-----"):
            rules += 1
            if rules >= 2:
                break
            continue
        if rules == 1:
            parts = ln.split()
            if len(parts) >= 7 and parts[2] == "||":
                try:
                    ir[int(parts[0]) - 1] = float(parts[5])
                except ValueError:
                    break
    st.ir = ir


def on_zpe(st: ParserState, tx: OutputText, line: str, start: int, end: int) -> None:
    """The zero-point correction to the energy (hartree)."""
    m = ZERO_POINT.search(line)
    if m:
        st.zpe = d_float(m.group(1))
