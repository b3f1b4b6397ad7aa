"""Each tool of ``molforma --mcp``: definition, happy path, and failures that change nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.mcp.conftest import FIXTURES, WATER, McpProcess

SPEC_TOOLS = {
    "list_documents",
    "get_document",
    "open_file",
    "import_document",
    "export_document",
    "save_file",
    "history",
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
    "get_execution",
    "validate_document",
    "measure",
    "get_catalog",
    "calculation",
    "results_action",
    "get_results",
    "get_app_state",
}
READ_ONLY = {
    "list_documents",
    "get_document",
    "export_document",
    "get_execution",
    "validate_document",
    "measure",
    "get_catalog",
    "get_results",
    "get_app_state",
}


class Checked:
    """Wraps a server; every tool result is validated against the tool's outputSchema."""

    def __init__(self, server: McpProcess) -> None:
        self.s = server
        self.schemas = {t["name"]: t["outputSchema"] for t in server.result("tools/list")["tools"]}

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        res = self.s.call(name, args)
        jsonschema.validate(res["structuredContent"], self.schemas[name])
        assert json.loads(res["content"][0]["text"]) == res["structuredContent"]
        return res

    def ok(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        res = self.call(name, args)
        assert res["isError"] is False, res
        return res["structuredContent"]

    def err(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        res = self.call(name, args)
        assert res["isError"] is True, res
        assert set(res["structuredContent"]) == {"code", "message", "details"}
        return res["structuredContent"]

    def state(self, doc_id: str) -> dict[str, Any]:
        return self.ok("get_document", {"documentId": doc_id})

    def reset_water(self) -> tuple[str, str]:
        """A fresh confirmed water (ids change per reset) with no candidate."""
        doc_id, rev = self.s.doc()
        info = self.ok("get_document", {"documentId": doc_id, "include": []})
        if info["hasCandidate"]:
            rev = self.ok(
                "history", {"documentId": doc_id, "expectedRevision": rev, "action": "cancel"}
            )["revision"]
        proj = {
            "format": "molforma-project",
            "version": 1,
            "document": {
                "title": "water",
                "charge": 0,
                "multiplicity": 1,
                "atoms": [],
                "bonds": [],
                "nextAtomId": 1,
            },
        }
        for i, a in enumerate(WATER, start=1):
            x, y, z = a["position"]
            proj["document"]["atoms"].append(
                {"id": f"a{i}", "element": a["element"], "x": x, "y": y, "z": z}
            )
        proj["document"]["bonds"] = [
            {"a": "a1", "b": "a2", "order": 1},
            {"a": "a1", "b": "a3", "order": 1},
        ]
        proj["document"]["nextAtomId"] = 4
        proj["x-unknown"] = {"kept": True}
        s = self.ok(
            "import_document",
            {
                "documentId": doc_id,
                "expectedRevision": rev,
                "format": "project",
                "text": json.dumps(proj),
                "preview": False,
            },
        )
        return doc_id, s["revision"]

    def refused(self, name: str, args: dict[str, Any], code: str | None = None) -> dict[str, Any]:
        """The call fails and the document (project, candidate, revision) is untouched."""
        doc_id = args.get("documentId") or self.s.doc()[0]
        before = self.state(doc_id)
        err = self.err(name, args)
        if code is not None:
            assert err["code"] == code, err
        assert self.state(doc_id) == before
        return err


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Checked]:
    import os

    from tests.mcp.conftest import REPO

    tmp = tmp_path_factory.mktemp("tools")
    (tmp / "config").mkdir()
    (tmp / "home").mkdir()
    env = dict(
        os.environ,
        MOLFORMA_CONFIG_DIR=str(tmp / "config"),
        MOLFORMA_LANGUAGE="en",
        HOME=str(tmp / "home"),
        PYTHONPATH=str(REPO),
    )
    proc = McpProcess([], env, tmp)
    yield Checked(proc)
    proc.close()


@pytest.fixture
def c(shared: Checked) -> Checked:
    return shared


# -- definitions ----------------------------------------------------------------------------
def test_tools_list_has_the_27_spec_tools_each_with_title_and_schemas(c: Checked):
    tools = c.s.result("tools/list")["tools"]
    assert len(tools) == 27
    assert {t["name"] for t in tools} == SPEC_TOOLS
    for t in tools:
        assert t["title"] and t["description"]
        assert t["inputSchema"]["type"] == "object"
        assert t["outputSchema"]["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(t["inputSchema"])
        jsonschema.Draft202012Validator.check_schema(t["outputSchema"])
        # The common error object is admitted by every output schema.
        jsonschema.validate({"code": "x", "message": "m", "details": {}}, t["outputSchema"])
        ann = t["annotations"]
        assert ann["readOnlyHint"] is (t["name"] in READ_ONLY)
        assert "anthropic/requiresUserInteraction" not in t.get("_meta", {})


def test_input_models_forbid_unknown_arguments(c: Checked):
    for t in c.s.result("tools/list")["tools"]:
        assert t["inputSchema"].get("additionalProperties") is False, t["name"]


def test_large_results_carry_the_max_result_size_hint(c: Checked):
    tools = {t["name"]: t for t in c.s.result("tools/list")["tools"]}
    for name in ("get_document", "export_document", "get_results"):
        assert tools[name]["_meta"]["anthropic/maxResultSizeChars"] == 100000
    assert "_meta" not in tools["list_documents"]


def test_destructive_hint_marks_deleting_and_overwriting_tools(c: Checked):
    tools = {t["name"]: t["annotations"] for t in c.s.result("tools/list")["tools"]}
    assert tools["delete_atoms"]["destructiveHint"] is True
    assert tools["save_file"]["destructiveHint"] is True
    assert tools["add_atoms"]["destructiveHint"] is False


def test_execution_flag_adds_requires_user_interaction(spawn: Any):
    s = spawn("--mcp-allow-execution-settings")
    tools = {t["name"]: t for t in s.result("tools/list")["tools"]}
    for name in ("set_execution", "calculation"):
        assert tools[name]["_meta"]["anthropic/requiresUserInteraction"] is True
    assert "anthropic/requiresUserInteraction" not in tools["set_nwchem"].get("_meta", {})


# -- reading ------------------------------------------------------------------------------------
def test_list_and_get_document(c: Checked):
    doc_id, rev = c.reset_water()
    docs = c.ok("list_documents", {})["documents"]
    assert docs[0]["documentId"] == doc_id and docs[0]["formula"] == "H2O"
    full = c.ok("get_document", {"documentId": doc_id})
    assert full["revision"] == rev and full["candidate"] is None
    assert full["project"]["x-unknown"] == {"kept": True}
    bare = c.ok("get_document", {"documentId": doc_id, "include": []})
    assert "project" not in bare and "candidate" not in bare and bare["atomCount"] == 3
    only = c.ok("get_document", {"documentId": doc_id, "include": ["candidate"]})
    assert "project" not in only and only["candidate"] is None
    assert c.err("get_document", {"documentId": "doc-missing"})["code"] == "unknown_document"


def test_export_measure_validate_catalog_execution(c: Checked):
    doc_id, _ = c.reset_water()
    xyz = c.ok("export_document", {"documentId": doc_id, "format": "xyz"})["text"]
    assert xyz.splitlines()[0].strip() == "3"
    nw = c.ok("export_document", {"documentId": doc_id, "format": "nwchem"})["text"]
    assert "geometry" in nw and "task" in nw
    assert c.err("export_document", {"documentId": doc_id, "format": "gif"})
    m = c.ok(
        "measure",
        {"documentId": doc_id, "distances": [["a1", "a2"]], "angles": [["a2", "a1", "a3"]]},
    )
    assert abs(m["distances"][0]["value"] - 0.9578) < 1e-3
    assert abs(m["angles"][0]["value"] - 104.48) < 0.05
    assert c.err("measure", {"documentId": doc_id, "distances": [["a1", "a99"]]})
    assert "ok" in c.ok("validate_document", {"documentId": doc_id})
    cat = c.ok("get_catalog", {"kind": "tasks"})
    assert [t["name"] for t in cat["tasks"]][:2] == ["energy", "optimize"]
    ex = c.ok("get_execution", {"documentId": doc_id})
    assert ex["trusted"] is True and ex["policy"]["executionSettingsAllowed"] is False
    assert ex["policy"]["trusted"]["executable"] == "nwchem"


# -- edits: happy path, then a refused call that leaves everything as it was --------------
def test_add_atoms_makes_a_candidate_then_confirm_and_undo_redo(c: Checked):
    doc_id, rev = c.reset_water()
    s = c.ok(
        "add_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atoms": [{"element": "He", "position": [4, 0, 0]}],
        },
    )
    assert s["candidate"] == {"formula": "H2HeO", "atomCount": 4} and s["addedIds"] == ["a4"]
    assert s["project"] == {"formula": "H2O", "atomCount": 3}
    # While the candidate exists, other edits are refused and nothing changes.
    c.refused(
        "delete_atoms",
        {"documentId": doc_id, "expectedRevision": s["revision"], "atomIds": ["a1"]},
        "candidate_exists",
    )
    s = c.ok(
        "history", {"documentId": doc_id, "expectedRevision": s["revision"], "action": "confirm"}
    )
    assert s["project"]["atomCount"] == 4 and s["candidate"] is None
    s = c.ok("history", {"documentId": doc_id, "expectedRevision": s["revision"], "action": "undo"})
    assert s["project"]["atomCount"] == 3
    s = c.ok("history", {"documentId": doc_id, "expectedRevision": s["revision"], "action": "redo"})
    assert s["project"]["atomCount"] == 4


def test_stale_revision_is_refused_for_every_edit_tool(c: Checked):
    doc_id, rev = c.reset_water()
    stale = "r0"
    calls = {
        "add_atoms": {"atoms": [{"element": "He", "position": [5, 0, 0]}]},
        "delete_atoms": {"atomIds": ["a2"]},
        "move_atoms": {"translate": [1, 0, 0]},
        "set_atom_properties": {"atoms": [{"id": "a1", "name": "x"}]},
        "set_bonds": {"bonds": [{"a": "a2", "b": "a3", "order": 1}]},
        "set_internal_coordinate": {"atomIds": ["a1", "a2"], "value": 1.1},
        "add_hydrogens": {},
        "place_fragment": {"fragment": "methyl", "atomId": "a2"},
        "set_molecule": {"charge": 1},
        "set_nwchem": {"values": {"basis": "sto-3g"}},
        "set_advanced": {"values": {"memory_mb": 400}},
        "set_execution": {"values": {"threads": 2}},
        "import_document": {"format": "xyz", "text": "1\n\nHe 0 0 0\n"},
        "open_file": {"path": str(FIXTURES / "water_opt-000.xyz")},
        "history": {"action": "undo"},
        "calculation": {"action": "start"},
        "results_action": {"action": "open_file", "path": str(FIXTURES / "water_opt-000.xyz")},
    }
    for name, extra in calls.items():
        err = c.refused(name, {"documentId": doc_id, "expectedRevision": stale, **extra})
        assert err["code"] == "stale_revision", (name, err)
        assert err["details"]["actual"] == rev


def test_each_edit_tool_applies_directly_with_preview_false(c: Checked):
    doc_id, rev = c.reset_water()

    def edit(name: str, **args: Any) -> dict[str, Any]:
        nonlocal rev
        s = c.ok(name, {"documentId": doc_id, "expectedRevision": rev, "preview": False, **args})
        assert s["candidate"] is None and s["revision"] != rev
        rev = s["revision"]
        return s

    edit("move_atoms", positions={"a2": [0.0, 0.8, -0.5]})
    edit("move_atoms", translate=[1.0, 0, 0], atomIds=["a1", "a2", "a3"])
    edit("move_atoms", rotate={"axis": [0, 0, 1], "angle": 90.0})
    s = edit("set_internal_coordinate", atomIds=["a1", "a2"], value=1.05)
    assert s["changedIds"]
    m = c.ok("measure", {"documentId": doc_id, "distances": [["a1", "a2"]]})
    assert abs(m["distances"][0]["value"] - 1.05) < 1e-4
    edit("set_atom_properties", atoms=[{"id": "a2", "name": "H1", "massNumber": 2}])
    edit("set_bonds", bonds=[{"a": "a1", "b": "a2", "order": 0}])
    edit("set_bonds", bonds=[{"a": "a1", "b": "a2", "order": 1}])
    edit("set_molecule", title="heavy water", charge=0, multiplicity=1)
    edit("set_nwchem", values={"task": "optimize", "theory": "dft", "basis": "6-31g*"})
    edit("set_advanced", values={"memory_mb": 800, "dft_grid": "fine"})
    edit("set_execution", values={"threads": 2, "time_limit": 60.0})
    edit("delete_atoms", atomIds=["a3"])
    s = edit("add_hydrogens", atomIds=["a1"])
    assert s["addedIds"]
    p = c.state(doc_id)["project"]
    assert p["document"]["title"] == "heavy water"
    assert p["calculation"]["theory"] == "dft" and p["advanced"]["memory_mb"] == 800
    assert p["execution"]["threads"] == 2
    assert p["x-unknown"] == {"kept": True}
    h = next(a for a in p["document"]["atoms"] if a["id"] == "a2")
    assert h["name"] == "H1" and h["massNumber"] == 2


def test_place_fragment_and_add_hydrogens_build_methanol(c: Checked):
    doc_id, rev = c.s.doc()
    s = c.ok(
        "import_document",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "format": "xyz",
            "text": "1\n\nC 0 0 0\n",
            "preview": False,
        },
    )
    carbon = s["addedIds"][0]
    s = c.ok(
        "add_hydrogens", {"documentId": doc_id, "expectedRevision": s["revision"], "preview": False}
    )
    assert s["project"]["formula"] == "CH4" and len(s["addedIds"]) == 4
    s = c.ok(
        "place_fragment",
        {
            "documentId": doc_id,
            "expectedRevision": s["revision"],
            "fragment": "hydroxyl",
            "atomId": carbon,
        },
    )
    assert s["candidate"]["formula"] == "CH4O", s
    assert s["project"]["formula"] == "CH4"
    c.ok("history", {"documentId": doc_id, "expectedRevision": s["revision"], "action": "cancel"})


