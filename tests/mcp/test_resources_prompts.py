"""Resources and prompts of ``molforma --mcp`` (SPEC.md section 9.4)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.mcp.conftest import McpProcess


def test_resources_list_has_app_state_and_per_document_views(server: McpProcess):
    doc_id, _ = server.doc()
    uris = {r["uri"] for r in server.result("resources/list")["resources"]}
    assert "molforma://app/state" in uris
    for view in ("project", "xyz", "nwchem", "calculation/output", "results/summary",
                 "results/log"):
        assert f"molforma://documents/{doc_id}/{view}" in uris
    templates = server.result("resources/templates/list")["resourceTemplates"]
    assert {t["uriTemplate"] for t in templates} >= {
        "molforma://documents/{documentId}/project", "molforma://documents/{documentId}/xyz",
        "molforma://documents/{documentId}/nwchem"}


def test_reading_document_resources_gives_current_content(server: McpProcess):
    doc_id, rev = server.water()
    proj = server.result("resources/read", {"uri": f"molforma://documents/{doc_id}/project"})
    item = proj["contents"][0]
    assert item["mimeType"] == "application/json"
    assert len(json.loads(item["text"])["document"]["atoms"]) == 3
    xyz = server.result("resources/read", {"uri": f"molforma://documents/{doc_id}/xyz"})
    assert xyz["contents"][0]["text"].split()[0] == "3"
    nw = server.result("resources/read", {"uri": f"molforma://documents/{doc_id}/nwchem"})
    assert "geometry" in nw["contents"][0]["text"]
    state = server.result("resources/read", {"uri": "molforma://app/state"})
    assert json.loads(state["contents"][0]["text"])["documents"][0]["revision"] == rev
    # Reading changes nothing.
    assert server.doc()[1] == rev


def test_no_calculation_yet_reads_as_an_explanation(server: McpProcess):
    doc_id, _ = server.doc()
    out = server.result("resources/read",
                        {"uri": f"molforma://documents/{doc_id}/calculation/output"})
    assert "No calculation" in out["contents"][0]["text"]


def test_a_json_resource_with_no_results_yet_still_reads_as_json(server: McpProcess):
    doc_id, _ = server.doc()
    item = server.result("resources/read",
                         {"uri": f"molforma://documents/{doc_id}/results/summary"})["contents"][0]
    assert item["mimeType"] == "application/json"
    body = json.loads(item["text"])
    assert body["code"] == "results_none_loaded"
    assert "results_action" in body["message"]
    # A text view keeps the plain sentence.
    log = server.result("resources/read",
                        {"uri": f"molforma://documents/{doc_id}/results/log"})["contents"][0]
    assert log["text"].startswith("No results are loaded")


@pytest.mark.parametrize("uri", ["molforma://documents/doc-none/project",
                                 "molforma://nothing", "file:///etc/passwd",
                                 "molforma://documents/../../etc/passwd"])
def test_unknown_resource_is_32602_with_the_uri(server: McpProcess, uri: str):
    msg = server.request("resources/read", {"uri": uri})
    assert msg["error"]["code"] == -32602
    assert msg["error"]["data"] == {"uri": uri}


def test_unknown_resource_on_a_legacy_connection_is_32002(server: McpProcess):
    server.result("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "t", "version": "1"}}, modern=False)
    msg = server.request("resources/read", {"uri": "molforma://nothing"}, modern=False)
    assert msg["error"]["code"] == -32002


def test_structure_resources_hold_the_whole_text_beyond_100000_characters(server: McpProcess):
    doc_id, rev = server.doc()
    n = 4000
    text = f"{n}\nbig\n" + "".join(f"He {i * 1.5:.3f} 0 0\n" for i in range(n))
    server.ok("import_document", {"documentId": doc_id, "expectedRevision": rev,
                                  "format": "xyz", "text": text, "preview": False})
    full = server.ok("export_document", {"documentId": doc_id, "format": "project",
                                         "limit": 10**8})["text"]
    assert len(full) > 100_000
    got = server.result("resources/read",
                        {"uri": f"molforma://documents/{doc_id}/project"})["contents"][0]["text"]
    assert got == full  # results link here for the whole project: it is never cut


def test_log_resources_keep_the_last_100000_characters_with_a_note():
    from molforma.mcp.resources import CLIPPED, _clip

    assert {"calculation/output", "results/log"} <= CLIPPED
    text = "x" * 150_000 + "END"
    note, rest = _clip(text).split("\n", 1)
    assert "100,000" in note and "150,003" in note
    assert len(rest) == 100_000 and rest.endswith("END")


def test_prompts_list_in_definition_order_with_string_arguments(server: McpProcess):
    prompts = {p["name"]: p for p in server.result("prompts/list")["prompts"]}
    assert {"review_candidate", "geometry_optimization", "vibrational_analysis",
            "troubleshoot_calculation", "build_molecule"} <= set(prompts)
    args = prompts["geometry_optimization"]["arguments"]
    assert [a["name"] for a in args][:3] == ["method", "basis", "frequencies"]
    assert [a["required"] for a in args][:3] == [True, True, False]


def test_prompt_get_fills_the_arguments_into_one_user_message(server: McpProcess):
    res = server.result("prompts/get", {"name": "geometry_optimization", "arguments": {
        "method": "b3lyp", "basis": "6-31g*", "frequencies": "yes"}})
    assert res["resultType"] == "complete" and "ttlMs" not in res
    [msg] = res["messages"]
    assert msg["role"] == "user"
    assert "b3lyp/6-31g*" in msg["content"]["text"]
    assert "optimize+frequencies" in msg["content"]["text"]


def test_the_optimization_prompt_spells_out_set_nwchem_values_that_the_tool_accepts(
        server: McpProcess):
    doc_id, rev = server.water()
    for method, expect in (("B3LYP", {"theory": "dft", "functional": "b3lyp"}),
                           ("scf", {"theory": "scf"})):
        res = server.result("prompts/get", {"name": "geometry_optimization", "arguments": {
            "method": method, "basis": "sto-3g", "frequencies": "yes", "documentId": doc_id}})
        text = res["messages"][0]["content"]["text"]
        values = json.loads(text.split("set_nwchem with values ", 1)[1].split(" (preview", 1)[0])
        assert values == {"task": "optimize+frequencies", "basis": "sto-3g", **expect}
        # Validation comes after the settings, so it checks the basis that will run.
        assert text.index("set_nwchem") < text.index("validate_document")
        edit = server.ok("set_nwchem", {"documentId": doc_id, "expectedRevision": rev,
                                        "values": values, "preview": False})
        rev = edit["revision"]
        calc = server.project(doc_id)["calculation"]
        assert {k: calc[k] for k in values} == values


@pytest.mark.parametrize(("name", "args"), [
    ("no_such_prompt", {}),
    ("geometry_optimization", {"method": "scf"}),
    ("geometry_optimization", {"method": "scf", "basis": 6}),
    ("geometry_optimization", {"method": "scf", "basis": "sto-3g", "frequencies": "maybe"}),
    ("build_molecule", {"molecule": "water", "colour": "red"}),
    ("build_molecule", {"molecule": ["water"]}),
])
def test_bad_prompt_requests_are_32602(server: McpProcess, name: str, args: dict[str, Any]):
    msg = server.request("prompts/get", {"name": name, "arguments": args})
    assert msg["error"]["code"] == -32602


def test_prompts_change_nothing(server: McpProcess):
    _, rev = server.doc()
    for p in server.result("prompts/list")["prompts"]:
        args = {a["name"]: "x" for a in p["arguments"] if a["required"]}
        server.result("prompts/get", {"name": p["name"], "arguments": args})
    assert server.doc()[1] == rev
