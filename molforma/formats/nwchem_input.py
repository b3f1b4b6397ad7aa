"""Reading NWChem input files (``.nw``): structure, charge, multiplicity, conditions (no Qt).

Writing is :func:`molforma.nwchem.input.render_input`. The reader follows NWChem's
own reading rules: case-insensitive keywords, ``#`` comments, ``;`` as a line
break and a trailing ``\\`` joining lines (:mod:`molforma.nwchem.lexer`). It takes:

* the default geometry (unnamed or named ``geometry``; else the first): atom tags
  (``C``, ``H2``, ``Cl_a``; the element is read from the leading letters, a tag
  other than the element becomes the atom name), coordinates in the block's units
  (angstrom, au/bohr, nm, pm), ``mass`` (kept as the mass number when it is an
  isotope mass), ``noautosym`` / ``nocenter``; z-matrix, periodic and ghost atoms
  are refused with their line;
* ``constraints`` ``fix atom`` lists as fixed atoms; ``zcoord`` entries marked
  ``constant`` as distance, angle and dihedral constraints, and the one named ``scan``
  with its ``geometry adjust`` values as a relaxed scan (:mod:`molforma.nwchem.constraints`);
* ``title``, ``charge``; the multiplicity from the ``scf`` (singlet.. / nopen) or
  ``dft`` (``mult``) block, singlet when neither says;
* ``calculation``: task and theory from the ``task`` lines (scf, dft, mp2; an
  optimize followed by freq is ``optimize+frequencies``), ``xc`` functional,
  a single ``* library`` basis, the SCF reference when it differs from the automatic one;
* ``advanced`` (memory, directories, movecs, SCF/DFT iterations and convergence,
  grid, dispersion, optimiser iterations, ``freq animate``, print level) — given
  in :attr:`Structure.advanced` for callers that want it; loading a ``.nw`` keeps
  the project's advanced settings and extra input (docs/reference/files.md, What a load replaces).

Bonds are perceived with RDKit using the charge.

An input that NWChem would read as ``task shell``, ``python``, ``include`` or another
directive :mod:`molforma.nwchem.protected_text` refuses is not opened at all
(``format_forbidden_directive``), judged as NWChem's reader reads it: MolForma
takes only conditions from a ``.nw``, but a file that tries to run a program or
pull in another file is not something to load quietly.
"""

from __future__ import annotations

import math
from typing import Any

from molforma.document import elements
from molforma.formats.common import (
    FORMAT_LABELS,
    FileFormatError,
    Structure,
    clean_name,
    element_from_label,
    fail,
    format_error,
    is_number,
    make_atom,
    syntax,
    to_float,
    where,
)
from molforma.formats.rdkit_bridge import perceive_bonds
from molforma.i18n import catalogue, display_language, register, render
from molforma.nwchem.input import FREQUENCY_CONVERGENCE, FREQUENCY_GRID
from molforma.nwchem.lexer import BLOCK_DIRECTIVES, block_end, statements
from molforma.nwchem.protected_text import find_directives, reason_text
from molforma.nwchem.settings import FREQUENCY_TASKS

FMT = "nwchem"
BOHR = 0.529177210903
_UNITS = {
    "angstrom": 1.0,
    "angstroms": 1.0,
    "an": 1.0,
    "au": BOHR,
    "atomic": BOHR,
    "bohr": BOHR,
    "nm": 10.0,
    "nanometers": 10.0,
    "pm": 0.01,
    "picometers": 0.01,
}
_SPIN = {
    "singlet": 1,
    "doublet": 2,
    "triplet": 3,
    "quartet": 4,
    "quintet": 5,
    "sextet": 6,
    "septet": 7,
    "octet": 8,
}
_OPERATIONS = {
    "energy": "energy",
    "optimize": "optimize",
    "opt": "optimize",
    "freq": "frequencies",
    "frequencies": "frequencies",
    "vib": "frequencies",
    "hessian": "frequencies",
    "saddle": "saddle",
    "mepgs": "mepgs",
}
_GRIDS = ("xcoarse", "coarse", "medium", "fine", "xfine")
_DISPERSION = {"2": "d2", "3": "d3", "4": "d3bj"}