@pytest.mark.parametrize(
    ("name", "extra", "code"),
    [
        ("add_atoms", {"atoms": [{"element": "Xx", "position": [9, 9, 9]}]}, "bad_element"),
        ("add_atoms", {"atoms": [{"element": "H", "position": [0, 0, 0.12]}]}, "atoms_too_close"),
        (
            "add_atoms",
            {"atoms": [{"element": "H", "position": [9, 9, 9], "formalCharge": 21}]},
            "formal_charge_range",
        ),
        (
            "add_atoms",
            {
                "atoms": [{"element": "H", "position": [9, 9, 9]}],
                "bonds": [{"a": "#0", "b": "a77"}],
            },
            "unknown_atom",
        ),
        ("delete_atoms", {"atomIds": ["a1", "a99"]}, "unknown_atom"),
        ("move_atoms", {"positions": {"a2": [0, 0, 0.1173]}}, "atoms_too_close"),
        (
            "move_atoms",
            {"translate": [1, 0, 0], "rotate": {"axis": [0, 0, 1], "angle": 5}},
            "bad_move",
        ),
        (
            "set_atom_properties",
            {"atoms": [{"id": "a1", "unpairedElectrons": 9}]},
            "unpaired_range",
        ),
        ("set_atom_properties", {"atoms": [{"id": "a1", "name": "x" * 17}]}, "bad_atom_name"),
        ("set_atom_properties", {"atoms": [{"id": "a1", "massNumber": 99}]}, "unknown_isotope"),
        ("set_bonds", {"bonds": [{"a": "a2", "b": "a3", "order": 0}]}, "no_bond"),
        ("set_internal_coordinate", {"atomIds": ["a1", "a1"], "value": 1.0}, None),
        ("place_fragment", {"fragment": "no-such-fragment", "atomId": "a2"}, None),
        ("set_molecule", {}, "empty_edit"),
        ("set_nwchem", {"values": {"extra_input": "print low"}}, "protected_setting"),
        ("set_nwchem", {"values": {"extra_tasks": ["task shell ls"]}}, "protected_setting"),
        ("set_nwchem", {"values": {"theory": "ccsd"}}, "invalid_arguments"),
        ("set_advanced", {"values": {"no_such_key": 1}}, "unknown_setting"),
        ("set_execution", {"values": {"executable": "/bin/sh"}}, "protected_setting"),
        ("set_execution", {"values": {"launcher": "env LD_PRELOAD=x mpirun"}}, "protected_setting"),
        (
            "set_execution",
            {"values": {"environment": {"LD_PRELOAD": "/tmp/x.so"}}},
            "protected_setting",
        ),
        ("import_document", {"format": "xyz", "text": "garbage"}, None),
        ("import_document", {"format": "nope", "text": "1\n\nH 0 0 0\n"}, None),
        ("open_file", {"path": "/nonexistent/file.xyz"}, "path_not_found"),
        ("history", {"action": "redo"}, "nothing_to_redo"),
        ("history", {"action": "confirm"}, "no_candidate"),
    ],
)
def test_refused_edits_change_nothing(
    c: Checked, name: str, extra: dict[str, Any], code: str | None
):
    doc_id, rev = c.reset_water()
    c.ok(
        "set_atom_properties",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atoms": [{"id": "a1", "fixed": False}],
            "preview": False,
        },
    )
    rev = c.state(doc_id)["revision"]
    c.refused(name, {"documentId": doc_id, "expectedRevision": rev, **extra}, code)


