"""Catalogues of fragments, ligands, basis sets, functionals, tasks, theories, advanced keys.

The window's combos and the MCP ``get_catalog`` tool show these lists. They live as
JSON under ``resources/`` (written once by ``scripts/build_catalogs.py``) and are
read once per process. Nothing here imports Qt.
"""

from __future__ import annotations

import copy
import json
import os
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from molforma.errors import ValidationError
from molforma.i18n import display_language, register
from molforma.lazy import lazy_import
from molforma.paths import data_dir

if TYPE_CHECKING:
    from molforma.document import elements
    from molforma.nwchem import functionals
else:  # imported on first use (start-up time): molforma.lazy
    elements = lazy_import("molforma.document.elements")
    functionals = lazy_import("molforma.nwchem.functionals")

RESOURCES = data_dir("resources")
KINDS: tuple[str, ...] = (
    "fragments",
    "ligands",
    "basis_sets",
    "functionals",
    "tasks",
    "theories",
    "advanced_keys",
)
# Where NWChem's basis library is looked for when a basis is not in the catalogue.
NWCHEM_LIBRARY_DIRS: tuple[str, ...] = (
    "/usr/share/nwchem/libraries",
    "/usr/local/share/nwchem/libraries",
)

register(
    {
        "unknown_catalog": {
            "en": "Unknown catalogue '{kind}'. Known: {known}",
            "ja": "不明なカタログ「{kind}」です。使えるカタログ: {known}",
        },
    }
)


# The abbreviations chemists write for substituents ("Me", "OH", "CF3", "tBu"), as
# aliases of the fragments; exact names (e.g. the ligand "CO") still win.
FRAGMENT_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "methyl": ("Me", "CH3"),
    "ethyl": ("Et", "C2H5"),
    "isopropyl": ("iPr", "i-Pr", "CH(CH3)2"),
    "tert-butyl": ("tBu", "t-Bu", "C(CH3)3"),
    "vinyl": ("ethenyl", "CH=CH2"),
    "ethynyl": ("C#CH", "CCH"),
    "phenyl": ("Ph", "C6H5"),
    "benzyl": ("Bn", "CH2Ph", "CH2C6H5"),
    "4-pyridyl": ("pyridin-4-yl", "C5H4N"),
    "hydroxyl": ("OH", "hydroxy"),
    "methoxy": ("OMe", "OCH3"),
    "amino": ("NH2",),
    "dimethylamino": ("NMe2", "N(CH3)2"),
    "carbonyl": ("CHO", "formyl"),
    "acetyl": ("Ac", "COMe", "COCH3"),
    "carboxyl": ("COOH", "CO2H", "carboxy"),
    "methoxycarbonyl": ("CO2Me", "COOMe", "COOCH3"),
    "carbamoyl": ("CONH2",),
    "nitro": ("NO2",),
    "cyano": ("CN", "nitrile"),
    "trifluoromethyl": ("CF3",),
    "thiol": ("SH", "mercapto", "sulfanyl"),
    "methylthio": ("SMe", "SCH3"),
    "trimethylsilyl": ("TMS", "SiMe3", "Si(CH3)3"),
    "fluoro": ("F",),
    "chloro": ("Cl",),
    "bromo": ("Br",),
    "iodo": ("I",),
    "cyclopropyl": ("cPr", "c-Pr", "C3H5"),
    "cyclohexyl": ("Cy", "cHex", "C6H11"),
    "2-pyridyl": ("pyridin-2-yl",),
    "3-pyridyl": ("pyridin-3-yl",),
    "2-furyl": ("furan-2-yl",),
    "2-thienyl": ("thiophen-2-yl",),
    "2-pyrrolyl": ("pyrrol-2-yl",),
    "1-pyrrolyl": ("pyrrol-1-yl",),
}

# The fragments the parts palette lists as ring templates (3- to 8-rings and aromatic
# rings), placed like every fragment; benzene and pyridine rings are phenyl and pyridyl.
RING_TEMPLATES: tuple[str, ...] = (
    "cyclopropyl",
    "cyclobutyl",
    "cyclopentyl",
    "cyclohexyl",
    "cycloheptyl",
    "cyclooctyl",
    "phenyl",
    "2-pyridyl",
    "3-pyridyl",
    "4-pyridyl",
    "2-furyl",
    "2-thienyl",
    "2-pyrrolyl",
    "1-pyrrolyl",
    "1-naphthyl",
    "2-naphthyl",
)


