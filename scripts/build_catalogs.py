#!/usr/bin/env python3
"""Write the catalogues under resources/ (run once; the JSON files are committed).

- fragments.json, ligands.json: 3D geometry of each library part, embedded with
  RDKit ETKDGv3 and relaxed with MMFF94 (UFF when MMFF has no parameters). The
  attachment point is embedded as a stand-in atom (a methyl carbon for fragments,
  a proton on the donor for ligands) so the bond direction at the attachment atom
  is realistic; its position is kept as ``dummy`` and the stand-in is dropped.
- basis_sets.json: the common basis sets and the elements each covers, read from
  NWChem's library files (default /usr/share/nwchem/libraries).
- functionals.json, tasks.json, theories.json, advanced_keys.json: labels for the
  calculation settings; advanced_keys.json follows the AdvancedSettings model.

Usage: python scripts/build_catalogs.py [--library DIR] [--only KIND ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from molforma.catalog import library_file_name, parse_library_elements  # noqa: E402

RESOURCES = ROOT / "resources"
SEED = 42

# name, English label, Japanese label, SMILES with [*] at the attachment point
FRAGMENTS: list[tuple[str, str, str, str]] = [
    ("methyl", "Methyl (–CH3)", "メチル基（–CH3）", "[*]C"),
    ("ethyl", "Ethyl (–C2H5)", "エチル基（–C2H5）", "[*]CC"),
    ("isopropyl", "Isopropyl (–CH(CH3)2)", "イソプロピル基（–CH(CH3)2）", "[*]C(C)C"),
    ("tert-butyl", "tert-Butyl (–C(CH3)3)", "tert-ブチル基（–C(CH3)3）", "[*]C(C)(C)C"),
    ("vinyl", "Vinyl (–CH=CH2)", "ビニル基（–CH=CH2）", "[*]C=C"),
    ("ethynyl", "Ethynyl (–C≡CH)", "エチニル基（–C≡CH）", "[*]C#C"),
    ("phenyl", "Phenyl (–C6H5)", "フェニル基（–C6H5）", "[*]c1ccccc1"),
    ("benzyl", "Benzyl (–CH2C6H5)", "ベンジル基（–CH2C6H5）", "[*]Cc1ccccc1"),
    ("4-pyridyl", "4-Pyridyl (–C5H4N)", "4-ピリジル基（–C5H4N）", "[*]c1ccncc1"),
    ("hydroxyl", "Hydroxyl (–OH)", "ヒドロキシ基（–OH）", "[*]O"),
    ("methoxy", "Methoxy (–OCH3)", "メトキシ基（–OCH3）", "[*]OC"),
    ("amino", "Amino (–NH2)", "アミノ基（–NH2）", "[*]N"),
    ("dimethylamino", "Dimethylamino (–N(CH3)2)", "ジメチルアミノ基（–N(CH3)2）", "[*]N(C)C"),
    ("carbonyl", "Carbonyl, formyl (–CHO)", "カルボニル基・ホルミル基（–CHO）", "[*]C=O"),
    ("acetyl", "Acetyl (–COCH3)", "アセチル基（–COCH3）", "[*]C(C)=O"),
    ("carboxyl", "Carboxyl (–COOH)", "カルボキシ基（–COOH）", "[*]C(=O)O"),
    ("methoxycarbonyl", "Methyl ester (–COOCH3)", "メトキシカルボニル基（–COOCH3）", "[*]C(=O)OC"),
    ("carbamoyl", "Amide, carbamoyl (–CONH2)", "カルバモイル基（–CONH2）", "[*]C(N)=O"),
    ("nitro", "Nitro (–NO2)", "ニトロ基（–NO2）", "[*][N+](=O)[O-]"),
    ("cyano", "Cyano (–C≡N)", "シアノ基（–C≡N）", "[*]C#N"),
    ("trifluoromethyl", "Trifluoromethyl (–CF3)", "トリフルオロメチル基（–CF3）", "[*]C(F)(F)F"),
    ("thiol", "Thiol, sulfanyl (–SH)", "スルファニル基・チオール（–SH）", "[*]S"),
    ("methylthio", "Methylthio (–SCH3)", "メチルチオ基（–SCH3）", "[*]SC"),
    (
        "trimethylsilyl",
        "Trimethylsilyl (–Si(CH3)3)",
        "トリメチルシリル基（–Si(CH3)3）",
        "[*][Si](C)(C)C",
    ),
    ("fluoro", "Fluoro (–F)", "フルオロ基（–F）", "[*]F"),
    ("chloro", "Chloro (–Cl)", "クロロ基（–Cl）", "[*]Cl"),
    ("bromo", "Bromo (–Br)", "ブロモ基（–Br）", "[*]Br"),
    ("iodo", "Iodo (–I)", "ヨード基（–I）", "[*]I"),
    # Ring templates (the palette lists them apart, see molforma.catalog.RING_TEMPLATES).
    ("cyclopropyl", "Cyclopropyl (3-ring)", "シクロプロピル基（3員環）", "[*]C1CC1"),
    ("cyclobutyl", "Cyclobutyl (4-ring)", "シクロブチル基（4員環）", "[*]C1CCC1"),
    ("cyclopentyl", "Cyclopentyl (5-ring)", "シクロペンチル基（5員環）", "[*]C1CCCC1"),
    ("cyclohexyl", "Cyclohexyl (6-ring)", "シクロヘキシル基（6員環）", "[*]C1CCCCC1"),
    ("cycloheptyl", "Cycloheptyl (7-ring)", "シクロヘプチル基（7員環）", "[*]C1CCCCCC1"),
    ("cyclooctyl", "Cyclooctyl (8-ring)", "シクロオクチル基（8員環）", "[*]C1CCCCCCC1"),
    ("2-pyridyl", "2-Pyridyl (pyridine ring)", "2-ピリジル基（ピリジン環）", "[*]c1ccccn1"),
    ("3-pyridyl", "3-Pyridyl (pyridine ring)", "3-ピリジル基（ピリジン環）", "[*]c1cccnc1"),
    ("2-furyl", "2-Furyl (furan ring)", "2-フリル基（フラン環）", "[*]c1ccco1"),
    ("2-thienyl", "2-Thienyl (thiophene ring)", "2-チエニル基（チオフェン環）", "[*]c1cccs1"),
    ("2-pyrrolyl", "2-Pyrrolyl (pyrrole ring)", "2-ピロリル基（ピロール環）", "[*]c1ccc[nH]1"),
    ("1-pyrrolyl", "1-Pyrrolyl (N-bound pyrrole)", "1-ピロリル基（N結合ピロール）", "[*]n1cccc1"),
    ("1-naphthyl", "1-Naphthyl (naphthalene)", "1-ナフチル基（ナフタレン）", "[*]c1cccc2ccccc12"),
    ("2-naphthyl", "2-Naphthyl (naphthalene)", "2-ナフチル基（ナフタレン）", "[*]c1ccc2ccccc2c1"),
]

# name, English label, Japanese label, SMILES, donor atom index, aliases
LIGANDS: list[tuple[str, str, str, str, int, list[str]]] = [
    ("NH3", "Ammine (NH3)", "アンミン（NH3）", "N", 0, ["ammine", "ammonia"]),
    ("H2O", "Aqua (H2O)", "アクア（H2O）", "O", 0, ["aqua", "water"]),
    ("CO", "Carbonyl (CO)", "カルボニル（CO）", "[C-]#[O+]", 0, ["carbonyl"]),
    ("Cl-", "Chlorido (Cl⁻)", "クロリド（Cl⁻）", "[Cl-]", 0, ["chloride", "chlorido"]),
    ("Br-", "Bromido (Br⁻)", "ブロミド（Br⁻）", "[Br-]", 0, ["bromide", "bromido"]),
    ("I-", "Iodido (I⁻)", "ヨージド（I⁻）", "[I-]", 0, ["iodide", "iodido"]),
    ("F-", "Fluorido (F⁻)", "フルオリド（F⁻）", "[F-]", 0, ["fluoride", "fluorido"]),
    ("H-", "Hydrido (H⁻)", "ヒドリド（H⁻）", "[H-]", 0, ["hydride", "hydrido"]),
    (
        "CN-",
        "Cyanido (CN⁻, C-bound)",
        "シアニド（CN⁻、C配位）",
        "[C-]#N",
        0,
        ["cyanide", "cyanido"],
    ),
    ("OH-", "Hydroxido (OH⁻)", "ヒドロキシド（OH⁻）", "[OH-]", 0, ["hydroxide", "hydroxido"]),
    (
        "MeCN",
        "Acetonitrile (NCCH3)",
        "アセトニトリル（NCCH3）",
        "N#CC",
        0,
        ["acetonitrile", "NCMe"],
    ),
    (
        "NMe3",
        "Trimethylamine (NMe3)",
        "トリメチルアミン（NMe3）",
        "N(C)(C)C",
        0,
        ["trimethylamine"],
    ),
    (
        "PMe3",
        "Trimethylphosphine (PMe3)",
        "トリメチルホスフィン（PMe3）",
        "P(C)(C)C",
        0,
        ["trimethylphosphine"],
    ),
    (
        "PPh3",
        "Triphenylphosphine (PPh3)",
        "トリフェニルホスフィン（PPh3）",
        "P(c1ccccc1)(c1ccccc1)c1ccccc1",
        0,
        ["triphenylphosphine"],
    ),
    ("pyridine", "Pyridine (py)", "ピリジン（py）", "n1ccccc1", 0, ["py"]),
    (
        "THF",
        "Tetrahydrofuran (THF)",
        "テトラヒドロフラン（THF）",
        "O1CCCC1",
        0,
        ["tetrahydrofuran"],
    ),
    (
        "SMe2",
        "Dimethyl sulfide (SMe2)",
        "ジメチルスルフィド（SMe2）",
        "S(C)C",
        0,
        ["dimethylsulfide"],
    ),
]

# name as written after `* library`, label, family
BASIS_SETS: list[tuple[str, str, str]] = [
    ("sto-3g", "STO-3G", "pople"),
    ("3-21g", "3-21G", "pople"),
    ("6-31g", "6-31G", "pople"),
    ("6-31g*", "6-31G(d)", "pople"),
    ("6-31g**", "6-31G(d,p)", "pople"),
    ("6-31+g*", "6-31+G(d)", "pople"),
    ("6-31++g**", "6-31++G(d,p)", "pople"),
    ("6-311g", "6-311G", "pople"),
    ("6-311g*", "6-311G(d)", "pople"),
    ("6-311g**", "6-311G(d,p)", "pople"),
    ("6-311+g*", "6-311+G(d)", "pople"),
    ("6-311++g**", "6-311++G(d,p)", "pople"),
    ("6-311++g(2d,2p)", "6-311++G(2d,2p)", "pople"),
    ("cc-pvdz", "cc-pVDZ", "dunning"),
    ("cc-pvtz", "cc-pVTZ", "dunning"),
    ("cc-pvqz", "cc-pVQZ", "dunning"),
    ("aug-cc-pvdz", "aug-cc-pVDZ", "dunning"),
    ("aug-cc-pvtz", "aug-cc-pVTZ", "dunning"),
    ("def2-svp", "def2-SVP", "karlsruhe"),
    ("def2-svpd", "def2-SVPD", "karlsruhe"),
    ("def2-tzvp", "def2-TZVP", "karlsruhe"),
    ("def2-tzvpp", "def2-TZVPP", "karlsruhe"),
    ("def2-qzvp", "def2-QZVP", "karlsruhe"),
    ("lanl2dz_ecp", "LANL2DZ", "ecp"),
]
# Basis set families defined with spherical (pure) d and f functions.
SPHERICAL_FAMILIES = ("dunning", "karlsruhe")
# Basis sets whose heavy elements need an ECP block: basis name -> ECP library name.
BASIS_ECP: dict[str, str] = {
    "def2-svp": "def2-ecp",
    "def2-svpd": "def2-ecp",
    "def2-tzvp": "def2-ecp",
    "def2-tzvpp": "def2-ecp",
    "def2-qzvp": "def2-ecp",
    "lanl2dz_ecp": "lanl2dz_ecp",
}

# catalogue name, xc line, kind, English label, Japanese label
# Each xc line was run through NWChem 7.0.2 (H2/STO-3G) before it was listed here.
# The one table of DFT functionals: the exact NWChem xc line, the other dft-block lines
# the functional needs (range separation "cam ...", dispersion "disp vdw N"), the names
# people type for it, and the first NWChem release that knows its keyword. Every entry is
# run by NWChem through MolForma's own input writer in tests/core/test_functionals_nwchem.py.
# (name, xc, extra dft lines, kind, label en, label ja, aliases, first NWChem release)
_FUNCTIONAL_ROWS: list[tuple[str, str, list[str], str, str, str, list[str], str | None]] = [
    ("b3lyp", "b3lyp", [], "hybrid", "B3LYP (hybrid GGA)", "B3LYP（混成GGA）", [], None),
    (
        "b3lyp-d3",
        "b3lyp",
        ["disp vdw 3"],
        "hybrid",
        "B3LYP-D3 (hybrid GGA + D3 dispersion)",
        "B3LYP-D3（混成GGA＋D3分散力補正）",
        ["b3lyp-d3zero", "b3lyp+d3"],
        None,
    ),
    (
        "pbe0",
        "pbe0",
        [],
        "hybrid",
        "PBE0 (hybrid GGA)",
        "PBE0（混成GGA）",
        ["pbe1pbe", "pbeh"],
        None,
    ),
    (
        "pbe0-d3",
        "pbe0",
        ["disp vdw 3"],
        "hybrid",
        "PBE0-D3 (hybrid GGA + D3 dispersion)",
        "PBE0-D3（混成GGA＋D3分散力補正）",
        ["pbe0+d3"],
        None,
    ),
    ("b3pw91", "b3pw91", [], "hybrid", "B3PW91 (hybrid GGA)", "B3PW91（混成GGA）", [], None),
    ("b3p86", "b3p86", [], "hybrid", "B3P86 (hybrid GGA)", "B3P86（混成GGA）", [], None),
    (
        "bhlyp",
        "bhlyp",
        [],
        "hybrid",
        "BHandHLYP (50% HF exchange)",
        "BHandHLYP（HF交換50%）",
        ["bhandhlyp"],
        None,
    ),
    ("pbe96", "xpbe96 cpbe96", [], "gga", "PBE (GGA)", "PBE（GGA）", ["pbe"], None),
    ("revpbe", "revpbe cpbe96", [], "gga", "revPBE (GGA)", "revPBE（GGA）", [], None),
    ("blyp", "becke88 lyp", [], "gga", "BLYP (GGA)", "BLYP（GGA）", ["b-lyp"], None),
    ("bp86", "becke88 perdew86", [], "gga", "BP86 (GGA)", "BP86（GGA）", ["b-p86", "bp"], None),
    (
        "b97-d",
        "becke97-d",
        ["disp vdw 2"],
        "gga",
        "B97-D (GGA + D2 dispersion)",
        "B97-D（GGA＋D2分散力補正）",
        ["b97d", "becke97-d"],
        None,
    ),
    ("hcth407", "hcth407", [], "gga", "HCTH/407 (GGA)", "HCTH/407（GGA）", [], None),
    ("svwn5", "slater vwn_5", [], "lda", "SVWN5 (LDA)", "SVWN5（LDA）", ["lda", "svwn"], None),
    ("tpss", "xtpss03 ctpss03", [], "meta-gga", "TPSS (meta-GGA)", "TPSS（メタGGA）", [], None),
    ("tpssh", "xctpssh", [], "hybrid", "TPSSh (hybrid meta-GGA)", "TPSSh（混成メタGGA）", [], None),
    ("scan", "scan", [], "meta-gga", "SCAN (meta-GGA)", "SCAN（メタGGA）", [], None),
    ("m06-l", "m06-l", [], "meta-gga", "M06-L (meta-GGA)", "M06-L（メタGGA）", ["m06l"], None),
    ("m06", "m06", [], "hybrid", "M06 (hybrid meta-GGA)", "M06（混成メタGGA）", [], None),
    (
        "m06-2x",
        "m06-2x",
        [],
        "hybrid",
        "M06-2X (hybrid meta-GGA)",
        "M06-2X（混成メタGGA）",
        ["m062x"],
        None,
    ),
    (
        "m06-2x-d3",
        "m06-2x",
        ["disp vdw 3"],
        "hybrid",
        "M06-2X-D3 (hybrid meta-GGA + D3 dispersion)",
        "M06-2X-D3（混成メタGGA＋D3分散力補正）",
        ["m062x-d3"],
        None,
    ),
    (
        "m05-2x",
        "m05-2x",
        [],
        "hybrid",
        "M05-2X (hybrid meta-GGA)",
        "M05-2X（混成メタGGA）",
        ["m052x"],
        None,
    ),
    (
        "m11",
        "m11",
        [],
        "range-separated",
        "M11 (range-separated hybrid meta-GGA)",
        "M11（長距離補正混成メタGGA）",
        [],
        None,
    ),
    (
        "cam-b3lyp",
        "xcamb88 1.00 lyp 0.81 vwn_5 0.19 hfexch 1.00",
        ["cam 0.33 cam_alpha 0.19 cam_beta 0.46"],
        "range-separated",
        "CAM-B3LYP (range-separated hybrid)",
        "CAM-B3LYP（長距離補正混成）",
        ["camb3lyp", "cam_b3lyp"],
        None,
    ),
    (
        "lc-wpbe",
        "xwpbe 1.00 cpbe96 1.00 hfexch 1.00",
        ["cam 0.4 cam_alpha 0.0 cam_beta 1.0"],
        "range-separated",
        "LC-ωPBE (range-separated hybrid)",
        "LC-ωPBE（長距離補正混成）",
        ["lc-ωpbe", "lcwpbe"],
        None,
    ),
    (
        "lc-wpbeh",
        "xwpbe 0.80 cpbe96 1.00 hfexch 1.00",
        ["cam 0.2 cam_alpha 0.20 cam_beta 0.80"],
        "range-separated",
        "LRC-ωPBEh (range-separated hybrid)",
        "LRC-ωPBEh（長距離補正混成）",
        ["lrc-wpbeh", "lrc-ωpbeh", "lc-ωpbeh"],
        None,
    ),
    (
        "lc-blyp",
        "xcamb88 1.00 lyp 1.00 hfexch 1.00",
        ["cam 0.33 cam_alpha 0.0 cam_beta 1.0"],
        "range-separated",
        "LC-BLYP (range-separated hybrid)",
        "LC-BLYP（長距離補正混成）",
        ["lcblyp"],
        None,
    ),
    (
        "cam-pbe0",
        "xcampbe96 1.00 cpbe96 1.00 hfexch 1.00",
        ["cam 0.30 cam_alpha 0.25 cam_beta 0.75"],
        "range-separated",
        "CAM-PBE0 (range-separated hybrid)",
        "CAM-PBE0（長距離補正混成）",
        ["lc-pbe0"],
        None,
    ),
    (
        "hse06",
        "xpbe96 1.00 xcampbe96 -0.25 cpbe96 1.00 srhfexch 0.25",
        ["cam 0.11 cam_alpha 0.0 cam_beta 1.0"],
        "range-separated",
        "HSE06 (screened hybrid)",
        "HSE06（遮蔽混成）",
        ["hse"],
        None,
    ),
    (
        "wb97x",
        "wb97x",
        [],
        "range-separated",
        "ωB97X (range-separated hybrid; NWChem 7.2+)",
        "ωB97X（長距離補正混成、NWChem 7.2 以降）",
        ["ωb97x"],
        "7.2.0",
    ),
    (
        "wb97x-d3",
        "wb97x-d3",
        [],
        "range-separated",
        "ωB97X-D3 (range-separated hybrid + D3; NWChem 7.2+)",
        "ωB97X-D3（長距離補正混成＋D3、NWChem 7.2 以降）",
        ["ωb97x-d3"],
        "7.2.0",
    ),
]
FUNCTIONALS: list[dict[str, Any]] = []
for _n, _xc, _lines, _kind, _en, _ja, _aliases, _since in _FUNCTIONAL_ROWS:
    _rec: dict[str, Any] = {"name": _n, "xc": _xc}
    if _lines:
        _rec["lines"] = _lines
    _rec.update(kind=_kind, label={"en": _en, "ja": _ja})
    if _aliases:
        _rec["aliases"] = _aliases
    if _since:
        _rec["nwchem"] = _since
    FUNCTIONALS.append(_rec)

TASKS: list[tuple[str, str, str, list[str]]] = [
    ("energy", "Energy (single point)", "エネルギー（一点計算）", ["energy"]),
    ("optimize", "Geometry optimisation", "構造最適化", ["optimize"]),
    ("frequencies", "Frequencies", "振動数計算", ["freq"]),
    (
        "optimize+frequencies",
        "Optimisation + frequencies",
        "構造最適化＋振動数計算",
        ["optimize", "freq"],
    ),
    ("excited-states", "Excited states (TDDFT / CIS)", "励起状態（TDDFT・CIS）", ["tddft energy"]),
    (
        "transition-state",
        "Transition state (saddle + frequencies)",
        "遷移状態（鞍点探索＋振動数計算）",
        ["saddle", "freq"],
    ),
]
THEORIES: list[tuple[str, str, str]] = [
    ("scf", "SCF (Hartree–Fock)", "SCF（ハートリー・フォック）"),
    ("dft", "DFT (density functional theory)", "DFT（密度汎関数法）"),
    ("mp2", "MP2 (second-order Møller–Plesset)", "MP2（2次のメラー・プレセット摂動）"),
]

# key -> (English label, Japanese label, Japanese description)
ADVANCED_LABELS: dict[str, tuple[str, str, str]] = {
    "memory_mb": ("Memory (MB)", "メモリ（MB）", "NWChemが使う全メモリー（MB）。"),
    "scratch_dir": (
        "Scratch directory",
        "スクラッチディレクトリ",
        "scratch_dir 指示（絶対パス）。一時ファイルの置き場所です。",
    ),
    "permanent_dir": (
        "Permanent directory",
        "永続ディレクトリ",
        "permanent_dir 指示（絶対パス）。残すファイルの置き場所です。",
    ),
    "input_movecs": (
        "Input MO vectors",
        "初期MOベクトル（入力）",
        "初期分子軌道（vectors input）のファイル。",
    ),
    "output_movecs": (
        "Output MO vectors",
        "MOベクトルの出力先",
        "分子軌道の出力先（vectors output）。",
    ),
    "scf_maxiter": ("SCF max iterations", "SCF最大反復回数", "SCFの反復回数の上限。"),
    "scf_thresh": ("SCF convergence threshold", "SCF収束しきい値", "SCFの収束しきい値。"),
    "dft_iterations": ("DFT max iterations", "DFT最大反復回数", "DFTの反復回数の上限。"),
    "dft_convergence_energy": (
        "DFT energy convergence",
        "DFTエネルギー収束条件",
        "DFTのエネルギー収束条件。",
    ),
    "dft_grid": ("DFT grid", "DFT積分グリッド", "DFTの数値積分グリッド。"),
    "dispersion": ("Dispersion correction", "分散力補正", "経験的分散力補正（DFTのみ）。"),
    "noautosym": (
        "No automatic symmetry",
        "対称性を自動で使わない",
        "geometry noautosym。対称性を検出しません。未設定なら自動：固定原子がなければ"
        "対称性を使い、結果は文書の座標系に戻します。",
    ),
    "nocenter": (
        "Keep my frame (no centring)",
        "座標系を保持（中心移動なし）",
        "geometry nocenter noautoz。入力の座標系とデカルト座標をそのまま使います。"
        "未設定なら自動：固定原子がなければ内部座標を使います。",
    ),
    "basis_spherical": (
        "Spherical basis functions",
        "球面調和基底関数",
        "basis spherical。未設定なら基底関数の定義どおり（cc-pVXZ・def2 は球面、"
        "Pople 系はデカルト）。",
    ),
    "mp2_frozen_core": (
        "MP2 frozen core",
        "MP2 で内殻を凍結",
        "mp2 の freeze atomic。オフにすると全電子を相関させます。",
    ),
    "opt_maxiter": (
        "Optimiser max steps",
        "最適化の最大ステップ数",
        "構造最適化のステップ数の上限。",
    ),
    "freq_animate": (
        "Write mode animation files",
        "振動アニメーションファイルを出力",
        "freq の animate。モードごとのアニメーションXYZを書き出します。",
    ),
    "print_level": ("Print level", "出力レベル", "全体の出力レベル。"),
    "properties": (
        "Dipole, quadrupole, Mulliken charges",
        "双極子・四極子・Mulliken電荷",
        "property タスクで双極子・四極子モーメントとMulliken電荷を出力します（MP2ではSCFレベル）。",
    ),
    "molden_file": (
        "Write a MOLDEN file (orbitals)",
        "MOLDEN ファイルを出力（分子軌道）",
        "分子軌道を MOLDEN ファイル（ジョブフォルダの <接頭辞>.molden）に書き出します。"
        "結果タブの分子軌道表示で開けます。",
    ),
}


# ---------------------------------------------------------------------------------------------
# 3D geometry of fragments and ligands


def _relax(mol: Any) -> str:
    from rdkit.Chem import AllChem

    params = AllChem.ETKDGv3()
    params.randomSeed = SEED
    if AllChem.EmbedMolecule(mol, params) != 0:
        raise RuntimeError("embedding failed")
    if AllChem.MMFFHasAllMoleculeParams(mol):
        AllChem.MMFFOptimizeMolecule(mol, maxIters=2000)
        return "mmff94"
    if AllChem.UFFHasAllMoleculeParams(mol):
        AllChem.UFFOptimizeMolecule(mol, maxIters=2000)
        return "uff"
    return "etkdg"


def _record(mol: Any, keep: list[int], attach: int, stand_in: int) -> dict[str, Any]:
    import numpy as np
    from rdkit import Chem

    mol = Chem.Mol(mol)
    Chem.Kekulize(mol, clearAromaticFlags=True)  # the document stores bond orders 1..3
    conf = mol.GetConformer()
    pos = np.array([list(conf.GetAtomPosition(i)) for i in range(mol.GetNumAtoms())])
    origin = pos[attach]
    new_index = {old: new for new, old in enumerate(keep)}
    atoms = []
    for old in keep:
        a = mol.GetAtomWithIdx(old)
        x, y, z = (round(float(c), 4) for c in pos[old] - origin)
        atoms.append(
            {"element": a.GetSymbol(), "x": x, "y": y, "z": z, "formalCharge": a.GetFormalCharge()}
        )
    bonds = []
    for b in mol.GetBonds():
        i, j = b.GetBeginAtomIdx(), b.GetEndAtomIdx()
        if i in new_index and j in new_index:
            order = {Chem.BondType.SINGLE: 1, Chem.BondType.DOUBLE: 2, Chem.BondType.TRIPLE: 3}[
                b.GetBondType()
            ]
            bonds.append([new_index[i], new_index[j], order])
    dummy = [round(float(c), 4) for c in pos[stand_in] - origin]
    return {"attachment": new_index[attach], "atoms": atoms, "bonds": bonds, "dummy": dummy}


def build_fragment(smiles: str) -> dict[str, Any]:
    """Geometry of a fragment: the [*] becomes a methyl carbon while embedding."""
    from rdkit import Chem

    mol = Chem.MolFromSmiles(smiles)
    dummies = [a.GetIdx() for a in mol.GetAtoms() if a.GetAtomicNum() == 0]
    if len(dummies) != 1 or mol.GetAtomWithIdx(dummies[0]).GetDegree() != 1:
        raise ValueError(f"{smiles}: needs exactly one [*] with one bond")
    stand_in = dummies[0]
    attach = mol.GetAtomWithIdx(stand_in).GetNeighbors()[0].GetIdx()
    rw = Chem.RWMol(mol)
    rw.GetAtomWithIdx(stand_in).SetAtomicNum(6)
    rw.GetAtomWithIdx(stand_in).SetNoImplicit(False)
    m = rw.GetMol()
    Chem.SanitizeMol(m)
    m = Chem.AddHs(m)
    method = _relax(m)
    cap_h = {n.GetIdx() for n in m.GetAtomWithIdx(stand_in).GetNeighbors() if n.GetAtomicNum() == 1}
    keep = [i for i in range(m.GetNumAtoms()) if i != stand_in and i not in cap_h]
    rec = _record(m, keep, attach, stand_in)
    rec["method"] = method
    return rec


def build_ligand(smiles: str, donor: int) -> dict[str, Any]:
    """Geometry of a ligand: a proton on the donor stands in for the metal while embedding."""
    from rdkit import Chem

    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        raise ValueError(f"bad SMILES {smiles}")
    rw = Chem.RWMol(Chem.AddHs(mol))
    d = rw.GetAtomWithIdx(donor)
    d.SetFormalCharge(d.GetFormalCharge() + 1)
    d.SetNoImplicit(True)
    stand_in = rw.AddAtom(Chem.Atom(1))
    rw.AddBond(donor, stand_in, Chem.BondType.SINGLE)
    m = rw.GetMol()
    Chem.SanitizeMol(m)
    method = _relax(m)
    keep = [i for i in range(m.GetNumAtoms()) if i != stand_in]
    rec = _record(m, keep, donor, stand_in)
    # The stand-in proton changed the donor's charge only for embedding.
    rec["atoms"][rec["attachment"]]["formalCharge"] -= 1
    rec["method"] = method
    return rec


def _formula(atoms: list[dict[str, Any]]) -> str:
    from molforma.document.envelope import formula

    return formula(atoms)


def fragments() -> list[dict[str, Any]]:
    """Fragment records, in catalogue order."""
    out = []
    for name, en, ja, smiles in FRAGMENTS:
        rec = build_fragment(smiles)
        out.append(
            {
                "name": name,
                "label": {"en": en, "ja": ja},
                "smiles": smiles,
                "formula": _formula(rec["atoms"]),
                "attachmentElement": rec["atoms"][rec["attachment"]]["element"],
                **rec,
            }
        )
    return out


def ligands() -> list[dict[str, Any]]:
    """Ligand records, in catalogue order."""
    out = []
    for name, en, ja, smiles, donor, aliases in LIGANDS:
        rec = build_ligand(smiles, donor)
        charge = sum(a["formalCharge"] for a in rec["atoms"])
        out.append(
            {
                "name": name,
                "label": {"en": en, "ja": ja},
                "smiles": smiles,
                "aliases": aliases,
                "formula": _formula(rec["atoms"]),
                "charge": charge,
                "donorElement": rec["atoms"][rec["attachment"]]["element"],
                **rec,
            }
        )
    return out


# ---------------------------------------------------------------------------------------------
# Settings catalogues


def _z_sorted(symbols: set[str]) -> list[str]:
    from molforma.document.elements import atomic_number

    return sorted(symbols, key=atomic_number)


def basis_sets(library: Path) -> list[dict[str, Any]]:
    """Basis set records with the elements each covers (from NWChem's library files)."""
    out = []
    for name, label, family in BASIS_SETS:
        path = library / library_file_name(name)
        if not path.is_file():
            raise FileNotFoundError(f"{name}: {path} not found")
        elements = _z_sorted(parse_library_elements(path.read_text(errors="replace")))
        ja = label
        if family == "ecp":
            label, ja = f"{label} (with ECP)", f"{label}（ECP付き）"
        elif name == "sto-3g":
            label, ja = f"{label} (minimal)", f"{label}（最小基底）"
        # NWChem's library files tag every set SPHERICAL but the basis block decides;
        # Dunning's and Ahlrichs' sets were defined with pure functions, Pople's with 6d.
        rec: dict[str, Any] = {
            "name": name,
            "label": {"en": label, "ja": ja},
            "family": family,
            "elements": elements,
            "spherical": family in SPHERICAL_FAMILIES,
        }
        ecp = BASIS_ECP.get(name)
        if ecp is not None:
            text = (library / library_file_name(ecp)).read_text(errors="replace")
            import re

            ecp_el = {m.group(1) for m in re.finditer(r"^\s*([A-Z][a-z]?)\s+nelec\s", text, re.M)}
            rec["ecp"] = ecp
            rec["ecpElements"] = _z_sorted(ecp_el & set(elements))
        out.append(rec)
    return out


def functionals() -> list[dict[str, Any]]:
    """Functional records: ``name`` is what ``calculation.functional`` holds; ``xc`` and
    ``lines`` are what the dft block gets; ``nwchem`` the first release that knows it."""
    return [dict(rec) for rec in FUNCTIONALS]


def tasks() -> list[dict[str, Any]]:
    """Task records with the NWChem operations they run."""
    return [
        {"name": n, "label": {"en": en, "ja": ja}, "operations": ops} for n, en, ja, ops in TASKS
    ]


def theories() -> list[dict[str, Any]]:
    """Theory records."""
    return [{"name": n, "label": {"en": en, "ja": ja}} for n, en, ja in THEORIES]


def _type_of(annotation: Any) -> tuple[str, bool, list[Any] | None]:
    """(type name, nullable, choices) of a pydantic field annotation."""
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    nullable = False
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        nullable = len(rest) != len(args)
        annotation = rest[0] if len(rest) == 1 else annotation
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
    if origin is typing.Literal:
        return "choice", nullable, list(args)
    names = {bool: "boolean", int: "integer", float: "number", str: "string"}
    return names[annotation], nullable, None


def advanced_keys() -> list[dict[str, Any]]:
    """One record per AdvancedSettings key, in model order."""
    from molforma.nwchem.settings import ADVANCED_PATH_KEYS, AdvancedSettings

    out = []
    for key, field in AdvancedSettings.model_fields.items():
        if key not in ADVANCED_LABELS:
            raise KeyError(f"advanced key {key!r} has no label in ADVANCED_LABELS")
        en, ja, desc_ja = ADVANCED_LABELS[key]
        typ, nullable, choices = _type_of(field.annotation)
        rec: dict[str, Any] = {
            "key": key,
            "label": {"en": en, "ja": ja},
            "type": typ,
            "nullable": nullable,
            "default": field.default,
        }
        if choices is not None:
            rec["choices"] = choices
        for meta in field.metadata:
            for attr, name in (
                ("ge", "min"),
                ("gt", "exclusiveMin"),
                ("le", "max"),
                ("lt", "exclusiveMax"),
            ):
                if getattr(meta, attr, None) is not None:
                    rec[name] = getattr(meta, attr)
        rec["path"] = key in ADVANCED_PATH_KEYS
        rec["description"] = {"en": field.description or "", "ja": desc_ja}
        out.append(rec)
    return out


def _dumps(data: list[dict[str, Any]]) -> str:
    """One entry per line, each atom on a line of its own: small files, readable diffs."""
    lines = []
    for entry in data:
        head = {k: v for k, v in entry.items() if k not in ("atoms", "bonds")}
        parts = [json.dumps(head, ensure_ascii=False, separators=(", ", ": "))[:-1]]
        if "atoms" in entry:
            atoms = ",\n  ".join(
                json.dumps(a, ensure_ascii=False, separators=(",", ":")) for a in entry["atoms"]
            )
            parts.append(
                f', "atoms": [\n  {atoms}],\n "bonds": '
                + json.dumps(entry["bonds"], separators=(",", ":"))
            )
        lines.append("".join(parts) + "}")
    return "[\n" + ",\n".join(lines) + "\n]\n"


def _write(name: str, data: Any) -> None:
    path = RESOURCES / f"{name}.json"
    text = _dumps(data)
    if json.loads(text) != data:
        raise AssertionError(f"{name}: compact JSON does not round-trip")
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)} ({len(text)} bytes)")


def main(argv: list[str] | None = None) -> int:
    """Build the requested catalogues (all by default)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", type=Path, default=Path("/usr/share/nwchem/libraries"))
    ap.add_argument("--only", nargs="*", default=None)
    args = ap.parse_args(argv)
    builders = {
        "fragments": fragments,
        "ligands": ligands,
        "basis_sets": lambda: basis_sets(args.library),
        "functionals": functionals,
        "tasks": tasks,
        "theories": theories,
        "advanced_keys": advanced_keys,
    }
    RESOURCES.mkdir(exist_ok=True)
    for name in args.only or builders:
        _write(name, builders[name]())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
