"""``molforma results PATH [--section S] [--json]``: results for scripts (no Qt).

Prints the summary (or one section) of an NWChem output, a MOLDEN or XYZ file, an
animation group or a job folder: final energy, convergence and the frequency
table with imaginary markers as text, or, with ``--json``, the same dicts that
``get_results`` returns over MCP. Unreadable input: a message on stderr and exit
status 1; bad arguments: exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from molforma.errors import MolFormaError
from molforma.results.reader import read_results
from molforma.results.results_model import HARTREE_TO_EV, HARTREE_TO_KCAL, Results
from molforma.results.sections import SECTIONS, get_section


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="molforma results",
        description="Summary or one section of an NWChem output, MOLDEN or XYZ file, "
        "or a job folder.",
    )
    p.add_argument("path", help="result file, job folder, or animation key NAME.m-MMM.s-*.xyz")
    p.add_argument(
        "--section", choices=SECTIONS, default="summary", help="section to print (default: summary)"
    )
    p.add_argument("--json", action="store_true", help="print the section as JSON")
    p.add_argument("--offset", type=int, default=0, help="first item (characters for log)")
    p.add_argument("--limit", type=int, default=None, help="at most this many items/characters")
    p.add_argument(
        "--mode", type=int, default=None, help="0-based mode index (section mode_displacements)"
    )
    p.add_argument(
        "--all", action="store_true", help="follow nextOffset and print every page of the section"
    )
    return p


def _fmt(v: float | None, digits: int = 8) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _yes_no(v: bool | None) -> str:
    return {True: "yes", False: "NO", None: "-"}[v]


def _print_summary(res: Results, out: TextIO) -> None:
    s = res.summary
    w = out.write
    w(f"Source:        {res.source}\n")
    if res.resolvedPath and res.resolvedPath != res.source:
        w(f"Read:          {res.resolvedPath}\n")
    w(f"Kind:          {res.kind}" + (f" ({s.program})" if s.program else "") + "\n")
    if s.formula:
        w(f"Formula:       {s.formula} ({s.atomCount} atoms)\n")
    label = f"  [{s.finalEnergyLabel}]" if s.finalEnergyLabel else ""
    final = "-" if s.finalEnergy is None else f"{s.finalEnergy:.8f} hartree{label}"
    w(f"Final energy:  {final}\n")
    for kind, e in s.energiesByKind.items():
        w(f"  last {kind.upper():4s}     {_fmt(e)} hartree\n")
    for msg in s.failedValues:
        w(f"FAILED (line {msg.line}): {msg.message}\n")
    if s.zeroPointEnergy is not None and s.thermochemistry is None:
        w(f"Zero-point:    {_fmt(s.zeroPointEnergy, 6)} hartree\n")
    _print_chemistry(res, out)
    if res.kind == "nwchem":
        w(f"SCF converged: {_yes_no(s.scfConverged)}\n")
        opt = _yes_no(s.optimizationConverged)
        w(
            f"Optimization:  converged {opt}, {s.optimizationSteps} steps\n"
            if s.optimizationConverged is not None
            else "Optimization:  none\n"
        )
        w(f"Completed:     {_yes_no(s.completed)}\n")
    if s.animationMode is not None:
        w(f"Animation:     mode {s.animationMode}, {s.structureCount} steps\n")
    w(f"Structures:    {s.structureCount}   Energies: {s.energyCount}   Files: {s.fileCount}\n")
    if res.modes:
        w(
            f"Frequencies:   {s.modeCount} modes, {s.imaginaryModes} imaginary, "
            f"{s.significantImaginaryModes} significant (< -10 cm-1)\n"
        )
        w("  #   freq/cm-1    IR/km/mol\n")
        for m in res.modes:
            mark = (
                "  imaginary" if m.significant else ("  imaginary (small)" if m.imaginary else "")
            )
            w(f"{m.index:3d}  {m.frequency:10.2f}  {_fmt(m.irIntensity, 3):>11s}{mark}\n")
    for msg in s.errors:
        where = f" (line {msg.line})" if msg.line else ""
        w(f"ERROR{where}: {msg.message}\n")
    for msg in s.warnings:
        where = f" (line {msg.line})" if msg.line else ""
        w(f"Warning{where}: {msg.message}\n")


def _print_chemistry(res: Results, out: TextIO) -> None:
    s = res.summary
    w = out.write
    if s.charge is not None or s.multiplicity is not None:
        charge = "-" if s.charge is None else f"{s.charge:g}"
        w(
            f"Charge/mult.:  {charge} / {s.multiplicity or '-'}"
            + (f"  ({s.wavefunction})" if s.wavefunction else "")
            + "\n"
        )
    if s.s2 is not None:
        flag = "  SPIN CONTAMINATED (> 10 %)" if s.spinContaminated else ""
        exp = f" (S(S+1) = {s.s2Expected:.4f})" if s.s2Expected is not None else ""
        w(f"<S^2>:         {s.s2:.4f}{exp}{flag}\n")
    # Each spin channel's HOMO, LUMO and gap together, named: never one channel's HOMO
    # beside the other's LUMO.
    for f in s.frontier:
        spin = "" if f.spin == "restricted" else f" ({f.spin})"
        if f.homo is not None:
            w(f"{'HOMO' + spin + ':':15s}{f.homo:.6f} hartree ({f.homo * HARTREE_TO_EV:.3f} eV)\n")
        if f.lumo is not None:
            w(f"{'LUMO' + spin + ':':15s}{f.lumo:.6f} hartree ({f.lumo * HARTREE_TO_EV:.3f} eV)\n")
        if f.gap is not None and f.gapEv is not None:
            w(f"{'Gap' + spin + ':':15s}{f.gap:.6f} hartree ({f.gapEv:.3f} eV)\n")
    if s.dispersionEnergy is not None:
        w(f"Dispersion:    {s.dispersionEnergy:.8f} hartree\n")
    m = s.moments
    if m is not None and m.dipole is not None:
        x, y, z = m.dipole
        debye = f"{m.dipoleDebye:.4f} D" if m.dipoleDebye is not None else "-"
        level = f", {m.level.upper()} density" if m.level else ""
        w(
            f"Dipole:        {debye}  ({x:.6f}, {y:.6f}, {z:.6f}) a.u., {m.source}{level}\n"
            f"  frame:       {m.frame}\n"
        )
        if m.quadrupole:
            comps = " ".join(f"{k}={v:.4f}" for k, v in m.quadrupole.items())
            w(f"Quadrupole:    {comps} a.u.\n")
    for p in s.polarizabilities:
        level = f", {p.level.upper()} density" if p.level else ""
        w(
            f"Polarizability (omega = {p.frequency:g} a.u.): isotropic {p.isotropic:.4f} a.u."
            f"{level}\n"
        )
    t = s.thermochemistry
    if t is not None:
        w(f"Thermochemistry at {t.temperature:.2f} K:\n")
        rows = (
            ("Zero-point correction", t.zeroPointEnergy),
            ("Thermal correction to energy", t.thermalEnergyCorrection),
            ("Thermal correction to enthalpy", t.enthalpyCorrection),
            ("Gibbs free energy correction", t.gibbsCorrection),
            ("Electronic energy", t.electronicEnergy),
            ("Enthalpy", t.enthalpy),
            ("Gibbs free energy", t.gibbsFreeEnergy),
        )
        for name, v in rows:
            if v is not None:
                w(f"  {name:32s} {v:16.6f} hartree {v * HARTREE_TO_KCAL:14.3f} kcal/mol\n")
        if t.entropy is not None:
            w(f"  {'Entropy':32s} {t.entropy:16.3f} cal/(mol K)\n")
    if s.mdSteps:
        w(f"BOMD:          {s.mdSteps} steps\n")
    if res.excitations:
        w(f"Excitations:   {len(res.excitations)} roots\n")
        _excitation_rows(res.excitations, out)


def _excitation_rows(items: Sequence[Any], out: TextIO) -> None:
    out.write("  root spin     sym     energy/eV   lambda/nm   f\n")
    for e in items:
        d = e if isinstance(e, dict) else e.model_dump()
        nm = "-" if d["wavelengthNm"] is None else f"{d['wavelengthNm']:.1f}"
        f = "forbidden" if d["spinForbidden"] else _fmt(d["oscillatorStrength"], 6)
        out.write(
            f"  {d['root']:4d} {d['spin'] or '-':8s} {d['symmetry'] or '-':6s}"
            f" {d['energyEv']:10.4f} {nm:>11s}   {f}\n"
        )


def _print_items(page: dict[str, Any], out: TextIO) -> None:
    w = out.write
    sec = page["section"]
    if sec == "log":
        w(page["text"])
        return
    if sec == "excitations":
        _excitation_rows(page["items"], out)
        return
    for it in page["items"]:
        if sec == "orbitals":
            occ = "-" if it["occupation"] is None else f"{it['occupation']:.2f}"
            w(
                f"{it['index']:4d} {it['spin']:10s} {it['number']:5d} {it['energy']:14.6f}"
                f" {it['energyEv']:11.4f} eV  occ {occ:>5s}  {it['symmetry'] or ''}\n"
            )
            continue
        if sec == "scan":
            # round first: a value a hair below zero prints as 0.0000, not -0.0000
            value = "-" if it["value"] is None else f"{round(it['value'], 4) + 0.0:12.4f}"
            energy = "-" if it["energy"] is None else f"{it['energy']:18.10f}"
            rel = "-" if it["relativeKcal"] is None else f"{it['relativeKcal']:9.3f}"
            w(
                f"{it['point']:4d} {it['target']:12.4f} {value:>12s} {energy:>18s} {rel:>9s}"
                f" kcal/mol  {'converged' if it['converged'] else 'not converged'}\n"
            )
            continue
        if sec == "charges":
            q = "-" if it["mulliken"] is None else f"{it['mulliken']:8.4f}"
            spin = "" if it["mullikenSpin"] is None else f"  spin {it['mullikenSpin']:8.4f}"
            w(f"{it['atom']:4d} {it['element']:3s} Mulliken {q}{spin}\n")
            continue
        if sec == "energies":
            w(f"{it['index']:4d}  {it['kind']:12s} {it['energy']:18.10f}  {it['label']}\n")
        elif sec == "structures":
            w(
                f"# structure {it['index']}: {it['label']}"
                + (f", energy {it['energy']:.10f}" if it.get("energy") is not None else "")
                + "\n"
            )
            for sym, (x, y, z) in zip(it["symbols"], it["coordinates"], strict=True):
                w(f"  {sym:3s} {x:14.8f} {y:14.8f} {z:14.8f}\n")
        elif sec == "modes":
            ir = "-" if it["irIntensity"] is None else f"{it['irIntensity']:.3f}"
            mark = " imaginary" if it["imaginary"] else ""
            w(f"{it['index']:4d} {it['frequency']:12.2f} {ir:>12s}{mark}\n")
        elif sec == "mode_displacements":
            x, y, z = it["position"]
            dx, dy, dz = it["displacement"]
            w(
                f"{it['atom']:4d} {it['element']:3s} {x:12.6f} {y:12.6f} {z:12.6f}"
                f"   {dx:10.5f} {dy:10.5f} {dz:10.5f}\n"
            )
        elif sec == "files":
            extra = f" (mode {it['mode']}, {it['steps']} steps)" if it.get("mode") else ""
            w(f"{it['index']:4d}  {it['kind']:20s} {it['name']}{extra}\n")
        else:
            w(json.dumps(it, ensure_ascii=False) + "\n")


def main(argv: Sequence[str]) -> int:
    """Run the command; returns the exit status."""
    args = _parser().parse_args(list(argv))
    out = sys.stdout
    try:
        res = read_results(args.path)
        pages = [
            get_section(res, args.section, offset=args.offset, limit=args.limit, mode=args.mode)
        ]
        while args.all and pages[-1].get("nextOffset") is not None:
            pages.append(
                get_section(
                    res,
                    args.section,
                    offset=pages[-1]["nextOffset"],
                    limit=args.limit,
                    mode=args.mode,
                )
            )
    except MolFormaError as exc:
        sys.stderr.write(f"molforma results: {exc.message()}\n")
        return 1
    if args.json:
        doc: Any = pages[0] if len(pages) == 1 else pages
        out.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return 0
    if args.section == "summary":
        _print_summary(res, out)
        return 0
    for page in pages:
        _print_items(page, out)
    last = pages[-1]
    if last.get("nextOffset") is not None:
        sys.stderr.write(f"(more: --offset {last['nextOffset']}, or --all)\n")
    return 0
