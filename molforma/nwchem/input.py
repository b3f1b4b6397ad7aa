"""NWChem input generation from a project envelope (no Qt, no I/O).

:func:`render_input` builds the input as a list of lines, block by block, and
joins it at the end, so the same project always gives the same text. Every value
that reaches the input from a field an MCP client may change (basis, functional,
title, paths) is checked or cleaned, because NWChem reads ``;`` as a line break
and a ``task shell`` or ``python`` block would run arbitrary code: those, and the
other directives :mod:`molforma.nwchem.protected_text` lists, are refused even in
the protected extra input, judged as NWChem's reader will read them; the whole
rendered input is judged once more before it is returned. :func:`input_errors` lists the
problems a person should fix before running, field by field, for the window.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

from molforma.document import elements
from molforma.document import messages as _document_messages  # noqa: F401 - shared texts
from molforma.errors import ValidationError
from molforma.i18n import catalogue, register, render
from molforma.nwchem.input_geometry import (
    element_set,
    fixed_atom_lines,
    geometry_lines,
    geometry_options,
    scan_geometry,
    symmetry_hazard,
)
from molforma.nwchem.input_geometry import project_block as _block
from molforma.nwchem.protected_text import (
    check_extra_input,
    check_generated_input,
    task_statement,
)
from molforma.nwchem.settings import (
    ADVANCED_PATH_KEYS,
    FREQUENCY_TASKS,
    TASKS,
    THEORIES,
    AdvancedSettings,
    CalculationSettings,
)

__all__ = [
    "FREQUENCY_CONVERGENCE",
    "FREQUENCY_GRID",
    "check_extra_input",
    "geometry_options",
    "input_errors",
    "nwchem_task_lines",
    "render_input",
    "scf_reference",
    "symmetry_hazard",
]

_MESSAGES: dict[str, dict[str, str]] = {
    "bad_basis_name": {
        "en": "Basis set name '{value}' contains characters NWChem cannot read.",
        "ja": "基底関数名「{value}」に NWChem が読めない文字が含まれています。",
    },
    "bad_functional": {
        "en": "Functional '{value}' contains characters NWChem cannot read.",
        "ja": "汎関数「{value}」に NWChem が読めない文字が含まれています。",
    },
    "bad_path": {
        "en": "Path '{value}' for {key} must not contain spaces, quotes, ';', '#' or '\\'.",
        "ja": "{key} のパス「{value}」に空白・引用符・';'・'#'・'\\' は使えません。",
    },
    "bad_prefix": {
        "en": "File prefix '{value}' may only use letters, digits, '.', '_' and '-'.",
        "ja": "ファイル接頭辞「{value}」には英数字と '.'、'_'、'-' だけが使えます。",
    },
    "unknown_theory": {
        "en": "Unknown theory '{value}' (use one of {allowed}).",
        "ja": "不明な理論「{value}」です（{allowed} のいずれか）。",
    },
    "unknown_task": {
        "en": "Unknown task '{value}' (use one of {allowed}).",
        "ja": "不明なタスク「{value}」です（{allowed} のいずれか）。",
    },
    "mp2_reference": {
        "en": "MP2 in NWChem works with RHF or UHF references, not {reference}.",
        "ja": "NWChem の MP2 は RHF か UHF の参照でのみ使えます（{reference} は不可）。",
    },
    "empty_basis": {"en": "Choose a basis set.", "ja": "基底関数を選んでください。"},
    "empty_functional": {
        "en": "Choose a DFT functional.",
        "ja": "DFT 汎関数を選んでください。",
    },
    "excited_states_theory": {
        "en": "Excited states run with SCF (CIS or TDHF) or DFT (TDDFT), not with {theory}: "
        "choose SCF or DFT.",
        "ja": "励起状態は SCF（CIS・TDHF）か DFT（TDDFT）で計算します。{theory} では"
        "計算できません。SCF か DFT を選んでください。",
    },
    "dispersion_twice": {
        "en": "The functional {functional} brings its own dispersion ({own}), and the "
        "advanced setting dispersion asks for {dispersion}: clear the advanced "
        "setting or choose the functional without -D.",
        "ja": "汎関数 {functional} には分散力補正（{own}）が含まれていますが、詳細設定 "
        "dispersion は {dispersion} です。詳細設定を空にするか、-D のない汎関数を"
        "選んでください。",
    },
}
# Generic codes (empty_molecule, bad_path, ...) may also be registered by other modules
# with the same meaning; only the missing ones are added so the import order never matters.
register({code: text for code, text in _MESSAGES.items() if code not in catalogue()})

_SPIN_NAMES = {
    1: "singlet",
    2: "doublet",
    3: "triplet",
    4: "quartet",
    5: "quintet",
    6: "sextet",
    7: "septet",
    8: "octet",
}
_TASK_OPERATIONS = {
    "energy": ("energy",),
    "optimize": ("optimize",),
    "frequencies": ("freq",),
    "optimize+frequencies": ("optimize", "freq"),
    "excited-states": ("energy",),
    # A saddle search, then the Hessian that shows whether one imaginary mode came out.
    "transition-state": ("saddle", "freq"),
}
# What a DFT job with frequencies gets unless the Advanced group says otherwise. NWChem
# 7.0.2 raises the grid of its Hessian step to at least fine and the energy convergence to
# at least 1e-7 by itself, but an optimisation before it runs on the default medium grid at
# 1e-6: the frequencies are then taken off the stationary point of the grid they use.
# The whole job on the fine grid, converged to 1e-8, is what an expert writes by hand.
FREQUENCY_GRID = "fine"
FREQUENCY_CONVERGENCE = 1e-8
_DISPERSION = {"d2": "disp vdw 2", "d3": "disp vdw 3", "d3bj": "disp vdw 4"}
# Basis names in NWChem's library use these characters (6-311++g(2d,2p), def2-svp, 6-31g*).
_BASIS_RE = re.compile(r"^[A-Za-z0-9*+()_.,\-]+$")
# xc takes one or more words with optional numeric weights (xpbe96 cpbe96, hfexch 0.2 ...).
_FUNCTIONAL_RE = re.compile(r"^[A-Za-z0-9_.+\-]+( [A-Za-z0-9_.+\-]+)*$")
# NWChem cannot quote directory names (a quoted scratch_dir is not found), so no spaces.
_PATH_RE = re.compile(r"^[^\s;\"'#\\]+$")
_PREFIX_RE = re.compile(r"^[A-Za-z0-9_.\-]+$")
_TITLE_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\"\\;#]")


# ---------------------------------------------------------------------------
# Settings and helpers


def _settings(project: Mapping[str, Any]) -> tuple[CalculationSettings, AdvancedSettings]:
    """Validated calculation and advanced settings (defaults for missing keys).

    Raises:
        ValidationError: a setting has a bad type or value.
    """
    from molforma.document.envelope import settings_block

    blocks = {key: _block(project, key) for key in ("calculation", "advanced")}
    return settings_block(blocks, "calculation"), settings_block(blocks, "advanced")


def scf_reference(reference: str | None, multiplicity: int) -> str:
    """The SCF reference: the chosen one, else rhf for singlets and uhf otherwise."""
    if reference:
        return reference
    return "rhf" if multiplicity == 1 else "uhf"


def nwchem_task_lines(theory: str, task: str) -> list[str]:
    """The ``task`` lines of a calculation (``optimize+frequencies`` gives two).

    Excited states run in NWChem's tddft module (``task tddft energy``), on a DFT
    wavefunction: with SCF as the theory that is CIS or TDHF (``xc hfexch``).
    """
    if task == "excited-states":
        return ["task tddft energy"]
    return [f"task {theory} {op}" for op in _TASK_OPERATIONS[task]]


def _irc_task(calc: CalculationSettings) -> list[str]:
    return [f"task {calc.theory} mepgs"] if _mepgs(calc) else []


def _sci(value: float) -> str:
    return f"{float(value):.3e}"


def _check_path(key: str, value: str) -> str:
    expanded = os.path.expanduser(value)
    if not _PATH_RE.match(expanded):
        raise ValidationError("bad_path", key=key, value=value)
    return expanded


def _directory(key: str, value: str) -> str:
    """A directory argument; a bare relative name gets ``./``.

    NWChem 7.0.2 doubles a bare relative permanent directory (``perm`` becomes
    ``perm/perm/`` for the vectors file and the run fails); ``./perm`` works.
    """
    path = _check_path(key, value)
    if not path.startswith(("/", "./", "../")) and path not in (".", ".."):
        path = "./" + path
    return path


def _title(project: Mapping[str, Any]) -> str:
    doc = _block(project, "document")
    title = str(doc.get("title") or "").strip()
    if not title:
        from molforma.document.envelope import formula

        atoms = doc.get("atoms") or []
        title = formula(atoms) or "molecule"
    title = _TITLE_UNSAFE.sub(" ", title)
    return " ".join(title.split())[:200]


def _check_names(calc: CalculationSettings) -> None:
    if not _BASIS_RE.match(calc.basis):
        raise ValidationError("bad_basis_name", value=calc.basis)
    if calc.theory == "dft" and not _FUNCTIONAL_RE.match(calc.functional.strip()):
        raise ValidationError("bad_functional", value=calc.functional)
    if calc.theory == "dft":
        from molforma.nwchem import functionals

        functionals.check(calc.functional)  # unknown_functional: never written into a run


# ---------------------------------------------------------------------------
# Blocks


def _header(project: Mapping[str, Any], adv: AdvancedSettings, prefix: str) -> list[str]:
    lines = [f"start {prefix}", f'title "{_title(project)}"', "echo"]
    if adv.print_level:
        lines.append(f"print {adv.print_level}")
    return lines


def _memory(adv: AdvancedSettings) -> list[str]:
    lines = []
    if adv.memory_mb:
        lines.append(f"memory total {adv.memory_mb} mb")
    if adv.scratch_dir:
        lines.append(f"scratch_dir {_directory('scratch_dir', adv.scratch_dir)}")
    if adv.permanent_dir:
        lines.append(f"permanent_dir {_directory('permanent_dir', adv.permanent_dir)}")
    return lines


def _basis(calc: CalculationSettings, adv: AdvancedSettings, elements: Iterable[str]) -> list[str]:
    from molforma.catalog import basis_entry, basis_is_spherical

    # NWChem's basis block is Cartesian unless told otherwise; cc-pVDZ water run
    # Cartesian is 0.34 mEh off the published (spherical) energy.
    spherical = adv.basis_spherical
    if spherical is None:
        spherical = basis_is_spherical(calc.basis)
    lines = ["basis spherical" if spherical else "basis", f"  * library {calc.basis}", "end"]
    # Effective-core-potential sets (def2-*, lanl2dz_ecp) need their ECP for the heavy
    # elements; "* library" would ask for ECPs that do not exist for light ones.

    entry = basis_entry(calc.basis)
    if entry and entry.get("ecp"):
        heavy = [e for e in sorted(set(elements)) if e in set(entry.get("ecpElements", ()))]
        if heavy:
            lines += ["ecp"] + [f"  {e} library {entry['ecp']}" for e in heavy] + ["end"]
    return lines


def _vectors(adv: AdvancedSettings) -> list[str]:
    parts = []
    if adv.input_movecs:
        parts.append(f"input {_check_path('input_movecs', adv.input_movecs)}")
    if adv.output_movecs:
        parts.append(f"output {_check_path('output_movecs', adv.output_movecs)}")
    return ["  vectors " + " ".join(parts)] if parts else []


def _scf(calc: CalculationSettings, adv: AdvancedSettings, mult: int) -> list[str]:
    ref = scf_reference(calc.reference, mult)
    lines = ["scf", f"  {ref}"]
    if mult in _SPIN_NAMES:
        lines.append(f"  {_SPIN_NAMES[mult]}")
    else:
        lines.append(f"  nopen {mult - 1}")
    if adv.scf_maxiter:
        lines.append(f"  maxiter {adv.scf_maxiter}")
    if adv.scf_thresh:
        lines.append(f"  thresh {_sci(adv.scf_thresh)}")
    if calc.theory != "dft":
        lines += _vectors(adv)
    lines.append("end")
    return lines


def frequency_defaults(calc: CalculationSettings, adv: AdvancedSettings) -> dict[str, Any]:
    """The DFT settings a frequency step gets by default (``grid``, ``convergence``):
    those the Advanced group leaves at null, for a DFT task with a Hessian."""
    if calc.theory != "dft" or calc.task not in FREQUENCY_TASKS:
        return {}
    out: dict[str, Any] = {}
    if adv.dft_grid is None:
        out["grid"] = FREQUENCY_GRID
    if adv.dft_convergence_energy is None:
        out["convergence"] = FREQUENCY_CONVERGENCE
    return out


def _dft(calc: CalculationSettings, adv: AdvancedSettings, mult: int) -> list[str]:
    ref = scf_reference(calc.reference, mult)
    tight = frequency_defaults(calc, adv)
    lines = []
    if tight:
        # Said in the input itself, as the symmetry choice is, so it is seen before Run.
        parts = []
        if "grid" in tight:
            parts.append(f"grid {tight['grid']}")
        if "convergence" in tight:
            parts.append(f"convergence energy {tight['convergence']:g}")
        said = " and ".join(parts)
        lines.append(
            f"# frequencies: {said} for every step (NWChem raises only its Hessian "
            "to fine and 1e-7, so an optimisation before it would stop on the medium "
            "grid's surface); change dft_grid / dft_convergence_energy in Advanced"
        )
    lines += ["dft", f"  mult {mult}"]
    if ref == "rohf":
        lines.append("  rodft")
    elif ref == "uhf" or mult > 1:
        lines.append("  odft")
    from molforma.nwchem import functionals

    # The functional table knows NWChem's syntax for each name: the xc line and what
    # belongs beside it (cam for range separation, disp for a -D functional).
    own_disp = None
    if calc.theory == "dft":
        lines += [f"  {x}" for x in functionals.dft_lines(calc.functional)]
        own_disp = functionals.own_dispersion(calc.functional)
    else:
        # Excited states of an SCF reference: the tddft module works on a DFT
        # wavefunction, and 100 % exact exchange with no correlation is Hartree-Fock.
        lines.append("  xc hfexch 1.0")
    grid = adv.dft_grid or tight.get("grid")
    if grid:
        lines.append(f"  grid {grid}")
    if adv.dft_iterations:
        lines.append(f"  iterations {adv.dft_iterations}")
    convergence = adv.dft_convergence_energy or tight.get("convergence")
    if convergence:
        lines.append(f"  convergence energy {_sci(convergence)}")
    if adv.dispersion and calc.theory != "dft":
        pass  # dispersion is a DFT setting (its description says so)
    elif adv.dispersion and own_disp is None:
        lines.append(f"  {_DISPERSION[adv.dispersion]}")
    elif adv.dispersion and _DISPERSION[adv.dispersion] != own_disp:
        # Two disp lines: NWChem keeps the last one, so one of the two would be silently lost.
        raise ValidationError(
            "dispersion_twice", functional=calc.functional, own=own_disp, dispersion=adv.dispersion
        )
    lines += _vectors(adv)
    lines.append("end")
    return lines


def _mp2(calc: CalculationSettings, adv: AdvancedSettings) -> list[str]:
    # Frozen core is what every MP2 reference value assumes; NWChem's default
    # correlates the core electrons too.
    if calc.theory != "mp2" or not adv.mp2_frozen_core:
        return []
    return ["mp2", "  freeze atomic", "end"]


def _tddft(calc: CalculationSettings, mult: int) -> list[str]:
    if calc.task != "excited-states":
        return []
    lines = ["tddft", f"  nroots {calc.excited_roots}"]
    if mult == 1 and calc.excited_spin == "singlets":
        lines.append("  notriplet")
    elif mult == 1 and calc.excited_spin == "triplets":
        lines.append("  nosinglet")
    if calc.excited_method == "tda":
        lines.append("  cis")  # NWChem's keyword for the Tamm-Dancoff approximation
    return [*lines, "end"]


# Points of each half of the reaction path. NWChem 7.0.2 stops the whole job ("mepgs: could
# not optimize") when a side needs more than maxmep points: HCN -> HNC at RHF/STO-3G takes
# 23 forward and 27 backward at the default stride of 0.1 (mass-weighted bohr).
IRC_POINTS = 60


def _mepgs(calc: CalculationSettings) -> list[str]:
    if calc.task != "transition-state" or not calc.irc:
        return []
    # inhess 2: the Hessian of the frequency step just before (the .hess file), so the path
    # starts along the imaginary mode without a new Hessian; xyz writes each side's points
    # (<prefix>.fxyz forward, <prefix>.bxyz backward) with their energies.
    return ["mepgs", f"  maxmep {IRC_POINTS}", "  inhess 2", "  stride 0.1", "  xyz", "end"]


def _cosmo(calc: CalculationSettings) -> list[str]:
    from molforma.nwchem import solvents

    eps = solvents.dielectric_of(calc.solvent, calc.dielectric)
    if eps is None:
        return []
    name = calc.solvent or "custom dielectric"
    return [f"# solvent: {name} (COSMO)", "cosmo", f"  dielec {eps:g}", "end"]


def _driver(calc: CalculationSettings, adv: AdvancedSettings, prefix: str) -> list[str]:
    if "optimize" not in calc.task and calc.task != "transition-state":
        return []
    lines = ["driver"]
    if adv.opt_maxiter:
        lines.append(f"  maxiter {adv.opt_maxiter}")
    lines += [f"  xyz {prefix}", "end"]
    return lines


def _freq(adv: AdvancedSettings) -> list[str]:
    return ["freq", "  animate", "end"] if adv.freq_animate else []


def _property(adv: AdvancedSettings) -> list[str]:
    if not (adv.properties or adv.molden_file):
        return []
    lines = ["property"]
    if adv.properties:
        lines += ["  dipole", "  quadrupole", "  mulliken"]
    if adv.molden_file:
        # janpa normalisation is what MOLDEN readers (PySCF, Jmol, Avogadro) expect.
        lines += ["  moldenfile", "  molden_norm janpa"]
    return [*lines, "end"]


def _property_task(calc: CalculationSettings, adv: AdvancedSettings) -> list[str]:
    # NWChem's property module runs on SCF and DFT wavefunctions only.
    if not (adv.properties or adv.molden_file):
        return []
    return [f"task {'dft' if calc.theory == 'dft' else 'scf'} property"]


def _extra(calc: CalculationSettings) -> list[str]:
    # Split on line feeds only, as NWChem does (the check refused every other separator).
    text = calc.extra_input.replace("\r\n", "\n").strip("\n")
    return text.split("\n") if text.strip() else []


def _tasks(calc: CalculationSettings) -> list[str]:
    lines = nwchem_task_lines(calc.theory, calc.task) + _irc_task(calc)
    for task in calc.extra_tasks:
        if task.strip():
            lines.append(task_statement(task))
    return lines


# ---------------------------------------------------------------------------
# Public functions


def render_input(
    project: Mapping[str, Any], *, prefix: str = "molforma", geometry_rows: int | None = None
) -> str:
    """The complete NWChem input for ``project`` (a project envelope dict).

    Pure: no files are read or written. The same project gives the same text.
    ``geometry_rows`` cuts the geometry block to its first atom lines (the window's
    preview of a large structure); jobs and exports leave it None.

    Raises:
        ValidationError: a bad setting, a basis/functional/path NWChem cannot read
            safely, a bad prefix, or forbidden extra input (``forbidden_extra_input``).
    """
    if not _PREFIX_RE.match(prefix):
        raise ValidationError("bad_prefix", value=prefix)
    calc, adv = _settings(project)
    check_extra_input(calc.extra_input, calc.extra_tasks)
    _check_names(calc)
    if calc.task == "excited-states" and calc.theory == "mp2":
        raise ValidationError("excited_states_theory", theory="MP2")
    from molforma.nwchem import constraints

    constraints.check_project(project)
    doc = _block(project, "document")
    mult = int(doc.get("multiplicity", 1) or 1)
    lines: list[str] = []
    lines += _header(project, adv, prefix)
    lines += _memory(adv)
    if calc.scan:
        lines.append(
            f"# relaxed scan: point 1 of {calc.scan['steps'] + 1}, the molecule with "
            "the scanned coordinate set"
        )
        lines += geometry_lines(
            constraints.preset_project(project, calc.scan["start"]), adv, rows=geometry_rows
        )
    else:
        lines += geometry_lines(project, adv, rows=geometry_rows)
    lines += fixed_atom_lines(project)
    lines += _basis(calc, adv, element_set(doc.get("atoms") or []))
    lines += _scf(calc, adv, mult)
    if calc.theory == "dft" or calc.task == "excited-states":
        lines += _dft(calc, adv, mult)
    lines += _cosmo(calc)
    lines += _tddft(calc, mult)
    lines += _mp2(calc, adv)
    lines += _driver(calc, adv, prefix)
    lines += _mepgs(calc)
    lines += _freq(adv)
    lines += _property(adv)
    lines += _extra(calc)
    task_lines = _tasks(calc)
    if calc.scan:
        # One job: each further point after the previous point's optimisation.
        task_lines[1:1] = constraints.scan_point_blocks(project, task_lines[0], scan_geometry(adv))
    lines += task_lines
    lines += _property_task(calc, adv)
    text = "\n".join(lines) + "\n"
    check_generated_input(text)
    return text


def _problem(field: str, code: str, **details: Any) -> dict[str, Any]:
    return {"field": field, "code": code, "message": render(code, details), "details": details}


def input_errors(project: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Problems to fix before running, each ``{field, code, message, details}``.

    ``field`` is a dotted path such as ``document.multiplicity`` or
    ``calculation.basis``; ``message`` is in the display language. An empty list
    means :func:`render_input` gives a runnable input.
    """
    problems: list[dict[str, Any]] = []
    doc = _block(project, "document")
    calc_raw = _block(project, "calculation")
    theory = calc_raw.get("theory", "scf")
    task = calc_raw.get("task", "energy")
    if theory not in THEORIES:
        problems.append(
            _problem(
                "calculation.theory", "unknown_theory", value=theory, allowed=", ".join(THEORIES)
            )
        )
    if task not in TASKS:
        problems.append(
            _problem("calculation.task", "unknown_task", value=task, allowed=", ".join(TASKS))
        )
    if problems:
        return problems
    try:
        calc, adv = _settings(project)
    except ValidationError as exc:
        field = f"{exc.data.get('block')}.{exc.data.get('key')}"
        return [_problem(field, exc.code, **exc.data)]

    atoms = doc.get("atoms") or []
    if not atoms:
        problems.append(_problem("document.atoms", "empty_molecule"))
    mult = doc.get("multiplicity", 1)
    charge = doc.get("charge", 0)
    if atoms and isinstance(mult, int) and isinstance(charge, int):
        electrons = _electrons(atoms, charge)
        if electrons is not None:
            if electrons < 1:
                problems.append(
                    _problem("document.charge", "too_few_electrons", electrons=electrons)
                )
            elif (electrons - (mult - 1)) % 2 != 0 or mult - 1 > electrons:
                problems.append(
                    _problem(
                        "document.multiplicity",
                        "multiplicity_parity",
                        electrons=electrons,
                        multiplicity=mult,
                    )
                )
    if isinstance(mult, int):
        ref = scf_reference(calc.reference, mult)
        if ref == "rhf" and mult != 1:
            problems.append(
                _problem("calculation.reference", "reference_multiplicity", multiplicity=mult)
            )
        if calc.theory == "mp2" and ref == "rohf":
            problems.append(_problem("calculation.reference", "mp2_reference", reference=ref))
    if not calc.basis.strip():
        problems.append(_problem("calculation.basis", "empty_basis"))
    elif not _BASIS_RE.match(calc.basis):
        problems.append(_problem("calculation.basis", "bad_basis_name", value=calc.basis))
    if calc.theory == "dft":
        if not calc.functional.strip():
            problems.append(_problem("calculation.functional", "empty_functional"))
        elif not _FUNCTIONAL_RE.match(calc.functional.strip()):
            problems.append(
                _problem("calculation.functional", "bad_functional", value=calc.functional)
            )
        else:
            problems += _functional_problems(calc, adv)
    for key in ADVANCED_PATH_KEYS:
        value = getattr(adv, key)
        if value and not _PATH_RE.match(os.path.expanduser(value)):
            problems.append(_problem(f"advanced.{key}", "bad_path", key=key, value=value))
    if calc.task == "excited-states" and calc.theory == "mp2":
        problems.append(_problem("calculation.task", "excited_states_theory", theory="MP2"))
    moves = "optimize" in calc.task or calc.task == "transition-state"
    fixed = _fixed_flags(atoms)
    if moves and atoms and all(fixed):
        problems.append(_problem("document.atoms", "all_atoms_fixed"))
    if adv.nocenter is False and any(fixed):
        problems.append(_problem("advanced.nocenter", "fixed_atoms_internal_coordinates"))
    from molforma.nwchem import constraints

    problems += [
        _problem(p["field"], p["code"], **p["details"]) for p in constraints.problems(project)
    ]
    try:
        check_extra_input(calc.extra_input, calc.extra_tasks)
    except ValidationError as exc:
        tasks_field = exc.code == "bad_extra_task" or exc.data.get("source") == "extra_tasks"
        field = "calculation.extra_tasks" if tasks_field else "calculation.extra_input"
        problems.append(
            {"field": field, "code": exc.code, "message": exc.message(), "details": dict(exc.data)}
        )
    return problems


