"""The DFT functionals MolForma writes for NWChem, and NWChem's own ``xc`` grammar (no Qt).

The table is ``resources/functionals.json`` (read through :mod:`molforma.catalog`): one
entry per functional with its exact ``xc`` line, the other dft-block lines it needs
(``cam …`` for range separation, ``disp vdw N`` for dispersion), the names people type
for it and, when it is recent, the first NWChem release that knows it. This module
answers the questions every route asks of a functional: which entry a typed name, an
alias or a hand-written ``xc`` line (from a ``.nw`` file) is; whether a custom ``xc`` line
is one NWChem's reader accepts; which lines the dft block gets. Basis names get the
nearest library names here too, for the warning an unknown basis earns.

A custom ``xc`` line is kept only when every word is one of NWChem's ``xc`` keywords
(``src/nwdft/input_dft/xc_inp.F``, release 7.0.2, plus the 7.2 additions), each
optionally followed by ``local``/``nonlocal`` and a weight: anything else makes NWChem
stop with ``xc_input: invalid format``. Attenuated-exchange keywords (``xcamb88``,
``xwpbe`` …) need a ``cam`` line the functional field cannot carry — without it NWChem
runs and gives a meaningless energy (water/STO-3G: −84.55 Eh instead of −75.28) — so
they are accepted only as a table entry.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from molforma.errors import ValidationError

# NWChem 7.0.2's xc keywords (the ``dirs`` table of xc_inp.F), lower case.
_XC_702 = (
    "acm",
    "b3lyp",
    "beckehandh",
    "hfexch",
    "becke88",
    "lyp",
    "perdew81",
    "perdew86",
    "perdew91",
    "pw91lda",
    "slater",
    "vwn_1",
    "vwn_2",
    "vwn_3",
    "vwn_4",
    "vwn_5",
    "vwn_1_rpa",
    "hcth",
    "becke97",
    "becke97-1",
    "cpbe96",
    "xpbe96",
    "gill96",
    "xperdew91",
    "xhcth",
    "xbecke97",
    "xbecke97-1",
    "chcth",
    "cbecke97",
    "cbecke97-1",
    "hcth120",
    "hcth147",
    "becke98",
    "pbe0",
    "becke97gga1",
    "hcth407",
    "hcthp14",
    "optx",
    "optc",
    "becke97-2",
    "mpw91",
    "ft97",
    "xft97",
    "cft97",
    "xpkzb99",
    "mpw1k",
    "cpkzb99",
    "hcth407p",
    "xtpss03",
    "ctpss03",
    "xctpssh",
    "becke97-3",
    "op",
    "bop",
    "pbeop",
    "rpbe",
    "revpbe",
    "bc95",
    "mpw1b95",
    "mpwb1k",
    "b1b95",
    "bb1k",
    "pw6b95",
    "pwb6k",
    "m05",
    "m05-2x",
    "xpw6b95",
    "cpw6b95",
    "xpwb6k",
    "cpwb6k",
    "xm05",
    "cm05",
    "xm05-2x",
    "cm05-2x",
    "vs98",
    "xvs98",
    "cvs98",
    "m06-l",
    "xm06-l",
    "cm06-l",
    "m06-hf",
    "xm06-hf",
    "cm06-hf",
    "m06",
    "revm06",
    "revm06-l",
    "xm06",
    "cm06",
    "m06-2x",
    "xm06-2x",
    "cm06-2x",
    "m08-hx",
    "xm08-hx",
    "cm08-hx",
    "m08-so",
    "xm08-so",
    "cm08-so",
    "m11",
    "xm11",
    "cm11",
    "m11-l",
    "xm11-l",
    "cm11-l",
    "sogga",
    "xsogga",
    "csogga",
    "sogga11",
    "xsogga11",
    "csogga11",
    "sogga11-x",
    "xsogga11-x",
    "csogga11-x",
    "n12",
    "xn12",
    "cn12",
    "cn12-sx",
    "xbnl07",
    "becke97-d",
    "xcamb88",
    "xcampbe96",
    "mp2",
    "b2plyp",
    "xcamlsd",
    "xwpbe",
    "ssb-d",
    "kt1",
    "kt2",
    "bhlyp",
    "b3p86",
    "b3pw91",
    "pbe96",
    "dldf",
    "srhfexch",
    "hse03",
    "s12g",
    "s12h",
    "cam-s12g",
    "cam-s12h",
    "becke86b",
    "xperdew86",
    "xmvs15",
    "cvpbe09",
    "mvs",
    "hle16",
    "scan",
    "scanl",
    "scan0",
    "lb94",
    "rscan",
    "xncap",
    "ncap",
)
# Added in NWChem 7.2.0 (7.0.x stops on them with "xc_input: invalid format").
_XC_720 = (
    "revm11",
    "mn12-l",
    "mn12-sx",
    "m06-sx",
    "mn15-l",
    "mn15",
    "n12-sx",
    "r2scan",
    "r2scanl",
    "xscan",
    "cscan",
    "hcth147@tz2p",
    "wb97",
    "wb97x",
    "wb97x-d3",
    "xr2scan",
    "cr2scan",
    "r2scan0",
)
XC_KEYWORDS: dict[str, str | None] = {**dict.fromkeys(_XC_702), **dict.fromkeys(_XC_720, "7.2.0")}
# Attenuated (range-separated) exchange: meaningful only with the cam line beside it.
RANGE_SEPARATED_KEYWORDS = frozenset(
    {"xcamb88", "xcampbe96", "xcamlsd", "xwpbe", "xbnl07", "srhfexch"}
)
# Keywords that need a block of their own besides the dft block (b2plyp: mp2 + dftmp2).
_OTHER_BLOCK_KEYWORDS = frozenset({"mp2", "b2plyp"})
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?")


def _entries() -> list[dict[str, Any]]:
    from molforma.catalog import _load

    return list(_load("functionals"))


def names() -> list[str]:
    """The table's names, in table order."""
    return [str(e["name"]) for e in _entries()]


