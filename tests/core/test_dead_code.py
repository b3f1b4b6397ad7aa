"""No function, method, class or property of molforma/ that nothing calls (vulture).

pyproject's [tool.vulture] says where callers are looked for and which framework hooks
count as called; tests/vulture_whitelist.py names what is reached by name. The readers
and writers of the format table are called through their ``module:function`` text in
molforma/file_formats.py, so they are taken from there.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from molforma.file_formats import FORMATS

ROOT = Path(__file__).resolve().parents[2]
_KINDS = ("function", "method", "class", "property")
_LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): unused (?P<kind>\w+) '(?P<name>[^']+)'")


def _named_in_format_table() -> set[str]:
    refs = [f.reader for f in FORMATS] + [f.writer for f in FORMATS if f.writer]
    return {ref.rsplit(":", 1)[-1] for ref in refs if ":" in ref}


def dead_code() -> list[str]:
    """``path:line: unused kind 'name'`` of each uncalled function, method, class or property."""
    exe = Path(sys.executable).parent / "vulture"
    # No path given: vulture reads [tool.vulture] of pyproject.toml (tests/ holds the
    # whitelist).
    out = subprocess.run([str(exe)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode in (0, 3), out.stderr  # 3: vulture found something
    named = _named_in_format_table()
    found = []
    for line in out.stdout.splitlines():
        m = _LINE.match(line)
        if (
            m
            and m["kind"] in _KINDS
            and m["path"].startswith("molforma/")
            and m["name"] not in named
        ):
            found.append(line)
    return found


def test_no_uncalled_code_in_molforma() -> None:
    assert dead_code() == []


def test_the_check_finds_an_uncalled_function(tmp_path: Path) -> None:
    """The check can fail: a module with a function nobody calls is reported."""
    probe = tmp_path / "molforma" / "probe.py"
    probe.parent.mkdir()
    probe.write_text('def never_called() -> int:\n    """Nobody calls this."""\n    return 1\n')
    exe = Path(sys.executable).parent / "vulture"
    out = subprocess.run(
        [str(exe), "molforma", "--min-confidence", "60"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "unused function 'never_called'" in out.stdout


def test_the_format_table_names_its_readers_and_writers() -> None:
    assert {"read_xyz", "write_xyz", "read_cml", "write_cml"} <= _named_in_format_table()


if __name__ == "__main__":  # the pre-commit hook
    found = dead_code()
    for item in found:
        print(item)
    raise SystemExit(1 if found else 0)
