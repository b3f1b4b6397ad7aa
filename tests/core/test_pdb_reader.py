"""The column-wise PDB reader reads every file exactly as the record-by-record one does."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from molforma.app import ops
from molforma.document.document import Document
from molforma.errors import FormatError
from molforma.formats import pdb, pdb_conect

ELEMENTS = ["C", "N", "O", "H", "S", "FE", "CL"]


def _record(rng: random.Random, serial: int, k: int) -> str:
    el = rng.choice(ELEMENTS)
    name = (el + str(k % 9))[:4]
    alt = rng.choice(["A", "B"]) if rng.random() < 0.15 else " "
    charge = rng.choice(["  ", "  ", "1+", "1-", "2+"] * 10 + ["x+", "²+"])  # two refused
    column = el if rng.random() > 0.15 else ""  # blank: the name decides
    if rng.random() < 0.02:
        column = "XX"  # an unknown element: which error comes first is the reader's order
    x, y, z = (rng.uniform(-3, 3) for _ in range(3))
    line = (
        f"{rng.choice(['HETATM', 'ATOM  '])}{serial:>5} {name:<4}{alt}MOL A{k // 3:>4}    "
        f"{x:8.3f}{y:8.3f}{z:8.3f}{rng.choice([1.0, 0.5, 0.3]):6.2f}{0.0:6.2f}          "
        f"{column:>2}{charge}"
    )
    if rng.random() < 0.05:
        line = line[:60]  # no element or charge columns
    return line.lower() if rng.random() < 0.02 else line


def _conect(rng: random.Random, serials: list[int]) -> str:
    a = rng.choice([*serials, 999])
    partners = [rng.choice([*serials, a, 0, 77777]) for _ in range(rng.randint(0, 4))]
    line = f"CONECT{a:>5}" + "".join(f"{p:>5}" for p in partners)
    r = rng.random()
    if r < 0.03:
        line = line.replace(" ", "\t", 1)  # a tab: the record reader decides
    elif r < 0.05:
        line = "CONECT"  # no atom: an error naming the line
    elif r < 0.07:
        line += " x"
    elif r < 0.10:
        line = f"CONECT{a:<5}" + "".join(f"{p:<5}" for p in partners)  # left-justified
    elif r < 0.12:
        line = f"CONECT{a:>5}  -{rng.randint(1, 9)}  "
    elif r < 0.14:
        line = f"CONECT{a:>5} 1 2 "  # two numbers in one field
    return line


def _pdb(rng: random.Random) -> str:
    n = rng.randint(1, 25)
    models = rng.randint(2, 3) if rng.random() < 0.2 else 1
    lines: list[str] = []
    serials: list[int] = []
    for m in range(models):
        if models > 1:
            lines.append(f"MODEL     {m + 1:>4}")
        for k in range(n):
            serial = k + 1 if rng.random() > 0.05 else rng.randint(1, n)  # a repeat now and then
            lines.append(_record(rng, serial, k))
            serials.append(serial)
        if models > 1:
            lines.append("ENDMDL")
    lines += [_conect(rng, serials) for _ in range(rng.randint(0, n))]
    if rng.random() < 0.3:
        lines.insert(0, "TITLE     a test")
    return "\n".join(lines) + "\n"


def _read(text: str, **kw: Any) -> tuple[Any, ...]:
    try:
        s = pdb.read_pdb(text, **kw)
    except FormatError as exc:
        return ("error", str(exc), exc.data)
    return ("ok", s.atoms, s.bonds, s.title, s.charge, s.frame_count, s.info)


@pytest.mark.parametrize("seed", range(6))
def test_random_files_read_alike_by_columns_and_by_records(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    cases = [
        (_pdb(rng), {"frame": rng.choice([None, 1]), "altloc": rng.choice([None, None, "A", "B"])})
        for _ in range(150)
    ]
    fast = [_read(text, **kw) for text, kw in cases]
    monkeypatch.setattr(pdb, "_parsed_columns", lambda lines, rows: None)
    monkeypatch.setattr(pdb_conect, "_columns", lambda lines, rows, numbers, n: None)
    slow = [_read(text, **kw) for text, kw in cases]
    assert fast == slow
    assert any("element" in r[1] for r in fast if r[0] == "error")
    assert any("charge" in r[1] for r in fast if r[0] == "error")
    kinds = {r[0] for r in fast}
    assert kinds == {"ok", "error"}  # both kinds of file are among the cases


def test_a_pair_listed_twice_from_one_end_is_a_double_bond_by_either_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    atoms = "".join(
        f"HETATM{k:>5}  C{k}  MOL A   1    {1.3 * k:8.3f}   0.000   0.000  1.00  0.00           C\n"
        for k in range(1, 5)
    )
    text = atoms + "CONECT    1    2    2\nCONECT    2    3    3    3\nCONECT    3    4\n"
    for _ in range(2):
        s = pdb.read_pdb(text)
        assert [(b["a"], b["b"], b["order"]) for b in s.bonds] == [
            ("a1", "a2", 2),
            ("a2", "a3", 3),
            ("a3", "a4", 1),
        ]
        monkeypatch.setattr(pdb_conect, "_columns", lambda lines, rows, numbers, n: None)


def _water_pdb(waters: int, conect_every: int) -> str:
    """A water box; in waters k with k % conect_every == 0 only the oxygen's CONECT record
    is there, naming no partner: their O-H bonds join a CONECT atom to atoms of none."""
    side = int(waters ** (1 / 3)) + 1
    atoms, conect = [], []
    for k in range(waters):
        ox, oy, oz = (k % side) * 3.1, (k // side % side) * 3.1, (k // side // side) * 3.1
        o = 3 * k + 1
        for serial, (el, x, y) in enumerate(
            [("O", ox, oy), ("H", ox + 0.957, oy), ("H", ox - 0.24, oy + 0.927)], start=o
        ):
            atoms.append(
                f"HETATM{serial:>5}  {el}{serial % 100:<2} HOH A   1    {x:8.3f}"
                f"{y:8.3f}{oz:8.3f}  1.00  0.00           {el}"
            )
        if k % conect_every:
            conect += [
                f"CONECT{o:>5}{o + 1:>5}{o + 2:>5}",
                f"CONECT{o + 1:>5}{o:>5}",
                f"CONECT{o + 2:>5}{o:>5}",
            ]
        else:
            conect.append(f"CONECT{o:>5}")
    return "\n".join(atoms + conect) + "\nEND\n"


@pytest.mark.parametrize("conect_every", [2, 50])
def test_a_large_complex_keeps_the_bonds_of_atoms_without_conect(conect_every: int) -> None:
    text = _water_pdb(700, conect_every)  # 2,100 atoms: the numpy perception
    s = pdb.read_pdb(text)
    bonds = {frozenset((b["a"], b["b"])) for b in s.bonds}
    expected = {frozenset((f"a{3 * k + 1}", f"a{3 * k + h}")) for k in range(700) for h in (2, 3)}
    assert bonds == expected and len(s.bonds) == len(expected)


def test_opening_into_a_document_numbers_atoms_past_its_ids(tmp_path: Any) -> None:
    path = tmp_path / "box.pdb"
    # serial numbers that cannot be ids (repeated): the reader numbers the atoms itself
    path.write_text(_water_pdb(400, 3).replace("HETATM    2", "HETATM    1"))
    doc = Document()
    ops.open_file(doc, str(path), preview=False)
    first = [a["id"] for a in doc.project["document"]["atoms"]]
    assert first[:2] == ["a1", "a2"] and len(set(first)) == 1200
    ops.open_file(doc, str(path), preview=False)
    again = doc.project["document"]["atoms"]
    assert [a["id"] for a in again] == [f"a{k}" for k in range(1201, 2401)]
    ids = {a["id"] for a in again}
    assert all(b["a"] in ids and b["b"] in ids for b in doc.project["document"]["bonds"])
    assert doc.project["document"]["nextAtomId"] == 2401


def test_coordinates_read_by_columns_are_the_floats_of_their_text() -> None:
    rng = random.Random(11)
    values = [rng.uniform(-999.9995, 9999.9995) for _ in range(3000)]
    values += [0.0, -0.0, -0.0004, 0.0004, 9999.999, -999.999, 0.5, -0.5, 1e-3]
    fields = [f"{v:8.3f}" for v in values]
    fields += [f"{rng.randint(-999, 9999)}.{rng.randint(0, 999):03d}".rjust(8) for _ in range(99)]
    while len(fields) % 3:
        fields.append("   1.000")
    recs = [
        "HETATM    1  C   MOL A   1    " + "".join(fields[k : k + 3])
        for k in range(0, len(fields), 3)
    ]
    got = pdb._coordinates(recs)
    want = tuple([float(r[a:b]) for r in recs] for a, b in ((30, 38), (38, 46), (46, 54)))
    assert [list(map(repr, c)) for c in got] == [list(map(repr, c)) for c in want]  # -0.0 too
    assert any(repr(x) == "-0.0" for x in got[0] + got[1] + got[2])


@pytest.mark.parametrize(
    "field",
    [
        "   1.50 ",
        "  1.5000",
        "   .500 ",
        "  -.500 ",
        " 1-2.000",
        "  --1.00",
        "1 2.000 ",
        "   1e3  ",
        "   nan  ",
        " 1.0e+02",
        "   1,500",
        "  +1.000",
        "- 1.000 ",
    ],
)
def test_coordinates_written_otherwise_are_read_by_float_or_refused(field: str) -> None:
    rec = "HETATM    1  C   MOL A   1    " + field + "   0.000   0.000"
    chars = np.frombuffer(rec[30:54].encode(), dtype=np.uint8).reshape(-1, 8)
    assert pdb._three_decimals(chars) is None  # the column reader leaves it to float()
    try:
        expected: Any = float(field)
    except ValueError:
        expected = ValueError
    if expected is ValueError:
        with pytest.raises(ValueError):
            pdb._coordinates([rec])
    else:
        assert repr(pdb._coordinates([rec])[0]) == repr([expected])


def test_digits_int_refuses_are_neither_serial_numbers_nor_charges() -> None:
    rec = (
        "HETATM    ²  C1  MOL A   1       0.000   0.000   0.000  1.00  0.00           C\n"
        "HETATM    2  C2  MOL A   1       1.500   0.000   0.000  1.00  0.00           C\n"
    )
    s = pdb.read_pdb(rec)
    assert [a["id"] for a in s.atoms] == ["a1", "a2"]  # "²" is no number: ids from 1
    with pytest.raises(FormatError) as err:
        pdb.read_pdb(rec.replace("           C\n", "           C²+\n", 1))
    assert (err.value.data["kind"], err.value.data["line"]) == ("format_syntax", 1)
    assert "formal charge" in err.value.data["reason"]
