"""Paged sections of results: sizes, offsets, modes, log characters, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from molforma.errors import ResultsError
from molforma.results import Results, Structure, Summary, get_section, read_results
from molforma.results.sections import MAX_ITEM_BYTES, PAGE_BYTES, SECTIONS
from tests.paths import NWCHEM_DATA

FIXTURES = NWCHEM_DATA
WATER = FIXTURES / "water_scf_optfreq.out"


def _size(v: object) -> int:
    return len(json.dumps(v, separators=(",", ":")).encode())


@pytest.fixture(scope="module")
def water() -> Results:
    return read_results(str(WATER))


def _structures(n: int, atoms: int) -> Results:
    sts = [
        Structure(
            index=i,
            label=f"frame {i}",
            symbols=["C"] * atoms,
            coordinates=[[1.123456789, 2.123456789, 3.123456789]] * atoms,
        )
        for i in range(n)
    ]
    return Results(source="x.xyz", kind="xyz", summary=Summary(structureCount=n), structures=sts)


@pytest.mark.parametrize("section", [s for s in SECTIONS if s != "mode_displacements"])
def test_every_section_has_the_paging_keys(water: Results, section: str) -> None:
    page = get_section(water, section)
    assert page["section"] == section
    assert page["source"] == str(WATER)
    for key in ("offset", "limit", "nextOffset", "total"):
        assert key in page
    json.dumps(page)  # JSON-ready


def test_summary_section_has_counts_and_convergence(water: Results) -> None:
    s = get_section(water, "summary")["summary"]
    assert s["optimizationConverged"] is True
    assert s["imaginaryModes"] == 0
    assert s["significantImaginaryModes"] == 0
    assert s["modeCount"] == 9
    assert s["structureCount"] == 6


def test_pages_stay_near_40_kib_and_follow_next_offset_to_the_end() -> None:
    res = _structures(60, 40)  # each item ~ 2.5 KB
    seen = []
    offset: int | None = 0
    while offset is not None:
        page = get_section(res, "structures", offset=offset)
        assert page["items"]
        assert _size(page["items"]) <= PAGE_BYTES + 100
        seen.extend(it["index"] for it in page["items"])
        offset = page["nextOffset"]
    assert seen == list(range(60))


def test_limit_caps_the_number_of_items(water: Results) -> None:
    page = get_section(water, "energies", offset=2, limit=3)
    assert [e["index"] for e in page["items"]] == [2, 3, 4]
    assert page["nextOffset"] == 5
    assert page["total"] == len(water.energies)
    last = get_section(water, "energies", offset=len(water.energies) - 1)
    assert last["nextOffset"] is None


def test_an_item_over_40_kib_comes_alone_on_its_page() -> None:
    res = _structures(3, 1500)  # each item ~ 70 KB
    page = get_section(res, "structures")
    assert len(page["items"]) == 1
    assert _size(page["items"][0]) > PAGE_BYTES
    assert page["nextOffset"] == 1


def test_an_item_over_2_mib_fails() -> None:
    res = _structures(1, 1)
    res.structures[0].comment = "x" * (MAX_ITEM_BYTES + 10)
    with pytest.raises(ResultsError) as err:
        get_section(res, "structures")
    assert err.value.code == "results_item_too_large"


def test_mode_displacements_give_reference_positions_and_vectors(water: Results) -> None:
    page = get_section(water, "mode_displacements", mode=8)
    assert page["mode"]["frequency"] == pytest.approx(4188.71)
    assert page["referenceStructure"] == 5
    assert [it["element"] for it in page["items"]] == ["O", "H", "H"]
    # NWChem re-oriented this water (H atoms on its x axis); the reader maps the run
    # back to the input's frame, where the H atoms lie on y.
    assert page["items"][0]["displacement"] == pytest.approx([0.0, -0.06799, 0.0])
    assert page["items"][1]["position"] == pytest.approx([0.0, 0.75406626, -0.46483599])


def test_mode_displacements_need_a_valid_mode(water: Results) -> None:
    with pytest.raises(ResultsError) as err:
        get_section(water, "mode_displacements")
    assert err.value.code == "results_mode_required"
    with pytest.raises(ResultsError) as err:
        get_section(water, "mode_displacements", mode=9)
    assert err.value.code == "results_bad_mode"


def test_log_pages_characters_up_to_65536(water: Results) -> None:
    text = WATER.read_text(encoding="utf-8", errors="replace")
    page = get_section(water, "log", offset=0, limit=1_000_000)
    assert page["limit"] == 65_536
    assert page["text"] == text[:65_536]
    assert page["nextOffset"] == 65_536
    assert page["total"] == len(text)
    tail = get_section(water, "log", offset=130_000)
    assert tail["text"] == text[130_000:]
    assert tail["nextOffset"] is None


def test_log_counts_characters_not_bytes_in_non_ascii_output(tmp_path: Path) -> None:
    f = tmp_path / "output.out"
    f.write_text(WATER.read_text(errors="replace").replace("title", "titré", 1), encoding="utf-8")
    res = read_results(str(f))
    text = f.read_text(encoding="utf-8")
    page = get_section(res, "log", offset=100, limit=50)
    assert page["text"] == text[100:150]
    assert page["total"] == len(text)


def test_unknown_section_and_bad_paging_fail_with_codes(water: Results) -> None:
    with pytest.raises(ResultsError) as err:
        get_section(water, "no_such_section")
    assert err.value.code == "results_unknown_section"
    with pytest.raises(ResultsError) as err:
        get_section(water, "energies", offset=-1)
    assert err.value.code == "results_bad_paging"
    with pytest.raises(ResultsError) as err:
        get_section(water, "energies", limit=0)
    assert err.value.code == "results_bad_paging"


def test_files_section_lists_the_folder(water: Results) -> None:
    page = get_section(water, "files", limit=100)
    names = [f["name"] for f in page["items"]]
    assert "water_scf_optfreq.out" in names
    assert "nh3_planar_scf_freq_vib.molden" in names
