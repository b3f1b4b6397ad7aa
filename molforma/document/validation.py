"""Checks of a project before a run: charge and spin, geometry, valences, basis set,
functional and fixed atoms (no Qt).

:func:`validate` answers ``{"ok", "checks"}``; each check has a code, a severity and a
message in the display language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from molforma.document import elements
from molforma.document import messages as _messages  # noqa: F401 - registers shared codes
from molforma.document.bond_table import component_labels
from molforma.document.coordinates import xyz_array
from molforma.document.envelope import Project
from molforma.document.geometry import components
from molforma.document.tabletypes import is_atom_table, is_bond_table
from molforma.document.valence import (
    bond_length,
    missing_hydrogens,
    valence_exceeded_ids,
)
from molforma.i18n import catalogue, register, render
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma import catalog
    from molforma.document import neighbours, valence_columns
else:  # imported on first use (start-up time): molforma.lazy
    catalog = lazy_import("molforma.catalog")
    neighbours = lazy_import("molforma.document.neighbours")
    valence_columns = lazy_import("molforma.document.valence_columns")

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


@dataclass(frozen=True)
class _Columns:
    """What the checks read of the atoms, as columns: a stored table's own arrays (no
    record per atom is built for a 200,000-atom check) or arrays made from records."""

    ids: list[str]
    symbols: np.ndarray  # object array of element symbols
    z: np.ndarray
    unpaired: np.ndarray
    xyz: np.ndarray


def _columns(atoms: Any) -> _Columns:
    if is_atom_table(atoms):
        return _Columns(
            atoms.id_strings,
            atoms.symbols,
            atoms.z.astype(np.int64),
            atoms.unpaired.astype(np.int64),
            atoms.xyz,
        )
    symbols = np.array([str(a["element"]) for a in atoms], dtype=object)
    return _Columns(
        [str(a["id"]) for a in atoms],
        symbols,
        np.array([elements.atomic_number(e) for e in symbols.tolist()], dtype=np.int64),
        np.array([int(a.get("unpairedElectrons", 0) or 0) for a in atoms], dtype=np.int64),
        xyz_array(atoms),
    )


def _per_element(cols: _Columns, value: Callable[[str], float]) -> np.ndarray:
    """``value(symbol)`` of every atom, asked once per element."""
    kinds, inverse = np.unique(cols.z, return_inverse=True)
    symbol = {int(z): str(s) for z, s in zip(cols.z.tolist(), cols.symbols.tolist(), strict=True)}
    per_kind = np.array([value(symbol[int(z)]) for z in kinds.tolist()], dtype=float)
    out: np.ndarray = per_kind[inverse.reshape(-1)]
    return out


def _ids_of(cols: _Columns, wanted: Iterable[str]) -> list[str]:
    rows = np.flatnonzero(np.isin(cols.symbols, list(wanted)))
    return [cols.ids[k] for k in rows.tolist()]


def _long_bonds(bonds: Any, atoms: Any, cols: _Columns) -> list[tuple[int, int, float, float]]:
    """Bonds much longer than usual for their elements and order, in bond order:
    ``(row a, row b, length, usual length)``."""
    if is_bond_table(bonds) and is_atom_table(atoms):
        ia, ja = bonds.rows_in(atoms)
        order = bonds.order.astype(np.int64)
    else:
        pos = {aid: k for k, aid in enumerate(cols.ids)}
        rows = [(pos.get(b["a"], -1), pos.get(b["b"], -1), int(b.get("order", 1))) for b in bonds]
        arr = np.array(rows, dtype=np.int64).reshape(-1, 3)
        ia, ja, order = arr[:, 0], arr[:, 1], arr[:, 2]
    known = (ia >= 0) & (ja >= 0)
    ia, ja, order = ia[known], ja[known], order[known]
    if not len(ia):
        return []
    za, zb = cols.z[ia], cols.z[ja]
    keys = np.stack([np.minimum(za, zb), np.maximum(za, zb), order], axis=1)
    kinds, inverse = np.unique(keys, axis=0, return_inverse=True)
    symbol = elements.symbol_of
    usual = np.array(
        [bond_length(symbol(int(a)), symbol(int(b)), int(o)) for a, b, o in kinds.tolist()],
        dtype=float,
    )[inverse.reshape(-1)]
    d = np.linalg.norm(cols.xyz[ia] - cols.xyz[ja], axis=1)
    far = np.flatnonzero(d > 1.6 * usual + 0.3)
    return [(int(ia[k]), int(ja[k]), float(d[k]), float(usual[k])) for k in far.tolist()]


def _fragment_firsts(doc: Mapping[str, Any], atoms: Any, cols: _Columns) -> list[str]:
    """The first atom id of each bonded fragment, largest fragment first (then by first
    atom): connected components on the bond rows of a stored table, else of the records."""
    bonds = doc.get("bonds") or []
    if not (is_bond_table(bonds) and is_atom_table(atoms)):
        return [c[0] for c in components({"document": doc})]
    ia, ib = bonds.rows_in(atoms)
    ok = (ia >= 0) & (ib >= 0)
    lab = component_labels(len(atoms), ia[ok], ib[ok])
    roots = np.unique(lab)  # each fragment's label is its first atom's row
    sizes = np.bincount(lab, minlength=len(atoms))[roots]
    roots = roots[np.lexsort((roots, -sizes))]
    return [cols.ids[r] for r in roots.tolist()]


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
    cols = _columns(atoms)
    ids = cols.ids
    charge = int(doc.get("charge", 0))
    mult = int(doc.get("multiplicity", 1))

    # Electrons and spin.
    electrons = int(cols.z.sum()) - charge
    if electrons < 1:
        checks.append(_check("too_few_electrons", "error", electrons=electrons))
    elif (electrons - (mult - 1)) % 2 != 0 or mult - 1 > electrons:
        checks.append(
            _check("multiplicity_parity", "error", electrons=electrons, multiplicity=mult)
        )
    unpaired = int(cols.unpaired.sum())
    if unpaired and unpaired != mult - 1:
        checks.append(
            _check(
                "unpaired_mismatch",
                "warning",
                [ids[k] for k in np.flatnonzero(cols.unpaired).tolist()],
                unpaired=unpaired,
                multiplicity=mult,
                expected=mult - 1,
            )
        )
    reference = calc.get("reference")
    if reference == "rhf" and mult != 1:
        checks.append(_check("reference_multiplicity", "error", multiplicity=mult))

    # Geometry.
    xyz = cols.xyz
    radii = _per_element(cols, elements.covalent_radius)
    for i, j, d, limit in _contacts(xyz, radii):
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
    for ia, ja, d, usual in _long_bonds(doc.get("bonds") or [], atoms, cols):
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
    firsts = _fragment_firsts(doc, atoms, cols)
    if len(firsts) > 1:
        checks.append(_check("disconnected_fragments", "warning", firsts, count=len(firsts)))

    # Valences.
    bonds = doc.get("bonds") or []
    tabled = False
    if is_atom_table(atoms) and is_bond_table(bonds):
        tabled = True
        missing = valence_columns.missing_hydrogens(atoms, bonds)
    else:
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
    checks += _valence_problems(project, tabled)

    # Basis set and functional.
    basis = str(calc.get("basis", "") or "")
    if basis.strip():
        covered, entry = _basis_lookup(basis_catalog, basis)
        present = sorted(set(cols.symbols.tolist()), key=elements.atomic_number)
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
                        _ids_of(cols, lacking),
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
                        _ids_of(cols, ecp_el),
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
    fixed = (
        [ids[k] for k in np.flatnonzero(atoms.fixed).tolist()]
        if is_atom_table(atoms)
        else [a["id"] for a in atoms if a.get("fixed")]
    )
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


def _valence_problems(p: Project, tabled: bool = False) -> list[dict[str, Any]]:
    """Main-group atoms with more bonds than any valence RDKit allows (of the column
    tables, RDKit sees only the atoms numpy cannot settle)."""
    atoms = p["document"]["atoms"]
    if tabled:
        ids = valence_columns.valence_problem_ids(atoms, p["document"]["bonds"])
        symbols = atoms.symbols[atoms.rows_of(ids)].tolist() if ids else []
    else:
        ids = valence_exceeded_ids(p)
        element = {a["id"]: a["element"] for a in atoms if a["id"] in set(ids)}
        symbols = [element[i] for i in ids]
    return [
        _check("valence_exceeded", "warning", [aid], id=aid, element=el)
        for aid, el in zip(ids, symbols, strict=True)
    ]