def _functional_problems(calc: CalculationSettings, adv: AdvancedSettings) -> list[dict[str, Any]]:
    """A functional the table does not know (a project file, a reused job: a set is refused
    at once) and a dispersion asked for twice."""
    from molforma.nwchem import functionals

    try:
        functionals.check(calc.functional)
    except ValidationError as exc:
        return [
            {
                "field": "calculation.functional",
                "code": exc.code,
                "message": exc.message(),
                "details": dict(exc.data),
            }
        ]
    own = functionals.own_dispersion(calc.functional)
    if adv.dispersion and own is not None and _DISPERSION[adv.dispersion] != own:
        return [
            _problem(
                "advanced.dispersion",
                "dispersion_twice",
                functional=calc.functional,
                own=own,
                dispersion=adv.dispersion,
            )
        ]
    return []


def _fixed_flags(atoms: Any) -> Any:
    """Each atom's fixed flag (a column table's own column: no record per atom)."""
    from molforma.document.molecule import AtomTable

    if isinstance(atoms, AtomTable):
        return atoms.fixed.tolist()
    return [bool(a.get("fixed")) for a in atoms]


def _electrons(atoms: Iterable[Mapping[str, Any]], charge: int) -> int | None:
    from molforma.document.molecule import AtomTable

    if isinstance(atoms, AtomTable):
        # Atomic numbers are the table's own column.
        if len(atoms) and not bool(atoms.z.all()):
            return None
        return int(atoms.z.sum(dtype="int64")) - charge
    total = 0
    for atom in atoms:
        symbol = elements.normalize_symbol(str(atom.get("element", "")))
        if symbol is None:
            return None
        total += elements.atomic_number(symbol)
    return total - charge
