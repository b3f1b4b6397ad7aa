"""A 10,000-atom document over the real ``molforma --mcp``: every result fits the size hint.

docs/reference/mcp.md, Size of results: with default arguments no tool result passes 100,000 characters;
get_document pages atoms and bonds; what is too big travels as ``resource_link`` items
to resources that ``resources/read`` serves whole.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from molforma.mcp.tool_registry import MAX_RESULT_CHARS, tools_for
from tests.mcp.conftest import REPO, McpProcess

N_ATOMS = 10_000


def water_box(n: int) -> str:
    """An XYZ of n atoms: waters on a 3.1 Å grid (O-H bonds only, no close contacts)."""
    rng = np.random.default_rng(7)
    m = n // 3
    side = int(np.ceil(m ** (1 / 3)))
    grid = (
        np.array(
            [(i, j, k) for i in range(side) for j in range(side) for k in range(side)][:m], float
        )
        * 3.1
    )
    grid += rng.uniform(-0.2, 0.2, grid.shape)
    rows = []
    for p in grid:
        rows += [
            ("O", p),
            ("H", p + np.array([0.9572, 0, 0])),
            ("H", p + np.array([-0.24, 0.927, 0])),
        ]
    while len(rows) < n:
        rows.append(("He", grid[-1] + np.array([0.0, 0.0, 3.1 * (n - len(rows))])))
    return f"{n}\nwater box\n" + "".join(f"{e} {x:.5f} {y:.5f} {z:.5f}\n" for e, (x, y, z) in rows)


def trajectory(frames: int, atoms: int) -> str:
    """A multi-frame XYZ results file with structures too big to inline one by one."""
    box = water_box(atoms).splitlines()[2:]
    out = []
    for f in range(frames):
        out += [str(atoms), f"frame {f}", *box]
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[McpProcess, dict[str, Any]]]:
    """One server for the module with a confirmed 10,000-atom document."""
    tmp = tmp_path_factory.mktemp("large")
    (tmp / "config").mkdir()
    (tmp / "home").mkdir()
    env = dict(
        os.environ,
        MOLFORMA_CONFIG_DIR=str(tmp / "config"),
        MOLFORMA_LANGUAGE="en",
        HOME=str(tmp / "home"),
        PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )
    xyz = tmp / "box.xyz"
    xyz.write_text(water_box(N_ATOMS))
    traj = tmp / "trajectory.xyz"
    traj.write_text(trajectory(3, 2000))
    proc = McpProcess([], env, tmp)
    doc_id, rev = proc.doc()
    proc.ok(
        "open_file",
        {"documentId": doc_id, "expectedRevision": rev, "path": str(xyz), "preview": False},
    )
    info = {"doc": doc_id, "tmp": tmp, "xyz": xyz, "traj": traj}
    yield proc, info
    proc.close(30)


def _rev(proc: McpProcess, doc_id: str) -> str:
    return str(proc.ok("get_document", {"documentId": doc_id, "include": []})["revision"])


def _size(result: dict[str, Any]) -> int:
    return len(json.dumps(result, ensure_ascii=False))


def _tool_calls(proc: McpProcess, info: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Each tool's calls with only its required arguments (documented defaults otherwise)."""
    d = info["doc"]
    tmp: Path = info["tmp"]
    return {
        "list_documents": [{}],
        "get_document": [{"documentId": d}],
        "open_file": [{"documentId": d, "path": str(info["xyz"])}],
        "import_document": [{"documentId": d, "format": "xyz", "text": info["xyz"].read_text()}],
        "export_document": [
            {"documentId": d, "format": f}
            for f in ("project", "xyz", "mol", "sdf", "pdb", "cml", "nwchem")
        ],
        "save_file": [{"documentId": d, "path": str(tmp / "saved.molforma.json")}],
        "history": [{"documentId": d, "action": "undo"}, {"documentId": d, "action": "redo"}],
        "add_atoms": [
            {"documentId": d, "atoms": [{"element": "He", "position": [-50.0, -50.0, -50.0]}]}
        ],
        "delete_atoms": [{"documentId": d, "atomIds": ["a1"]}],
        "move_atoms": [{"documentId": d, "translate": [0.5, 0.0, 0.0]}],
        "set_atom_properties": [{"documentId": d, "changes": [{"id": "a1", "name": "OW"}]}],
        "set_bonds": [{"documentId": d, "bonds": [{"a": "a1", "b": "a2", "order": 0}]}],
        "set_internal_coordinate": [{"documentId": d, "atomIds": ["a1", "a2"], "value": 1.0}],
        "add_hydrogens": [{"documentId": d}],
        "place_fragment": [{"documentId": d, "fragment": "methyl", "atomId": "a2"}],
        "set_molecule": [{"documentId": d, "title": "box"}],
        "set_nwchem": [{"documentId": d, "values": {"basis": "sto-3g"}}],
        "set_advanced": [{"documentId": d, "values": {}}],
        "set_execution": [{"documentId": d, "values": {"processes": 1}}],
        "get_execution": [{"documentId": d}],
        "validate_document": [{"documentId": d}],
        "measure": [{"documentId": d, "distances": [["a1", "a2"]]}],
        "get_catalog": [{}],
        "calculation": [{"documentId": d, "action": "save_inputs"}],
        "results_action": [{"documentId": d, "action": "open_file", "path": str(info["traj"])}],
        "get_results": [
            {"documentId": d, "section": s}
            for s in ("summary", "energies", "structures", "modes", "files", "log")
        ],
        "get_app_state": [{}],
    }


