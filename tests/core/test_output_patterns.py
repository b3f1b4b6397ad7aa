"""The one table of NWChem output lines (molforma.nwchem.output_patterns), on real outputs.

Each pattern is one test: its examples must be lines of the NWChem outputs kept in
tests/data (copied verbatim, so a regex is checked against what NWChem prints, not
against a line someone remembered), and the regex must match them, as text and as
bytes (the history scan matches undecoded buffers).
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from molforma.history.nwfiles import last_energy_in, status_from_tail
from molforma.nwchem import output_patterns as op
from molforma.nwchem.output_patterns import Pattern
from tests.paths import DATA

TABLE = op.table()


@lru_cache(maxsize=1)
def real_lines() -> dict[str, str]:
    """Every line of the NWChem outputs (stdout and stderr) in tests/data -> its file."""
    lines: dict[str, str] = {}
    for path in sorted([*DATA.rglob("*.out"), *DATA.rglob("*.err")]):
        for text in path.read_text(encoding="utf-8", errors="replace").splitlines():
            lines.setdefault(text, path.name)
    return lines


@pytest.mark.parametrize("name", list(TABLE))
def test_each_pattern_matches_its_real_lines_from_the_fixture_outputs(name: str) -> None:
    pat = TABLE[name]
    assert pat.examples, f"{name} has no example line"
    for example in pat.examples:
        if not pat.unseen:
            assert example in real_lines(), f"{name}: {example!r} is not a line of tests/data"
        assert pat.search(example) is not None, f"{name} does not match {example!r}"
        assert pat.bytes_pattern.search(example.encode("ascii")) is not None
        if pat.anchor is not None:
            assert pat.anchor in example, f"{name}: anchor {pat.anchor!r} not in {example!r}"


def test_only_lines_no_small_real_run_prints_are_left_without_a_fixture() -> None:
    unseen = {name for name, pat in TABLE.items() if pat.unseen}
    assert unseen == {"OTHER_TOTAL_ENERGY", "FAILED_TOTAL", "FATAL_ERROR"}


def test_the_table_names_every_pattern_of_the_module() -> None:
    module_patterns = {n for n, v in vars(op).items() if isinstance(v, Pattern)}
    assert set(TABLE) == module_patterns
    assert len(TABLE) >= 40


@pytest.mark.parametrize("marker", op.FAILED_MARKERS)
def test_each_failure_marker_is_in_a_real_output_line_that_gives_a_failed_status(
    marker: str,
) -> None:
    found = [text for text in real_lines() if marker in text]
    assert found, f"no output in tests/data holds {marker!r}"
    assert status_from_tail(b"  some output\n" + found[0].encode() + b"\n") == "failed"


@pytest.mark.parametrize(
    ("name", "example"),
    [
        (n, ex)
        for n in ("OPT_STEP_ENERGY", "OPT_STEP", "TOTAL_ENERGY", "CC_ENERGY", "OTHER_TOTAL_ENERGY")
        for ex in TABLE[n].examples
    ],
)
def test_the_history_reads_the_energy_of_each_energy_line(name: str, example: str) -> None:
    value = op.d_float(TABLE[name].match(example).group(2))  # type: ignore[union-attr]
    assert last_energy_in(b" header\n" + example.encode() + b"\n Total times  cpu: 1s\n") == value
    assert last_energy_in(example.encode()) == value  # the line opens the buffer


def test_the_history_looks_for_each_energy_line_by_its_own_anchor() -> None:
    from molforma.history import nwfiles

    for literal, pats in nwfiles._ENERGY_PATTERNS:
        assert all((p.anchor or "").encode() == literal for p in pats), pats
