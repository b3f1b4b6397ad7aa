"""What a chemist opens an NWChem output for, beyond energies and geometries (no Qt).

Event handlers of :mod:`molforma.nwchem.parser` for coupled-cluster energies,
TDDFT/CIS excitations, orbital energies and occupations, Mulliken charges, electric
moments, charge/multiplicity/⟨S²⟩, thermochemistry, the dispersion correction,
BOMD (qmd) steps, polarizabilities and numbers printed as asterisks. Each handler
reads the few lines at and after its anchor; :func:`finish` turns what was
collected into the results model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from molforma.nwchem.output_patterns import (
    CC_ENERGY,
    COSMO_SOLVATION,
    DFT_HEADER_NUMBER,
    DFT_S2,
    DFT_WAVEFUNCTION,
    DIPOLE_COMPONENT,
    DIPOLE_DEBYE,
    DISPERSION,
    EIGENVALUE_ROW,
    EXPANSION_POINT,
    FAILED_TOTAL,
    FILE_PREFIX,
    GRADIENT_ROW,
    GROSS_ROW,
    MULLIKEN_ROW,
    MULTIPOLE_ROW,
    POLAR_FREQUENCY,
    POLAR_ROW,
    QMD_STEP,
    QMD_VALUE,
    QUADRUPOLE_ROW,
    SCF_HEADER_NUMBER,
    SCF_S2,
    SCF_WAVEFUNCTION,
    TCE_ENERGY,
    TD_ROOT,
    TD_STRENGTH,
    TD_TRANSITION,
    TEMPERATURE,
    THERMAL_CORRECTION,
    TOTAL_ENTROPY,
    VECTOR,
    d_float,
)
from molforma.nwchem.output_text import NeedMoreText, OutputText
from molforma.results.formats import BOHR_TO_ANGSTROM
from molforma.results.model import (
    EV_NM,
    HARTREE_TO_EV,
    HARTREE_TO_KCAL,
    AtomCharge,
    EnergyKind,
    EnergyPoint,
    Excitation,
    Message,
    Moments,
    Orbital,
    Polarizability,
    SpinChannel,
    Summary,
    Thermochemistry,
    Transition,
    set_frontier,
)

if TYPE_CHECKING:
    from molforma.results.limits import StructureCounter
    from molforma.results.model import Structure


class _State(Protocol):
    """What these handlers read and fill of :mod:`molforma.nwchem.parser`'s state.

    A protocol rather than an import of the parser's class: the parser imports this module.
    """

    chem: ChemState
    counter: StructureCounter
    energies: list[EnergyPoint]
    structures: list[Structure]

# Literal anchors of this module: (text to find, event name). Every anchor costs one
# pass over the text, so related lines share one anchor (a header is read from the
# lines around it) and anchors that only matter after a module started are "gated".
ANCHORS: tuple[tuple[str, str], ...] = (
    ("Total CCSD", "cc_energy"),  # "Total CCSD energy:" and "Total CCSD(T) energy:"
    ("eigenvalues", "eigenvalues"),  # "Final [alpha |beta ]eigenvalues"
    ("Molecular Orbital Analysis", "mo_analysis"),
    ("Occ=", "vector"),
    ("Mulliken analysis of the", "mulliken"),  # total / spin density
    ("Multipole analysis of the density", "multipole"),
    ("NWChem Finite-difference Hessian", "fd_start"),
    ("Temperature                      =", "temperature"),  # the thermochemistry block
    ("(electrostatic) solvation energy", "solvation"),  # COSMO
    ("Gonzalez & Schlegel IRC Optimization", "irc_start"),  # mepgs: the reaction path
)
# Anchors searched only in windows at or after the banner of their module ("NWChem DFT
# Module", ...): one search for " Module" stands in for a dozen searches of the text.
MODULE_GATES: dict[str, tuple[tuple[str, str], ...]] = {
    "DFT Module": (("Spin multiplicity:", "dft_header"), ("<S2> =", "s2")),
    "TDDFT Module": (("NWChem TDDFT Module", "tddft_start"), ("Root ", "td_root")),
    "Extensible Many-Electron Theory Module": (("total energy / hartree", "tce_energy"),),
    # A BOMD step's geometry is the one its gradient block prints (bohr), just before
    # the step's "QMD Run Information".
    "QMD Module": (("QMD Run Information", "qmd_step"), ("ENERGY GRADIENTS", "qmd_gradient")),
    "Property Module": (("Dipole Moment", "dipole"),
                        ("Quadrupole moments in atomic units", "quadrupole"),
                        ("Total      gross population on atoms", "gross_population"),
                        ("----- Atomic spin population -----", "atomic_spin"),
                        ("Linear Response polarizability / au", "polarizability")),
}
MODULE_NEEDLE = " Module"
# Read near their module's banner instead of searched through the whole text.
_BANNER_LOOKUPS = {"NWChem SCF Module": ("wavefunction    =", 6000)}
# Rows read of one gradient block (atoms); a bigger BOMD keeps the trajectory file only.
MAX_GRADIENT_ROWS = 10_000
S2_TOLERANCE = 0.10  # SPEC/issue: warn when <S^2> departs from S(S+1) by more than 10 %
LEVEL_RANK = {"scf": 0, "dft": 0, "mp2": 1, "ccsd": 2, "ccsd(t)": 3}


@dataclass
class ChemState:
    """What the property handlers collected so far."""

    excitations: list[Excitation] = field(default_factory=list)
    td_last: Excitation | None = None
    orbital_raw: list[tuple[str, str, str]] = field(default_factory=list)
    orbital_channel: str = "restricted"
    orbitals_stale: bool = False
    mulliken: list[tuple[str, float]] = field(default_factory=list)
    mulliken_spin: list[float] = field(default_factory=list)
    charges_structure: int | None = None
    moments: Moments | None = None
    s2: float | None = None
    s2_exact: float | None = None
    charge: float | None = None
    multiplicity: int | None = None
    wavefunction: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    fd_active: bool = False
    fd_kinds: set[str] = field(default_factory=set)
    temperature: float | None = None
    thermal: dict[str, float] = field(default_factory=dict)
    entropy: float | None = None
    thermo_energies: int = 0
    dispersion: float | None = None
    solvation: float | None = None
    irc_line: int | None = None  # where the reaction path (mepgs) starts
    polarizabilities: list[Polarizability] = field(default_factory=list)
    md_steps: int = 0
    # Geometries (Angstrom) of the QMD steps as the output prints them: the frame before
    # the first step (the gradient of the start geometry), then one per step read.
    md_frames: list[list[list[float]]] = field(default_factory=list)
    md_last_gradient: list[list[float]] | None = None
    multipole: tuple[list[str], int | None, str | None] | None = None
    prefix: str | None = None
    failed: list[Message] = field(default_factory=list)
    failed_lines: dict[str, int] = field(default_factory=dict)


def add_total(st: _State, tx: OutputText, kind: EnergyKind, label: str, energy: float,
              start: int) -> None:
    """Record one total energy; inside a finite-difference Hessian only the first of
    each kind is the reference geometry's, the others are displaced geometries."""
    cs = st.chem
    displaced = None
    if cs.fd_active:
        if kind in cs.fd_kinds:
            displaced = True
            label += " (displaced geometry)"
        else:
            cs.fd_kinds.add(kind)
    if kind in ("scf", "dft") and not displaced:
        cs.orbitals_stale = True
    st.energies.append(
        EnergyPoint(index=len(st.energies), kind=kind, label=label, energy=energy,
                    line=tx.line_number(start), displaced=displaced)
    )


