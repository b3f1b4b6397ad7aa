"""PDB residue fields (residue name and number, chain, insertion code, altloc, B-factor,
occupancy) are kept per atom, saved in the project and written back."""

from __future__ import annotations

import json

from molforma.formats.pdb import read_pdb, write_pdb
from molforma.formats.pdb_residues import decode_number, encode_number

# Two chains, an insertion code (52A), alternate locations of one side chain (A kept,
# B noted), B-factors and occupancies that differ per atom, and a ligand HETATM.
PDB = """\
ATOM      1  N   GLY A  51      10.000  10.000  10.000  1.00 11.50           N
ATOM      2  CA  GLY A  51      11.450  10.000  10.000  1.00 12.25           C
ATOM      3  C   GLY A  51      12.000  11.420  10.000  1.00 13.00           C
ATOM      4  O   GLY A  51      11.250  12.390  10.000  1.00 14.75           O
ATOM      5  N   SER A  52A     13.330  11.540  10.000  1.00 15.00           N
ATOM      6  CA  SER A  52A     13.960  12.850  10.000  1.00 16.00           C
ATOM      7  CB ASER A  52A     15.480  12.720  10.000  0.60 17.00           C
ATOM      8  CB BSER A  52A     15.480  12.720  10.600  0.40 18.00           C
ATOM      9  OG ASER A  52A     16.000  14.020  10.000  0.60 19.00           O
ATOM     10  OG BSER A  52A     16.000  14.020  11.000  0.40 20.00           O
ATOM     11  N   ALA B   7      20.000  20.000  20.000  0.50 30.00           N
ATOM     12  CA  ALA B   7      21.450  20.000  20.000  0.50 31.00           C
HETATM   13  C1  LIG B 101      25.000  25.000  25.000  1.00 40.00           C
HETATM   14  O1  LIG B 101      26.200  25.000  25.000  1.00 41.00           O
END
"""

FIELDS = (
    "residueName",
    "residueNumber",
    "chain",
    "insertionCode",
    "altloc",
    "bFactor",
    "occupancy",
    "element",
    "name",
)


def _fields(atoms: list[dict]) -> list[tuple]:
    return [tuple(a.get(k) for k in FIELDS) for a in atoms]


def test_residue_fields_read() -> None:
    s = read_pdb(PDB)
    by_name = {(a["residueNumber"], a["name"]): a for a in s.atoms}
    assert len(s.atoms) == 12  # the B alternatives are not read
    ser_cb = by_name[(52, "CB")]
    assert (
        ser_cb["residueName"],
        ser_cb["chain"],
        ser_cb["insertionCode"],
        ser_cb["altloc"],
        ser_cb["occupancy"],
        ser_cb["bFactor"],
    ) == ("SER", "A", "A", "A", 0.6, 17.0)
    assert by_name[(7, "CA")]["chain"] == "B" and by_name[(7, "CA")]["bFactor"] == 31.0
    assert "insertionCode" not in by_name[(51, "N")] and "altloc" not in by_name[(51, "N")]
    assert by_name[(101, "O1")]["residueName"] == "LIG"
    warning = [w for w in s.info["warnings"] if w["code"] == "pdb_altlocs_dropped"]
    assert warning and warning[0]["details"] == {"count": 2, "kept": ["A"]}


def test_residue_fields_round_trip() -> None:
    first = read_pdb(PDB)
    project = {"document": {"atoms": first.atoms, "bonds": first.bonds, "title": ""}}
    text = write_pdb(project)
    again = read_pdb(text)
    assert _fields(again.atoms) == _fields(first.atoms)
    assert text.splitlines()[0].startswith("ATOM  ")
    assert any(line.startswith("HETATM") and " LIG B 101" in line for line in text.splitlines())


def test_residue_fields_kept_in_project_json_and_columns() -> None:
    from molforma.document.molecule import AtomTable

    atoms = read_pdb(PDB).atoms
    table = AtomTable.from_records(atoms)
    back = json.loads(json.dumps(table.to_records()))
    assert _fields(back) == _fields(atoms)


def test_residue_numbers_past_9999() -> None:
    for n in (0, 1, 9999, 10000, 12345, 50000):
        assert decode_number(encode_number(n)) == n
