"""The habits that keep the code as it is: the suite runs the checks pre-commit runs.

.pre-commit-config.yaml and this suite run the same commands: ruff format, ruff check
(docstring rules of the public API included), the import contracts, mypy, the dead-code
check and the generated-artefact check. Each hook is listed here with the test that runs
its command, so neither list can gain a check the other lacks.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

# hook id -> (its command, the test of this suite that runs the same command)
HOOKS: dict[str, tuple[str, str]] = {
    "ruff-format": (
        ".venv/bin/ruff format --check",
        "tests/core/test_habits.py::test_ruff_format_leaves_every_file_as_it_is",
    ),
    "ruff-check": (".venv/bin/ruff check", "tests/core/test_habits.py::test_ruff_check_passes"),
    "import-contracts": (
        ".venv/bin/lint-imports --no-cache",
        "tests/core/test_layering.py::test_import_contracts_of_pyproject_hold",
    ),
    "mypy": (
        ".venv/bin/mypy",
        "tests/core/test_layering.py::test_mypy_passes_strict_outside_the_window",
    ),
    "dead-code": (
        ".venv/bin/python tests/core/test_dead_code.py",
        "tests/core/test_dead_code.py::test_no_uncalled_code_in_molforma",
    ),
    "generated": (
        ".venv/bin/python scripts/generate.py --check",
        "tests/core/test_generated.py::test_every_committed_generated_artefact_is_up_to_date",
    ),
}


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "ruff"), *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_pre_commit_runs_the_checks_of_the_suite() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {h["id"]: h["entry"] for repo in config["repos"] for h in repo["hooks"]}
    assert hooks == {name: entry for name, (entry, _test) in HOOKS.items()}
    for _entry, test in HOOKS.values():
        path, name = test.split("::")
        assert f"def {name}(" in (ROOT / path).read_text(encoding="utf-8"), test


def test_ruff_check_passes() -> None:
    res = _ruff("check", ".")
    assert res.returncode == 0, res.stdout + res.stderr


# The formatter is adopted with one `ruff format` run over the whole codebase, made once
# by the maintainer when this round of changes is in (formatting files other changes are
# editing would only make conflicts). Until that run this test fails; after it, a file
# that ruff would reformat fails it.
def test_ruff_format_leaves_every_file_as_it_is() -> None:
    res = _ruff("format", "--check", ".")
    assert res.returncode == 0, res.stdout + res.stderr