def on_failed_total(st: _State, tx: OutputText, line: str, start: int) -> bool:
    """A total printed as asterisks: flagged, never replaced by another energy."""
    m = FAILED_TOTAL.match(line)
    if not m:
        return False
    lineno = tx.line_number(start)
    kind = m.group(1).lower()
    st.chem.failed_lines[kind] = lineno
    st.chem.failed.append(Message(message=f"Total {m.group(1)} energy printed as asterisks "
                                          "(the calculation failed to produce a number)",
                                  line=lineno))
    return True


def _on_cc_energy(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    m = CC_ENERGY.match(line)
    if not m:
        on_failed_total(st, tx, line, start)
        return
    name = m.group(1)
    label = ("MP2 energy (coupled-cluster initial guess)" if name == "MP2"
             else f"Total {name} energy")
    add_total(st, tx, name.lower(), label, d_float(m.group(2)), start)  # type: ignore[arg-type]


def _on_tce_energy(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    m = TCE_ENERGY.match(line)
    if not m:
        return
    name = m.group(1)
    kind = {"CCSD": "ccsd", "CCSD(T)": "ccsd(t)", "MP2": "mp2"}.get(name)
    if kind is None:
        kind = "ccsd(t)" if "(T)" in name or "[T]" in name or "CCSDT" in name else "ccsd"
    add_total(st, tx, kind, f"TCE {name} total energy", d_float(m.group(2)), start)  # type: ignore[arg-type]


def _on_tddft_start(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    st.chem.excitations = []
    st.chem.td_last = None


def _on_td_root(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    m = TD_ROOT.match(line)
    if not m:
        return
    cs = st.chem
    energy = d_float(m.group(4))
    ev = energy * HARTREE_TO_EV
    ex = Excitation(
        index=len(cs.excitations), root=int(m.group(1)), spin=m.group(2),
        symmetry=m.group(3), energy=energy, energyEv=ev,
        wavelengthNm=EV_NM / ev if ev > 0 else None,
    )
    for ln in tx.lines_after(end, 10):
        if TD_ROOT.match(ln) or ln.lstrip().startswith("Occ."):
            break
        if "Spin forbidden" in ln and "Oscillator Strength" in ln:
            ex.spinForbidden = True
            ex.oscillatorStrength = 0.0
            break
        ms = TD_STRENGTH.match(ln)
        if ms:
            value = d_float(ms.group(2))
            if ms.group(1) == "Total Oscillator Strength":
                ex.totalOscillatorStrength = value
            else:
                ex.oscillatorStrength = value
    ex.transitions = _td_transitions(tx, end)
    cs.excitations.append(ex)


MAX_TRANSITIONS = 20  # per root: NWChem prints those above its threshold, a handful


def _td_transitions(tx: OutputText, end: int) -> list[Transition]:
    """The "Occ. i ... Virt. a ... coefficient" lines after a root's strengths."""
    out: list[Transition] = []
    for ln in tx.lines_after(end, 12 + 2 * MAX_TRANSITIONS):
        if TD_ROOT.match(ln):
            break
        m = TD_TRANSITION.match(ln)
        if m is None:
            if out and ln.strip():
                break
            continue
        if len(out) < MAX_TRANSITIONS:
            out.append(Transition(occupied=int(m.group(1)), spin=m.group(2),
                                  occupiedSymmetry=m.group(3), virtual=int(m.group(4)),
                                  virtualSymmetry=m.group(5), coefficient=d_float(m.group(6)),
                                  component=m.group(7)))
    return out


def _on_irc_start(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    if st.chem.irc_line is None:
        st.chem.irc_line = tx.line_number(start)


def _on_solvation(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    m = COSMO_SOLVATION.match(line)
    if m:
        # NWChem prints gas - solution; the solvation energy is solution - gas.
        st.chem.solvation = -d_float(m.group(1))


def _orbital_reset(st: _State) -> None:
    cs = st.chem
    if cs.orbitals_stale:
        cs.orbital_raw = []
        cs.orbitals_stale = False


def _on_eigenvalues(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    text = line.strip()
    if text not in ("Final eigenvalues", "Final alpha eigenvalues", "Final beta eigenvalues"):
        return
    # Every SCF prints its eigenvalues but only the last wavefunction's are reported:
    # keep the block's text (a C-speed slice) and parse it once at the end.
    t = tx.text
    rows = t.find("\n\n", end)
    stop = t.find("\n\n", rows + 2) if rows >= 0 else -1
    if stop < 0:
        if not tx.complete:
            raise NeedMoreText
        stop = len(t)
    _orbital_reset(st)
    channel = "alpha" if "alpha" in text else "beta" if "beta" in text else "restricted"
    st.chem.orbital_raw.append(("eig", channel, t[max(rows, end):stop]))


def _on_mo_analysis(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    if "Final" not in line:
        return
    _orbital_reset(st)
    st.chem.orbital_channel = ("alpha" if "Alpha" in line else "beta" if "Beta" in line
                               else "restricted")


def _on_vector(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    st.chem.orbital_raw.append(("vec", st.chem.orbital_channel, line))


def _orbital_tables(cs: ChemState) -> dict[str, dict[int, list[object]]]:
    """Energies, occupations and symmetries of the last wavefunction, per spin channel."""
    tables: dict[str, dict[int, list[object]]] = {}
    for kind, channel, text in cs.orbital_raw:
        table = tables.setdefault(channel, {})
        if kind == "vec":
            m = VECTOR.match(text)
            if m:
                row = table.setdefault(int(m.group(1)), [None, None, None])
                row[0], row[1], row[2] = d_float(m.group(3)), d_float(m.group(2)), m.group(4)
            continue
        for ln in text.split("\n"):
            m = EIGENVALUE_ROW.match(ln)
            if m:
                row = table.setdefault(int(m.group(1)), [None, None, None])
                if row[0] is None:  # the analysis (7 digits) wins over this table (4)
                    row[0] = d_float(m.group(2))
    return tables


def _table_rows(tx: OutputText, end: int, limit: int) -> list[str]:
    """Lines of a table after its header rule (``----``), up to a blank line."""
    out: list[str] = []
    cur = end
    rules = 0
    for _ in range(limit + 20):
        nxt = tx.next_line(cur)
        if nxt is None:
            break
        ln, cur = nxt
        s = ln.strip()
        if rules < 2:
            if s.startswith("---"):
                rules += 1
            continue
        if not s:
            break
        out.append(ln)
        if len(out) >= limit:
            break
    return out


def _on_mulliken(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    text = line.strip()
    if text == "Mulliken analysis of the spin density":
        _on_mulliken_spin(st, tx, line, start, end)
        return
    if text != "Mulliken analysis of the total density":
        return
    charges: list[tuple[str, float]] = []
    for ln in _table_rows(tx, end, st.counter.limits.max_atoms + 1):
        m = MULLIKEN_ROW.match(ln)
        if not m:
            break
        charges.append((m.group(2), float(m.group(3)) - d_float(m.group(4))))
    if charges:
        st.chem.mulliken = charges
        st.chem.mulliken_spin = []
        st.chem.charges_structure = len(st.structures) - 1 if st.structures else None


def _on_mulliken_spin(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    if line.strip() != "Mulliken analysis of the spin density":
        return
    spins: list[float] = []
    for ln in _table_rows(tx, end, st.counter.limits.max_atoms + 1):
        m = MULLIKEN_ROW.match(ln)
        if not m:
            break
        spins.append(d_float(m.group(4)))
    st.chem.mulliken_spin = spins


def _gross_rows(st: _State, tx: OutputText, end: int) -> list[re.Match[str]]:
    """The rows of the property module's per-atom population table after ``end`` (the
    gross populations and the atomic spin populations print the same rows)."""
    rows: list[re.Match[str]] = []
    cur = end
    for _ in range(st.counter.limits.max_atoms + 3):
        nxt = tx.next_line(cur)
        if nxt is None:
            break
        ln, cur = nxt
        m = GROSS_ROW.match(ln)
        if m:
            rows.append(m)
        elif rows or ln.strip():
            break
    return rows


def _on_gross_population(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    charges = [(m.group(2), d_float(m.group(3)) - d_float(m.group(4)))
               for m in _gross_rows(st, tx, end)]
    if charges:
        st.chem.mulliken = charges
        st.chem.mulliken_spin = []  # the property module prints its own spin table next
        st.chem.charges_structure = len(st.structures) - 1 if st.structures else None


def _on_atomic_spin(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    """The property module's "Atomic spin population" (open shells): same rows as the
    gross populations, the last number is the atom's alpha - beta population."""
    spins = [d_float(m.group(4)) for m in _gross_rows(st, tx, end)]
    if spins:
        st.chem.mulliken_spin = spins


def _frame(st: _State) -> tuple[str, int | None]:
    ref = len(st.structures) - 1 if st.structures else None
    return _frame_text(ref), ref


def _frame_text(ref: int | None) -> str:
    where = f"structure {ref}" if ref is not None else "the input geometry"
    return (f"NWChem's output orientation (the coordinates of {where}); it equals the "
            "document's frame only when NWChem did not re-orient the input")


def _on_multipole(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    # Every SCF prints one; only the last is reported, so it is parsed at the end.
    if st.chem.moments is not None and st.chem.moments.source == "property":
        return  # the property task's numbers are more precise; keep them
    ref = len(st.structures) - 1 if st.structures else None
    st.chem.multipole = (tx.lines_after(end, 24), ref, _density_level(st))


def _density_level(st: _State) -> str | None:
    """The level of the density a property printed now is of: the last SCF or DFT total.

    NWChem's property module and its multipole analysis work on the SCF/DFT density
    even when an MP2 or coupled-cluster energy was computed from it.
    """
    for e in reversed(st.energies):
        if e.kind in ("scf", "dft") and not e.displaced:
            return e.kind
    return None


def _multipole_moments(lines: list[str], ref: int | None,
                       level: str | None) -> Moments | None:
    dipole = [0.0, 0.0, 0.0]
    quad: dict[str, float] = {}
    found = False
    names = {(2, 0, 0): "xx", (0, 2, 0): "yy", (0, 0, 2): "zz", (1, 1, 0): "xy",
             (1, 0, 1): "xz", (0, 1, 1): "yz"}
    for ln in lines:
        m = MULTIPOLE_ROW.match(ln)
        if not m:
            continue
        ijk = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
        value = d_float(m.group(5))
        if m.group(1) == "1":
            dipole[ijk.index(1)] = value
            found = True
        elif ijk in names:
            quad[names[ijk]] = value
    if not found:
        return None
    return Moments(
        dipole=dipole, dipoleDebye=_norm(dipole) * 2.541746473, quadrupole=quad or None,
        frame=_frame_text(ref), referenceStructure=ref, source="multipole analysis",
        level=level,
    )


def _norm(v: list[float]) -> float:
    return float(sum(x * x for x in v) ** 0.5)


def _on_dipole(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    if line.strip() != "Dipole Moment":
        return
    origin = [0.0, 0.0, 0.0]
    dipole: dict[str, float] = {}
    debye = None
    for ln in tx.lines_after(end, 20):
        mo = EXPANSION_POINT.search(ln)
        if mo and not dipole:
            origin = [d_float(mo.group(i)) for i in (1, 2, 3)]
            continue
        md = DIPOLE_COMPONENT.match(ln)
        if md and md.group(1) not in dipole:
            dipole[md.group(1)] = d_float(md.group(2))
            continue
        mb = DIPOLE_DEBYE.match(ln)
        if mb:
            debye = d_float(mb.group(1))
            break
    if len(dipole) != 3:
        return
    frame, ref = _frame(st)
    st.chem.multipole = None
    st.chem.moments = Moments(
        dipole=[dipole["X"], dipole["Y"], dipole["Z"]], dipoleDebye=debye, origin=origin,
        frame=frame, referenceStructure=ref, source="property", level=_density_level(st),
    )


def _on_quadrupole(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    quad: dict[str, float] = {}
    for ln in tx.lines_after(end, 12):
        m = QUADRUPOLE_ROW.match(ln)
        if m:
            quad[m.group(1).lower()] = d_float(m.group(4))
        elif quad:
            break
    if st.chem.moments is not None and quad:
        st.chem.moments.quadrupole = quad


def _on_s2(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    m = DFT_S2.search(line)
    if m:
        st.chem.s2, st.chem.s2_exact = d_float(m.group(1)), d_float(m.group(2))
        return
    m = SCF_S2.match(line)
    if m:
        st.chem.s2 = d_float(m.group(1))
        st.chem.s2_exact = None


def _on_scf_header(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    m = SCF_HEADER_NUMBER.match(line)
    if not m:
        return
    key = m.group(1).replace("  ", " ")
    if key == "charge":
        st.chem.charge = d_float(m.group(2))
        st.chem.s2 = None
        return
    st.chem.counts[key] = int(float(m.group(2)))


def _on_scf_wavefunction(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    m = SCF_WAVEFUNCTION.match(line)
    if not m:
        return
    st.chem.counts = {}
    for ln in tx.lines_before(start, 8):
        _on_scf_header(st, tx, ln, start, end)
    wf = m.group(1).upper()
    st.chem.wavefunction = wf
    c = st.chem.counts
    if wf == "UHF" and "alpha electrons" in c and "beta electrons" in c:
        st.chem.multiplicity = c["alpha electrons"] - c["beta electrons"] + 1
    elif "closed shells" in c:
        st.chem.multiplicity = c.get("open shells", 0) + 1


def _on_dft_header(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    st.chem.counts = {}
    for ln in (*tx.lines_before(start, 8), line):
        _on_dft_header_line(st, ln)
        _on_dft_wavefunction(st, tx, ln, start, end)


def _on_dft_header_line(st: _State, line: str) -> None:
    m = DFT_HEADER_NUMBER.match(line)
    if not m:
        return
    key, value = m.group(1), int(m.group(2))
    if key == "Charge":
        st.chem.charge = float(value)
        st.chem.s2 = None
    elif key == "Spin multiplicity":
        st.chem.multiplicity = value
    else:
        st.chem.counts[key.lower()] = value


def _on_dft_wavefunction(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    if "Wavefunction type:" not in line:
        return
    m = DFT_WAVEFUNCTION.search(line)
    if m:
        kind = m.group(1).strip()
        st.chem.wavefunction = "UKS" if "spin polarized" in kind else (
            "RKS" if "closed" in kind else f"DFT {kind}")


def on_banner(st: _State, tx: OutputText, line: str, end: int) -> None:
    """A module banner: the SCF header a few lines below it is read from here."""
    for banner, (needle, span) in _BANNER_LOOKUPS.items():
        if banner in line:
            t = tx.text
            pos = t.find(needle, end, end + span)
            if pos < 0 and not tx.complete and len(t) < end + span:
                raise NeedMoreText
            if pos >= 0:
                ln, s0, e0 = tx.line_at(pos)
                _on_scf_wavefunction(st, tx, ln, s0, e0)


def after_total(st: _State, tx: OutputText, kind: str, end: int) -> None:
    """Lines printed right after a total energy: ⟨S²⟩ of UHF, the dispersion of DFT-D."""
    if kind == "SCF" and st.chem.wavefunction == "UHF":
        for ln in tx.lines_after(end, 10):
            m = SCF_S2.match(ln)
            if m:
                st.chem.s2, st.chem.s2_exact = d_float(m.group(1)), None
                break
    elif kind == "DFT":
        for ln in tx.lines_after(end, 8):
            m = DISPERSION.match(ln)
            if m:
                st.chem.dispersion = d_float(m.group(1))
                break


def on_task_end(st: _State) -> None:
    """The end of a task ends a finite-difference Hessian."""
    st.chem.fd_active = False


def _on_fd_start(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    st.chem.fd_active = True
    st.chem.fd_kinds = set()


def _on_temperature(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    m = TEMPERATURE.match(line)
    if not m:
        return
    cs = st.chem
    cs.temperature = d_float(m.group(1))
    cs.thermal = {}
    cs.entropy = None
    # The reference energy is what was printed before this block; chosen at the end.
    cs.thermo_energies = len(st.energies)
    for ln in tx.lines_after(end, 12):
        mt = THERMAL_CORRECTION.search(ln)
        if mt:
            cs.thermal[mt.group(1).lower()] = d_float(mt.group(2))
            continue
        ms = TOTAL_ENTROPY.match(ln)
        if ms:
            cs.entropy = d_float(ms.group(1))
            break


def _on_dispersion(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    m = DISPERSION.match(line)
    if m:
        st.chem.dispersion = d_float(m.group(1))


def _on_qmd_gradient(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    coords: list[list[float]] = []
    cur = end
    for _ in range(4 + MAX_GRADIENT_ROWS):
        nxt = tx.next_line(cur)
        if nxt is None:
            break
        text, cur = nxt
        m = GRADIENT_ROW.match(text)
        if m:
            coords.append([d_float(m.group(i)) * BOHR_TO_ANGSTROM for i in (1, 2, 3)])
        elif coords:
            break
    if not coords:
        return
    if not st.chem.md_frames and st.chem.md_steps == 0:
        st.counter.add(len(coords))  # frames count against the limits like any geometry
        st.chem.md_frames.append(coords)  # the start geometry (step 0)
    st.chem.md_last_gradient = coords


def _on_qmd_step(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    values: dict[str, float] = {}
    step = None
    for ln in tx.lines_after(end, 8):
        m = QMD_VALUE.match(ln)
        if m:
            values[m.group(1)] = d_float(m.group(2))
            ms = QMD_STEP.match(ln)
            if ms:
                step = int(ms.group(1))
    if "Tot. energy" not in values:
        return
    st.chem.md_steps += 1
    last, st.chem.md_last_gradient = st.chem.md_last_gradient, None
    # A frame per step, or none at all: a step without its geometry breaks the pairing.
    if last is not None and len(st.chem.md_frames) == st.chem.md_steps:
        st.counter.add(len(last))
        st.chem.md_frames.append(last)
    st.energies.append(
        EnergyPoint(
            index=len(st.energies), kind="md", label=f"MD step {step or st.chem.md_steps}",
            energy=values["Tot. energy"], step=step or st.chem.md_steps,
            time=values.get("Time elapsed"), temperature=values.get("Current temp."),
            kineticEnergy=values.get("Kin. energy"), potentialEnergy=values.get("Pot. energy"),
            line=tx.line_number(start),
        )
    )


def _on_polarizability(st: _State, tx: OutputText, line: str, start: int, end: int) -> None:
    freq = 0.0
    rows: dict[str, list[float]] = {}
    for ln in tx.lines_after(end, 10):
        mf = POLAR_FREQUENCY.match(ln)
        if mf:
            freq = d_float(mf.group(1))
            continue
        m = POLAR_ROW.match(ln)
        if m:
            rows[m.group(1)] = [d_float(m.group(i)) for i in (2, 3, 4)]
    if len(rows) == 3:
        tensor = [rows["X"], rows["Y"], rows["Z"]]
        st.chem.polarizabilities.append(Polarizability(
            frequency=freq, tensor=tensor, isotropic=(tensor[0][0] + tensor[1][1]
                                                      + tensor[2][2]) / 3.0,
            level=_density_level(st)))


def read_prefix(st: _State, head: str) -> None:
    """The file prefix NWChem printed near the top (``prefix = NAME.``)."""
    pos = head.find("prefix          =")
    if pos >= 0:
        end = head.find("\n", pos)
        start = head.rfind("\n", 0, pos) + 1
        m = FILE_PREFIX.match(head[start:end if end >= 0 else len(head)])
        if m:
            st.chem.prefix = m.group(1)


HANDLERS = {
    "cc_energy": _on_cc_energy, "tce_energy": _on_tce_energy, "tddft_start": _on_tddft_start,
    "solvation": _on_solvation, "irc_start": _on_irc_start,
    "td_root": _on_td_root, "eigenvalues": _on_eigenvalues, "mo_analysis": _on_mo_analysis,
    "vector": _on_vector, "mulliken": _on_mulliken,
    "gross_population": _on_gross_population, "atomic_spin": _on_atomic_spin,
    "multipole": _on_multipole,
    "dipole": _on_dipole, "quadrupole": _on_quadrupole, "s2": _on_s2,
    "scf_wavefunction": _on_scf_wavefunction, "dft_header": _on_dft_header,
    "fd_start": _on_fd_start, "temperature": _on_temperature,
    "dispersion": _on_dispersion,
    "qmd_step": _on_qmd_step, "qmd_gradient": _on_qmd_gradient, "polarizability": _on_polarizability,
}


# --- assembling ------------------------------------------------------------------------


def choose_final(energies: list[EnergyPoint]) -> EnergyPoint | None:
    """The energy a chemist quotes for the run.

    The latest of the last optimisation step and the last total, where totals
    printed after the last SCF/DFT reference belong to one calculation and the
    highest level among them wins (SCF → MP2 guess → CCSD → CCSD(T) gives CCSD(T)).
    Displaced geometries of numerical frequencies never count; a BOMD run ends on
    its last step. An SCF/DFT total that repeats the previous reference's energy after
    a correlated one (the property task after an MP2 or CC task re-solves the same
    wavefunction) starts no new calculation: the correlated energy stays the final one.
    """
    steps = [e for e in energies if e.kind == "optimization"]
    md = [e for e in energies if e.kind == "md"]
    totals = [e for e in energies if e.kind in LEVEL_RANK and not e.displaced]
    best_total = None
    if totals:
        refs = _new_references(totals)
        first = refs[-1].line or 0 if refs else 0
        group = [e for e in totals if (e.line or 0) >= first] or totals
        best_total = max(group, key=lambda e: (LEVEL_RANK[e.kind], e.line or 0))
    ends = [e for e in (steps[-1] if steps else None, best_total, md[-1] if md else None) if e]
    if not ends:
        return None
    return max(ends, key=lambda e: e.line or 0)


SAME_REFERENCE_EH = 1e-7  # a re-solved SCF agrees to about 1e-10 Eh; a new one differs more


def _new_references(totals: list[EnergyPoint]) -> list[EnergyPoint]:
    """The SCF/DFT totals that start a calculation (re-solves of the previous one left out)."""
    refs: list[EnergyPoint] = []
    correlated_since = False
    for e in totals:
        if e.kind not in ("scf", "dft"):
            correlated_since = correlated_since or bool(refs)
            continue
        prev = refs[-1] if refs else None
        if (correlated_since and prev is not None and prev.kind == e.kind
                and abs(prev.energy - e.energy) < SAME_REFERENCE_EH):
            continue
        refs.append(e)
        correlated_since = False
    return refs


def _orbitals(cs: ChemState) -> list[Orbital]:
    out: list[Orbital] = []
    c = cs.counts
    tables = _orbital_tables(cs)
    channels: tuple[SpinChannel, ...] = ("restricted", "alpha", "beta")
    for channel in channels:
        table = tables.get(channel)
        if not table:
            continue
        for n in sorted(table):
            energy, occ, sym = table[n]
            if not isinstance(energy, float):
                continue
            occupation = occ if isinstance(occ, float) else _aufbau(channel, n, c)
            out.append(Orbital(index=len(out), number=n, spin=channel,
                               energy=energy, energyEv=energy * HARTREE_TO_EV,
                               occupation=occupation,
                               symmetry=sym if isinstance(sym, str) else None))
    return out


def _aufbau(channel: str, n: int, c: dict[str, int]) -> float | None:
    if channel == "restricted" and "closed shells" in c:
        closed, opened = c["closed shells"], c.get("open shells", 0)
        return 2.0 if n <= closed else 1.0 if n <= closed + opened else 0.0
    key = f"{channel} electrons"
    if key in c:
        return 1.0 if n <= c[key] else 0.0
    return None


def finish(st: _State, summary: Summary, symbols: list[str]) -> tuple[
        list[Excitation], list[Orbital], list[AtomCharge]]:
    """Fill ``summary`` with what was collected and return the list sections."""
    cs = st.chem
    orbitals = _orbitals(cs)
    set_frontier(summary, orbitals)
    summary.charge = cs.charge
    summary.multiplicity = cs.multiplicity
    summary.wavefunction = cs.wavefunction
    if cs.s2 is not None and cs.wavefunction in ("UHF", "UKS"):
        summary.s2 = cs.s2
        if cs.multiplicity:
            s = (cs.multiplicity - 1) / 2.0
            exact = s * (s + 1.0)
            summary.s2Expected = exact
            contaminated = (abs(cs.s2 - exact) > S2_TOLERANCE * exact if exact > 0
                            else cs.s2 > S2_TOLERANCE)
            summary.spinContaminated = contaminated
            if contaminated:
                summary.warnings.append(Message(
                    message=f"Spin contamination: <S^2> = {cs.s2:.4f}, expected "
                    f"S(S+1) = {exact:.4f} (more than 10 % off)"))
                summary.warningCount += 1
    if cs.multipole is not None and (cs.moments is None or cs.moments.source != "property"):
        cs.moments = _multipole_moments(*cs.multipole) or cs.moments
    summary.moments = cs.moments
    summary.dispersionEnergy = cs.dispersion
    summary.solvationEnergy = cs.solvation
    summary.polarizabilities = cs.polarizabilities
    summary.mdSteps = cs.md_steps
    summary.failedValues = cs.failed
    if cs.temperature is not None:
        ref = choose_final(st.energies[:cs.thermo_energies])
        summary.thermochemistry = _thermo(cs, summary.zeroPointEnergy,
                                          ref.energy if ref is not None else None)
    excitations = cs.excitations
    charges: list[AtomCharge] = []
    spins = cs.mulliken_spin if len(cs.mulliken_spin) == len(cs.mulliken) else []
    for i, (label, q) in enumerate(cs.mulliken):
        element = symbols[i] if i < len(symbols) else label
        charges.append(AtomCharge(atom=i, element=element, mulliken=q,
                                  mullikenSpin=spins[i] if spins else None))
    summary.excitationCount = len(excitations)
    summary.orbitalCount = len(orbitals)
    summary.chargeCount = len(charges)
    return excitations, orbitals, charges


def _thermo(cs: ChemState, zpe: float | None, e0: float | None) -> Thermochemistry:
    t = cs.temperature or 0.0
    h = cs.thermal.get("enthalpy")
    s = cs.entropy
    g = h - t * s / 1000.0 / HARTREE_TO_KCAL if h is not None and s is not None else None
    kcal = {k: v * HARTREE_TO_KCAL for k, v in (
        ("zeroPointEnergy", zpe), ("thermalEnergyCorrection", cs.thermal.get("energy")),
        ("enthalpyCorrection", h), ("gibbsCorrection", g)) if v is not None}
    return Thermochemistry(
        temperature=t, zeroPointEnergy=zpe, thermalEnergyCorrection=cs.thermal.get("energy"),
        enthalpyCorrection=h, entropy=s, gibbsCorrection=g, electronicEnergy=e0,
        enthalpy=e0 + h if e0 is not None and h is not None else None,
        gibbsFreeEnergy=e0 + g if e0 is not None and g is not None else None,
        kcalPerMol=kcal,
    )
