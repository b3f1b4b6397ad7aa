"""Broken files name their line and change nothing; the 8 MiB limit; atomic writes."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from molforma.app import ops
from molforma.document.document import Document
from molforma.document.envelope import check_structure, new_atom, new_project
from molforma.errors import FileAccessError, FormatError, MolFormaError
from molforma.fileio import READ_LIMIT
from molforma.formats import (
    READABLE,
    apply_structure,
    read_file,
    read_text,
    write_file,
    write_text,
)
from molforma.formats.common import FORMAT_LABELS

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


def acetate_project() -> dict:
    """Acetate anion (charge -1, a formal charge on one oxygen), bonds with orders."""
    proj = new_project()
    coords = [
        ("C", -1.42, 0.0, 0.0),
        ("C", 0.12, 0.0, 0.0),
        ("O", 0.69, 1.13, 0.0),
        ("O", 0.66, -1.14, 0.0),
        ("H", -1.80, 1.03, 0.0),
        ("H", -1.79, -0.51, -0.89),
        ("H", -1.79, -0.50, 0.89),
    ]
    atoms = [
        new_atom(f"a{k}", el, x, y, z, formalCharge=-1 if k == 4 else 0)
        for k, (el, x, y, z) in enumerate(coords, start=1)
    ]
    bonds = [
        {"a": "a1", "b": "a2", "order": 1},
        {"a": "a2", "b": "a3", "order": 2},
        {"a": "a2", "b": "a4", "order": 1},
    ] + [{"a": "a1", "b": f"a{k}", "order": 1} for k in (5, 6, 7)]
    proj["document"].update(
        title="acetate anion", charge=-1, atoms=atoms, bonds=bonds, nextAtomId=8
    )
    return proj


MOL = """acetaldehyde
  MolForma

  3  2  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.5000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.2000    1.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  2  0
M  END
"""
MOL2 = (DATA / "ethanol.mol2").read_text()
CML = """<?xml version="1.0"?>
<molecule id="m1">
  <atomArray>
    <atom id="a1" elementType="O" x3="0.0" y3="0.0" z3="0.1173"/>
    <atom id="a2" elementType="H" x3="0.0" y3="0.7572" z3="-0.4692"/>
    <atom id="a3" elementType="H" x3="0.0" y3="-0.7572" z3="-0.4692"/>
  </atomArray>
  <bondArray>
    <bond atomRefs2="a1 a2" order="1"/>
    <bond atomRefs2="a1 a3" order="1"/>
  </bondArray>
</molecule>
"""
PDB = (DATA / "methanol_models_altloc.pdb").read_text()
NW = """start water
geometry units angstrom
  O 0.0 0.0 0.1173
  H 0.0 0.7572 -0.4692
  H 0.0 -0.7572 -0.4692
end
basis
  * library 6-31g*
