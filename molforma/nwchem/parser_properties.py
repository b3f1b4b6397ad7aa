"""What a chemist opens an NWChem output for, beyond energies and geometries (no Qt).

Event handlers of :mod:`molforma.nwchem.parser` for coupled-cluster energies,
TDDFT/CIS excitations, orbital energies and occupations, charge/multiplicity/⟨S²⟩,
thermochemistry, the dispersion correction, BOMD (qmd) steps, polarizabilities and
numbers printed as asterisks; Mulliken charges and electric moments are read by
:mod:`molforma.nwchem.parser_charges`. Each handler reads the few lines at and after its
anchor; :func:`molforma.nwchem.parser_summary.finish` turns what was collected into the
results model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from molforma.nwchem import parser_charges as charges
from molforma.nwchem.output_patterns import (
    CC_ENERGY,
    COSMO_SOLVATION,
    DFT_HEADER_NUMBER,
    DFT_S2,
    DFT_WAVEFUNCTION,
    DISPERSION,
    FAILED_TOTAL,
    FILE_PREFIX,
    GRADIENT_ROW,
    POLAR_FREQUENCY,
    POLAR_ROW,
    QMD_STEP,
    QMD_VALUE,
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
    d_float,
)
from molforma.nwchem.output_text import NeedMoreText, OutputText
from molforma.nwchem.parser_chem_state import PropertyState
from molforma.results.formats import BOHR_TO_ANGSTROM
from molforma.results.results_model import (
    EV_NM,
    HARTREE_TO_EV,
    EnergyKind,
    EnergyPoint,
    Excitation,
    Message,
    Polarizability,
    Transition,
)

if TYPE_CHECKING:
    pass


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
    "Property Module": (
        ("Dipole Moment", "dipole"),
        ("Quadrupole moments in atomic units", "quadrupole"),
        ("Total      gross population on atoms", "gross_population"),
        ("----- Atomic spin population -----", "atomic_spin"),
        ("Linear Response polarizability / au", "polarizability"),
    ),
}
MODULE_NEEDLE = " Module"
# Read near their module's banner instead of searched through the whole text.
_BANNER_LOOKUPS = {"NWChem SCF Module": ("wavefunction    =", 6000)}
# Rows read of one gradient block (atoms); a bigger BOMD keeps the trajectory file only.
MAX_GRADIENT_ROWS = 10_000


def add_total(
    st: PropertyState, tx: OutputText, kind: EnergyKind, label: str, energy: float, start: int
) -> None:
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
        EnergyPoint(
            index=len(st.energies),
            kind=kind,
            label=label,
            energy=energy,
            line=tx.line_number(start),
            displaced=displaced,
        )
    )


def on_failed_total(st: PropertyState, tx: OutputText, line: str, start: int) -> bool:
    """A total printed as asterisks: flagged, never replaced by another energy."""
    m = FAILED_TOTAL.match(line)
    if not m:
        return False
    lineno = tx.line_number(start)
    kind = m.group(1).lower()
    st.chem.failed_lines[kind] = lineno
    st.chem.failed.append(
        Message(
            message=f"Total {m.group(1)} energy printed as asterisks "
            "(the calculation failed to produce a number)",
            line=lineno,
        )
    )
    return True


def _on_cc_energy(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    m = CC_ENERGY.match(line)
    if not m:
        on_failed_total(st, tx, line, start)
        return
    name = m.group(1)
    label = (
        "MP2 energy (coupled-cluster initial guess)" if name == "MP2" else f"Total {name} energy"
    )
    add_total(st, tx, name.lower(), label, d_float(m.group(2)), start)  # type: ignore[arg-type]


def _on_tce_energy(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    m = TCE_ENERGY.match(line)
    if not m:
        return
    name = m.group(1)
    kind = {"CCSD": "ccsd", "CCSD(T)": "ccsd(t)", "MP2": "mp2"}.get(name)
    if kind is None:
        kind = "ccsd(t)" if "(T)" in name or "[T]" in name or "CCSDT" in name else "ccsd"
    add_total(st, tx, kind, f"TCE {name} total energy", d_float(m.group(2)), start)  # type: ignore[arg-type]


def _on_tddft_start(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    st.chem.excitations = []
    st.chem.td_last = None


def _on_td_root(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    m = TD_ROOT.match(line)
    if not m:
        return
    cs = st.chem
    energy = d_float(m.group(4))
    ev = energy * HARTREE_TO_EV
    ex = Excitation(
        index=len(cs.excitations),
        root=int(m.group(1)),
        spin=m.group(2),
        symmetry=m.group(3),
        energy=energy,
        energyEv=ev,
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
            out.append(
                Transition(
                    occupied=int(m.group(1)),
                    spin=m.group(2),
                    occupiedSymmetry=m.group(3),
                    virtual=int(m.group(4)),
                    virtualSymmetry=m.group(5),
                    coefficient=d_float(m.group(6)),
                    component=m.group(7),
                )
            )
    return out


def _on_irc_start(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    if st.chem.irc_line is None:
        st.chem.irc_line = tx.line_number(start)


def _on_solvation(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    m = COSMO_SOLVATION.match(line)
    if m:
        # NWChem prints gas - solution; the solvation energy is solution - gas.
        st.chem.solvation = -d_float(m.group(1))


def _orbital_reset(st: PropertyState) -> None:
    cs = st.chem
    if cs.orbitals_stale:
        cs.orbital_raw = []
        cs.orbitals_stale = False


def _on_eigenvalues(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
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
    st.chem.orbital_raw.append(("eig", channel, t[max(rows, end) : stop]))


def _on_mo_analysis(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    if "Final" not in line:
        return
    _orbital_reset(st)
    st.chem.orbital_channel = (
        "alpha" if "Alpha" in line else "beta" if "Beta" in line else "restricted"
    )


def _on_vector(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    st.chem.orbital_raw.append(("vec", st.chem.orbital_channel, line))


def _on_s2(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    m = DFT_S2.search(line)
    if m:
        st.chem.s2, st.chem.s2_exact = d_float(m.group(1)), d_float(m.group(2))
        return
    m = SCF_S2.match(line)
    if m:
        st.chem.s2 = d_float(m.group(1))
        st.chem.s2_exact = None


def _on_scf_header(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    m = SCF_HEADER_NUMBER.match(line)
    if not m:
        return
    key = m.group(1).replace("  ", " ")
    if key == "charge":
        st.chem.charge = d_float(m.group(2))
        st.chem.s2 = None
        return
    st.chem.counts[key] = int(float(m.group(2)))


def _on_scf_wavefunction(
    st: PropertyState, tx: OutputText, line: str, start: int, end: int
) -> None:
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


def _on_dft_header(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    st.chem.counts = {}
    for ln in (*tx.lines_before(start, 8), line):
        _on_dft_header_line(st, ln)
        _on_dft_wavefunction(st, tx, ln, start, end)


def _on_dft_header_line(st: PropertyState, line: str) -> None:
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


def _on_dft_wavefunction(
    st: PropertyState, tx: OutputText, line: str, start: int, end: int
) -> None:
    if "Wavefunction type:" not in line:
        return
    m = DFT_WAVEFUNCTION.search(line)
    if m:
        kind = m.group(1).strip()
        st.chem.wavefunction = (
            "UKS" if "spin polarized" in kind else ("RKS" if "closed" in kind else f"DFT {kind}")
        )


def on_banner(st: PropertyState, tx: OutputText, line: str, end: int) -> None:
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


def after_total(st: PropertyState, tx: OutputText, kind: str, end: int) -> None:
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


def on_task_end(st: PropertyState) -> None:
    """The end of a task ends a finite-difference Hessian."""
    st.chem.fd_active = False


def _on_fd_start(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    st.chem.fd_active = True
    st.chem.fd_kinds = set()


def _on_temperature(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
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


def _on_dispersion(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
    m = DISPERSION.match(line)
    if m:
        st.chem.dispersion = d_float(m.group(1))


def _on_qmd_gradient(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
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


def _on_qmd_step(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
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
            index=len(st.energies),
            kind="md",
            label=f"MD step {step or st.chem.md_steps}",
            energy=values["Tot. energy"],
            step=step or st.chem.md_steps,
            time=values.get("Time elapsed"),
            temperature=values.get("Current temp."),
            kineticEnergy=values.get("Kin. energy"),
            potentialEnergy=values.get("Pot. energy"),
            line=tx.line_number(start),
        )
    )


def _on_polarizability(st: PropertyState, tx: OutputText, line: str, start: int, end: int) -> None:
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
        st.chem.polarizabilities.append(
            Polarizability(
                frequency=freq,
                tensor=tensor,
                isotropic=(tensor[0][0] + tensor[1][1] + tensor[2][2]) / 3.0,
                level=charges.density_level(st),
            )
        )


def read_prefix(st: PropertyState, head: str) -> None:
    """The file prefix NWChem printed near the top (``prefix = NAME.``)."""
    pos = head.find("prefix          =")
    if pos >= 0:
        end = head.find("\n", pos)
        start = head.rfind("\n", 0, pos) + 1
        m = FILE_PREFIX.match(head[start : end if end >= 0 else len(head)])
        if m:
            st.chem.prefix = m.group(1)


HANDLERS = {
    "cc_energy": _on_cc_energy,
    "tce_energy": _on_tce_energy,
    "tddft_start": _on_tddft_start,
    "solvation": _on_solvation,
    "irc_start": _on_irc_start,
    "td_root": _on_td_root,
    "eigenvalues": _on_eigenvalues,
    "mo_analysis": _on_mo_analysis,
    "vector": _on_vector,
    "mulliken": charges.on_mulliken,
    "gross_population": charges.on_gross_population,
    "atomic_spin": charges.on_atomic_spin,
    "multipole": charges.on_multipole,
    "dipole": charges.on_dipole,
    "quadrupole": charges.on_quadrupole,
    "s2": _on_s2,
    "scf_wavefunction": _on_scf_wavefunction,
    "dft_header": _on_dft_header,
    "fd_start": _on_fd_start,
    "temperature": _on_temperature,
    "dispersion": _on_dispersion,
    "qmd_step": _on_qmd_step,
    "qmd_gradient": _on_qmd_gradient,
    "polarizability": _on_polarizability,
}