EDIT_TOOLS = {
    "open_file",
    "import_document",
    "add_atoms",
    "delete_atoms",
    "move_atoms",
    "set_atom_properties",
    "set_bonds",
    "set_internal_coordinate",
    "add_hydrogens",
    "place_fragment",
    "set_molecule",
    "set_nwchem",
    "set_advanced",
    "set_execution",
    "history",
    "calculation",
    "results_action",
    "save_file",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", [t.name for t in tools_for("headless")])
def test_every_tool_result_on_a_10000_atom_document_is_under_the_size_hint(
    big: tuple[McpProcess, dict[str, Any]], name: str
) -> None:
    proc, info = big
    calls = _tool_calls(proc, info)
    assert name in calls, f"add {name} to the calls of this test"
    for args in calls[name]:
        args = dict(args)
        if name in EDIT_TOOLS:
            args["expectedRevision"] = _rev(proc, info["doc"])
        if name == "get_results":
            _wait_results(proc, info)
        result = proc.call(name, args, timeout=120)
        assert _size(result) < MAX_RESULT_CHARS, (
            name,
            args.get("format") or args.get("section"),
            _size(result),
        )
        if name == "results_action":
            _wait_results(proc, info)
        state = proc.ok("get_document", {"documentId": info["doc"], "include": []})
        if state["hasCandidate"]:
            proc.ok(
                "history",
                {
                    "documentId": info["doc"],
                    "expectedRevision": state["revision"],
                    "action": "cancel",
                },
            )


def _wait_results(proc: McpProcess, info: dict[str, Any]) -> None:
    """Make sure the trajectory is loaded as the document's results."""
    d = info["doc"]
    res = proc.call("get_results", {"documentId": d})
    if res["isError"]:
        proc.call(
            "results_action",
            {
                "documentId": d,
                "expectedRevision": _rev(proc, d),
                "action": "open_file",
                "path": str(info["traj"]),
            },
        )
    end = time.monotonic() + 120
    while proc.call("get_results", {"documentId": d})["isError"]:
        assert time.monotonic() < end, "results did not load"
        time.sleep(0.2)


@pytest.mark.slow
def test_paging_through_get_document_returns_every_atom_and_bond_exactly_once(
    big: tuple[McpProcess, dict[str, Any]],
) -> None:
    proc, info = big
    whole = json.loads(
        proc.ok(
            "export_document", {"documentId": info["doc"], "format": "project", "limit": 10**8}
        )["text"]
    )
    atoms: list[dict[str, Any]] = []
    bonds: list[dict[str, Any]] = []
    offset: int | None = 0
    pages = 0
    while offset is not None:
        res = proc.call(
            "get_document", {"documentId": info["doc"], "include": ["project"], "offset": offset}
        )
        assert _size(res) < MAX_RESULT_CHARS
        out = res["structuredContent"]
        assert out["offset"] == offset and out["atomCount"] == N_ATOMS
        page = out["project"]["document"]
        assert page["atoms"], "a page before the end holds atoms"
        seen = {a["id"] for a in atoms} | {a["id"] for a in page["atoms"]}
        assert all(b["a"] in seen and b["b"] in seen for b in page["bonds"])
        atoms += page["atoms"]
        bonds += page["bonds"]
        offset = out["nextOffset"]
        pages += 1
    assert pages > 1
    assert atoms == whole["document"]["atoms"]
    assert sorted(map(json.dumps, bonds)) == sorted(map(json.dumps, whole["document"]["bonds"]))
    assert out["bondCount"] == len(whole["document"]["bonds"])


@pytest.mark.slow
def test_include_nothing_gives_the_summary_without_atoms(
    big: tuple[McpProcess, dict[str, Any]],
) -> None:
    proc, info = big
    out = proc.ok("get_document", {"documentId": info["doc"], "include": []})
    assert out["atomCount"] == N_ATOMS
    assert "project" not in out and "candidate" not in out
    assert _size(out) < 500


@pytest.mark.slow
def test_resource_links_resolve_to_the_whole_content(
    big: tuple[McpProcess, dict[str, Any]],
) -> None:
    proc, info = big
    res = proc.call("get_document", {"documentId": info["doc"]})
    links = [c for c in res["content"] if c["type"] == "resource_link"]
    mimes = {c["mimeType"] for c in links}
    assert {"chemical/x-xyz", "chemical/x-mdl-molfile", "application/json"} <= mimes
    assert res["structuredContent"]["links"] == [
        {k: v for k, v in c.items() if k != "type"} for c in links
    ]
    for c in links:
        text = proc.result("resources/read", {"uri": c["uri"]})["contents"][0]["text"]
        if c["mimeType"] == "chemical/x-xyz":
            assert int(text.split("\n", 1)[0]) == N_ATOMS
            assert len(text.splitlines()) == N_ATOMS + 2
        elif c["mimeType"] == "application/json":
            assert len(json.loads(text)["document"]["atoms"]) == N_ATOMS
        elif c["mimeType"] == "chemical/x-mdl-molfile":
            assert f"COUNTS {N_ATOMS} " in text
    export = proc.call("export_document", {"documentId": info["doc"], "format": "xyz"})
    out = export["structuredContent"]
    assert out["nextOffset"] is not None and out["totalChars"] > len(out["text"])
    [xyz_link] = [c for c in export["content"] if c["type"] == "resource_link"]
    full = proc.result("resources/read", {"uri": xyz_link["uri"]})["contents"][0]["text"]
    assert len(full) == out["totalChars"] and full.startswith(out["text"])


@pytest.mark.slow
def test_export_pages_join_to_the_whole_text(big: tuple[McpProcess, dict[str, Any]]) -> None:
    proc, info = big
    parts: list[str] = []
    offset: int | None = 0
    while offset is not None:
        out = proc.ok(
            "export_document", {"documentId": info["doc"], "format": "pdb", "offset": offset}
        )
        parts.append(out["text"])
        offset = out["nextOffset"]
    text = "".join(parts)
    assert len(text) == out["totalChars"]
    assert text.count("\nATOM  ") + text.startswith("ATOM  ") + text.count("HETATM") >= N_ATOMS


@pytest.mark.slow
def test_validate_document_gives_counts_and_pages_each_check(
    big: tuple[McpProcess, dict[str, Any]],
) -> None:
    proc, info = big
    d = info["doc"]
    pairs = 300  # He pairs 0.2 Å apart: one close_contact entry each
    text = f"{2 * pairs}\npairs\n" + "".join(
        f"He {5.0 * k:.3f} 0 0\nHe {5.0 * k + 0.2:.3f} 0 0\n" for k in range(pairs)
    )
    proc.ok(
        "import_document",
        {
            "documentId": d,
            "expectedRevision": _rev(proc, d),
            "format": "xyz",
            "text": text,
            "preview": False,
        },
    )
    try:
        _page_through_a_check(proc, d, pairs)
    finally:
        proc.ok("history", {"documentId": d, "expectedRevision": _rev(proc, d), "action": "undo"})


def _page_through_a_check(proc: McpProcess, d: str, pairs: int) -> None:
    out = proc.ok("validate_document", {"documentId": d})
    counts = out["counts"]
    code = "close_contact"
    assert counts[code] == pairs, counts
    assert sum(c["code"] == code for c in out["checks"]) == 10
    assert code in out["more"]
    got: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        page = proc.ok(
            "validate_document", {"documentId": d, "check": code, "offset": offset, "limit": 200}
        )
        assert {c["code"] for c in page["checks"]} <= {code}
        got += page["checks"]
        offset = page["nextOffset"]
    assert len(got) == counts[code]
    assert len({tuple(c["atoms"]) for c in got}) == pairs  # each entry exactly once


@pytest.mark.slow
def test_a_results_structure_too_big_to_inline_comes_as_a_link_to_its_xyz(
    big: tuple[McpProcess, dict[str, Any]],
) -> None:
    proc, info = big
    d = info["doc"]
    _wait_results(proc, info)
    res = proc.call("get_results", {"documentId": d, "section": "structures"})
    assert _size(res) < MAX_RESULT_CHARS
    item = res["structuredContent"]["items"][0]
    assert item["omitted"] is True and item["atomCount"] == 2000
    text = proc.result("resources/read", {"uri": item["resource"]})["contents"][0]["text"]
    lines = text.splitlines()
    assert int(lines[0]) == 2000 and len(lines) == 2002
    whole = json.loads(
        proc.result(
            "resources/read", {"uri": f"molforma://documents/{d}/results/items/structures/0"}
        )["contents"][0]["text"]
    )
    assert len(whole["coordinates"]) == 2000
