"""The repository passes its own tests alone: nothing refers to a folder beside the checkout."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.paths import DATA, NWCHEM_DATA, REPO

CHECKED = ("molforma", "tests", "bench", "scripts", "docs")
# A path that climbs out of the checkout, or names the private folder kept beside it.
OUTSIDE = re.compile(
    r"\.\./shared|shared/fixtures|[\"']shared[\"']\s*/|/\s*[\"']shared[\"']"
    r"|parents\[\d\]\.parent\s*/|/work/(?:shared|main|wt)\b|\.\.[\"']\s*,\s*[\"']shared"
)


def test_the_check_catches_every_way_of_naming_the_folder_beside_the_checkout() -> None:
    caught = [
        'FIXTURES = ROOT / ".." / "shared" / "fixtures"',
        "cp ../shared/x .",
        'Path(__file__).parents[2].parent / "data"',
        'ROOT.parent / "shared"',
        'os.path.join(ROOT, "..", "shared")',
        "see /work/shared/SPEC.md",
        'DATA = Path("/work/main/tests/data")',
    ]
    fine = ['NWCHEM_DATA = DATA / "nwchem"', "shared undo history", 'REPO / "bench" / "results"']
    assert [line for line in caught if not OUTSIDE.search(line)] == []
    assert [line for line in fine if OUTSIDE.search(line)] == []


def test_the_check_reads_the_benches_and_the_scripts_too() -> None:
    names = {p.relative_to(REPO).as_posix() for p in _tracked(*CHECKED)}
    assert {
        "bench/harness.py",
        "bench/results_bench.py",
        "scripts/setup.sh",
        "scripts/update_readme.py",
    } <= names


def _tracked(*tops: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", *tops], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    return [REPO / name for name in out]


def test_no_file_of_the_project_refers_to_a_folder_outside_the_checkout() -> None:
    offenders = []
    for path in _tracked(*CHECKED, "README.md", "pyproject.toml", "run.sh", "test.sh", ".ci"):
        if (
            path == Path(__file__)
            or path.suffix in {".png", ".qm", ".molden"}
            or not path.is_file()
        ):
            continue
        if path.is_relative_to(DATA):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [
            f"{path.relative_to(REPO)}:{n}"
            for n, line in enumerate(text.splitlines(), 1)
            if OUTSIDE.search(line)
        ]
    assert offenders == []


def test_the_nwchem_data_the_tests_read_is_tracked_inside_the_repository() -> None:
    tracked = {p.relative_to(NWCHEM_DATA).as_posix() for p in _tracked("tests/data/nwchem")}
    for name in (
        "water_scf_optfreq.out",
        "nh3_planar_scf_freq.out",
        "nh3_planar_scf_freq.molden",
        "methane_b3lyp_molden.molden",
        "README.md",
        "nh3_planar_scf_freq_anim/freq.m-001.xyz",
    ):
        assert name in tracked


# Names a test uses on purpose for a file that does not exist (or that a stand-in reader fakes).
DELIBERATELY_ABSENT = {"no-such-file.out", "slow.out"}


def test_every_data_file_named_in_a_test_exists_inside_the_repository() -> None:
    named = re.compile(r"(?:NWCHEM_DATA|FIXTURES|NW|NWCHEM|DATA)\s*/\s*\"([^\"]+)\"")
    missing = []
    for path in _tracked("tests"):
        if path.suffix != ".py":
            continue
        for name in named.findall(path.read_text(encoding="utf-8")):
            if name in DELIBERATELY_ABSENT:
                continue
            if not any(
                (base / name).exists()
                for base in (NWCHEM_DATA, DATA, DATA / "results", DATA / "formats")
            ):
                missing.append(f"{path.relative_to(REPO)}: {name}")
    assert missing == []
