"""Regenerate every generated artefact of the repository, or check that none is stale.

Usage::

    .venv/bin/python scripts/generate.py            # write them all
    .venv/bin/python scripts/generate.py --check    # exit 1 when a committed one differs
    .venv/bin/python scripts/generate.py --list     # name each artefact and its generator
    .venv/bin/python scripts/generate.py --only tool-index translations [--check]

The one entry for all of them; each generator stays its own script and is called as it
is (so it can still be run alone):

* ``tool-index``: ``molforma/mcp/tool_index.json`` (``scripts/gen_tool_index.py``);
* ``tool-docs``: ``docs/tools.md`` (``scripts/gen_tool_docs.py``);
* ``docs-tables``: the generated sections of the ``docs/`` pages (tool and format tables,
  benchmark figures; ``scripts/update_readme.py``);
* ``catalogues``: the label catalogues ``resources/{tasks,theories,functionals,
  advanced_keys}.json`` (``scripts/build_catalogs.py --only ...``);
* ``translations``: the window's ``translations/*.ts`` (``pyside6-lupdate`` over the
  sources) and their compiled ``*.qm`` (``scripts/update_translations.py``); the check
  runs both into a temporary copy and compares.

Made by hand once and not regenerated here (they need RDKit embedding, NWChem's basis
library or Qt's SVG renderer, and their output depends on those versions):
``resources/{fragments,ligands,basis_sets}.json`` (``scripts/build_catalogs.py``) and the
PNG icons (``scripts/render_icons.py``). ``tests/core/test_generated.py`` runs ``--check``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
# The catalogues build_catalogs.py makes from tables in the code alone (no RDKit, no NWChem).
LABEL_CATALOGUES = ("functionals", "tasks", "theories", "advanced_keys")


@dataclass(frozen=True)
class Artefact:
    """One generated artefact: its name, what it writes, how to write it and to check it."""

    name: str
    writes: str
    generate: Callable[[], int]
    check: Callable[[], int]


def _run(script: str, *args: str) -> int:
    """Run ``scripts/<script>`` with this interpreter; its exit status."""
    return subprocess.run(
        [sys.executable, str(SCRIPTS / script), *args], cwd=ROOT, check=False
    ).returncode


def _checked_script(name: str, writes: str, script: str) -> Artefact:
    """A generator script that has its own ``--check``."""
    return Artefact(name, writes, lambda: _run(script), lambda: _run(script, "--check"))


def _catalogues_generate() -> int:
    return _run("build_catalogs.py", "--only", *LABEL_CATALOGUES)


def _catalogues_check() -> int:
    sys.path.insert(0, str(SCRIPTS))
    import build_catalogs

    builders = {
        "functionals": build_catalogs.functionals,
        "tasks": build_catalogs.tasks,
        "theories": build_catalogs.theories,
        "advanced_keys": build_catalogs.advanced_keys,
    }
    stale = [
        name
        for name, build in builders.items()
        if (ROOT / "resources" / f"{name}.json").read_text(encoding="utf-8")
        != build_catalogs._dumps(build())
    ]
    for name in stale:
        print(
            f"resources/{name}.json is out of date: run python scripts/generate.py "
            "--only catalogues",
            file=sys.stderr,
        )
    return 1 if stale else 0


def _translations_generate() -> int:
    return _run("update_translations.py")


def _translations_check() -> int:
    sys.path.insert(0, str(SCRIPTS))
    import update_translations

    committed = ROOT / "translations"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for ts in committed.glob("*.ts"):
            shutil.copy2(ts, work / ts.name)
        update_translations.update_sources(work)
        update_translations.compile_all(work)
        stale = sorted(
            p.name
            for p in work.iterdir()
            if not (committed / p.name).is_file()
            or (committed / p.name).read_bytes() != p.read_bytes()
        )
    for name in stale:
        print(
            f"translations/{name} is out of date: run python scripts/generate.py "
            "--only translations",
            file=sys.stderr,
        )
    return 1 if stale else 0


ARTEFACTS: tuple[Artefact, ...] = (
    _checked_script("tool-index", "molforma/mcp/tool_index.json", "gen_tool_index.py"),
    _checked_script("tool-docs", "docs/tools.md", "gen_tool_docs.py"),
    _checked_script("docs-tables", "generated sections of the docs/ pages", "update_readme.py"),
    Artefact(
        "catalogues",
        "resources/{" + ",".join(LABEL_CATALOGUES) + "}.json",
        _catalogues_generate,
        _catalogues_check,
    ),
    Artefact(
        "translations", "translations/*.ts and *.qm", _translations_generate, _translations_check
    ),
)
BY_NAME = {a.name: a for a in ARTEFACTS}


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the artefacts; 1 when any check failed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when a committed artefact is stale",
    )
    ap.add_argument("--list", action="store_true", help="list the artefacts and exit")
    ap.add_argument(
        "--only",
        nargs="+",
        choices=sorted(BY_NAME),
        metavar="NAME",
        help="only these artefacts (default: all)",
    )
    args = ap.parse_args(argv)
    if args.list:
        for a in ARTEFACTS:
            print(f"{a.name:14} {a.writes}")
        return 0
    failed = []
    for artefact in (BY_NAME[n] for n in args.only) if args.only else ARTEFACTS:
        status = artefact.check() if args.check else artefact.generate()
        if status != 0:
            failed.append(artefact.name)
    if failed:
        what = "stale" if args.check else "failed"
        print(f"{what}: {', '.join(failed)}", file=sys.stderr)
        return 1
    if args.check:
        print("every generated artefact is up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