def _key(text: str) -> str:
    return " ".join(str(text).split()).lower()


def find_entry(name: str) -> dict[str, Any] | None:
    """The entry named ``name`` or one of its aliases (case and spacing ignored), or None."""
    key = _key(name)
    if not key:
        return None
    for entry in _entries():
        if key == entry["name"].lower() or key in (a.lower() for a in entry.get("aliases", ())):
            return dict(entry)
    return None


def parse_xc(text: str) -> list[tuple[str, str, float]] | None:
    """The terms of an ``xc`` line as NWChem reads them: ``(keyword, part, weight)`` with
    part ``""``, ``local`` or ``nonlocal`` and weight 1.0 when none is written; None when a
    word is not NWChem's (it would stop with ``xc_input: invalid format``)."""
    words = _key(text).split()
    terms: list[tuple[str, str, float]] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word not in XC_KEYWORDS:
            return None
        i += 1
        part = ""
        if i < len(words) and words[i] in ("local", "nonlocal"):
            part = words[i]
            i += 1
        weight = 1.0
        if i < len(words) and _NUMBER.fullmatch(words[i]):
            weight = float(words[i].replace("d", "e"))
            i += 1
        terms.append((word, part, weight))
    return terms or None


def _terms_key(terms: Iterable[tuple[str, str, float]]) -> tuple[tuple[str, str, float], ...]:
    # NWChem sums the terms, so their order does not matter; weights compare as numbers.
    return tuple(sorted((k, p, round(w, 6)) for k, p, w in terms))


def _line_key(line: str) -> tuple[str, ...]:
    words = _key(line).split()
    return tuple(f"{float(w.replace('d', 'e')):.6g}" if _NUMBER.fullmatch(w) else w for w in words)


