"""The per-document resource views come from the format table: every writable format is one.

Before, the views were listed by hand and CML, which MolForma writes, had none.
"""

from __future__ import annotations

from molforma.file_formats import BY_NAME, WRITABLE
from molforma.formats.registry import read_text
from molforma.mcp.paging import DOCUMENT_VIEWS
from molforma.mcp.resources import VIEWS, list_templates
from tests.mcp.conftest import McpProcess


def test_every_writable_format_is_a_document_view() -> None:
    assert "cml" in WRITABLE
    assert set(DOCUMENT_VIEWS) == set(WRITABLE)
    templates = {t["uriTemplate"]: t for t in list_templates()}
    for fmt in WRITABLE:
        assert VIEWS[fmt][2] == BY_NAME[fmt].mime
        template = templates[f"molforma://documents/{{documentId}}/{fmt}"]
        assert template["mimeType"] == BY_NAME[fmt].mime


def test_every_writable_format_resource_reads_back(server: McpProcess) -> None:
    doc_id, _rev = server.water()
    uris = {r["uri"] for r in server.result("resources/list")["resources"]}
    for fmt in WRITABLE:
        uri = f"molforma://documents/{doc_id}/{fmt}"
        assert uri in uris, fmt
        item = server.result("resources/read", {"uri": uri})["contents"][0]
        assert item["mimeType"] == BY_NAME[fmt].mime, fmt
        back = read_text(item["text"], fmt)
        atoms = back["document"]["atoms"] if isinstance(back, dict) else back.atoms
        assert sorted(a["element"] for a in atoms) == ["H", "H", "O"], fmt
