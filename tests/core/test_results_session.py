"""ResultsSession: background loads, cancel, failures keep the previous results, reload."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from molforma.errors import ResultsError
from molforma.results import Results, ResultsSession, read_results
from tests.paths import NWCHEM_DATA

FIXTURES = NWCHEM_DATA
ANIM = FIXTURES / "nh3_planar_scf_freq_anim"


def test_open_file_loads_in_the_background_and_becomes_current() -> None:
    session = ResultsSession()
    h = session.open_file(str(FIXTURES / "nh3_planar_scf_freq.out"))
    assert h.wait(30)
    assert h.status == "completed"
    assert h.error is None
    assert session.current is not None
    assert session.current.summary.imaginaryModes == 1
    st = session.state()
    assert st["source"] == str(FIXTURES / "nh3_planar_scf_freq.out")
    assert st["loading"] is None
    assert st["counts"]["modes"] == 12
    assert st["lastLoad"]["status"] == "completed"


def test_a_failed_load_keeps_the_previous_results(tmp_path: Path) -> None:
    session = ResultsSession()
    assert session.open_file(str(FIXTURES / "water_opt-000.xyz")).wait(30)
    before = session.current
    bad = tmp_path / "broken.xyz"
    bad.write_text("3\nonly one atom\nH 0 0 0\n")
    h = session.open_file(str(bad))
    assert h.wait(30)
    assert h.status == "failed"
    assert h.error["code"] == "results_bad_file"
    assert "message" in h.error
    assert session.current is before


def test_a_cancelled_load_keeps_the_previous_results() -> None:
    gate = threading.Event()

    def slow_reader(path: str, *, cancel: threading.Event | None = None) -> Results:
        if path.endswith("slow.out"):
            gate.wait(10)
        return read_results(path, cancel=cancel)

    session = ResultsSession(reader=slow_reader)
    assert session.open_directory(str(ANIM)).wait(30)
    before = session.current
    (h := session.open_file(str(FIXTURES / "slow.out"))).cancel()
    assert session.state()["loading"]["status"] == "running"
    gate.set()
    assert h.wait(30)
    assert h.status == "cancelled"
    assert h.error["code"] == "results_cancelled"
    assert session.current is before


def test_a_new_load_cancels_the_one_still_running() -> None:
    gate = threading.Event()

    def slow_reader(path: str, *, cancel: threading.Event | None = None) -> Results:
        if "water" in path:
            gate.wait(10)
        return read_results(path, cancel=cancel)

    session = ResultsSession(reader=slow_reader)
    first = session.open_file(str(FIXTURES / "water_scf_optfreq.out"))
    second = session.open_file(str(FIXTURES / "nh3_planar_scf_freq.out"))
    assert second.wait(30)
    gate.set()
    assert first.wait(30)
    assert first.status == "cancelled"
    assert session.current.source.endswith("nh3_planar_scf_freq.out")


def test_reload_without_results_fails() -> None:
    with pytest.raises(ResultsError) as err:
        ResultsSession().reload()
    assert err.value.code == "results_nothing_loaded"


def test_reload_of_an_animation_picks_up_added_and_removed_steps(tmp_path: Path) -> None:
    for f in ANIM.glob("freq.m-001.s-*.xyz"):
        shutil.copy(f, tmp_path / f.name)
    step = tmp_path / "freq.m-001.s-005.xyz"
    session = ResultsSession()
    assert session.open_file(str(step)).wait(30)
    assert session.current.kind == "animation"
    assert len(session.current.structures) == 20
    (tmp_path / "freq.m-001.s-020.xyz").unlink()
    assert session.reload().wait(30)
    assert len(session.current.structures) == 19
    assert session.current.source == str(step)
    shutil.copy(ANIM / "freq.m-001.s-001.xyz", tmp_path / "freq.m-001.s-021.xyz")
    shutil.copy(ANIM / "freq.m-001.s-002.xyz", tmp_path / "freq.m-001.s-022.xyz")
    h = session.reload()
    assert h.wait(30) and h.status == "completed"
    assert len(session.current.structures) == 21
    assert session.current.structures[-1].comment == "freq.m-001.s-022.xyz"


def test_reload_of_a_folder_applies_the_folder_rule_again(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "water_opt-000.xyz", tmp_path / "a.xyz")
    session = ResultsSession()
    assert session.open_directory(str(tmp_path)).wait(30)
    assert session.current.kind == "xyz"
    shutil.copy(FIXTURES / "nh3_planar_scf_freq.out", tmp_path / "output.out")
    assert session.reload().wait(30)
    assert session.current.kind == "nwchem"
    assert session.current.source == str(tmp_path)


def test_listeners_hear_about_every_finished_load() -> None:
    heard: list[str] = []
    done = threading.Event()
    session = ResultsSession()
    session.add_listener(lambda h: (heard.append(h.status), done.set()))
    session.open_file(str(FIXTURES / "no-such-file.out"))
    assert done.wait(30)
    assert heard == ["failed"]