def entry_for_xc(xc: str, lines: Iterable[str] = ()) -> dict[str, Any] | None:
    """The table entry an ``xc`` line plus its ``cam``/``disp`` lines equals, or None.

    ``xc xpbe96 cpbe96`` written by hand is PBE; ``xc b3lyp`` with ``disp vdw 3`` is
    B3LYP-D3; a range-separated line matches only with the same ``cam`` parameters.
    """
    terms = parse_xc(xc)
    if terms is None:
        return None
    want = _terms_key(terms)
    given = sorted(_line_key(x) for x in lines if _key(x))
    for entry in _entries():
        got = parse_xc(entry["xc"])
        if (
            got is not None
            and _terms_key(got) == want
            and sorted(_line_key(x) for x in entry.get("lines", ())) == given
        ):
            return dict(entry)
    return None


def _range_separated_xc(xc: str) -> dict[str, Any] | None:
    """The range-separated entry whose xc line ``xc`` is: typed alone it means that
    functional, whose cam line the field cannot hold (the entry brings it)."""
    terms = parse_xc(xc)
    if terms is None:
        return None
    want = _terms_key(terms)
    for entry in _entries():
        got = parse_xc(entry["xc"])
        lines = entry.get("lines", ())
        if (
            got is not None
            and _terms_key(got) == want
            and lines
            and all(x.lower().startswith("cam ") for x in lines)
        ):
            return dict(entry)
    return None


def nearest(value: str, candidates: Iterable[str], n: int = 5) -> list[str]:
    """Up to ``n`` of ``candidates`` closest to ``value`` (difflib, case ignored)."""
    pool = {c.lower(): c for c in candidates}
    hits = difflib.get_close_matches(_key(value), list(pool), n=n, cutoff=0.5)
    return [pool[h] for h in hits]


_WITH_DISPERSION = re.compile(r"(.+?)[-_+ ]?(d2|d3|d3bj|d3\(bj\))", re.I)
_DISPERSION_KEYS = {"d2": "d2", "d3": "d3", "d3bj": "d3bj", "d3(bj)": "d3bj"}


def _refuse_unknown(value: str) -> ValidationError:
    valid = names()
    disp = _WITH_DISPERSION.fullmatch(value)
    base = find_entry(disp.group(1)) if disp else None
    if disp and base is not None and not base.get("lines"):
        # b3lyp-d3bj, pbe0-d2: the functional plus the advanced dispersion setting.
        return ValidationError(
            "functional_dispersion_separate",
            value=value,
            base=base["name"],
            dispersion=_DISPERSION_KEYS[disp.group(2).lower()],
            valid=valid,
            setting="functional",
            block="calculation",
            key="functional",
        )
    pool = valid + [a for e in _entries() for a in e.get("aliases", ())]
    close = []
    for hit in nearest(value, pool, n=8):
        entry = find_entry(hit)
        if entry is not None and entry["name"] not in close:
            close.append(entry["name"])
    return ValidationError(
        "unknown_functional",
        value=value,
        nearest=", ".join(close[:4]) or "-",
        valid=valid,
        setting="functional",
        block="calculation",
        key="functional",
    )


def check(value: str) -> dict[str, Any] | None:
    """The entry ``value`` names (a name, an alias or an equal ``xc`` line), or None for a
    custom ``xc`` line NWChem accepts; empty text is left to the input check.

    Raises:
        ValidationError: ``unknown_functional`` (with the valid names and the nearest
            ones) or ``functional_needs_range_separation``.
    """
    if not _key(value):
        return None
    entry = find_entry(value) or entry_for_xc(value) or _range_separated_xc(value)
    if entry is not None:
        return entry
    terms = parse_xc(value)
    if terms is None or any(k in _OTHER_BLOCK_KEYWORDS for k, _p, _w in terms):
        raise _refuse_unknown(" ".join(str(value).split()))
    attenuated = sorted({k for k, _p, _w in terms if k in RANGE_SEPARATED_KEYWORDS})
    if attenuated:
        rs = [
            e["name"]
            for e in _entries()
            if any(x.lower().startswith("cam ") for x in e.get("lines", ()))
        ]
        raise ValidationError(
            "functional_needs_range_separation",
            value=" ".join(str(value).split()),
            keyword=", ".join(attenuated),
            names=", ".join(rs),
            valid=names(),
            setting="functional",
            block="calculation",
            key="functional",
        )
    return None


