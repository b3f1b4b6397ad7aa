"""``molforma convert``, run as the real executable in a child process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from molforma.formats import WRITABLE, read_file
from molforma.subcommands.convert import main as convert_main
from tests.paths import NWCHEM_DATA

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
NWCHEM = NWCHEM_DATA
_EXE = Path(sys.executable).with_name("molforma")
COMMAND = [str(_EXE)] if _EXE.exists() else [sys.executable, "-m", "molforma"]

# One sample per readable structure format.
SAMPLES = {
    "xyz": NWCHEM / "water_opt-003.xyz",
    "mol2": DATA / "ethanol.mol2",
    "pdb": DATA / "methanol_models_altloc.pdb",
    "nwchem": NWCHEM / "water_scf_optfreq.nw",
    "gaussian": DATA / "acetate.gjf",
}
EXT = {
    "project": ".molforma.json",
    "xyz": ".xyz",
    "mol": ".mol",
    "sdf": ".sdf",
    "pdb": ".pdb",
    "nwchem": ".nw",
    "cml": ".cml",
}


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MOLFORMA_LANGUAGE": "en"}
    return subprocess.run(
        [*COMMAND, "convert", *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("src", sorted(SAMPLES))
@pytest.mark.parametrize("dst", WRITABLE)
def test_every_sample_converts_to_every_writable_format(
    src: str, dst: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # In-process through the same entry point, so the 35 combinations stay fast.
    out = tmp_path / f"out{EXT[dst]}"
    assert convert_main([str(SAMPLES[src]), "-o", str(out)]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out == ""
    back = read_file(out)
    atoms = back["document"]["atoms"] if isinstance(back, dict) else back.atoms
    assert len(atoms) == len(read_file(SAMPLES[src]).atoms)  # type: ignore[union-attr]


def test_a_chain_of_conversions_through_every_format_keeps_the_molecule(tmp_path: Path) -> None:
    chain = ["sdf", "cml", "mol", "pdb", "project", "xyz", "nwchem"]
    src = DATA / "ethanol.mol2"
    for fmt in chain:
        out = tmp_path / f"step{EXT[fmt]}"
        assert convert_main([str(src), "-o", str(out)]) == 0, fmt
        src = out
    back = read_file(src)
    assert not isinstance(back, dict)
    assert [a["element"] for a in back.atoms] == ["C", "C", "O", "H", "H", "H", "H", "H", "H"]
    assert back.atoms[2]["x"] == pytest.approx(1.206, abs=1e-3)
    assert len(back.bonds) == 8


def test_an_nwchem_input_becomes_a_project_with_its_conditions(tmp_path: Path) -> None:
    out = tmp_path / "water.molforma.json"
    res = run(NWCHEM / "water_scf_optfreq.nw", "-o", out, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    proj = json.loads(out.read_text())
    assert proj["format"] == "molforma-project"
    assert proj["calculation"]["task"] == "optimize+frequencies"
    assert proj["calculation"]["basis"] == "6-31g*"
    assert [a["id"] for a in proj["document"]["atoms"]] == ["a1", "a2", "a3"]
    assert proj["document"]["nextAtomId"] == 4


def test_a_structure_becomes_an_nwchem_input_with_its_charge(tmp_path: Path) -> None:
    out = tmp_path / "acetate.nw"
    res = run(DATA / "acetate.gjf", "-o", out, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    text = out.read_text()
    assert "charge -1" in text
    assert "geometry units angstrom" in text
    assert "task scf energy" in text


def test_format_option_overrides_the_output_extension(tmp_path: Path) -> None:
    out = tmp_path / "water.txt"
    res = run(
        DATA / "water_three_frames.xyz", "-o", out, "--format", "mol", "--frame", "2", cwd=tmp_path
    )
    assert res.returncode == 0, res.stderr
    assert "V2000" in out.read_text()


def test_a_multi_frame_xyz_without_frame_fails_and_tells_the_count(tmp_path: Path) -> None:
    out = tmp_path / "out.pdb"
    res = run(DATA / "water_three_frames.xyz", "-o", out, cwd=tmp_path)
    assert res.returncode == 1
    assert "3 frames" in res.stderr
    assert not out.exists()


def test_the_chosen_frame_is_converted(tmp_path: Path) -> None:
    out = tmp_path / "out.xyz"
    res = run(DATA / "water_three_frames.xyz", "-o", out, "--frame", "1", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "0.11000000" in out.read_text()


def test_a_broken_input_exits_1_names_the_line_and_writes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "broken.xyz"
    src.write_text("2\nbroken\nO 0 0 0\nH 0 0 zz\n")
    out = tmp_path / "out.sdf"
    res = run(src, "-o", out, cwd=tmp_path)
    assert res.returncode == 1
    assert "line 4" in res.stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.xyz"]


def test_a_failed_conversion_leaves_an_existing_output_untouched(tmp_path: Path) -> None:
    out = tmp_path / "keep.xyz"
    out.write_text("precious\n")
    res = run(tmp_path / "missing.xyz", "-o", out, cwd=tmp_path)
    assert res.returncode == 1
    assert "missing.xyz" in res.stderr
    assert out.read_text() == "precious\n"


def test_an_output_format_that_cannot_be_written_exits_1(tmp_path: Path) -> None:
    out = tmp_path / "out.gjf"
    res = run(DATA / "ethanol.mol2", "-o", out, cwd=tmp_path)
    assert res.returncode == 1
    assert "cannot write" in res.stderr
    assert not out.exists()


def test_an_input_over_the_read_limit_is_refused(tmp_path: Path) -> None:
    from molforma.fileio import READ_LIMIT

    src = tmp_path / "big.xyz"
    src.write_text("1\n" + "x" * READ_LIMIT + "\nH 0 0 0\n")
    out = tmp_path / "out.xyz"
    res = run(src, "-o", out, cwd=tmp_path)
    assert res.returncode == 1
    assert str(READ_LIMIT) in res.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["in.xyz"],
        ["in.xyz", "-o", "out.xyz", "--format", "gaussian"],
        ["in.xyz", "-o", "out.xyz", "--frame", "one"],
        ["in.xyz", "-o", "in.xyz"],
    ],
)
def test_bad_usage_exits_2(args: list[str], tmp_path: Path) -> None:
    (tmp_path / "in.xyz").write_text("1\n\nH 0 0 0\n")
    res = run(*args, cwd=tmp_path)
    assert res.returncode == 2
    assert "molforma convert" in res.stderr
    assert (tmp_path / "in.xyz").read_text() == "1\n\nH 0 0 0\n"


def test_messages_follow_the_display_language(tmp_path: Path) -> None:
    env = {**os.environ, "MOLFORMA_LANGUAGE": "ja"}
    res = subprocess.run(
        [*COMMAND, "convert", str(DATA / "water_three_frames.xyz"), "-o", str(tmp_path / "o.xyz")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert res.returncode == 1
    assert "フレーム" in res.stderr
