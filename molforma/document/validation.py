"""Checks of a project before a run: charge and spin, geometry, valences, basis set,
functional and fixed atoms (no Qt).

:func:`validate` answers ``{"ok", "checks"}``; each check has a code, a severity and a
message in the display language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from molforma.document import elements
from molforma.document import messages as _messages  # noqa: F401 - registers shared codes
from molforma.document.coordinates import xyz_array
from molforma.document.envelope import Project
from molforma.document.geometry import components
from molforma.document.valence import (
    _atoms,
    _rdkit_atom,
    bond_length,
    is_metal,
    missing_hydrogens,
)
from molforma.i18n import catalogue, register, render
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from rdkit import Chem

    from molforma import catalog
    from molforma.document import neighbours
else:  # imported on first use (start-up time): molforma.lazy
    Chem = lazy_import("rdkit.Chem")
    catalog = lazy_import("molforma.catalog")
    neighbours = lazy_import("molforma.document.neighbours")

BasisCatalog = Callable[[str], "set[str] | None"] | Mapping[str, Any] | None

_MESSAGES: dict[str, dict[str, str]] = {
    # -- validation checks -------------------------------------------------------------------
    "unpaired_mismatch": {
        "en": "The atoms carry {unpaired} unpaired electrons but multiplicity {multiplicity} "
        "means {expected}.",
        "ja": "原子の不対電子の合計は {unpaired} ですが、スピン多重度 {multiplicity} では "
        "{expected} 個です。",
    },
    "duplicate_positions": {
        "en": "Atoms {a} and {b} are {distance} Å apart: duplicate positions.",
        "ja": "原子 {a} と {b} の距離が {distance} Å です。座標が重複しています。",
    },
    "close_contact": {
        "en": "Atoms {a} and {b} are only {distance} Å apart (less than half the sum of "
        "their covalent radii, {limit} Å).",
        "ja": "原子 {a} と {b} の距離が {distance} Å しかありません（共有結合半径の和の半分 "
        "{limit} Å 未満）。",
    },
    "basis_missing_elements": {
        "en": "The basis set {basis} has no functions for {missing}.",
        "ja": "基底関数 {basis} には {missing} の関数がありません。",
    },
    "basis_unknown": {
        "en": "The basis set {basis} is not in the catalogue or NWChem's library here; "
        "NWChem may not find it.",
        "ja": "基底関数 {basis} はカタログにもこの環境の NWChem ライブラリにもありません。"
        "NWChem が見つけられない可能性があります。",
    },
    "basis_other_name": {
        "en": "NWChem's library has no basis set named {basis}; it calls it {name}. Set the "
        "basis to {name}, or the calculation will stop.",
        "ja": "NWChem のライブラリに {basis} という名前の基底関数はなく、{name} という名前で"
        "入っています。基底関数を {name} にしてください（このままでは計算が止まります）。",
    },
    "basis_needs_ecp": {
        "en": "{basis} uses an effective core potential for {elements}; the input must "
        "include the ECP ({ecp}).",
        "ja": "{basis} では {elements} に有効内殻ポテンシャルを使います。入力に ECP（{ecp}）が"
        "必要です。",
    },
    "disconnected_fragments": {
        "en": "The molecule is in {count} separate pieces with no bonds between them.",
        "ja": "分子は {count} 個の互いに結合していない部分に分かれています。",
    },
    "fixed_atoms_frequencies": {
        "en": "Fixed atoms: {count}. A frequency calculation is only meaningful at a fully "
        "optimised structure.",
        "ja": "{count} 個の原子が固定されています。振動数計算は完全に最適化した構造でのみ"
        "意味があります。",
    },
    "frequencies_need_optimized_geometry": {
        "en": "Frequencies are only meaningful at a geometry optimised with the same method "
        "({method}). Unless this geometry was, choose the task optimize+frequencies.",
        "ja": "振動数は同じ方法（{method}）で最適化した構造でのみ意味があります。そうでなければ"
        "タスクに optimize+frequencies を選んでください。",
    },
    "open_valences": {
        "en": "Open valences on {count} atom(s), {total} hydrogen(s) missing; add hydrogens "
        "unless the radicals are intended.",
        "ja": "{count} 個の原子に空いた原子価があります（水素 {total} 個分）。意図したラジカル"
        "でなければ水素を付加してください。",
    },
    "valence_exceeded": {
        "en": "Atom {id} ({element}) has more bonds than its valence allows.",
        "ja": "原子 {id}（{element}）の結合が原子価を超えています。",
    },
    "long_bond": {
        "en": "The bond {a}-{b} is {distance} Å long, far longer than usual ({usual} Å).",
        "ja": "結合 {a}-{b} の長さが {distance} Å で、通常（{usual} Å）よりかなり長いです。",
    },
    "functional_with_dispersion": {
        "en": "'{functional}' is a functional plus a dispersion correction, which NWChem takes "
        "separately: set the functional to {base} and the advanced setting dispersion "
        "to {dispersion} (set_advanced).",
        "ja": "「{functional}」は汎関数と分散力補正の組み合わせで、NWChem では別々に指定します。"
        "汎関数を {base} にし、詳細設定 dispersion を {dispersion} にしてください"
        "（set_advanced）。",
    },
    "functional_other_name": {
        "en": "NWChem's xc does not know '{functional}' by that name; the catalogue calls it "
        "{name}. Set the functional to {name}.",
        "ja": "NWChem の xc は「{functional}」という名前を知りません。カタログでは {name} です。"
        "汎関数を {name} にしてください。",
    },
    "functional_unknown": {
        "en": "The functional '{functional}' is not in the catalogue; check that NWChem's xc "
        "accepts it.",
        "ja": "汎関数「{functional}」はカタログにありません。NWChem の xc で使えるか確認して"
        "ください。",
    },
}
# Codes shared with the input generator keep one meaning; only missing ones are added.
register({code: text for code, text in _MESSAGES.items() if code not in catalogue()})


def _check(code: str, severity: str, atoms: Iterable[str] = (), **data: Any) -> dict[str, Any]:
    ids = list(atoms)
    return {"code": code, "severity": severity, "message": render(code, data), "atoms": ids[:100]}


def _basis_lookup(
    basis_catalog: BasisCatalog, basis: str
) -> tuple[set[str] | None, dict[str, Any] | None]:
    """Elements covered by ``basis`` and its catalogue entry, from any catalogue form."""
    entry = catalog.basis_entry(basis)
    if callable(basis_catalog):
        return basis_catalog(basis), entry
    if isinstance(basis_catalog, Mapping):
        entries = basis_catalog.get("basis_sets", basis_catalog)
        items = (
            entries
            if isinstance(entries, list)
            else [
                {"name": k, **(v if isinstance(v, Mapping) else {"elements": v})}
                for k, v in entries.items()
            ]
        )
        for e in items:
            if catalog.library_file_name(str(e.get("name", ""))) == catalog.library_file_name(
                basis
            ):
                return set(e.get("elements", ())), dict(e)
        return None, entry
    return catalog.basis_elements(basis), entry


def _basis_other_name(basis_catalog: BasisCatalog, basis: str) -> str | None:
    """The name NWChem knows for a basis written in another common notation, or None.

    ``6-31G(d)`` / ``6-31G(d,p)`` are ``6-31G*`` / ``6-31G**`` in NWChem's library, and
    the LANL sets live there with an ``_ecp`` suffix (``lanl2dz`` → ``lanl2dz_ecp``).
    NWChem stops on the name as written, so the check that uses this is an error.
    """
    text = basis.strip()
    tries: list[str] = []
    star = re.sub(r"\(d,\s*p\)$", "**", text, flags=re.I)
    star = re.sub(r"\(d\)$", "*", star, flags=re.I)
    if star != text:
        tries.append(star)
    if not text.lower().endswith("_ecp"):
        tries.append(text + "_ecp")
    for name in tries:
        covered, _ = _basis_lookup(basis_catalog, name)
        if covered is not None:
            return name
    return None


# Pairs reported by validate's geometry checks: atoms packed far denser than matter have
# millions of close pairs, and listing them all would stall the check (and its answer).
MAX_CONTACTS = 1000


def _contacts(xyz: Any, radii: Any) -> list[tuple[int, int, float, float]]:
    """``(i, j, d, limit)`` of pairs closer than half their radii sum (or than 0.1 Å),
    in (i, j) order, at most :data:`MAX_CONTACTS`; linear in the number of atoms."""
    n = len(xyz)
    cutoff = max(0.1, float(radii.max()))
    try:
        i, j, d = neighbours.close_pairs(xyz, cutoff, max_candidates=1000 * n + 10_000)
    except neighbours.CrowdedError:
        # Piled up: the first pairs found tell the story.
        i, j, d = neighbours.first_pairs_closer_than(xyz, cutoff, limit=4 * MAX_CONTACTS)
    limit = 0.5 * (radii[i] + radii[j])
    keep = (d < 0.1) | (d < limit)
    i, j, d, limit = i[keep], j[keep], d[keep], limit[keep]
    rank = np.lexsort((j, i))[:MAX_CONTACTS]
    return list(
        zip(i[rank].tolist(), j[rank].tolist(), d[rank].tolist(), limit[rank].tolist(), strict=True)
    )


def validate(project: Project, basis_catalog: BasisCatalog = None) -> dict[str, Any]:
    """Checks before running: ``{"ok": bool, "checks": [{code, severity, message, atoms}]}``.

    ``basis_catalog`` tells which elements a basis covers: a function such as
    :func:`molforma.catalog.basis_elements`, a ``get_catalog("basis_sets")`` result,
    or None for the built-in catalogue. ``ok`` is false when any check is an error.
    Messages are in the display language.
    """
    doc = project["document"]
    atoms = doc.get("atoms") or []
    calc = project.get("calculation") or {}
    checks: list[dict[str, Any]] = []
    if not atoms:
        checks.append(_check("empty_molecule", "error"))
        return {"ok": False, "checks": checks}
    ids = [a["id"] for a in atoms]
    charge = int(doc.get("charge", 0))
    mult = int(doc.get("multiplicity", 1))

    # Electrons and spin.
    electrons = sum(elements.atomic_number(a["element"]) for a in atoms) - charge
    if electrons < 1:
        checks.append(_check("too_few_electrons", "error", electrons=electrons))
    elif (electrons - (mult - 1)) % 2 != 0 or mult - 1 > electrons:
        checks.append(
            _check("multiplicity_parity", "error", electrons=electrons, multiplicity=mult)
        )
    unpaired = sum(int(a.get("unpairedElectrons", 0) or 0) for a in atoms)
    if unpaired and unpaired != mult - 1:
        checks.append(
            _check(
                "unpaired_mismatch",
                "warning",
                [a["id"] for a in atoms if a.get("unpairedElectrons")],
                unpaired=unpaired,
                multiplicity=mult,
                expected=mult - 1,
            )
        )
    reference = calc.get("reference")
    if reference == "rhf" and mult != 1:
        checks.append(_check("reference_multiplicity", "error", multiplicity=mult))

    # Geometry.
    xyz = xyz_array(atoms)
    radii = [elements.covalent_radius(a["element"]) for a in atoms]
    for i, j, d, limit in _contacts(xyz, np.asarray(radii, dtype=float)):
        if d < 0.1:
            checks.append(
                _check(
                    "duplicate_positions",
                    "error",
                    [ids[i], ids[j]],
                    a=ids[i],
                    b=ids[j],
                    distance=round(d, 3),
                )
            )
        else:
            checks.append(
                _check(
                    "close_contact",
                    "warning",
                    [ids[i], ids[j]],
                    a=ids[i],
                    b=ids[j],
                    distance=round(d, 3),
                    limit=round(limit, 3),
                )
            )
    pos = {a["id"]: k for k, a in enumerate(atoms)}
    for b in doc.get("bonds") or []:
        ia, ja = pos.get(b["a"]), pos.get(b["b"])
        if ia is None or ja is None:
            continue
        usual = bond_length(atoms[ia]["element"], atoms[ja]["element"], int(b.get("order", 1)))
        d = float(np.linalg.norm(xyz[ia] - xyz[ja]))
        if d > 1.6 * usual + 0.3:
            checks.append(
                _check(
                    "long_bond",
                    "warning",
                    [ids[ia], ids[ja]],
                    a=ids[ia],
                    b=ids[ja],
                    distance=round(d, 3),
                    usual=round(usual, 2),
                )
            )
    comps = components(project)
    if len(comps) > 1:
        checks.append(
            _check("disconnected_fragments", "warning", [c[0] for c in comps], count=len(comps))
        )

    # Valences.
    missing = missing_hydrogens(project)
    if missing:
        checks.append(
            _check(
                "open_valences",
                "info",
                list(missing),
                count=len(missing),
                total=sum(missing.values()),
            )
        )
    checks += _valence_problems(project)

    # Basis set and functional.
    basis = str(calc.get("basis", "") or "")
    if basis.strip():
        covered, entry = _basis_lookup(basis_catalog, basis)
        present = sorted({a["element"] for a in atoms}, key=elements.atomic_number)
        if covered is None:
            other = _basis_other_name(basis_catalog, basis)
            if other is not None:
                checks.append(_check("basis_other_name", "error", basis=basis, name=other))
            else:
                checks.append(_check("basis_unknown", "warning", basis=basis))
        else:
            lacking = [e for e in present if e not in covered]
            if lacking:
                checks.append(
                    _check(
                        "basis_missing_elements",
                        "error",
                        [a["id"] for a in atoms if a["element"] in lacking],
                        basis=basis,
                        missing=", ".join(lacking),
                    )
                )
        if entry and entry.get("ecp"):
            ecp_el = [e for e in present if e in set(entry.get("ecpElements", ()))]
            if ecp_el:
                checks.append(
                    _check(
                        "basis_needs_ecp",
                        "info",
                        [a["id"] for a in atoms if a["element"] in ecp_el],
                        basis=basis,
                        elements=", ".join(ecp_el),
                        ecp=entry["ecp"],
                    )
                )
    if calc.get("theory") == "dft":
        functional = " ".join(str(calc.get("functional", "")).split())
        if functional and not _known_functional(functional):
            disp = re.fullmatch(r"(.+?)[-_](d2|d3|d3bj)", functional, flags=re.I)
            if disp and _known_functional(disp.group(1)):
                checks.append(
                    _check(
                        "functional_with_dispersion",
                        "error",
                        functional=functional,
                        base=disp.group(1).lower(),
                        dispersion=disp.group(2).lower(),
                    )
                )
            elif functional.lower() in _FUNCTIONAL_OTHER_NAMES:
                checks.append(
                    _check(
                        "functional_other_name",
                        "error",
                        functional=functional,
                        name=_FUNCTIONAL_OTHER_NAMES[functional.lower()],
                    )
                )
            else:
                checks.append(_check("functional_unknown", "info", functional=functional))

    # Fixed atoms and the task.
    task = str(calc.get("task", "energy"))
    fixed = [a["id"] for a in atoms if a.get("fixed")]
    if "optimize" in task and len(fixed) == len(atoms):
        checks.append(_check("all_atoms_fixed", "error", fixed))
    elif "freq" in task and fixed:
        checks.append(_check("fixed_atoms_frequencies", "warning", fixed, count=len(fixed)))
    if task == "frequencies":
        # Nothing records where a geometry came from, so a bare frequency job always gets
        # the reminder; optimize+frequencies optimises with the same method first.
        checks.append(
            _check("frequencies_need_optimized_geometry", "warning", method=_method_text(calc))
        )
    if fixed and (project.get("advanced") or {}).get("nocenter") is False:
        checks.append(_check("fixed_atoms_internal_coordinates", "error", fixed))
    ok = not any(c["severity"] == "error" for c in checks)
    return {"ok": ok, "checks": checks}


def _method_text(calc: Mapping[str, Any]) -> str:
    theory = str(calc.get("theory", "scf"))
    level = str(calc.get("functional", "b3lyp")) if theory == "dft" else theory
    return f"{level}/{calc.get('basis', '6-31g*')}"


# Common names NWChem's xc does not take, and the catalogue name it means.
_FUNCTIONAL_OTHER_NAMES = {
    "pbe": "pbe96",
    "lda": "svwn5",
    "svwn": "svwn5",
    "b-lyp": "blyp",
    "bp": "bp86",
    "b-p86": "bp86",
}


def _known_functional(functional: str) -> bool:
    low = functional.lower()
    return any(
        low in (f["name"].lower(), f["xc"].lower())
        for f in catalog.get_catalog("functionals")["functionals"]
    )


def _valence_problems(p: Project) -> list[dict[str, Any]]:
    """Main-group atoms with more bonds than any valence RDKit allows."""
    atoms = _atoms(p)
    keep = [a for a in atoms if not is_metal(a["element"])]
    pos = {a["id"]: i for i, a in enumerate(keep)}
    rw = Chem.RWMol()
    for a in keep:
        rw.AddAtom(_rdkit_atom(a, no_implicit=True))
    types = {1: Chem.BondType.SINGLE, 2: Chem.BondType.DOUBLE, 3: Chem.BondType.TRIPLE}
    for b in p["document"]["bonds"]:
        if b["a"] in pos and b["b"] in pos:
            rw.AddBond(
                pos[b["a"]], pos[b["b"]], types.get(int(b.get("order", 1)), Chem.BondType.SINGLE)
            )
    mol = rw.GetMol()
    out = []
    for prob in Chem.DetectChemistryProblems(mol):
        if prob.GetType() == "AtomValenceException":
            a = keep[prob.GetAtomIdx()]
            out.append(
                _check("valence_exceeded", "warning", [a["id"]], id=a["id"], element=a["element"])
            )
    return out
