"""``molforma results``: text and JSON output, errors and exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from molforma.results import get_section, read_results
from molforma.subcommands.show_results import main
from tests.paths import NWCHEM_DATA

FIXTURES = NWCHEM_DATA


def test_text_summary_shows_energy_convergence_and_imaginary_markers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([str(FIXTURES / "nh3_planar_scf_freq.out")]) == 0
    out = capsys.readouterr().out
    assert "-56.17359269 hartree" in out
    assert "SCF converged: yes" in out
    assert "1 imaginary, 1 significant" in out
    imag = [ln for ln in out.splitlines() if "imaginary" in ln and "-880.42" in ln]
    assert len(imag) == 1


def test_text_summary_of_an_optimisation_says_it_converged(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([str(FIXTURES / "water_scf_optfreq.out")]) == 0
    out = capsys.readouterr().out
    assert "Optimization:  converged yes, 4 steps" in out
    assert "1826.55" in out


def test_failed_run_errors_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(FIXTURES / "bad_basis.out")]) == 0
    assert "bas_tag_lib: failed opening basis file" in capsys.readouterr().out


def test_json_is_the_same_dict_as_get_section(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(FIXTURES / "water_scf_optfreq.out")
    assert main([path, "--section", "modes", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(get_section(read_results(path), "modes")))


def test_json_mode_displacements_and_log_pages(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(FIXTURES / "nh3_planar_scf_freq.out")
    assert main([path, "--section", "mode_displacements", "--mode", "0", "--json"]) == 0
    page = json.loads(capsys.readouterr().out)
    assert page["mode"]["significant"] is True
    assert len(page["items"]) == 4
    assert main([path, "--section", "log", "--limit", "20", "--json"]) == 0
    page = json.loads(capsys.readouterr().out)
    assert len(page["text"]) == 20
    assert page["nextOffset"] == 20


def test_folder_and_animation_key_are_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    key = FIXTURES / "nh3_planar_scf_freq_anim" / "freq.m-001.s-*.xyz"
    assert main([str(key)]) == 0
    assert "Animation:     mode 1, 20 steps" in capsys.readouterr().out
    assert main([str(FIXTURES / "nh3_planar_scf_freq_anim"), "--section", "files"]) == 0
    assert "vibration-animation" in capsys.readouterr().out


def test_unreadable_input_gives_a_clear_error_and_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "missing.out")]) == 1
    err = capsys.readouterr().err
    assert "No such file or folder" in err
    junk = tmp_path / "junk.out"
    junk.write_text("just text\n")
    assert main([str(junk)]) == 1
    assert "is not an NWChem output, MOLDEN or XYZ file" in capsys.readouterr().err


def test_bad_arguments_exit_with_status_2() -> None:
    with pytest.raises(SystemExit) as exc:
        main([str(FIXTURES / "water_scf_optfreq.out"), "--section", "no_such_section"])
    assert exc.value.code == 2


def test_the_installed_command_prints_the_summary() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "molforma",
            "results",
            str(FIXTURES / "water_scf_optfreq.out"),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    page = json.loads(proc.stdout)
    assert page["summary"]["optimizationConverged"] is True