def test_a_bad_new_atom_is_named_by_its_place_in_the_call_not_by_an_id_it_never_got(c: Checked):
    doc_id, rev = c.reset_water()
    atoms = [{"element": "H", "position": [9, 9, 9]}, {"element": "Xx", "position": [5, 5, 5]}]
    err = c.refused(
        "add_atoms", {"documentId": doc_id, "expectedRevision": rev, "atoms": atoms}, "bad_element"
    )
    assert err["details"] == {"id": "#1", "element": "Xx"}
    assert "#1" in err["message"] and "a5" not in err["message"]
    atoms[1] = {"element": "Cl", "position": [5, 5, 5], "unpairedElectrons": 9}
    err = c.refused(
        "add_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "atoms": atoms},
        "unpaired_range",
    )
    assert err["details"]["id"] == "#1"
    atoms[1].pop("unpairedElectrons")
    s = c.ok("add_atoms", {"documentId": doc_id, "expectedRevision": rev, "atoms": atoms})
    assert s["candidate"]["formula"] == "ClH3O"


def test_add_hydrogens_on_a_saturated_molecule_is_refused_instead_of_an_empty_candidate(c: Checked):
    doc_id, rev = c.reset_water()
    err = c.refused(
        "add_hydrogens", {"documentId": doc_id, "expectedRevision": rev}, "no_open_valences"
    )
    assert err["details"] == {"count": 3} and "Nothing was changed" in err["message"]
    c.refused(
        "add_hydrogens",
        {"documentId": doc_id, "expectedRevision": rev, "atomIds": ["a2"], "preview": False},
        "no_open_valences",
    )
    # Stale revisions and unknown ids keep their own errors.
    c.refused("add_hydrogens", {"documentId": doc_id, "expectedRevision": "r0"}, "stale_revision")
    c.refused(
        "add_hydrogens",
        {"documentId": doc_id, "expectedRevision": rev, "atomIds": ["a99"]},
        "unknown_atom",
    )
    # An open valence still gets its hydrogen.
    rev = c.ok(
        "delete_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "atomIds": ["a3"], "preview": False},
    )["revision"]
    s = c.ok("add_hydrogens", {"documentId": doc_id, "expectedRevision": rev})
    assert s["candidate"]["formula"] == "H2O" and len(s["addedIds"]) == 1


