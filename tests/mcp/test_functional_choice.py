"""Functionals and basis names over MCP, against the real ``molforma --mcp``: an unknown
functional is refused with the valid names (English and Japanese), a name the table knows
by another spelling is stored by its table name and written with NWChem's syntax, an
unknown basis is set with a warning naming the nearest library names, and get_catalog
lists the functionals with their labels and dft-block lines."""

from __future__ import annotations

from typing import Any

from tests.mcp.conftest import McpProcess


def _set(server: McpProcess, values: dict[str, Any]) -> dict[str, Any]:
    doc_id, rev = server.doc()
    return server.call(
        "set_nwchem",
        {"documentId": doc_id, "expectedRevision": rev, "values": values, "preview": False},
    )


def test_an_unknown_functional_is_refused_with_the_valid_names_and_nothing_changes(
    server: McpProcess,
) -> None:
    doc_id, _rev = server.water()
    assert _set(server, {"theory": "dft"})["isError"] is False
    before = server.project(doc_id)["calculation"]
    for typed in ("wb97x-d", "b3lyp-d4", "xcamb88 1.0 lyp 0.5 hfexch 1.0"):
        res = _set(server, {"functional": typed})
        assert res["isError"] is True, res
        err = res["structuredContent"]
        assert err["code"] in ("unknown_functional", "functional_needs_range_separation")
        assert "cam-b3lyp" in err["details"]["valid"] and "b3lyp" in err["details"]["valid"]
        assert typed in err["message"]
    assert server.project(doc_id)["calculation"] == before
    err = _set(server, {"functional": "wb97x-d"})["structuredContent"]
    assert "wb97x-d3" in err["message"]  # the nearest table names are said


def test_the_refusal_is_in_japanese_when_the_display_language_is(spawn: Any) -> None:
    server = spawn(env={"MOLFORMA_LANGUAGE": "ja"})
    server.water()
    err = _set(server, {"theory": "dft", "functional": "cam-b3lyp-d9"})["structuredContent"]
    assert err["code"] == "unknown_functional"
    assert "汎関数「cam-b3lyp-d9」" in err["message"] and "近い名前" in err["message"]


def test_a_known_spelling_is_stored_by_its_table_name_and_written_with_its_cam_line(
    server: McpProcess,
) -> None:
    doc_id, _rev = server.water()
    assert _set(server, {"theory": "dft", "functional": "CAM-B3LYP"})["isError"] is False
    assert server.project(doc_id)["calculation"]["functional"] == "cam-b3lyp"
    nw = server.ok("export_document", {"documentId": doc_id, "format": "nwchem"})
    text = nw.get("text") or nw.get("content") or str(nw)
    assert "xc xcamb88 1.00 lyp 0.81 vwn_5 0.19 hfexch 1.00" in text
    assert "cam 0.33 cam_alpha 0.19 cam_beta 0.46" in text
    # A hand-written xc line equal to an entry becomes that entry.
    assert _set(server, {"functional": "xpbe96 1.0  cpbe96"})["isError"] is False
    assert server.project(doc_id)["calculation"]["functional"] == "pbe96"


def test_an_unknown_basis_is_set_with_a_warning_naming_the_nearest_library_names(
    server: McpProcess,
) -> None:
    doc_id, _rev = server.water()
    res = _set(server, {"basis": "def2-svvp"})
    assert res["isError"] is False, res
    warnings = res["structuredContent"]["info"]["warnings"]
    assert [w["code"] for w in warnings] == ["basis_not_in_library"]
    assert "def2-svp" in warnings[0]["message"]
    assert server.project(doc_id)["calculation"]["basis"] == "def2-svvp"
    checks = server.ok("validate_document", {"documentId": doc_id})["checks"]
    basis = [c for c in checks if c["code"] == "basis_not_in_library"]
    assert basis and basis[0]["severity"] == "warning" and "def2-svp" in basis[0]["message"]
    # A library basis has no warning.
    res = _set(server, {"basis": "def2-svp"})
    assert "info" not in res["structuredContent"]


def test_get_catalog_lists_every_functional_with_its_label_and_dft_lines(
    server: McpProcess,
) -> None:
    got = server.ok("get_catalog", {"kind": "functionals"})
    entries = {e["name"]: e for e in got["functionals"]}
    assert {
        "cam-b3lyp",
        "lc-wpbe",
        "b3lyp-d3",
        "pbe0-d3",
        "b97-d",
        "m06-2x",
        "tpss",
        "wb97x-d3",
    } <= set(entries)
    assert entries["lc-wpbe"]["lines"] == ["cam 0.4 cam_alpha 0.0 cam_beta 1.0"]
    assert entries["b3lyp-d3"]["lines"] == ["disp vdw 3"]
    assert entries["wb97x-d3"]["nwchem"] == "7.2.0"
    assert all(e["label"]["en"] and e["label"]["ja"] for e in entries.values())


def test_window_commands_on_the_functional_combo_are_truthful(spawn: Any) -> None:
    """Against the real ``molforma --mcp-gui`` (offscreen): after a typed custom xc line,
    ui_set_value b3lyp sets the document and the input (it used to report done and keep
    the custom one); an unknown name ends failed with the refusal, nothing changed."""
    from tests.mcp.conftest import GUI_ENV, run_window_command, wait_until

    server = spawn(env=GUI_ENV, flag="--mcp-gui")
    doc_id, _rev = server.water()
    assert _set(server, {"theory": "dft"})["isError"] is False
    # The window enables the combo once it has seen the DFT setting.
    wait_until(lambda: server.ok("get_ui_item", {"target": "functionalCombo"})["enabled"])
    custom = "hfexch 0.2 becke88 0.8 lyp"
    rec = run_window_command(server, "ui_set_value", {"target": "functionalCombo", "value": custom})
    assert rec["status"] == "done", (rec["error"], rec)
    assert server.project(doc_id)["calculation"]["functional"] == custom
    rec = run_window_command(
        server, "ui_set_value", {"target": "functionalCombo", "value": "b3lyp"}
    )
    assert rec["status"] == "done", (rec["error"], rec)
    assert server.project(doc_id)["calculation"]["functional"] == "b3lyp"
    nw = server.ok("export_document", {"documentId": doc_id, "format": "nwchem"})
    assert "xc b3lyp" in str(nw) and custom not in str(nw)
    before = server.project(doc_id)["calculation"]
    rec = run_window_command(
        server, "ui_set_value", {"target": "functionalCombo", "value": "wb97x-d"}
    )
    assert rec["status"] == "failed", rec
    assert rec["error"]["code"] == "unknown_functional" and "wb97x-d3" in rec["error"]["message"]
    assert server.project(doc_id)["calculation"] == before
