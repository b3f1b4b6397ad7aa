"""Regenerate the generated sections of the docs: the MCP tool tables, the format table,
the Performance table and the Linux bundle's and remote cluster's figures.

Run ``.venv/bin/python scripts/update_readme.py`` after changing a tool definition, the
format table (``molforma/file_formats.py``), or after running a bench (each bench writes
``bench/results/<bench>.json``; this script turns every such file into rows of the
Performance table in ``docs/benchmarks.md``, with the date and the machine each figure was
taken on). ``--check`` only reports whether the pages are up to date (exit 1 when not);
tests/core/test_readme.py and tests/core/test_bench_harness.py fail while they disagree.

Each generated section sits between ``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` in
the page :data:`PAGES` names for it. The script keeps its name (README was its first page).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS_DIR = ROOT / "bench" / "results"
SCHEMA = 1


def tool_table() -> str:
    """The table part of the generated tool documentation."""
    spec = importlib.util.spec_from_file_location(
        "gen_tool_docs", ROOT / "scripts" / "gen_tool_docs.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    text = mod.render()
    return text[text.index("`molforma --mcp` offers") : text.index(mod.WINDOW_HEADING)].strip()


def window_tool_table() -> str:
    """The generated table of the window tools."""
    spec = importlib.util.spec_from_file_location(
        "gen_tool_docs", ROOT / "scripts" / "gen_tool_docs.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return str(mod.window_table()).strip()


def format_table() -> str:
    """The format table (docs/reference/files.md), from molforma.file_formats."""
    sys.path.insert(0, str(ROOT))  # the checkout's molforma, however the script is started
    from molforma.file_formats import readme_table

    return readme_table()


def _harness() -> Any:
    """bench/harness.py, whose formatting the benches print with (one definition)."""
    spec = importlib.util.spec_from_file_location("bench_harness", ROOT / "bench" / "harness.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_harness", mod)  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


_HARNESS = _harness()
_t = _HARNESS.fmt_seconds
_r = _HARNESS.fmt_ratio
_b = _HARNESS.fmt_bytes


def _side(side: dict[str, Any]) -> str:
    if "bytes" in side:
        z = side["bytes"]
        return f"{side['label']}: **{_b(z['median'])}** ({_b(z['min'])}–{_b(z['max'])})"
    s = side["seconds"]
    text = f"{side['label']}: **{_t(s['median'])}** ({_t(s['min'])}–{_t(s['max'])})"
    if side.get("peak_rss"):
        text += f", peak RSS {side['peak_rss']['median'] / 1e6:.0f} MB"
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _row(doc: dict[str, Any], row: dict[str, Any]) -> str:
    m = doc["machine"]
    load = m.get("load_average") or []
    measured = f"{doc['date'][:10]}, {m['cores']} cores" + (f", load {load[0]:.1f}" if load else "")
    result = _side(row["candidate"])
    if row["kind"] in ("comparison", "bytes"):
        r = row["ratio"]
        result += (
            f"<br>{_side(row['baseline'])}<br>ratio **{_r(r['median'])}** "
            f"({_r(r['min'])}–{_r(r['max'])}, {r['n']} pair{'s' if r['n'] != 1 else ''})"
        )
        if row.get("rss_ratio"):
            result += f", memory ratio {_r(row['rss_ratio']['median'])}"
    if row.get("note"):
        result += f"<br>{row['note']}"
    target = row.get("target") or "—"
    if row.get("met") is not None:
        target += " ✓" if row["met"] else " ✗ not met"
    return (
        f"| `{doc['bench']}.py` | {_cell(row['what'])} | {_cell(result)} | "
        f"{_cell(target)} | {measured} |"
    )


def load_results(folder: Path = RESULTS_DIR) -> list[dict[str, Any]]:
    """Every bench result file, in name order; a file of another layout is an error."""
    docs = []
    for path in sorted(folder.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("schema") != SCHEMA:
            raise SystemExit(
                f"{path.relative_to(ROOT)}: schema {doc.get('schema')!r}, "
                f"this script reads {SCHEMA}"
            )
        docs.append(doc)
    return docs


def performance_table(folder: Path = RESULTS_DIR) -> str:
    """The Performance table (docs/benchmarks.md), from the benches' JSON results."""
    docs = load_results(folder)
    lines = [
        "| bench | what | result: median (min–max) | target | measured |",
        "|---|---|---|---|---|",
    ]
    for doc in docs:
        lines += [_row(doc, row) for row in doc["rows"]]
    # Benches record "python bench/x.py ...": in the docs, the interpreter of the set-up.
    commands = "; ".join(
        "`" + re.sub(r"^python ", ".venv/bin/python ", doc["command"]) + "`" for doc in docs
    )
    lines += ["", f"Commands that produced these figures: {commands}."]
    notes = [n for doc in docs for n in doc.get("notes", [])]
    if notes:
        lines += [""] + [f"- {n}" for n in notes]
    return "\n".join(lines)


