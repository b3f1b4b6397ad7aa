"""Tool answers say what they hold: each outputSchema declares the fields, and real answers
(real documents, real NWChem outputs, every get_results section) validate against it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.mcp.conftest import FIXTURES, TASKS, WATER, McpProcess, wait_until

DECLARED = ("validate_document", "measure", "get_catalog", "get_results")
TASK_CAPS = {"extensions": {TASKS: {}}}


class Validated:
    """A server whose every tool answer is checked against the tool's own outputSchema.

    A success answer must match the output model's branch (not merely the error object's),
    and a get_results page the branch of the section it names.
    """

    def __init__(self, server: McpProcess) -> None:
        self.s = server
        self.schemas = {t["name"]: t["outputSchema"] for t in server.result("tools/list")["tools"]}
        self.seen: dict[str, set[str]] = {}
        for schema in self.schemas.values():
            jsonschema.Draft202012Validator.check_schema(schema)
        self._validators: dict[str, jsonschema.Draft202012Validator] = {}

    def validate(self, value: Any, key: str, schema: dict[str, Any]) -> None:
        """Validate against ``schema`` (checked once above; its validator kept by key)."""
        if key not in self._validators:
            self._validators[key] = jsonschema.Draft202012Validator(schema)
        self._validators[key].validate(value)

    def success_schema(self, name: str) -> dict[str, Any]:
        schema = self.schemas[name]
        return {"$defs": schema["$defs"], **schema["anyOf"][0]}

    def section_schema(self, section: str) -> dict[str, Any]:
        defs = self.schemas["get_results"]["$defs"]
        ref = defs["GetResultsOutput"]["discriminator"]["mapping"][section]
        return {"$defs": defs, "$ref": ref}

    def ok(self, name: str, args: dict[str, Any], **kw: Any) -> dict[str, Any]:
        res = self.s.call(name, args, **kw)
        assert res["isError"] is False, res
        return self.check(name, res)

    def check(self, name: str, res: dict[str, Any]) -> dict[str, Any]:
        out = res["structuredContent"]
        assert json.loads(res["content"][0]["text"]) == out
        self.validate(out, name, self.schemas[name])
        self.validate(out, f"{name}:success", self.success_schema(name))
        if name == "get_results":
            section = out["section"]
            self.validate(out, f"get_results:{section}", self.section_schema(section))
            self.seen.setdefault(name, set()).add(out["section"])
        return out  # type: ignore[no-any-return]

    def open_results(self, doc: str, path: Path, action: str = "open_file") -> None:
        rev = self.ok("get_document", {"documentId": doc, "include": []})["revision"]
        self.ok(
            "results_action",
            {"documentId": doc, "expectedRevision": rev, "action": action, "path": str(path)},
        )
        wait_until(lambda: self._loaded(doc, str(path)), 60)

    def _loaded(self, doc: str, path: str) -> bool:
        res = self.ok("get_app_state", {"documentId": doc})["results"].get(doc, {})
        return bool(res.get("source") == path and res.get("loading") is None)

    def every_page(
        self, doc: str, section: str, most: int = 1000, **extra: Any
    ) -> list[dict[str, Any]]:
        """The pages of a section (at most ``most``), each validated."""
        pages: list[dict[str, Any]] = []
        offset: int | None = 0
        while offset is not None and len(pages) < most:
            page = self.ok(
                "get_results", {"documentId": doc, "section": section, "offset": offset, **extra}
            )
            pages.append(page)
            offset = page["nextOffset"]
        return pages


@pytest.fixture(scope="module")
def v(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Validated]:
    import os

    from tests.mcp.conftest import REPO

    tmp = tmp_path_factory.mktemp("outputs")
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
    yield Validated(proc)
    proc.close()


def _water(v: Validated) -> tuple[str, str, list[str]]:
    """A confirmed water in a fresh state of the first document: (id, revision, atom ids)."""
    doc = v.ok("list_documents", {})["documents"][0]["documentId"]
    rev = v.ok("get_document", {"documentId": doc, "include": []})["revision"]
    s = v.ok(
        "import_document",
        {
            "documentId": doc,
            "expectedRevision": rev,
            "format": "xyz",
            "preview": False,
            "text": "3\nwater\n"
            + "".join(
                f"{a['element']} {a['position'][0]} {a['position'][1]} {a['position'][2]}\n"
                for a in WATER
            ),
        },
    )
    ids = [
        a["id"] for a in v.ok("get_document", {"documentId": doc})["project"]["document"]["atoms"]
    ]
    return doc, s["revision"], ids


# -- the schemas ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", DECLARED)
def test_the_output_schema_declares_each_field_with_a_description_and_admits_no_other(
    v: Validated, name: str
) -> None:
    defs = v.schemas[name]["$defs"]
    for def_name, schema in defs.items():
        if def_name in ("ToolErrorObject", "GetResultsOutput"):
            continue
        if def_name[0].islower():
            # A field schema several models share (registry._share), described once.
            assert schema.get("description"), (name, def_name)
            continue
        assert schema.get("properties"), (name, def_name)
        # Closed: a key the handler did not declare fails validation. The one exception, an
        # item too big to inline, keeps its scalar fields beside the link (typed scalars).
        extra = schema.get("additionalProperties")
        if def_name == "OmittedItem":
            types = set(extra["type"]) if "type" in extra else {s["type"] for s in extra["anyOf"]}
            assert types == {"string", "integer", "number", "boolean", "null"}
        else:
            assert extra is False, (name, def_name)
    top = defs[v.schemas[name]["anyOf"][0]["$ref"].rsplit("/", 1)[1]]
    fields = top.get("properties") or {}
    for variant in top.get("oneOf", []):
        fields.update(defs[variant["$ref"].rsplit("/", 1)[1]]["properties"])
    for field, prop in fields.items():
        shared = prop.get("$ref", "").rsplit("/", 1)[-1]
        if shared[:1].islower():  # a field defined once for every model that has it
            prop = defs[shared]
        assert prop.get("description"), (name, field)


def test_get_results_has_one_schema_branch_per_section_chosen_by_section(v: Validated) -> None:
    defs = v.schemas["get_results"]["$defs"]
    mapping = defs["GetResultsOutput"]["discriminator"]["mapping"]
    assert set(mapping) == {
        "summary",
        "energies",
        "structures",
        "modes",
        "mode_displacements",
        "files",
        "log",
        "excitations",
        "orbitals",
        "charges",
        "scan",
    }
    for section, ref in mapping.items():
        props = defs[ref.rsplit("/", 1)[1]]["properties"]
        assert props["section"]["const"] == section
        assert {"source", "kind", "offset", "nextOffset", "total", "links"} <= set(props)
    assert "text" in defs["LogSection"]["properties"]
    assert "items" not in defs["LogSection"]["properties"]
    assert {"homo", "lumo", "gap"} <= set(defs["OrbitalsSection"]["properties"])
    assert {"mode", "referenceStructure"} <= set(defs["ModeDisplacementsSection"]["properties"])


# -- document tools ------------------------------------------------------------------------------
def test_validate_document_answers_match_the_schema_whole_and_paged_by_check(v: Validated) -> None:
    doc, rev, _ids = _water(v)
    whole = v.ok("validate_document", {"documentId": doc})
    assert whole["ok"] is True and whole["revision"] == rev
    assert "nextOffset" not in whole  # only with check
    # Three more hydrogens near the oxygen: an odd electron count (an error) and close
    # contacts to page through.
    v.ok(
        "add_atoms",
        {
            "documentId": doc,
            "expectedRevision": rev,
            "preview": False,
            "atoms": [{"element": "H", "position": [x, 0.0, 0.45]} for x in (0.0, 0.2, -0.2)],
        },
    )
    out = v.ok("validate_document", {"documentId": doc, "limit": 1})
    assert out["ok"] is False
    assert {c["severity"] for c in out["checks"]} <= {"error", "warning", "info"}
    code = next(c for c, n in out["counts"].items() if n > 1)
    assert code in out["more"]
    page = v.ok("validate_document", {"documentId": doc, "check": code, "offset": 1, "limit": 1})
    assert [c["code"] for c in page["checks"]] == [code]
    assert "nextOffset" in page


def test_measure_and_get_catalog_answers_match_the_schema(v: Validated) -> None:
    doc, _rev, ids = _water(v)
    out = v.ok(
        "measure",
        {
            "documentId": doc,
            "distances": [[ids[0], ids[1]]],
            "angles": [[ids[1], ids[0], ids[2]]],
            "dihedrals": [],
            "limit": 1,
        },
    )
    assert out["total"] == 2 and out["nextOffset"] == 1
    assert out["distances"][0]["unit"] == "angstrom" and out["angles"] == []
    rest = v.ok(
        "measure",
        {
            "documentId": doc,
            "distances": [[ids[0], ids[1]]],
            "angles": [[ids[1], ids[0], ids[2]]],
            "offset": 1,
        },
    )
    assert rest["angles"][0]["value"] == pytest.approx(104.5, abs=0.1)
    assert rest["nextOffset"] is None
    every = v.ok("get_catalog", {})
    assert set(every) == {
        "fragments",
        "ligands",
        "basis_sets",
        "functionals",
        "tasks",
        "theories",
        "advanced_keys",
    }
    for kind in every:
        one = v.ok("get_catalog", {"kind": kind})
        assert set(one) == {kind} and one[kind] == every[kind]


def test_edit_tools_and_document_reads_answer_within_their_schemas(
    v: Validated, tmp_path: Path
) -> None:
    doc, rev, ids = _water(v)
    s = v.ok(
        "set_internal_coordinate",
        {
            "documentId": doc,
            "expectedRevision": rev,
            "atomIds": [ids[0], ids[1]],
            "value": 1.0,
            "preview": False,
        },
    )
    assert s["info"]["coordinate"] == "distance"
    s = v.ok(
        "move_atoms",
        {
            "documentId": doc,
            "expectedRevision": s["revision"],
            "atomIds": [ids[2]],
            "translate": [0.0, 0.0, 0.01],
        },
    )
    assert "info" not in s and s["candidate"] is not None
    s = v.ok("history", {"documentId": doc, "expectedRevision": s["revision"], "action": "confirm"})
    assert s["candidate"] is None
    brief = v.ok("get_document", {"documentId": doc, "include": []})
    assert set(brief) == {"documentId", "revision", "formula", "atomCount", "hasCandidate"}
    full = v.ok("get_document", {"documentId": doc})
    assert full["complete"] is True and "links" not in full
    text = v.ok("export_document", {"documentId": doc, "format": "xyz", "limit": 10})
    assert text["nextOffset"] == 10 and text["links"][0]["mimeType"] == "chemical/x-xyz"
    v.ok("get_execution", {"documentId": doc})
    v.ok("save_file", {"documentId": doc, "path": str(tmp_path / "w.molforma.json")})


# -- calculation, results and the app state -------------------------------------------------------
def test_calculation_results_action_and_app_state_answer_within_their_schemas(
    v: Validated, tmp_path: Path
) -> None:
    doc, rev, _ids = _water(v)
    s = v.ok(
        "set_nwchem",
        {
            "documentId": doc,
            "expectedRevision": rev,
            "preview": False,
            "values": {"theory": "scf", "basis": "sto-3g", "task": "energy"},
        },
    )
    s = v.ok(
        "set_execution",
        {
            "documentId": doc,
            "expectedRevision": s["revision"],
            "preview": False,
            "values": {"job_root": str(tmp_path)},
        },
    )
    saved = v.ok(
        "calculation",
        {"documentId": doc, "expectedRevision": s["revision"], "action": "save_inputs"},
    )
    assert Path(saved["jobDirectory"], "job.json").is_file()
    res = v.s.call(
        "calculation",
        {"documentId": doc, "expectedRevision": s["revision"], "action": "start"},
        caps=TASK_CAPS,
    )
    task = res["taskId"]

    def ended() -> dict[str, Any] | None:
        t = v.s.result("tasks/get", {"taskId": task}, caps=TASK_CAPS)
        return t if t["status"] in ("completed", "failed", "cancelled") else None

    done = wait_until(ended, 180, 0.5)
    assert done["status"] == "completed", done
    final = v.check("calculation", done["result"])
    assert final["status"] == "finished" and final["app"]["calculation"]["status"] == "finished"
    state = v.ok("get_app_state", {})
    assert state["calculation"]["status"] == "finished" and "dialogs" not in state
    v.open_results(doc, Path(final["jobDirectory"]), "open_directory")
    rev = v.ok("get_document", {"documentId": doc, "include": []})["revision"]
    again = v.s.call(
        "results_action",
        {"documentId": doc, "expectedRevision": rev, "action": "reload"},
        caps=TASK_CAPS,
    )
    task = again["taskId"]
    done = wait_until(ended, 60, 0.2)
    assert done["status"] == "completed", done
    reloaded = v.check("results_action", done["result"])
    assert reloaded["status"] == "completed" and reloaded["app"]["results"]["source"]


SOURCES = [
    (
        "water_mp2_freq.out",
        ("summary", "energies", "structures", "modes", "files", "log", "charges"),
    ),
    ("water_b3lyp_tddft.out", ("summary", "excitations", "orbitals", "charges", "log")),
    ("nh3_planar_scf_freq.molden", ("summary", "structures", "modes", "orbitals")),
    ("water_opt-000.xyz", ("summary", "structures", "files", "log")),
]


@pytest.mark.parametrize(("name", "sections"), SOURCES, ids=[s[0] for s in SOURCES])
def test_every_get_results_section_of_a_real_output_matches_its_schema_branch(
    v: Validated, name: str, sections: tuple[str, ...]
) -> None:
    doc, _rev, _ids = _water(v)
    v.open_results(doc, FIXTURES / name)
    for section in sections:
        if section == "log":  # two pages of characters are enough to see the paging
            pages = v.every_page(doc, section, most=2, limit=20_000)
            first = pages[0]
            assert first["text"] or (first["logPath"] is None and first["total"] == 0)
            assert first["nextOffset"] == (20_000 if first["total"] > 20_000 else None)
            continue
        pages = v.every_page(doc, section)
        assert pages[-1]["nextOffset"] is None
        assert sum(len(p["items"]) for p in pages) == pages[0]["total"]
    summary = v.ok("get_results", {"documentId": doc})["summary"]
    for mode in range(min(summary["modeCount"], 2)):
        page = v.ok(
            "get_results", {"documentId": doc, "section": "mode_displacements", "mode": mode}
        )
        assert page["mode"]["index"] == mode and len(page["items"]) == summary["atomCount"]
        assert page["links"][0]["mimeType"] == "chemical/x-xyz"


def test_a_folder_and_an_animation_group_answer_within_their_schema_branches(v: Validated) -> None:
    doc, _rev, _ids = _water(v)
    v.open_results(doc, FIXTURES / "nh3_planar_scf_freq_anim", "open_directory")
    files = v.every_page(doc, "files")
    group = next(f for p in files for f in p["items"] if f["kind"] == "vibration-animation")
    v.open_results(doc, Path(group["path"]))
    page = v.ok("get_results", {"documentId": doc, "section": "structures"})
    assert page["kind"] == "animation" and page["items"]
    for section in ("summary", "energies", "modes", "excitations", "orbitals", "charges"):
        v.ok("get_results", {"documentId": doc, "section": section})
    assert v.seen["get_results"] >= {"summary", "files", "structures"}


def test_a_structure_too_big_to_inline_is_an_omitted_item_of_the_schema(
    v: Validated, tmp_path: Path
) -> None:
    doc, _rev, _ids = _water(v)
    n = 2000
    frame = "".join(f"C {i * 1.5:.6f} {(i % 7) * 0.1:.6f} {(i % 3) * 0.2:.6f}\n" for i in range(n))
    path = tmp_path / "big.xyz"
    path.write_text(f"{n}\nbig\n{frame}", encoding="utf-8")
    v.open_results(doc, path)
    page = v.ok("get_results", {"documentId": doc, "section": "structures"})
    item = page["items"][0]
    assert item["omitted"] is True and item["atomCount"] == n
    assert "coordinates" not in item and item["label"]
    assert {link["uri"] for link in page["links"]} >= {item["resource"]}


def _result_sources() -> list[Path]:
    anim = FIXTURES / "nh3_planar_scf_freq_anim"
    return [
        *sorted(FIXTURES.glob("*.out")),
        *sorted(FIXTURES.glob("*.molden")),
        *sorted(FIXTURES.glob("*.xyz")),
        FIXTURES,
        anim,
        anim / "freq.m-001.s-*.xyz",
    ]


def test_the_get_results_model_keeps_every_key_and_value_of_every_section_page() -> None:
    from molforma.mcp.tool_registry import load_tools

    load_tools()  # registers the tools in their usual order (tests of this process read it)
    from molforma.mcp.tools.results import GetResultsOutput
    from molforma.results.reader import read_results
    from molforma.results.sections import SECTIONS, get_section

    pages = 0
    for source in _result_sources():
        results = read_results(str(source))
        for section in SECTIONS:
            modes = range(len(results.modes)) if section == "mode_displacements" else [None]
            for mode in modes:
                page = get_section(results, section, mode=mode)
                sent = GetResultsOutput.model_validate(page).model_dump(mode="json")
                assert sent == json.loads(json.dumps(page)), (source, section, mode)
                pages += 1
    assert pages > 200
