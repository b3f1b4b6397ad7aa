"""``import_document`` with format ``smiles`` takes a common molecule's name from the
bundled table and says which SMILES it used (the real ``molforma --mcp`` over stdio)."""

from __future__ import annotations

from typing import Any


def test_import_document_builds_a_named_molecule_and_reports_its_smiles(spawn: Any) -> None:
    server = spawn()
    doc_id, rev = server.doc()
    out = server.ok(
        "import_document",
        {"documentId": doc_id, "expectedRevision": rev, "format": "smiles", "text": "DMSO"},
    )
    assert out["candidate"]["formula"] == "C2H6OS"
    assert out["info"] == {"name": "dimethyl sulfoxide", "smiles": "CS(C)=O"}
    server.ok(
        "history", {"documentId": doc_id, "expectedRevision": out["revision"], "action": "cancel"}
    )
    doc_id, rev = server.doc()
    out = server.ok(
        "import_document",
        {"documentId": doc_id, "expectedRevision": rev, "format": "smiles", "text": "酢酸"},
    )
    assert out["candidate"]["formula"] == "C2H4O2"
    assert out["info"]["smiles"] == "CC(=O)O"
    # A SMILES stays a SMILES, with no name reported.
    server.ok(
        "history", {"documentId": doc_id, "expectedRevision": out["revision"], "action": "cancel"}
    )
    doc_id, rev = server.doc()
    out = server.ok(
        "import_document",
        {"documentId": doc_id, "expectedRevision": rev, "format": "smiles", "text": "CCO"},
    )
    assert out["candidate"]["formula"] == "C2H6O" and "info" not in out
    # Neither: refused with smiles_invalid, nothing changed.
    server.ok(
        "history", {"documentId": doc_id, "expectedRevision": out["revision"], "action": "cancel"}
    )
    doc_id, rev = server.doc()
    err = server.err(
        "import_document",
        {"documentId": doc_id, "expectedRevision": rev, "format": "smiles", "text": "unobtainium"},
    )
    assert err["code"] == "smiles_invalid"
    assert server.doc()[1] == rev