def bundle_figures(folder: Path = RESULTS_DIR) -> str:
    """The Linux bundle figures (docs/install.md), from bench/install_bench.py's results."""
    path = folder / "install_bench.json"
    if not path.exists():
        return "Not measured yet: run `.venv/bin/python bench/install_bench.py`."
    doc = json.loads(path.read_text(encoding="utf-8"))
    rows = {row["key"]: row for row in doc["rows"]}
    lines = ["| what | measured |", "|---|---|"]
    if "download" in rows:
        r = rows["download"]
        lines.append(
            f"| download: bundle `.tar.gz` / wheel (no dependencies) | "
            f"{_b(r['candidate']['bytes']['median'])} / "
            f"{_b(r['baseline']['bytes']['median'])} |"
        )
    if "bundle_size" in rows:
        r = rows["bundle_size"]
        lines.append(
            f"| bundle unpacked (budget {_b(r['baseline']['bytes']['median'])}) | "
            f"{_b(r['candidate']['bytes']['median'])} |"
        )
    if "bundle_build" in rows:
        lines.append(
            f"| `scripts/build_bundle.sh`, whole build | "
            f"{_t(rows['bundle_build']['candidate']['seconds']['median'])} |"
        )
    for key, what in (
        ("start_discover", "start of `molforma --mcp` → first `server/discover` answer"),
        ("first_frame", "window start → first complete frame (OpenGL, Xvfb)"),
    ):
        if key in rows:
            r = rows[key]
            c, b, q = r["candidate"]["seconds"], r["baseline"]["seconds"], r["ratio"]
            lines.append(
                f"| {what}: bundle / `.venv/bin/molforma` | **{_t(c['median'])}** "
                f"({_t(c['min'])}–{_t(c['max'])}) / {_t(b['median'])} "
                f"({_t(b['min'])}–{_t(b['max'])}), ratio {_r(q['median'])} |"
            )
    m = doc["machine"]
    lines += [
        "",
        f"Measured {doc['date'][:10]} on {m['cores']} cores by "
        f"`{re.sub(r'^python ', '.venv/bin/python ', doc['command'])}` (medians, "
        "min–max; the rows are also in the Performance table).",
    ]
    return "\n".join(lines)


def remote_figures(folder: Path = RESULTS_DIR) -> str:
    """The remote-cluster figures (docs/clusters.md), from bench/remote_bench.py's results."""
    path = folder / "remote_bench.json"
    if not path.exists():
        return "Not measured yet: run `.venv/bin/python bench/remote_bench.py`."
    doc = json.loads(path.read_text(encoding="utf-8"))
    rows = {row["key"]: row for row in doc["rows"]}
    first = next(iter(rows.values()))
    lines = [
        f"| water SCF/STO-3G over ssh | {first['candidate']['label']} | "
        f"{first['baseline']['label']} (the floor) | ratio |",
        "|---|---|---|---|",
    ]
    for key, what in (
        ("running", "submission → running"),
        ("home", "submission → results at home"),
    ):
        if key in rows:
            r = rows[key]
            c, b, q = r["candidate"]["seconds"], r["baseline"]["seconds"], r["ratio"]
            lines.append(
                f"| {what} | **{_t(c['median'])}** ({_t(c['min'])}–{_t(c['max'])}) | "
                f"{_t(b['median'])} ({_t(b['min'])}–{_t(b['max'])}) | "
                f"{_r(q['median'])} ({_r(q['min'])}–{_r(q['max'])}) |"
            )
    m = doc["machine"]
    n = first["ratio"]["n"]
    lines += [
        "",
        f"Measured {doc['date'][:10]} on {m['cores']} cores, {n} interleaved rounds, by "
        f"`{re.sub(r'^python ', '.venv/bin/python ', doc['command'])}` (medians, "
        "min–max, median of the per-round ratios; the rows are also in the Performance "
        "table).",
    ]
    return "\n".join(lines)


# Where each generated section lives (a page of docs/, by its markers).
PAGES: dict[str, tuple[str, ...]] = {
    "docs/mcp.md": ("tools", "window-tools"),
    "docs/reference/files.md": ("formats",),
    "docs/install.md": ("bundle",),
    "docs/clusters.md": ("remote-bench",),
    "docs/benchmarks.md": ("performance",),
}


def _generators() -> dict[str, Any]:
    return {
        "tools": tool_table,
        "window-tools": window_tool_table,
        "formats": format_table,
        "bundle": bundle_figures,
        "remote-bench": remote_figures,
        "performance": performance_table,
    }


def _pattern(name: str) -> str:
    return rf"<!-- {name}:start -->.*<!-- {name}:end -->"


def _replace(text: str, name: str, body: str) -> str:
    if not re.search(_pattern(name), text, flags=re.S):
        raise SystemExit(f"the page lacks the <!-- {name}:start --> / end markers")
    return re.sub(
        _pattern(name),
        lambda _m: f"<!-- {name}:start -->\n{body}\n<!-- {name}:end -->",
        text,
        flags=re.S,
    )


def render(text: str) -> str:
    """``text`` (a page) with every generated section it holds up to date."""
    for name, generate in _generators().items():
        if re.search(_pattern(name), text, flags=re.S):
            text = _replace(text, name, generate())
    return text


def render_page(page: str) -> tuple[str, str]:
    """The current and the regenerated text of one page of :data:`PAGES`."""
    text = (ROOT / page).read_text(encoding="utf-8")
    for name in PAGES[page]:
        if not re.search(_pattern(name), text, flags=re.S):
            raise SystemExit(f"{page} lacks the <!-- {name}:start --> / end markers")
    return text, render(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--check", action="store_true", help="only say whether the pages are up to date"
    )
    args = ap.parse_args(argv)
    stale = []
    for page in PAGES:
        old, new = render_page(page)
        if new == old:
            continue
        stale.append(page)
        if not args.check:
            (ROOT / page).write_text(new, encoding="utf-8")
            sys.stdout.write(f"{page} updated\n")
    if args.check:
        sys.stdout.write(
            "the generated sections are up to date\n"
            if not stale
            else f"out of date: {', '.join(stale)}: run .venv/bin/python scripts/update_readme.py\n"
        )
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