_MESSAGES = {
    "format_forbidden_directive": {
        "en": "Cannot read {format}{where}: {why} ('{statement}'). MolForma does not open "
        "NWChem inputs that run a shell command or Python, or read another file.",
        "ja": "{format} を読み込めません{where}: {why}（「{statement}」）。MolForma はシェル"
        "コマンドや Python を実行する、または別のファイルを読む NWChem 入力は開きません。",
    },
}
register({code: text for code, text in _MESSAGES.items() if code not in catalogue()})


class ForbiddenDirectiveError(FileFormatError):
    """``format_error`` of kind ``format_forbidden_directive``; the reason is localized."""

    def message(self, lang: str | None = None) -> str:
        """The sentence in ``lang`` (default: the display language)."""
        lang = lang or display_language()
        data = {**self.data, "why": reason_text(str(self.data.get("reason")), lang)}
        return render("format_forbidden_directive", data, lang)


def _refuse_directives(text: str) -> None:
    found = find_directives(text)
    if found:
        first = found[0]
        raise ForbiddenDirectiveError(
            "format_error",
            kind="format_forbidden_directive",
            format=FORMAT_LABELS[FMT],
            where=where(first.lineno),
            line=first.lineno,
            reason=first.reason,
            statement=first.statement,
        )


def _block(stmts: list[tuple[int, str]], i: int) -> tuple[list[tuple[int, str]], int]:
    """Statements of the block opened at ``stmts[i]`` and the index after its ``end``."""
    end = block_end(stmts, i)
    if end is None:
        raise format_error(
            "format_truncated",
            FMT,
            stmts[i][0],
            reason=f"'{stmts[i][1].split()[0]}' block has no 'end'",
            expected="'end'",
        )
    return stmts[i + 1 : end], end + 1


def _unquote(text: str) -> str:
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] == '"':
        return t[1:-1]
    return t


def _memory_mb(words: list[str], lineno: int) -> int | None:
    """Total memory in MB of a ``memory`` directive (total, or heap + stack + global).

    Raises:
        FormatError: ``format_bad_number`` for an infinite or NaN amount (``inf mb``).
    """
    units = {
        "b": 1 / 2**20,
        "kb": 1 / 1024,
        "mb": 1.0,
        "gb": 1024.0,
        "w": 8 / 2**20,
        "kw": 8 / 1024,
        "mw": 8.0,
        "gw": 8192.0,
    }
    amounts: dict[str, float] = {}
    key = "total"
    k = 1
    while k < len(words):
        w = words[k].lower()
        if w in ("total", "heap", "stack", "global"):
            key = w
            k += 1
            continue
        try:
            value = float(w)
        except ValueError:
            k += 1
            continue
        if not math.isfinite(value):
            fail(
                "format_bad_number",
                FMT,
                lineno,
                reason=f"'{w}' is not a memory amount",
                value=w,
                what="memory amount",
            )
        unit = words[k + 1].lower() if k + 1 < len(words) else "w"
        factor = units.get(unit)
        if factor is None:
            factor = units["w"]
        else:
            k += 1
        amounts[key] = value * factor
        k += 1
    if "total" in amounts:
        mb = amounts["total"]
    elif amounts:
        mb = sum(amounts.values())
    else:
        return None
    mb_int = round(mb)
    return mb_int if 16 <= mb_int <= 1_048_576 else None


def _mass_props(element: str, mass: float) -> dict[str, Any]:
    """``massNumber`` when ``mass`` is an isotope mass of ``element``, else ``mass``."""
    guess = round(mass)
    exact = elements.isotope_mass(element, guess)
    if exact is not None and abs(exact - mass) < 1e-4:
        return {"massNumber": guess}
    return {"mass": mass}