@pytest.mark.parametrize(
    ("name", "kind"),
    [("water_scf_optfreq.out", "NWChem output"), ("nh3_planar_scf_freq.molden", "MOLDEN")],
)
def test_open_file_on_a_results_file_says_how_to_read_it_and_use_its_geometry(
    c: Checked, name: str, kind: str
):
    doc_id, rev = c.reset_water()
    err = c.refused(
        "open_file",
        {"documentId": doc_id, "expectedRevision": rev, "path": str(FIXTURES / name)},
        "open_file_results",
    )
    assert err["details"]["kind"] == kind
    for hint in ("results_action", "get_results", "structures", "import_document"):
        assert hint in err["message"]


def test_open_file_on_a_folder_points_to_open_directory(c: Checked):
    doc_id, rev = c.reset_water()
    err = c.refused(
        "open_file",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "path": str(FIXTURES / "nh3_planar_scf_freq_anim"),
        },
        "open_file_folder",
    )
    assert "open_directory" in err["message"]


def test_an_unreadable_file_that_is_not_a_result_keeps_the_format_error(c: Checked, tmp_path: Path):
    doc_id, rev = c.reset_water()
    odd = tmp_path / "notes.weird"
    odd.write_text("hello\n")
    err = c.refused(
        "open_file",
        {"documentId": doc_id, "expectedRevision": rev, "path": str(odd)},
        "format_error",
    )
    assert "Readable:" in err["message"]


