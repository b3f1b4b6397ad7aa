"""get_results over the real server pages through an NWChem output of more than 2,000
structures (which the reader used to refuse)."""

from __future__ import annotations

from pathlib import Path

from tests.mcp.conftest import McpProcess, wait_until
from tests.results.test_long_nwchem_outputs import _long_optimisation

STEPS = 3_000


def test_get_results_pages_through_the_structures_of_a_3000_step_output(
    server: McpProcess, tmp_path: Path
) -> None:
    out = tmp_path / "long_opt.out"
    _long_optimisation(out, STEPS)
    doc_id, rev = server.doc()
    server.ok(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "open_file", "path": str(out)},
    )
    wait_until(
        lambda: server.ok("get_app_state", {})["results"].get(doc_id, {}).get("source") == str(out),
        120,
    )
    summary = server.ok("get_results", {"documentId": doc_id})["summary"]
    assert summary["structureCount"] > STEPS
    page = server.ok(
        "get_results", {"documentId": doc_id, "section": "structures", "offset": 2_500, "limit": 3}
    )
    assert page["total"] == summary["structureCount"]
    assert [s["index"] for s in page["items"]] == [2_500, 2_501, 2_502]
    assert page["nextOffset"] == 2_503
    assert all(s["symbols"] == ["O", "H", "H"] for s in page["items"])
    end = server.ok(
        "get_results", {"documentId": doc_id, "section": "structures", "offset": page["total"] - 1}
    )
    assert [s["index"] for s in end["items"]] == [page["total"] - 1]
    assert end["nextOffset"] is None