def _geometry(
    header: tuple[int, str], body: list[tuple[int, str]]
) -> tuple[list[dict[str, Any]], dict[str, bool]]:
    words = header[1].split()
    opts = [w.lower() for w in words[1:]]
    scale = 1.0
    if "units" in opts:
        k = opts.index("units")
        unit = opts[k + 1] if k + 1 < len(opts) else ""
        if unit not in _UNITS:
            syntax(FMT, header[0], f"unknown geometry units '{unit}'")
        scale = _UNITS[unit]
    # An option that is absent leaves the setting automatic (NWChem's own default is
    # symmetry and internal coordinates on; MolForma's automatic choice only differs
    # when atoms are fixed).
    options: dict[str, bool] = {key: True for key in ("noautosym", "nocenter") if key in opts}
    atoms: list[dict[str, Any]] = []
    for lineno, stmt in body:
        parts = stmt.split()
        key = parts[0].lower()
        if key in ("symmetry", "print", "noprint", "adjust"):
            continue
        if key == "zcoord":
            break  # constraints: molforma.nwchem.constraints.read_zcoord (the block ends it)
        if key in ("zmatrix", "zmt"):
            fail(
                "format_unsupported",
                FMT,
                lineno,
                reason="z-matrix geometry",
                feature="a z-matrix geometry",
            )
        if key in ("system", "load", "lattice_vectors"):
            fail(
                "format_unsupported",
                FMT,
                lineno,
                reason=f"geometry '{key}'",
                feature=f"'{key}' in a geometry",
            )
        if key.startswith("bq") or key == "x":
            fail(
                "format_unsupported",
                FMT,
                lineno,
                reason="ghost or dummy atom",
                feature="a ghost or dummy atom",
            )
        if len(parts) < 4:
            syntax(FMT, lineno, "an atom line needs a tag and three coordinates")
        el = element_from_label(parts[0], FMT, lineno)
        x, y, z = (to_float(p, FMT, lineno) * scale for p in parts[1:4])
        props: dict[str, Any] = {}
        extra = [p.lower() for p in parts[4:]]
        if "mass" in extra:
            k = extra.index("mass")
            if k + 1 >= len(extra):
                syntax(FMT, lineno, "'mass' needs a value")
            props.update(_mass_props(el, to_float(parts[4 + k + 1], FMT, lineno, "mass")))
        tag = parts[0]
        auto_tag = tag == f"{el}{len(atoms) + 1}" and ("mass" in props or "massNumber" in props)
        if tag.lower() != el.lower() and not auto_tag:
            props["name"] = clean_name(tag)
        atoms.append(make_atom(len(atoms) + 1, el, x, y, z, **props))
    return atoms, options


def _fixed(body: list[tuple[int, str]], natoms: int) -> set[int]:
    fixed: set[int] = set()
    for lineno, stmt in body:
        words = stmt.lower().split()
        if words[:2] != ["fix", "atom"]:
            continue
        for w in words[2:]:
            lo, _, hi = w.partition(":")
            if not lo.isdigit() or (hi and not hi.isdigit()):
                syntax(FMT, lineno, f"bad atom number '{w}' in 'fix atom'")
            for n in range(int(lo), int(hi or lo) + 1):
                if not 1 <= n <= natoms:
                    syntax(FMT, lineno, f"'fix atom' names atom {n}; the geometry has {natoms}")
                fixed.add(n)
    return fixed


def _int_arg(words: list[str], k: int, lineno: int) -> int | None:
    if k >= len(words):
        return None
    try:
        value = float(words[k])
    except ValueError:
        syntax(FMT, lineno, f"'{words[k]}' is not a number")
    if not math.isfinite(value):
        # int() of an infinity raises OverflowError, which must not escape as a crash.
        syntax(FMT, lineno, f"'{words[k]}' is not a finite number")
    return int(value)


def _float_arg(words: list[str], k: int, lineno: int) -> float | None:
    if k >= len(words):
        return None
    return to_float(words[k], FMT, lineno, "number")


def _vectors(words: list[str], adv: dict[str, Any]) -> None:
    low = [w.lower() for w in words]
    for key, target in (("input", "input_movecs"), ("output", "output_movecs")):
        if key in low and low.index(key) + 1 < len(words):
            adv[target] = words[low.index(key) + 1]