def test_moving_a_fixed_atom_is_refused(c: Checked):
    doc_id, rev = c.reset_water()
    rev = c.ok(
        "set_atom_properties",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atoms": [{"id": "a1", "fixed": True}],
            "preview": False,
        },
    )["revision"]
    c.refused(
        "move_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "translate": [1, 0, 0]},
        "fixed_atom",
    )


def test_open_file_loads_structure_and_keeps_settings(c: Checked):
    doc_id, rev = c.reset_water()
    rev = c.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "values": {"basis": "sto-3g"},
            "preview": False,
        },
    )["revision"]
    s = c.ok(
        "open_file",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "path": str(FIXTURES / "methane_b3lyp_molden.nw"),
        },
    )
    assert s["candidate"]["formula"] == "CH4"
    cand = c.state(doc_id)["candidate"]
    assert cand["document"]["atoms"]


def test_save_file_writes_the_project_and_refuses_an_existing_file_without_overwrite(
    c: Checked, tmp_path: Path
):
    doc_id, rev = c.reset_water()
    target = tmp_path / "out" / "w.molforma.json"
    s = c.ok("save_file", {"documentId": doc_id, "path": str(target)})
    assert s["revision"] == rev and s["overwritten"] is False
    saved = json.loads(target.read_text())
    assert saved["x-unknown"] == {"kept": True} and len(saved["document"]["atoms"]) == 3
    # Exists, no elicitation declared: overwrite must be given.
    before = target.read_bytes()
    assert c.err("save_file", {"documentId": doc_id, "path": str(target)})["code"] == "file_exists"
    assert (
        c.err("save_file", {"documentId": doc_id, "path": str(target), "overwrite": False})["code"]
        == "file_exists"
    )
    assert target.read_bytes() == before
    s = c.ok("save_file", {"documentId": doc_id, "path": str(target), "overwrite": True})
    assert s["overwritten"] is True
    # No file written next to it (atomic rename, no leftovers).
    assert sorted(p.name for p in target.parent.iterdir()) == ["w.molforma.json"]
    # Refused while a candidate exists; the document stays as it is.
    s = c.ok(
        "add_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atoms": [{"element": "He", "position": [5, 0, 0]}],
        },
    )
    c.refused(
        "save_file", {"documentId": doc_id, "path": str(tmp_path / "x.json")}, "candidate_exists"
    )
    assert not (tmp_path / "x.json").exists()
    c.ok("history", {"documentId": doc_id, "expectedRevision": s["revision"], "action": "cancel"})


def test_protected_values_equal_to_current_may_be_sent(c: Checked):
    doc_id, rev = c.reset_water()
    s = c.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "values": {"executable": "nwchem", "processes": 1},
            "preview": False,
        },
    )
    assert s["candidate"] is None
