"""Resources and prompts of ``molforma --mcp`` (docs/reference/mcp.md, Resources and Prompts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, McpProcess, wait_until


def test_resources_list_has_app_state_and_per_document_views(server: McpProcess):
    doc_id, _ = server.doc()
    uris = {r["uri"] for r in server.result("resources/list")["resources"]}
    assert "molforma://app/state" in uris
    for view in (
        "project",
        "xyz",
        "nwchem",
        "calculation/output",
        "results/summary",
        "results/log",
    ):
        assert f"molforma://documents/{doc_id}/{view}" in uris
    templates = server.result("resources/templates/list")["resourceTemplates"]
    assert {t["uriTemplate"] for t in templates} >= {
        "molforma://documents/{documentId}/project",
        "molforma://documents/{documentId}/xyz",
        "molforma://documents/{documentId}/nwchem",
    }


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


GUI_ENV = {"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"}
MODES = ["--mcp", "--mcp-gui"]
# Every view of a document that has nothing to show before atoms, a calculation or results
# exist, with the reason (data.code) and a tool the message must name.
NOTHING_YET = {
    "xyz": ("resource_no_atoms", "add_atoms"),
    "mol": ("resource_no_atoms", "add_atoms"),
    "sdf": ("resource_no_atoms", "add_atoms"),
    "pdb": ("resource_no_atoms", "add_atoms"),
    "calculation/output": ("resource_no_calculation", "calculation"),
    "results/summary": ("resource_no_results", "results_action"),
    "results/log": ("resource_no_results", "results_action"),
    "results/spectrum": ("resource_no_results", "results_action"),
    "results/structures/0": ("resource_no_results", "results_action"),
    "results/modes/0": ("resource_no_results", "results_action"),
    "results/items/summary/0": ("resource_no_results", "results_action"),
    "results/items/modes/0": ("resource_no_results", "results_action"),
}


def _start(spawn: Any, flag: str) -> McpProcess:
    return spawn(env=GUI_ENV, flag=flag) if flag == "--mcp-gui" else spawn()


def _load_results(server: McpProcess, doc_id: str, path: Path) -> None:
    rev = server.ok("get_document", {"documentId": doc_id, "include": []})["revision"]
    server.ok(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "open_file", "path": str(path)},
    )

    def loaded() -> bool:
        res = server.ok("get_app_state", {"documentId": doc_id})["results"].get(doc_id) or {}
        return bool(res.get("source") == str(path) and res.get("loading") is None)

    wait_until(loaded, 60)


def _read(server: McpProcess, doc_id: str, view: str, **kw: Any) -> dict[str, Any]:
    return server.request("resources/read", {"uri": f"molforma://documents/{doc_id}/{view}"}, **kw)


@pytest.mark.parametrize("flag", MODES)
def test_a_resource_with_nothing_to_show_is_a_resource_error_naming_what_to_do_first(
    spawn: Any, flag: str
):
    server = _start(spawn, flag)
    doc_id, _ = server.doc()
    listed = {r["uri"] for r in server.result("resources/list")["resources"]}
    for view, (reason, tool) in NOTHING_YET.items():
        uri = f"molforma://documents/{doc_id}/{view}"
        if not view[-1].isdigit():  # a listed view (the others come from templates)
            assert uri in listed, uri
        msg = _read(server, doc_id, view)
        assert "result" not in msg, (view, msg)  # never a sentence under a typed MIME type
        err = msg["error"]
        assert err["code"] == -32602, (view, err)
        assert err["data"] == {"uri": uri, "code": reason}, (view, err)
        assert tool in err["message"], (view, err)
    # The project and the NWChem input have content even for an empty document.
    for view, mime in (("project", "application/json"), ("nwchem", "text/plain")):
        item = server.result("resources/read", {"uri": f"molforma://documents/{doc_id}/{view}"})[
            "contents"
        ][0]
        assert item["mimeType"] == mime and item["text"]


def test_nothing_to_show_on_a_legacy_connection_is_32002_in_the_display_language(spawn: Any):
    server = spawn(env={"MOLFORMA_LANGUAGE": "ja"})
    doc_id, _ = server.doc()
    server.result(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
        modern=False,
    )
    err = _read(server, doc_id, "results/spectrum", modern=False)["error"]
    assert err["code"] == -32002
    assert err["data"]["code"] == "resource_no_results"
    assert "results_action" in err["message"] and "結果" in err["message"]


@pytest.mark.parametrize("flag", MODES)
def test_after_results_load_the_resources_give_content_of_their_mime_type(spawn: Any, flag: str):
    server = _start(spawn, flag)
    doc_id, _ = server.water()
    _load_results(server, doc_id, FIXTURES / "water_scf_optfreq.out")

    def item(view: str) -> dict[str, Any]:
        msg = _read(server, doc_id, view)
        assert "result" in msg, (view, msg)
        [content] = msg["result"]["contents"]
        return content  # type: ignore[no-any-return]

    xyz = item("xyz")
    assert xyz["mimeType"] == "chemical/x-xyz" and xyz["text"].split()[0] == "3"
    summary = item("results/summary")
    assert summary["mimeType"] == "application/json"
    assert json.loads(summary["text"])["summary"]["finalEnergy"] < -74.0
    log = item("results/log")
    assert log["mimeType"] == "text/plain" and "NWChem" in log["text"]
    spectrum = item("results/spectrum")
    assert spectrum["mimeType"] == "text/csv"
    header, *rows = spectrum["text"].splitlines()
    assert header == "mode,frequency_cm-1,ir_intensity_km/mol" and len(rows) == 9
    assert all(len(r.split(",")) == 3 for r in rows)
    for view in ("results/structures/0", "results/modes/8"):
        text = item(view)["text"]
        lines = text.splitlines()
        assert int(lines[0]) == 3 and len(lines) == 5, (view, text)
        assert all(len(line.split()) in (4, 7) for line in lines[2:]), (view, text)
    assert len(item("results/modes/8")["text"].splitlines()[2].split()) == 7
    mode = item("results/items/modes/8")
    assert mode["mimeType"] == "application/json" and json.loads(mode["text"])["index"] == 8
    # Still nothing to show: no calculation was started here.
    assert _read(server, doc_id, "calculation/output")["error"]["data"]["code"] == (
        "resource_no_calculation"
    )


@pytest.mark.parametrize("flag", MODES)
def test_results_without_modes_or_log_make_those_resources_errors_not_empty_bodies(
    spawn: Any, flag: str
):
    server = _start(spawn, flag)
    doc_id, _ = server.doc()
    _load_results(server, doc_id, FIXTURES / "nh3_planar_scf_freq.molden")
    for view, reason in (
        ("results/spectrum", "resource_no_modes"),
        ("results/modes/0", "resource_no_modes"),
        ("results/log", "resource_no_log"),
    ):
        err = _read(server, doc_id, view)["error"]
        assert err["data"]["code"] == reason, (view, err)
        assert "results_action" in err["message"]
    xyz = _read(server, doc_id, "results/structures/0")["result"]["contents"][0]
    assert xyz["mimeType"] == "chemical/x-xyz" and xyz["text"].split()[0] == "4"


@pytest.mark.parametrize(
    "uri",
    [
        "molforma://documents/doc-none/project",
        "molforma://nothing",
        "file:///etc/passwd",
        "molforma://documents/../../etc/passwd",
    ],
)
def test_unknown_resource_is_32602_with_the_uri(server: McpProcess, uri: str):
    msg = server.request("resources/read", {"uri": uri})
    assert msg["error"]["code"] == -32602
    assert msg["error"]["data"] == {"uri": uri}


def test_unknown_resource_on_a_legacy_connection_is_32002(server: McpProcess):
    server.result(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
        modern=False,
    )
    msg = server.request("resources/read", {"uri": "molforma://nothing"}, modern=False)
    assert msg["error"]["code"] == -32002


def test_structure_resources_hold_the_whole_text_beyond_100000_characters(server: McpProcess):
    doc_id, rev = server.doc()
    n = 4000
    text = f"{n}\nbig\n" + "".join(f"He {i * 1.5:.3f} 0 0\n" for i in range(n))
    server.ok(
        "import_document",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "format": "xyz",
            "text": text,
            "preview": False,
        },
    )
    full = server.ok(
        "export_document", {"documentId": doc_id, "format": "project", "limit": 10**8}
    )["text"]
    assert len(full) > 100_000
    got = server.result("resources/read", {"uri": f"molforma://documents/{doc_id}/project"})[
        "contents"
    ][0]["text"]
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
    assert {
        "review_candidate",
        "geometry_optimization",
        "vibrational_analysis",
        "troubleshoot_calculation",
        "build_molecule",
    } <= set(prompts)
    args = prompts["geometry_optimization"]["arguments"]
    assert [a["name"] for a in args][:3] == ["method", "basis", "frequencies"]
    assert [a["required"] for a in args][:3] == [True, True, False]


def test_prompt_get_fills_the_arguments_into_one_user_message(server: McpProcess):
    res = server.result(
        "prompts/get",
        {
            "name": "geometry_optimization",
            "arguments": {"method": "b3lyp", "basis": "6-31g*", "frequencies": "yes"},
        },
    )
    assert res["resultType"] == "complete" and "ttlMs" not in res
    [msg] = res["messages"]
    assert msg["role"] == "user"
    assert "b3lyp/6-31g*" in msg["content"]["text"]
    assert "optimize+frequencies" in msg["content"]["text"]


def test_the_optimization_prompt_spells_out_set_nwchem_values_that_the_tool_accepts(
    server: McpProcess,
):
    doc_id, rev = server.water()
    for method, expect in (
        ("B3LYP", {"theory": "dft", "functional": "b3lyp"}),
        ("scf", {"theory": "scf"}),
    ):
        res = server.result(
            "prompts/get",
            {
                "name": "geometry_optimization",
                "arguments": {
                    "method": method,
                    "basis": "sto-3g",
                    "frequencies": "yes",
                    "documentId": doc_id,
                },
            },
        )
        text = res["messages"][0]["content"]["text"]
        values = json.loads(text.split("set_nwchem with values ", 1)[1].split(" (preview", 1)[0])
        assert values == {"task": "optimize+frequencies", "basis": "sto-3g", **expect}
        # Validation comes after the settings, so it checks the basis that will run.
        assert text.index("set_nwchem") < text.index("validate_document")
        edit = server.ok(
            "set_nwchem",
            {"documentId": doc_id, "expectedRevision": rev, "values": values, "preview": False},
        )
        rev = edit["revision"]
        calc = server.project(doc_id)["calculation"]
        assert {k: calc[k] for k in values} == values


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("no_such_prompt", {}),
        ("geometry_optimization", {"method": "scf"}),
        ("geometry_optimization", {"method": "scf", "basis": 6}),
        ("geometry_optimization", {"method": "scf", "basis": "sto-3g", "frequencies": "maybe"}),
        ("build_molecule", {"molecule": "water", "colour": "red"}),
        ("build_molecule", {"molecule": ["water"]}),
    ],
)
def test_bad_prompt_requests_are_32602(server: McpProcess, name: str, args: dict[str, Any]):
    msg = server.request("prompts/get", {"name": name, "arguments": args})
    assert msg["error"]["code"] == -32602


def test_prompts_change_nothing(server: McpProcess):
    _, rev = server.doc()
    for p in server.result("prompts/list")["prompts"]:
        args = {a["name"]: "x" for a in p["arguments"] if a["required"]}
        server.result("prompts/get", {"name": p["name"], "arguments": args})
    assert server.doc()[1] == rev


def test_a_mode_without_displacement_vectors_is_a_resource_error_not_a_missing_resource():
    from types import SimpleNamespace

    from molforma.mcp.protocol import RpcError
    from molforma.mcp.resources import read_resource
    from molforma.results.reader import read_results

    results = read_results(str(FIXTURES / "water_scf_optfreq.out"))
    results._displacements = None  # frequencies only, as some outputs print them
    state = SimpleNamespace(
        documents={"doc-1": object()},
        lang="en",
        results_if_any=lambda doc: SimpleNamespace(current=results),
    )
    with pytest.raises(RpcError) as exc:
        read_resource(state, "molforma://documents/doc-1/results/modes/8")  # type: ignore[arg-type]
    assert exc.value.data == {
        "uri": "molforma://documents/doc-1/results/modes/8",
        "code": "resource_no_displacements",
    }
    assert "mode 8" in exc.value.message and "get_results" in exc.value.message
    with pytest.raises(RpcError) as missing:  # past the last mode: not found
        read_resource(state, "molforma://documents/doc-1/results/modes/9")  # type: ignore[arg-type]
    assert missing.value.data == {"uri": "molforma://documents/doc-1/results/modes/9"}


def test_the_output_of_a_run_started_with_the_windows_run_button_is_readable(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path
):
    import sys

    from tests.mcp.conftest import STAND_IN, TASKS

    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    exe = f"{sys.executable} {STAND_IN / 'fake_nwchem.py'}"
    (cfg / "preferences.json").write_text(json.dumps({"executable": exe}))
    server = spawn(
        str(FIXTURES / "water_opt-000.xyz"),
        flag="--mcp-gui",
        env={**GUI_ENV, "FAKE_NWCHEM_MODE": "converge", "FAKE_NWCHEM_DELAY": "0.05"},
    )
    doc_id, rev = server.doc()
    assert _read(server, doc_id, "calculation/output")["error"]["data"]["code"] == (
        "resource_no_calculation"
    )
    root = tmp_path / "jobs"
    root.mkdir()
    s = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": "energy", "theory": "scf", "basis": "sto-3g"},
        },
    )
    s = server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": s["revision"],
            "preview": False,
            "values": {"job_root": str(root)},
        },
    )
    caps = {"extensions": {TASKS: {}}}
    res = server.call(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": s["revision"], "target": "runButton"},
        caps=caps,
    )
    wait_until(
        lambda: (
            server.result("tasks/get", {"taskId": res["taskId"]}, caps=caps)["status"]
            == "completed"
        ),
        120,
    )
    out = _read(server, doc_id, "calculation/output")
    assert "result" in out, out
    item = out["result"]["contents"][0]
    assert item["mimeType"] == "text/plain" and "Optimization converged" in item["text"]