def _scf(body: list[tuple[int, str]], adv: dict[str, Any]) -> tuple[int | None, str | None]:
    mult = ref = None
    for lineno, stmt in body:
        words = stmt.split()
        key = words[0].lower()
        if key in _SPIN:
            mult = _SPIN[key]
        elif key == "nopen":
            n = _int_arg(words, 1, lineno)
            mult = None if n is None else n + 1
        elif key in ("rhf", "rohf", "uhf"):
            ref = key
        elif key == "maxiter":
            adv["scf_maxiter"] = _int_arg(words, 1, lineno)
        elif key == "thresh":
            adv["scf_thresh"] = _float_arg(words, 1, lineno)
        elif key == "vectors":
            _vectors(words, adv)
    return mult, ref


def _dft(
    body: list[tuple[int, str]], adv: dict[str, Any]
) -> tuple[int | None, str | None, str | None]:
    mult = ref = xc = None
    cam: list[str] = []
    for lineno, stmt in body:
        words = stmt.split()
        key = words[0].lower()
        if key == "mult":
            mult = _int_arg(words, 1, lineno)
        elif key == "odft":
            ref = "uhf"
        elif key == "rodft":
            ref = "rohf"
        elif key == "xc":
            xc = " ".join(w.lower() for w in words[1:]) or None
        elif key == "iterations":
            adv["dft_iterations"] = _int_arg(words, 1, lineno)
        elif key == "convergence":
            low = [w.lower() for w in words]
            if "energy" in low:
                adv["dft_convergence_energy"] = _float_arg(words, low.index("energy") + 1, lineno)
        elif key == "grid":
            for w in words[1:]:
                if w.lower() in _GRIDS:
                    adv["dft_grid"] = w.lower()
        elif key == "disp":
            low = [w.lower() for w in words]
            if "vdw" in low and low.index("vdw") + 1 < len(low):
                level = _DISPERSION.get(low[low.index("vdw") + 1])
                if level:
                    adv["dispersion"] = level
        elif key == "vectors":
            _vectors(words, adv)
        elif key == "cam" or key.startswith("cam_"):
            cam.append(" ".join(w.lower() for w in words))
    return mult, ref, _functional(xc, cam)


def _functional(xc: str | None, cam: list[str]) -> str | None:
    """The table name an ``xc`` line (with its ``cam`` lines) equals, else the line as
    written. Range separation the table does not hold keeps its ``cam`` words in the text,
    so the input check refuses it by name instead of a run with other parameters."""
    from molforma.nwchem import functionals

    if xc is None:
        return None
    entry = functionals.entry_for_xc(xc, [" ".join(cam)] if cam else [])
    if entry is not None:
        return str(entry["name"])
    return " ".join([xc, *cam]) if cam else xc


def _basis_name(body: list[tuple[int, str]]) -> str | None:
    names = set()
    for _lineno, stmt in body:
        words = stmt.split()
        low = [w.lower() for w in words]
        if "library" in low and low.index("library") + 1 < len(words):
            names.add(words[low.index("library") + 1].lower())
        else:
            return None  # explicit functions: not one library basis
    return names.pop() if len(names) == 1 else None


def _tasks(tasks: list[tuple[int, list[str]]]) -> tuple[str | None, str | None]:
    """(theory, task) of the first supported ``task`` lines."""
    found: list[tuple[str, str]] = []
    for _lineno, words in tasks:
        theory = words[1].lower() if len(words) > 1 else ""
        op = _OPERATIONS.get(words[2].lower() if len(words) > 2 else "energy")
        if theory in ("scf", "dft", "mp2", "tddft") and op:
            found.append((theory, op))
    if not found:
        return None, None
    theory, op = found[0]
    if theory == "tddft":
        # The theory under the excitations is the dft block's (hfexch alone: SCF).
        return theory, "excited-states" if op == "energy" else None
    if op == "optimize" and len(found) > 1 and found[1] == (theory, "frequencies"):
        op = "optimize+frequencies"
    if op == "saddle":
        op = "transition-state"  # MolForma's task always follows the saddle with freq
    if op == "mepgs":
        op = None  # a reaction path alone (from a saved Hessian) is not a task of MolForma
    return theory, op