@cache
def _load(kind: str) -> Any:
    path = RESOURCES / f"{kind}.json"
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    if kind == "fragments":
        for entry in data:
            extra = FRAGMENT_ABBREVIATIONS.get(entry.get("name", ""), ())
            known = list(entry.get("aliases") or [])
            entry["aliases"] = known + [a for a in extra if a not in known]
    return data


_GEOMETRY_KEYS = ("atoms", "bonds", "dummy", "attachment", "method")


def _entries(kind: str, geometry: bool) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = copy.deepcopy(_load(kind))
    if kind in ("fragments", "ligands") and not geometry:
        # The coordinates are for placing; a listing needs names, labels and formulas.
        for e in data:
            for key in _GEOMETRY_KEYS:
                e.pop(key, None)
    return data


def get_catalog(kind: str | None = None, *, geometry: bool = False) -> dict[str, Any]:
    """``{kind: entries}`` for one kind, or every kind when ``kind`` is None.

    Fragment and ligand entries leave out their 3D coordinates unless
    ``geometry`` is true. The result is a copy: callers may change it.

    Raises:
        ValidationError: ``unknown_catalog`` for a kind not in :data:`KINDS`.
    """
    if kind is None:
        return {k: _entries(k, geometry) for k in KINDS}
    if kind not in KINDS:
        raise ValidationError("unknown_catalog", kind=kind, known=", ".join(KINDS))
    return {kind: _entries(kind, geometry)}


# The settings catalogues whose entries carry a label per language, and the field that
# keys them: the one table of the words the window, get_catalog and messages use.
LABELLED: dict[str, str] = {
    "tasks": "name",
    "theories": "name",
    "functionals": "name",
    "advanced_keys": "key",
}


def setting_labels(kind: str, lang: str | None = None) -> dict[str, str]:
    """``{value: label}`` of a settings catalogue (tasks, theories, functionals, advanced
    keys) in ``lang`` (default: the display language of :mod:`molforma.i18n`), English
    where an entry has no label in that language.

    Raises:
        ValidationError: ``unknown_catalog`` for a kind without labels.
    """
    if kind not in LABELLED:
        raise ValidationError("unknown_catalog", kind=kind, known=", ".join(LABELLED))
    lang = lang or display_language()
    key = LABELLED[kind]
    out: dict[str, str] = {}
    for entry in _load(kind):
        label = entry.get("label") or {}
        out[str(entry[key])] = str(label.get(lang) or label.get("en") or entry[key])
    return out


def setting_label(kind: str, value: str, lang: str | None = None) -> str:
    """The label of one value of a settings catalogue (:func:`setting_labels`); the value
    itself when the catalogue does not list it."""
    return setting_labels(kind, lang).get(value, value)


def library_file_name(basis: str) -> str:
    """The file name NWChem's library uses for ``basis`` (``6-31g*`` → ``6-31gs``)."""
    s = basis.strip().lower()
    s = s.replace("*", "s").replace("(", "").replace(")", "").replace(",", "_")
    return re.sub(r"\s+", "_", s)


def parse_library_elements(text: str) -> set[str]:
    """Element symbols that have a ``basis "El_..."`` block in an NWChem library file."""
    out: set[str] = set()
    for m in re.finditer(r'^\s*basis\s+"([A-Za-z]{1,3})_', text, re.M | re.I):
        sym = elements.normalize_symbol(m.group(1))
        if sym:
            out.add(sym)
    return out


@lru_cache(maxsize=64)
def _library_elements(fname: str) -> frozenset[str] | None:
    dirs = [os.environ["NWCHEM_BASIS_LIBRARY"]] if os.environ.get("NWCHEM_BASIS_LIBRARY") else []
    for d in [*dirs, *NWCHEM_LIBRARY_DIRS]:
        path = Path(d) / fname
        if d and path.is_file():
            try:
                return frozenset(parse_library_elements(path.read_text(errors="replace")))
            except OSError:
                return None
    return None


def basis_entry(basis: str) -> dict[str, Any] | None:
    """The catalogue entry of ``basis`` (case-insensitive; file names accepted), or None."""
    want = library_file_name(basis)
    for entry in _load("basis_sets"):
        if library_file_name(entry["name"]) == want:
            return dict(entry)
    return None


