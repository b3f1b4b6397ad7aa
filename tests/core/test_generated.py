"""One generator entry (scripts/generate.py) for every generated artefact, with --check."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "generate.py"


def _generate_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_every_committed_generated_artefact_is_up_to_date() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_every_generator_script_with_a_check_is_run_by_the_entry() -> None:
    entry = SCRIPT.read_text(encoding="utf-8")
    for script in (ROOT / "scripts").glob("*.py"):
        if script.name != SCRIPT.name and '"--check"' in script.read_text(encoding="utf-8"):
            assert f'"{script.name}"' in entry, script.name
    assert '"update_translations.py"' in entry and '"build_catalogs.py"' in entry


def test_the_check_fails_on_a_stale_artefact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gen = _generate_module()
    (tmp_path / "resources").mkdir()
    for name in gen.LABEL_CATALOGUES:
        shutil.copy2(ROOT / "resources" / f"{name}.json", tmp_path / "resources")
    monkeypatch.setattr(gen, "ROOT", tmp_path)
    assert gen._catalogues_check() == 0
    tasks = tmp_path / "resources" / "tasks.json"
    tasks.write_text(
        re.sub("Geometry optimisation", "Geometry optimization", tasks.read_text(encoding="utf-8")),
        encoding="utf-8",
    )
    assert gen._catalogues_check() == 1


def test_the_entry_lists_its_artefacts() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--list"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0
    names = [line.split()[0] for line in out.stdout.splitlines()]
    assert names == ["tool-index", "tool-docs", "docs-tables", "catalogues", "translations"]