def _excited(body: list[tuple[int, str]], calc: dict[str, Any]) -> None:
    """nroots, notriplet / nosinglet and cis (Tamm-Dancoff) of a ``tddft`` block."""
    for lineno, stmt in body:
        words = stmt.split()
        key = words[0].lower()
        if key == "nroots":
            calc["excited_roots"] = _int_arg(words, 1, lineno)
        elif key == "notriplet":
            calc["excited_spin"] = "singlets"
        elif key == "nosinglet":
            calc["excited_spin"] = "triplets"
        elif key in ("cis", "tda"):
            calc["excited_method"] = "tda"
        elif key == "rpa":
            calc["excited_method"] = "tddft"
    calc.setdefault("excited_spin", "both")  # NWChem computes both unless told otherwise


def _solvent(body: list[tuple[int, str]], calc: dict[str, Any]) -> None:
    """A ``cosmo`` block: its dielectric constant as a solvent of the table, else custom
    (water, NWChem's default, when the block gives none)."""
    from molforma.nwchem import solvents

    eps = 78.4
    for lineno, stmt in body:
        words = stmt.split()
        if words[0].lower() == "dielec":
            eps = _float_arg(words, 1, lineno) or eps
    name = solvents.solvent_for(eps)
    if name is not None:
        calc["solvent"] = name
    else:
        calc["dielectric"] = eps