def canonical(value: str) -> str:
    """What ``calculation.functional`` stores for ``value``: the table name when it names
    or equals an entry, else the custom ``xc`` line with its spacing normalised.

    Raises:
        ValidationError: as :func:`check`.
    """
    entry = check(value)
    if entry is not None:
        return str(entry["name"])
    return " ".join(str(value).split())


def dft_lines(functional: str) -> list[str]:
    """The ``xc`` line and the lines the functional needs beside it in the dft block.

    Raises:
        ValidationError: as :func:`check`.
    """
    entry = check(functional)
    if entry is None:
        return [f"xc {' '.join(str(functional).split())}"]
    return [f"xc {entry['xc']}", *entry.get("lines", ())]


def own_dispersion(functional: str) -> str | None:
    """The ``disp`` line the functional brings itself (``b3lyp-d3``), or None."""
    try:
        entry = check(functional)
    except ValidationError:
        return None
    if entry is None:
        return None
    return next((x for x in entry.get("lines", ()) if x.lower().startswith("disp")), None)


def needs_nwchem(functional: str) -> str | None:
    """The first NWChem release that knows ``functional`` when it is newer than 7.0, or None."""
    try:
        entry = check(functional)
    except ValidationError:
        return None
    if entry is not None:
        return entry.get("nwchem")
    terms = parse_xc(functional) or []
    versions = sorted({v for k, _p, _w in terms if (v := XC_KEYWORDS.get(k))})
    return versions[-1] if versions else None


# -- basis sets ---------------------------------------------------------------------------------
def _library_names() -> list[str]:
    from molforma.catalog import NWCHEM_LIBRARY_DIRS

    env = os.environ.get("NWCHEM_BASIS_LIBRARY")
    for d in [*([env] if env else []), *NWCHEM_LIBRARY_DIRS]:
        path = Path(d)
        if path.is_dir():
            try:
                return sorted(p.name for p in path.iterdir() if p.is_file())
            except OSError:
                return []
    return []


def basis_nearest(basis: str, n: int = 5) -> list[str]:
    """The catalogue and library basis names closest to ``basis`` (catalogue names first)."""
    from molforma.catalog import get_catalog, library_file_name

    # Compared as the library's file names (6-31g* is the file 6-31gs), shown as the
    # catalogue spells them when it lists them.
    shown = {
        library_file_name(str(e["name"])): str(e["name"])
        for e in get_catalog("basis_sets")["basis_sets"]
    }
    for fname in _library_names():
        shown.setdefault(fname, fname)
    hits = difflib.get_close_matches(library_file_name(basis), list(shown), n=n, cutoff=0.5)
    return [shown[h] for h in hits]


def basis_known(basis: str) -> bool:
    """True when the catalogue or NWChem's library here has ``basis``."""
    from molforma.catalog import basis_elements

    return basis_elements(basis) is not None


def calculation_warnings(calc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Warnings (not refusals) about the calculation block, ``{field, code, details}``:
    a basis name neither the catalogue nor the library here knows (with the nearest
    names: it may be a custom basis file), and a functional newer than NWChem 7.0."""
    out: list[dict[str, Any]] = []
    basis = str(calc.get("basis", "") or "").strip()
    if basis and not basis_known(basis):
        out.append(
            {
                "field": "calculation.basis",
                "code": "basis_not_in_library",
                "details": {"basis": basis, "nearest": ", ".join(basis_nearest(basis)) or "-"},
            }
        )
    if calc.get("theory") == "dft":
        functional = str(calc.get("functional", "") or "")
        version = needs_nwchem(functional)
        if version:
            out.append(
                {
                    "field": "calculation.functional",
                    "code": "functional_needs_nwchem",
                    "details": {"functional": functional, "version": version},
                }
            )
    return out


__all__ = [
    "RANGE_SEPARATED_KEYWORDS",
    "XC_KEYWORDS",
    "basis_known",
    "basis_nearest",
    "calculation_warnings",
    "canonical",
    "check",
    "dft_lines",
    "entry_for_xc",
    "find_entry",
    "names",
    "nearest",
    "needs_nwchem",
    "own_dispersion",
    "parse_xc",
]
