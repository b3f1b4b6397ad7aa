"""Assembling what the NWChem property handlers collected into the results model (no Qt).

:func:`choose_final` picks the energy a chemist quotes for the run; :func:`finish` fills
the summary and returns the excitation, orbital and charge sections.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from molforma.nwchem.output_patterns import EIGENVALUE_ROW, VECTOR, d_float
from molforma.nwchem.parser_charges import multipole_moments
from molforma.results.results_model import (
    HARTREE_TO_EV,
    HARTREE_TO_KCAL,
    AtomCharge,
    EnergyPoint,
    Excitation,
    Message,
    Orbital,
    SpinChannel,
    Summary,
    Thermochemistry,
    set_frontier,
)

if TYPE_CHECKING:
    from molforma.nwchem.parser_chem_state import ChemState, PropertyState

S2_TOLERANCE = 0.10  # docs/features.md (results reader table): warn when <S^2> departs from S(S+1) by more than 10 %
LEVEL_RANK = {"scf": 0, "dft": 0, "mp2": 1, "ccsd": 2, "ccsd(t)": 3}


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
        if (
            correlated_since
            and prev is not None
            and prev.kind == e.kind
            and abs(prev.energy - e.energy) < SAME_REFERENCE_EH
        ):
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
            out.append(
                Orbital(
                    index=len(out),
                    number=n,
                    spin=channel,
                    energy=energy,
                    energyEv=energy * HARTREE_TO_EV,
                    occupation=occupation,
                    symmetry=sym if isinstance(sym, str) else None,
                )
            )
    return out


def _aufbau(channel: str, n: int, c: dict[str, int]) -> float | None:
    if channel == "restricted" and "closed shells" in c:
        closed, opened = c["closed shells"], c.get("open shells", 0)
        return 2.0 if n <= closed else 1.0 if n <= closed + opened else 0.0
    key = f"{channel} electrons"
    if key in c:
        return 1.0 if n <= c[key] else 0.0
    return None


def finish(
    st: PropertyState, summary: Summary, symbols: list[str]
) -> tuple[list[Excitation], list[Orbital], list[AtomCharge]]:
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
            contaminated = (
                abs(cs.s2 - exact) > S2_TOLERANCE * exact if exact > 0 else cs.s2 > S2_TOLERANCE
            )
            summary.spinContaminated = contaminated
            if contaminated:
                summary.warnings.append(
                    Message(
                        message=f"Spin contamination: <S^2> = {cs.s2:.4f}, expected "
                        f"S(S+1) = {exact:.4f} (more than 10 % off)"
                    )
                )
                summary.warningCount += 1
    if cs.multipole is not None and (cs.moments is None or cs.moments.source != "property"):
        cs.moments = multipole_moments(*cs.multipole) or cs.moments
    summary.moments = cs.moments
    summary.dispersionEnergy = cs.dispersion
    summary.solvationEnergy = cs.solvation
    summary.polarizabilities = cs.polarizabilities
    summary.mdSteps = cs.md_steps
    summary.failedValues = cs.failed
    if cs.temperature is not None:
        ref = choose_final(st.energies[: cs.thermo_energies])
        summary.thermochemistry = _thermo(
            cs, summary.zeroPointEnergy, ref.energy if ref is not None else None
        )
    excitations = cs.excitations
    charges: list[AtomCharge] = []
    spins = cs.mulliken_spin if len(cs.mulliken_spin) == len(cs.mulliken) else []
    for i, (label, q) in enumerate(cs.mulliken):
        element = symbols[i] if i < len(symbols) else label
        charges.append(
            AtomCharge(
                atom=i, element=element, mulliken=q, mullikenSpin=spins[i] if spins else None
            )
        )
    summary.excitationCount = len(excitations)
    summary.orbitalCount = len(orbitals)
    summary.chargeCount = len(charges)
    return excitations, orbitals, charges


def _thermo(cs: ChemState, zpe: float | None, e0: float | None) -> Thermochemistry:
    t = cs.temperature or 0.0
    h = cs.thermal.get("enthalpy")
    s = cs.entropy
    g = h - t * s / 1000.0 / HARTREE_TO_KCAL if h is not None and s is not None else None
    kcal = {
        k: v * HARTREE_TO_KCAL
        for k, v in (
            ("zeroPointEnergy", zpe),
            ("thermalEnergyCorrection", cs.thermal.get("energy")),
            ("enthalpyCorrection", h),
            ("gibbsCorrection", g),
        )
        if v is not None
    }
    return Thermochemistry(
        temperature=t,
        zeroPointEnergy=zpe,
        thermalEnergyCorrection=cs.thermal.get("energy"),
        enthalpyCorrection=h,
        entropy=s,
        gibbsCorrection=g,
        electronicEnergy=e0,
        enthalpy=e0 + h if e0 is not None and h is not None else None,
        gibbsFreeEnergy=e0 + g if e0 is not None and g is not None else None,
        kcalPerMol=kcal,
    )