def read_nwchem(text: str) -> Structure:
    """Structure, charge, multiplicity and conditions of an NWChem input.

    Raises:
        FormatError: no geometry, a block without ``end``, a bad atom line (named),
            an unsupported geometry form (z-matrix, periodic, ghost atoms), or a
            refused directive (``format_forbidden_directive``, with its line).
    """
    _refuse_directives(text.lstrip("\ufeff"))
    stmts = statements(text)
    title = None
    charge = None
    geometries: list[tuple[str, tuple[int, str], list[tuple[int, str]]]] = []
    blocks: dict[str, list[tuple[int, str]]] = {}
    headers: dict[str, list[str]] = {}
    tasks: list[tuple[int, list[str]]] = []
    adv: dict[str, Any] = {}
    i = 0
    while i < len(stmts):
        lineno, stmt = stmts[i]
        words = stmt.split()
        key = words[0].lower()
        if key in BLOCK_DIRECTIVES:
            body, nxt = _block(stmts, i)
            if key == "geometry":
                named = [
                    w
                    for w in words[1:]
                    if w.startswith('"')
                    or w.lower()
                    not in (
                        "units",
                        "noautosym",
                        "noautoz",
                        "nocenter",
                        "autosym",
                        "autoz",
                        "center",
                        "print",
                        "noprint",
                        "bqbq",
                        "angstrom",
                        "angstroms",
                        "au",
                        "atomic",
                        "bohr",
                        "nm",
                        "pm",
                        "nanometers",
                        "picometers",
                        "an",
                        "xyz",
                    )
                ]
                name = _unquote(named[0]).lower() if named and not is_number(named[0]) else ""
                geometries.append((name, stmts[i], body))
            else:
                blocks.setdefault(key, body)
                if key == "basis" and key not in headers:
                    headers[key] = [w.lower() for w in words[1:]]
            i = nxt
            continue
        if key == "title":
            title = _unquote(stmt[len(words[0]) :]) or None
        elif key == "charge":
            value = _float_arg(words, 1, lineno)
            if value is None or value != int(value):
                syntax(FMT, lineno, "charge must be a whole number")
            charge = int(value)
        elif key == "task":
            tasks.append((lineno, words))
        elif key == "memory":
            mb = _memory_mb(words, lineno)
            if mb is not None:
                adv["memory_mb"] = mb
        elif key in ("scratch_dir", "permanent_dir") and len(words) > 1:
            adv[key] = words[1]
        elif (
            key == "print"
            and len(words) > 1
            and words[1].lower() in ("none", "low", "medium", "high", "debug")
        ):
            adv["print_level"] = words[1].lower()
        i += 1
    if not geometries:
        fail("format_no_atoms", FMT, None, reason="no geometry block")
    default = next((g for g in geometries if g[0] in ("", "geometry")), geometries[0])
    atoms, options = _geometry(default[1], default[2])
    if not atoms:
        fail("format_no_atoms", FMT, default[1][0], reason="the geometry block is empty")
    adv.update(options)
    for n in _fixed(blocks.get("constraints", []), len(atoms)):
        atoms[n - 1]["fixed"] = True
    from molforma.nwchem.constraints import read_zcoord

    zcoord = read_zcoord(stmts, atoms)

    theory, task = _tasks(tasks)
    scf_mult, scf_ref = _scf(blocks.get("scf", []), adv)
    dft_mult, dft_ref, xc = _dft(blocks.get("dft", []), adv)
    if theory == "dft":
        mult = dft_mult or scf_mult
        ref = dft_ref or (scf_ref if scf_ref != "rhf" else None)
    else:
        mult = scf_mult or dft_mult
        ref = scf_ref
    mult = mult or 1
    calc: dict[str, Any] = {}
    if theory == "tddft":
        # CIS / TDHF run on a dft block with 100 % exact exchange and no correlation.
        theory = "scf" if (xc or "").replace("1.0", "").strip() == "hfexch" else "dft"
        mult = dft_mult or scf_mult or 1
        if task:
            _excited(blocks.get("tddft", []), calc)
    if theory and task:
        calc["theory"] = theory
        calc["task"] = task
    if task == "transition-state" and any(
        len(w) > 2 and w[2].lower() == "mepgs" for _n, w in tasks
    ):
        calc["irc"] = True
    calc.update(zcoord)
    if xc and (theory == "dft" or "dft" in blocks) and xc.replace("1.0", "").strip() != "hfexch":
        calc["functional"] = xc
    if "cosmo" in blocks:
        _solvent(blocks["cosmo"], calc)
    if theory == "dft" and task in FREQUENCY_TASKS:
        # What a frequency step gets by default is no choice of the file's (see
        # molforma.nwchem.input.frequency_defaults): read back as the default.
        if adv.get("dft_grid") == FREQUENCY_GRID:
            adv.pop("dft_grid")
        if adv.get("dft_convergence_energy") == FREQUENCY_CONVERGENCE:
            adv.pop("dft_convergence_energy")
    basis = _basis_name(blocks.get("basis", []))
    if basis:
        calc["basis"] = basis
    automatic = "rhf" if mult == 1 else "uhf"
    if ref and ref != automatic:
        calc["reference"] = ref
    for lineno, stmt in blocks.get("driver", []):
        words = stmt.split()
        if words[0].lower() == "maxiter":
            adv["opt_maxiter"] = _int_arg(words, 1, lineno)
    basis_header = headers.get("basis", [])
    if "spherical" in basis_header or "cartesian" in basis_header:
        adv["basis_spherical"] = "spherical" in basis_header
    if theory == "mp2":
        # NWChem's own default (no freeze directive) correlates every electron.
        adv["mp2_frozen_core"] = any(
            s.split()[0].lower() == "freeze" for _n, s in blocks.get("mp2", [])
        )
    freq_body = blocks.get("freq", []) + blocks.get("vib", [])
    if any(s.split()[0].lower() == "animate" for _n, s in freq_body):
        adv["freq_animate"] = True
    adv = {k: v for k, v in adv.items() if v is not None}
    bonds = perceive_bonds(atoms, charge)
    return Structure(
        atoms=atoms,
        bonds=bonds,
        title=title,
        charge=charge if charge is not None else 0,
        multiplicity=mult,
        calculation=calc or None,
        advanced=adv or None,
    )