end
task scf energy
"""
GJF = (DATA / "acetate.gjf").read_text()
XYZ = "3\nwater\nO 0.0 0.0 0.1173\nH 0.0 0.7572 -0.4692\nH 0.0 -0.7572 -0.4692\n"


def _replace_line(text: str, lineno: int, new: str) -> str:
    lines = text.splitlines()
    lines[lineno - 1] = new
    return "\n".join(lines) + "\n"


def _line(text: str, lineno: int) -> str:
    return text.splitlines()[lineno - 1]


# (format, broken text, line that must be named, error code)
BROKEN = [
    ("xyz", XYZ.replace("0.7572 -0.4692", "0.7572 -0.4x92"), 4, "format_bad_number"),
    ("xyz", XYZ.replace("O 0.0", "Qq 0.0"), 3, "format_unknown_element"),
    ("xyz", "3\nwater\nO 0 0 0\nH 0 0 1\n", 5, "format_atom_count"),
    ("xyz", "2\nwater\nO 0 0 0\nH 0 0 1\nH 0 1 0\n", 5, "format_atom_count"),
    ("xyz", "three\nwater\n", 1, "format_bad_number"),
    ("xyz", XYZ.replace("H 0.0 0.7572 -0.4692", "H 0.0 0.7572"), 4, "format_syntax"),
    (
        "mol",
        _replace_line(MOL, 6, _line(MOL, 6).replace("1.5000", "1.5x00")),
        6,
        "format_bad_number",
    ),
    (
        "mol",
        _replace_line(MOL, 7, _line(MOL, 7).replace(" O ", " Zz")),
        7,
        "format_unknown_element",
    ),
    ("mol", MOL.replace("  2  3  2  0", "  2  9  2  0"), 9, "format_syntax"),
    ("mol", MOL.replace("M  END\n", ""), 10, "format_truncated"),
    ("mol", MOL.replace("  3  2  0  0", "  5  2  0  0"), 8, "format_syntax"),
    (
        "mol",
        MOL.replace("  3  2  0  0", "  5  0  0  0").replace("  1  2  1  0\n  2  3  2  0\n", ""),
        8,
        "format_atom_count",
    ),
    (
        "sdf",
        MOL + "$$$$\n" + _replace_line(MOL, 7, _line(MOL, 7).replace("2.2000", "2.2y00")),
        18,
        "format_bad_number",
    ),
    ("mol2", MOL2.replace("1.2060    1.3260", "1.2060    1.3z60"), 11, "format_bad_number"),
    ("mol2", MOL2.replace(" 9 8 1 0 0", " 12 8 1 0 0"), 18, "format_atom_count"),
    (
        "mol2",
        MOL2.replace("     8     3     9    1", "     8     3    19    1"),
        26,
        "format_syntax",
    ),
    ("cml", CML.replace('z3="0.1173"/>', 'z3="0.1173">'), 7, "format_syntax"),
    (
        "cml",
        CML.replace(
            'elementType="H" x3="0.0" y3="0.7572"', 'elementType="Jq" x3="0.0" y3="0.7572"'
        ),
        5,
        "format_unknown_element",
    ),
    ("cml", CML.replace('y3="-0.7572"', 'y3="minus"'), 6, "format_bad_number"),
    ("cml", CML.replace('atomRefs2="a1 a3"', 'atomRefs2="a1 a9"'), 10, "format_syntax"),
    ("pdb", PDB.replace("-0.757   0.000", "-0.7x7   0.000", 1), 6, "format_bad_number"),
    ("pdb", PDB.replace("10.00           O", "10.00          QQ", 1), 6, "format_unknown_element"),
    ("nwchem", NW.replace("0.7572 -0.4692", "0.7572 abc"), 4, "format_bad_number"),
    ("nwchem", NW.replace("  O 0.0", "  Qx 0.0"), 3, "format_unknown_element"),
    (
        "nwchem",
        NW.replace("end\nbasis", "basis").replace("6-31g*\nend", "6-31g*"),
        2,
        "format_truncated",
    ),
    ("nwchem", NW.replace("  O 0.0 0.0 0.1173", "  zmatrix"), 3, "format_unsupported"),
    ("nwchem", NW.replace("geometry units angstrom", "geometry units parsec"), 2, "format_syntax"),
    ("gaussian", GJF.replace("-1 1\n", "-1 x\n"), 8, "format_bad_number"),
    (
        "gaussian",
        GJF.replace("0.11860000   -0.00630000", "0.11860000   -0.0q630000"),
        10,
        "format_syntax",
    ),
    (
        "gaussian",
        "# HF/STO-3G\n\nwater\n\n0 1\nO\nH 1 0.96\nH 1 0.96 2 104.5\n\n",
        6,
        "format_unsupported",
    ),
    ("gaussian", "# HF/STO-3G\n\nwater\n", 4, "format_truncated"),
    (
        "project",
        '{"format": "molforma-project",\n "version": 1,\n "document": {,}}',
        3,
        "format_syntax",
    ),
]


@pytest.mark.parametrize(
    ("fmt", "text", "line", "code"), BROKEN, ids=[f"{b[0]}-{b[3]}-line{b[2]}" for b in BROKEN]
)
def test_a_broken_file_fails_with_an_error_naming_its_line(
    fmt: str, text: str, line: int, code: str
) -> None:
    with pytest.raises(FormatError) as info:
        read_text(text, fmt)
    err = info.value
    assert err.code == "format_error"
    assert err.data["kind"] == code, err.data
    assert err.data["line"] == line, err.message("en")
    assert f"(line {line})" in err.message("en")
    assert FORMAT_LABELS[fmt] in err.message("en")
    assert err.message("ja") != err.message("en")


@pytest.mark.parametrize("depth", [257, 50_000])
def test_xml_nested_deeper_than_cml_ever_goes_is_a_format_error_naming_its_line(depth: int) -> None:
    atom = '<atom id="a1" elementType="O" x3="0" y3="0" z3="0"/>'
    text = (
        f"<cml>\n<molecule><atomArray>{atom}</atomArray></molecule>\n"
        + "<g>" * depth
        + "</g>" * depth
        + "</cml>\n"
    )
    with pytest.raises(FormatError) as info:
        read_text(text, "cml")
    assert info.value.data["kind"] == "format_syntax"
    assert info.value.data["line"] == 3
    assert "nested more than 256 deep" in info.value.message("en")


def test_xml_nested_up_to_256_deep_is_read_and_one_deeper_is_refused() -> None:
    atom = '<atom id="a1" elementType="O" x3="0" y3="0" z3="0"/>'
    wrap = 254  # with cml, molecule and atomArray: 257 levels
    text = (
        "<g>" * wrap
        + f"<cml><molecule><atomArray>{atom}</atomArray></molecule></cml>"
        + "</g>" * wrap
    )
    with pytest.raises(FormatError, match="nested"):
        read_text(text, "cml")
    text = (
        "<g>" * 250
        + f"<cml><molecule><atomArray>{atom}</atomArray></molecule></cml>"
        + "</g>" * 250
    )
    s = read_text(text, "cml")
    assert [a["element"] for a in s.atoms] == ["O"]


@pytest.mark.parametrize("fmt", [f for f in READABLE if f != "project"])
def test_an_empty_file_is_an_error_for_every_structure_format(fmt: str) -> None:
    with pytest.raises(FormatError):
        read_text("", fmt)


@pytest.mark.parametrize("fmt", READABLE)
def test_random_text_is_an_error_never_a_structure(fmt: str) -> None:
    with pytest.raises(MolFormaError):
        read_text("this is\nnot a molecule file\n at all 1 2\n", fmt)


def test_a_missing_nwchem_geometry_is_named() -> None:
    with pytest.raises(FormatError) as info:
        read_text("start x\nbasis\n * library sto-3g\nend\ntask scf\n", "nwchem")
    assert info.value.data["kind"] == "format_no_atoms"
    assert "geometry" in info.value.message("en")


def test_a_frame_is_refused_for_a_single_structure_format() -> None:
    with pytest.raises(FormatError) as info:
        read_text(MOL, "mol", frame=1)
    assert info.value.data["kind"] == "format_frame_range"


def test_a_file_over_the_read_limit_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "big.xyz"
    comment = "x" * (READ_LIMIT + 10)
    path.write_text(f"1\n{comment}\nH 0 0 0\n")
    with pytest.raises(FileAccessError) as info:
        read_file(path)
    assert info.value.code == "file_too_large"
    assert info.value.data["limit"] == READ_LIMIT == 128 * 1024 * 1024
    assert str(path) in info.value.message("en")
    with pytest.raises(FileAccessError):
        read_text(path.read_text(), "xyz")


def test_a_file_just_at_the_read_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.xyz"
    head = "1\n"
    tail = "\nH 0 0 0\n"
    path.write_text(head + "x" * (READ_LIMIT - len(head) - len(tail)) + tail)
    assert path.stat().st_size == READ_LIMIT
    s = read_file(path)
    assert not isinstance(s, dict)
    assert len(s.atoms) == 1


def test_a_broken_file_changes_nothing_in_the_document(tmp_path: Path) -> None:
    doc = Document(acetate_project())
    before, revision = doc.project, doc.revision
    path = tmp_path / "broken.xyz"
    path.write_text(BROKEN[0][1])
    with pytest.raises(FormatError):
        ops.open_file(doc, str(path), preview=False)
    assert doc.project is before
    assert doc.revision == revision
    assert doc.candidate is None


def test_a_failing_write_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "job.nw"
    target.write_text("old content\n")
    proj = acetate_project()
    proj["calculation"]["basis"] = "6-31g*; task shell rm"
    with pytest.raises(MolFormaError):
        write_file(proj, target)
    assert target.read_text() == "old content\n"
    assert [p.name for p in tmp_path.iterdir()] == ["job.nw"]


def test_writing_to_an_unwritable_place_is_a_file_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(FileAccessError):
        write_file(acetate_project(), blocker / "out.xyz")


def test_nwchem_export_contains_the_geometry_lines() -> None:
    text = write_text(acetate_project(), "nwchem")
    assert "geometry units angstrom" in text
    assert "charge -1" in text
    assert (
        sum(
            1
            for line in text.splitlines()
            if line.strip().startswith(("C", "O", "H")) and len(line.split()) >= 4
        )
        >= 7
    )


FUZZ_SAMPLES = {
    "xyz": XYZ,
    "mol": MOL,
    "sdf": MOL + "$$$$\n" + MOL,
    "mol2": MOL2,
    "cml": CML,
    "pdb": PDB,
    "nwchem": NW,
    "gaussian": GJF,
}
_PIECES = [*" \n\t0123456789.-+eEaxyzHCONQ#;\"'<>/=@$&:,()*\\", "\nend\n", "\n\n"]


@pytest.mark.parametrize("fmt", sorted(FUZZ_SAMPLES))
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_damaged_file_gives_a_clean_error_or_a_structure_that_loads(
    fmt: str, data: st.DataObject
) -> None:
    text = FUZZ_SAMPLES[fmt]
    for _ in range(data.draw(st.integers(1, 5))):
        i = data.draw(st.integers(0, len(text)))
        if data.draw(st.booleans()) and text:
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + data.draw(st.sampled_from(_PIECES)) + text[i:]
    try:
        got = read_text(text, fmt, frame=0)
    except MolFormaError:
        return
    assert not isinstance(got, dict)
    ids = [a["id"] for a in got.atoms]
    assert len(set(ids)) == len(ids)
    work = new_project()
    apply_structure(work, got)
    # Two atoms moved onto each other are refused by the document: an error, not a crash.
    with contextlib.suppress(MolFormaError):
        check_structure(work)
