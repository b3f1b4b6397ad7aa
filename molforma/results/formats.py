"""Readers of MOLDEN and XYZ text into the results model (no Qt).

MOLDEN: ``[Atoms]`` (``Angs`` or ``AU``), ``[FREQ]``, ``[FR-COORD]`` (always bohr,
converted to Å), ``[FR-NORM-COORD]`` (``vibration N`` blocks), ``[INT]`` (km/mol),
the optimisation sections ``[GEOCONV]`` (``energy``) and ``[GEOMETRIES] (XYZ)``, and the
headers of ``[MO]`` (energy, spin, occupation, symmetry: the orbital list and the HOMO /
LUMO of each spin; the coefficients are read only to draw orbitals, by
:mod:`molforma.results.orbitals`).
XYZ: one or many frames; NWChem's per-mode animation step files are read here
frame by frame and assembled by :mod:`molforma.results.reader`.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING

from molforma.errors import ResultsError
from molforma.lazy import lazy_import
from molforma.results.atom_tags import symbol_from_label
from molforma.results.limits import DEFAULT_LIMITS, Limits, StructureCounter, check_cancel
from molforma.results.results_model import (
    HARTREE_TO_EV,
    EnergyPoint,
    Mode,
    Orbital,
    Results,
    Structure,
    Summary,
    formula_of,
    make_mode,
    set_frontier,
)

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (start-up time): molforma.lazy
    np = lazy_import("numpy")  # only results with normal modes use it

BOHR_TO_ANGSTROM = 0.529177210903  # CODATA 2018
_ENERGY_IN_COMMENT = re.compile(r"(?i)\benergy\b\s*[=:]?\s*([-+]?\d+\.\d+(?:[eE][-+]?\d+)?)")


def _bad(source: str, line: int, reason: str) -> ResultsError:
    return ResultsError("results_bad_file", path=source, line=line, reason=reason)


def parse_xyz_frames(
    text: str,
    *,
    source: str,
    counter: StructureCounter,
    cancel: threading.Event | None = None,
    first_index: int = 0,
    label_prefix: str = "frame",
) -> list[Structure]:
    """Every frame of an XYZ text as structures (coordinates in Å).

    Raises:
        ResultsError: ``results_bad_file`` with the line number, or a limit code.
    """
    lines = text.splitlines()
    out: list[Structure] = []
    i = 0
    n_lines = len(lines)
    while i < n_lines:
        if not lines[i].strip():
            i += 1
            continue
        try:
            natoms = int(lines[i].split()[0])
        except (ValueError, IndexError):
            raise _bad(source, i + 1, "expected the number of atoms") from None
        if natoms < 0:
            raise _bad(source, i + 1, "negative number of atoms")
        counter.add(natoms)
        if i + 2 + natoms > n_lines:
            raise _bad(source, i + 1, f"the frame needs {natoms} atom lines")
        comment = lines[i + 1].strip()
        symbols: list[str] = []
        coords: list[list[float]] = []
        for k in range(i + 2, i + 2 + natoms):
            parts = lines[k].split()
            try:
                coords.append([float(parts[1]), float(parts[2]), float(parts[3])])
            except (ValueError, IndexError):
                raise _bad(source, k + 1, "expected 'element x y z'") from None
            symbols.append(symbol_from_label(parts[0]))
        m = _ENERGY_IN_COMMENT.search(comment)
        idx = first_index + len(out)
        out.append(
            Structure(
                index=idx,
                label=f"{label_prefix} {len(out)}",
                comment=comment or None,
                energy=float(m.group(1)) if m else None,
                symbols=symbols,
                coordinates=coords,
            )
        )
        i += 2 + natoms
        if len(out) % 64 == 0:
            check_cancel(cancel, source)
    if not out:
        raise _bad(source, 1, "no frame")
    return out


def parse_xyz(
    text: str,
    *,
    source: str,
    cancel: threading.Event | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Results:
    """An XYZ file (one or many frames) as :class:`Results` of kind ``xyz``.

    Raises:
        ResultsError: a malformed file or a limit passed.
    """
    frames = parse_xyz_frames(
        text, source=source, counter=StructureCounter(limits, source), cancel=cancel
    )
    if len(frames) == 1:
        frames[0].label = "structure"
    return Results(source=source, kind="xyz", summary=structure_summary(frames), structures=frames)


def structure_summary(structures: list[Structure], modes: list[Mode] | None = None) -> Summary:
    """Summary counts of a result made only of structures (and maybe modes)."""
    modes = modes or []
    last = structures[-1].symbols if structures else []
    energies = [s.energy for s in structures if s.energy is not None]
    return Summary(
        finalEnergy=energies[-1] if energies else None,
        finalEnergyLabel="structure energy" if energies else None,
        atomCount=len(last),
        formula=formula_of(last) if last else None,
        structureCount=len(structures),
        modeCount=len(modes),
        imaginaryModes=sum(m.imaginary for m in modes),
        significantImaginaryModes=sum(m.significant for m in modes),
    )


def _sections(text: str, source: str) -> list[tuple[str, str, int, list[str]]]:
    """Split MOLDEN text into (name, header rest, first line number, body lines)."""
    out: list[tuple[str, str, int, list[str]]] = []
    cur: tuple[str, str, int, list[str]] | None = None
    for no, raw in enumerate(text.splitlines(), start=1):
        s = raw.strip()
        if s.startswith("[") and "]" in s:
            name = s[1 : s.index("]")].strip().upper()
            cur = (name, s[s.index("]") + 1 :].strip(), no, [])
            out.append(cur)
        elif cur is not None:
            cur[3].append(raw)
    known = ("ATOMS", "FREQ", "FR-COORD", "GEOMETRIES")
    if (not out or out[0][0] != "MOLDEN FORMAT") and not any(n in known for n, *_ in out):
        raise ResultsError("results_unknown_format", path=source)
    return out


def _mo_headers(body: list[str], first: int, source: str) -> list[Orbital]:
    """The orbitals an ``[MO]`` section lists, in its order (alpha before beta)."""
    out: list[Orbital] = []
    head: dict[str, str] = {}
    counts: dict[str, int] = {}

    def close() -> None:
        if "ene" not in head:
            return
        try:
            energy = float(head["ene"].replace("D", "E").replace("d", "e"))
            occ = float(head["occup"].replace("D", "E")) if "occup" in head else None
        except ValueError:
            raise _bad(source, first, "an [MO] header number is not a number") from None
        spin = "beta" if head.get("spin", "").lower().startswith("beta") else "alpha"
        counts[spin] = counts.get(spin, 0) + 1
        out.append(
            Orbital(
                index=len(out),
                number=counts[spin],
                spin=spin,
                energy=energy,
                energyEv=energy * HARTREE_TO_EV,
                occupation=occ,
                symmetry=head.get("sym") or None,
            )
        )
        head.clear()

    for ln in body:
        key, eq, value = ln.partition("=")
        if eq and key.strip().isalpha():
            name = key.strip().lower()
            if name in head:  # the next orbital's header starts: the last one is complete
                close()
            head[name] = value.strip()
    close()
    # Alpha before beta whatever the file's order, as PySCF's reader (and so the Orbitals
    # tab) numbers them: index i is the same orbital in both.
    out = [
        o.model_copy(update={"index": i})
        for i, o in enumerate(
            [o for o in out if o.spin == "alpha"] + [o for o in out if o.spin == "beta"]
        )
    ]
    if out and not any(o.spin == "beta" for o in out):
        # One channel with occupations up to 2 is a restricted wavefunction.
        out = [o.model_copy(update={"spin": "restricted"}) for o in out]
    return out


def _floats(body: list[str], first: int, source: str) -> list[float]:
    vals: list[float] = []
    for k, ln in enumerate(body):
        if not ln.strip():
            continue
        try:
            vals.append(float(ln.split()[0]))
        except ValueError:
            raise _bad(source, first + 1 + k, "expected a number") from None
    return vals


def _atoms_block(
    body: list[str], first: int, source: str, scale: float, coord_col: int
) -> tuple[list[str], list[list[float]]]:
    symbols: list[str] = []
    coords: list[list[float]] = []
    for k, ln in enumerate(body):
        parts = ln.split()
        if not parts:
            continue
        try:
            xyz = [float(v) * scale for v in parts[coord_col : coord_col + 3]]
        except ValueError:
            raise _bad(source, first + 1 + k, "expected coordinates") from None
        if len(xyz) != 3:
            raise _bad(source, first + 1 + k, "expected coordinates")
        z = None
        if coord_col == 3:
            try:
                z = float(parts[2])
            except ValueError:
                z = None
        symbols.append(symbol_from_label(parts[0], z))
        coords.append(xyz)
    return symbols, coords


def parse_molden(
    text: str,
    *,
    source: str,
    cancel: threading.Event | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Results:
    """A MOLDEN file as :class:`Results` of kind ``molden``.

    Raises:
        ResultsError: ``results_unknown_format``, ``results_bad_file`` or a limit code.
    """
    counter = StructureCounter(limits, source)
    secs = _sections(text, source)
    check_cancel(cancel, source)
    structures: list[Structure] = []
    freqs: list[float] = []
    ints: list[float] = []
    fr_coord: tuple[list[str], list[list[float]]] | None = None
    vibrations: list[list[list[float]]] = []
    geoconv: list[float] = []
    orbitals: list[Orbital] = []
    for name, rest, first, body in secs:
        if name == "ATOMS":
            unit = rest.strip("() ").upper()  # "AU", "(AU)", "Angs", "(Angs)"
            scale = BOHR_TO_ANGSTROM if unit.startswith("AU") or unit.startswith("BOHR") else 1.0
            syms, xyz = _atoms_block(body, first, source, scale, 3)
            counter.add(len(syms))
            structures.append(
                Structure(index=len(structures), label="atoms", symbols=syms, coordinates=xyz)
            )
        elif name == "FREQ":
            freqs = _floats(body, first, source)
        elif name == "INT":
            ints = _floats(body, first, source)
        elif name == "FR-COORD":
            fr_coord = _atoms_block(body, first, source, BOHR_TO_ANGSTROM, 1)
        elif name == "FR-NORM-COORD":
            cur: list[list[float]] | None = None
            for k, ln in enumerate(body):
                parts = ln.split()
                if not parts:
                    continue
                if parts[0].lower() == "vibration":
                    cur = []
                    vibrations.append(cur)
                    continue
                if cur is None:
                    raise _bad(source, first + 1 + k, "expected 'vibration N'")
                try:
                    cur.append([float(parts[0]), float(parts[1]), float(parts[2])])
                except (ValueError, IndexError):
                    raise _bad(source, first + 1 + k, "expected three numbers") from None
        elif name == "MO":
            orbitals = _mo_headers(body, first, source)
        elif name == "GEOCONV":
            # "energy" followed by one value per line, possibly before other keywords.
            in_energy = False
            for ln in body:
                s = ln.strip()
                if not s:
                    continue
                if s[0].isalpha():
                    in_energy = s.lower() == "energy"
                    continue
                if in_energy:
                    geoconv.append(float(s.split()[0]))
        elif name == "GEOMETRIES":
            frames = parse_xyz_frames(
                "\n".join(body),
                source=source,
                counter=counter,
                cancel=cancel,
                first_index=len(structures),
                label_prefix="step",
            )
            for k, fr in enumerate(frames):
                fr.step = k
            structures.extend(frames)
    geo = [s for s in structures if s.label.startswith("step")]
    energies: list[EnergyPoint] = []
    for k, e in enumerate(geoconv):
        sidx = None
        if k < len(geo):
            geo[k].energy = e
            sidx = geo[k].index
        energies.append(
            EnergyPoint(
                index=k,
                kind="optimization",
                label=f"Optimization step {k}",
                energy=e,
                optimization=0,
                step=k,
                structureIndex=sidx,
            )
        )
    ref_index = None
    modes: list[Mode] = []
    disp = None
    if freqs:
        if fr_coord is not None:
            counter.add(len(fr_coord[0]))
            ref_index = len(structures)
            structures.append(
                Structure(
                    index=ref_index, label="reference", symbols=fr_coord[0], coordinates=fr_coord[1]
                )
            )
        elif structures:
            ref_index = len(structures) - 1
        natoms = len(structures[ref_index].symbols) if ref_index is not None else 0
        ok = (
            len(vibrations) == len(freqs)
            and natoms > 0
            and all(len(v) == natoms for v in vibrations)
        )
        if ok:
            disp = np.asarray(vibrations, dtype=float)
        if ints and len(ints) != len(freqs):
            ints = []
        for i, f in enumerate(freqs):
            modes.append(make_mode(i, f, ints[i] if ints else None, disp is not None))
    if not structures and not modes:
        raise _bad(source, 1, "no [Atoms], [FR-COORD] or [GEOMETRIES] section")
    summary = structure_summary(structures, modes)
    summary.program = "MOLDEN"
    summary.energyCount = len(energies)
    summary.optimizationSteps = len(energies)
    if energies:
        summary.finalEnergy, summary.finalEnergyLabel = energies[-1].energy, energies[-1].label
    summary.orbitalCount = len(orbitals)
    set_frontier(summary, orbitals)
    res = Results(
        source=source,
        kind="molden",
        summary=summary,
        structures=structures,
        energies=energies,
        orbitals=orbitals,
        modes=modes,
        modeReferenceStructure=ref_index if modes else None,
    )
    res.set_displacements(disp)
    return res