# Families outside the catalogue named by their usual prefixes: correlation-consistent
# (cc-, aug-cc-, d-aug-cc-), Ahlrichs def2/def and Jensen's pc sets are all pure-function sets.
_SPHERICAL_PREFIXES = (
    "cc-",
    "aug-cc-",
    "d-aug-cc-",
    "t-aug-cc-",
    "jun-cc-",
    "may-cc-",
    "def2-",
    "def-",
    "pc-",
    "aug-pc-",
    "pcseg-",
    "aug-pcseg-",
)


def basis_is_spherical(basis: str) -> bool:
    """Whether ``basis`` was defined with spherical (pure) functions, so NWChem needs
    ``basis spherical``: Dunning and Karlsruhe sets yes, Pople sets and STO-nG no."""
    entry = basis_entry(basis)
    if entry is not None and "spherical" in entry:
        return bool(entry["spherical"])
    return basis.strip().lower().startswith(_SPHERICAL_PREFIXES)


def basis_elements(basis: str) -> set[str] | None:
    """Elements covered by NWChem library basis ``basis``; None when the basis is unknown.

    The catalogue answers for the common sets; any other name is looked up in the
    NWChem library files on this machine when they are installed.
    """
    if not isinstance(basis, str) or not basis.strip():
        return None
    entry = basis_entry(basis)
    if entry is not None:
        return set(entry["elements"])
    found = _library_elements(library_file_name(basis))
    return set(found) if found is not None else None


def find_library_entry(name: str, kind: str | None = None) -> tuple[str, dict[str, Any]] | None:
    """A fragment or ligand by name: ``(kind, entry)`` or None.

    Exact names first (fragments before ligands when ``kind`` is None), then
    aliases, then a case-insensitive match; ``CO`` the ligand and ``Co`` the
    element stay apart because exact names win.
    """
    kinds = ("fragments", "ligands") if kind is None else (f"{kind}s",)
    tables = [(k, _load(k)) for k in kinds]
    for k, entries in tables:
        for e in entries:
            if e["name"] == name:
                return k[:-1], copy.deepcopy(e)
    for k, entries in tables:
        for e in entries:
            if name in e.get("aliases", ()):
                return k[:-1], copy.deepcopy(e)
    low = name.lower()
    for k, entries in tables:
        hits = [
            e
            for e in entries
            if e["name"].lower() == low or low in (a.lower() for a in e.get("aliases", ()))
        ]
        if len(hits) == 1:
            return k[:-1], copy.deepcopy(hits[0])
    return None


def molecules() -> list[dict[str, Any]]:
    """The bundled table of common molecules by name (solvents, ligands, reagents, amino
    acids): ``name``, ``label`` (en/ja), ``smiles`` and ``aliases`` (abbreviations such
    as DMSO and THF, Japanese names). A copy: callers may change it."""
    entries: list[dict[str, Any]] = copy.deepcopy(_load("molecules"))
    return entries


def find_molecule(name: str) -> dict[str, Any] | None:
    """The table entry named ``name`` (or one of its aliases), case-insensitively and with
    spaces trimmed, or None. ``SMILES`` strings are not names: no name or alias of the
    table reads as SMILES (a test keeps it so), so a SMILES is never taken for a name."""
    if not isinstance(name, str):
        return None
    want = " ".join(name.split()).casefold()
    if not want:
        return None
    entries: list[dict[str, Any]] = _load("molecules")
    for e in entries:
        if want == e["name"].casefold() or want in (a.casefold() for a in e["aliases"]):
            return copy.deepcopy(e)
    return None


def functional_xc(functional: str) -> str:
    """The exact NWChem ``xc`` line for ``functional``.

    A catalogue name (``pbe96``, ``tpss``, ``blyp`` …, case-insensitive) gives its xc
    line (``xpbe96 cpbe96``, ``xtpss03 ctpss03``, ``becke88 lyp``); anything else is
    already an xc line and comes back with its spacing normalised.
    """
    text = " ".join(str(functional).split())
    entry = functionals.find_entry(text)  # names and aliases (pbe → xpbe96 cpbe96)
    return str(entry["xc"]) if entry is not None else text
