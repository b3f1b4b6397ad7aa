"""Element symbols in any letter case are normalised the same way by every way in.

``add_atoms``, ``set_atom_properties`` and structure files all take ``HE``, ``cl``
or `` Na `` and store the periodic-table spelling; the tool descriptions say so.
Anything that is not an element stays refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.conftest import McpProcess


@pytest.mark.parametrize(
    "given,stored", [("HE", "He"), ("cl", "Cl"), ("CL", "Cl"), (" Na ", "Na"), ("c", "C")]
)
def test_add_atoms_set_atom_properties_and_files_store_the_same_spelling(
    server: McpProcess, tmp_path: Path, given: str, stored: str
) -> None:
    doc_id, rev = server.doc()
    s = server.ok(
        "add_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "atoms": [{"element": given, "position": [0, 0, 0]}],
        },
    )
    atoms = server.project(doc_id)["document"]["atoms"]
    assert [a["element"] for a in atoms] == [stored]
    s = server.ok(
        "add_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": s["revision"],
            "preview": False,
            "atoms": [{"element": "H", "position": [3, 0, 0]}],
        },
    )
    new_id = s["addedIds"][0]
    server.ok(
        "set_atom_properties",
        {
            "documentId": doc_id,
            "expectedRevision": s["revision"],
            "preview": False,
            "atoms": [{"id": new_id, "element": given}],
        },
    )
    atoms = server.project(doc_id)["document"]["atoms"]
    assert [a["element"] for a in atoms] == [stored, stored]
    xyz = tmp_path / "one.xyz"
    xyz.write_text(f"1\n\n{given.strip()} 0 0 0\n")
    server.ok(
        "open_file",
        {
            "documentId": doc_id,
            "expectedRevision": server.doc()[1],
            "path": str(xyz),
            "preview": False,
        },
    )
    assert [a["element"] for a in server.project(doc_id)["document"]["atoms"]] == [stored]


def test_the_tool_descriptions_say_symbols_are_normalised(server: McpProcess) -> None:
    tools = {t["name"]: t for t in server.result("tools/list")["tools"]}
    for name in ("add_atoms", "set_atom_properties"):
        schema = tools[name]["inputSchema"]
        text = str(schema)
        assert "normalised" in text and "'cl'" in text, name
        assert "not 'CL'" not in text


@pytest.mark.parametrize("bad", ["Xx", "", "C1", "H\ntask shell ls"])
def test_what_is_not_an_element_stays_refused_everywhere(server: McpProcess, bad: str) -> None:
    doc_id, rev = server.water()
    err = server.err(
        "add_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atoms": [{"element": bad, "position": [5, 5, 5]}],
        },
    )
    assert err["code"] == "bad_element"
    err = server.err(
        "set_atom_properties",
        {"documentId": doc_id, "expectedRevision": rev, "atoms": [{"id": "a1", "element": bad}]},
    )
    assert err["code"] == "bad_element"
