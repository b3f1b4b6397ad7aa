"""A QM region over MCP in a few calls, through the real ``molforma --mcp``.

import_document (a protein–ligand PDB made by RDKit) -> delete_atoms with ``keep``
(ligand by residue name, within 4 Å, whole residues, caps fixed) -> export_document
nwchem: the capped region with its charge as an NWChem input.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.protein_ligand import formal_charges, protein_ligand_pdb


def _atoms(server: Any, doc_id: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every atom of the project (get_document pages) and the document block."""
    atoms: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        out = server.ok(
            "get_document", {"documentId": doc_id, "include": ["project"], "offset": offset}
        )
        atoms += out["project"]["document"]["atoms"]
        offset = out.get("nextOffset")
    return atoms, out["project"]["document"]


def _open(server: Any) -> tuple[str, str]:
    doc_id, rev = server.doc()
    out = server.ok(
        "import_document",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "text": protein_ligand_pdb(),
            "format": "pdb",
            "preview": False,
        },
    )
    return doc_id, out["revision"]


def test_qm_region_in_three_calls(server: Any) -> None:
    doc_id, rev = _open(server)
    before, _ = _atoms(server, doc_id)
    lig = [a for a in before if a.get("residueName") == "LIG"]
    assert len(lig) == 7 and {a["chain"] for a in lig} == {"B"}
    assert all("bFactor" in a and "occupancy" in a for a in before)
    out = server.ok(
        "delete_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "keep": {"residues": ["LIG"], "within": 4.0, "fixCaps": True},
        },
    )
    info = out["info"]
    assert out["project"]["atomCount"] == info["atomCount"] < len(before)
    region, doc = _atoms(server, doc_id)
    caps = [a for a in region if a["id"] in set(info["caps"])]
    assert caps and all(a["element"] == "H" and a["fixed"] for a in caps)
    kept = {a["id"] for a in region} - set(info["caps"])
    ids = [a["id"] for a in before]
    mask = np.isin(ids, sorted(kept))
    assert doc["charge"] == info["charge"] == int(np.array(formal_charges())[mask].sum())
    text = server.ok("export_document", {"documentId": doc_id, "format": "nwchem"})["text"]
    assert f"charge {info['charge']}" in text
    geometry = text.split("geometry", 1)[1].split("end", 1)[0].splitlines()[1:]
    assert len(geometry) == info["atomCount"]
    assert "fix atom" in text  # the fixed caps are constrained in the input


def test_qm_region_into_a_new_document(server: Any) -> None:
    """newDocument: the region is a second document; the protein's is not touched."""
    doc_id, rev = _open(server)
    before, _ = _atoms(server, doc_id)
    out = server.ok(
        "delete_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "keep": {"residues": ["LIG"], "within": 4.0, "newDocument": True},
        },
    )
    new_id = out["info"]["documentId"]
    listed = {d["documentId"]: d for d in server.ok("list_documents", {})["documents"]}
    assert set(listed) == {doc_id, new_id}
    assert listed[doc_id]["revision"] == rev and listed[doc_id]["atomCount"] == len(before)
    assert listed[new_id]["atomCount"] == out["info"]["atomCount"] < len(before)
    assert listed[new_id]["title"].endswith("QM region")
    region, doc = _atoms(server, new_id)
    assert doc["charge"] == out["info"]["charge"] and len(region) == out["info"]["atomCount"]
    text = server.ok("export_document", {"documentId": new_id, "format": "nwchem"})["text"]
    assert f"charge {out['info']['charge']}" in text
    # the protein's document still undoes nothing of it: its own state is as opened
    assert server.doc()[1] == rev


def test_keep_refusals_change_nothing(server: Any) -> None:
    doc_id, rev = _open(server)
    both = server.call(
        "delete_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atomIds": ["a1"],
            "keep": {"residues": ["LIG"]},
        },
    )
    assert both["isError"] and both["structuredContent"]["code"] == "delete_atoms_one_of"
    empty = server.call(
        "delete_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "keep": {"residues": ["HOH"], "within": 5}},
    )
    assert empty["isError"] and empty["structuredContent"]["code"] == "qm_region_empty"
    far = server.call(
        "delete_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "keep": {"residues": ["LIG"], "within": 500},
        },
    )
    assert far["isError"] and far["structuredContent"]["code"] == "invalid_arguments"
    assert server.doc()[1] == rev


def test_qm_region_through_the_window_tools(spawn: Any) -> None:
    """--mcp-gui: the residue group's declared controls driven by ui_* tools."""
    from tests.mcp.conftest import GUI_ENV, run_window_command

    server = spawn(env=GUI_ENV, flag="--mcp-gui")
    doc_id, _rev = _open(server)
    before, _ = _atoms(server, doc_id)
    ligand = [a["id"] for a in before if a.get("residueName") == "LIG"]
    for tool, args in (
        ("ui_select", {"target": "moleculeView", "atomIds": ligand[:1]}),
        ("ui_activate", {"target": "selectResiduesButton"}),
        ("ui_set_value", {"target": "selectWithinRadiusSpin", "value": 4.0}),
        ("ui_activate", {"target": "selectWithinButton"}),
        ("ui_activate", {"target": "extractQmRegionButton"}),
    ):
        rec = run_window_command(server, tool, args)
        assert rec["status"] == "done", (tool, rec)
    region, doc = _atoms(server, doc_id)
    assert set(ligand) < {a["id"] for a in region} and len(region) < len(before)
    caps = [a for a in region if a.get("name") == "HL"]
    kept = {a["id"] for a in region} - {a["id"] for a in caps}
    mask = np.isin([a["id"] for a in before], sorted(kept))
    assert caps and doc["charge"] == int(np.array(formal_charges())[mask].sum())
    # The window holds one document: a second one is refused, and nothing changes.
    (listed,) = server.ok("list_documents", {})["documents"]
    refused = server.call(
        "delete_atoms",
        {
            "documentId": listed["documentId"],
            "expectedRevision": listed["revision"],
            "keep": {"residues": ["LIG"], "newDocument": True},
        },
    )
    assert refused["isError"]
    assert refused["structuredContent"]["code"] == "qm_region_new_document_window"
    assert server.ok("list_documents", {})["documents"] == [listed]
