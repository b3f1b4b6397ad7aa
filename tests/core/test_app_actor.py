"""The application layer knows who acts: allowed directories limit MCP (its tools and the
window commands it drives), not the person; MCP's edits are recorded as MCP's and never
become trusted (docs/reference/safety.md, Allowed directories and Trusted values)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from molforma.app import files, runs
from molforma.app import place_clicks as building
from molforma.app.actor import Actor, acting_for_mcp, window_actor
from molforma.app.policy import Policy
from molforma.document.document import Document, protected_values
from molforma.errors import CalculationError, CandidateExistsError, FileAccessError
from molforma.preferences import Preferences
from tests.core.conftest import WATER

XYZ = "3\nwater\nO 0 0 0.1173\nH 0 0.7572 -0.4692\nH 0 -0.7572 -0.4692\n"


@dataclass
class _App:
    """The members of the window's context the application layer uses."""

    document: Document = field(default_factory=Document)
    preferences: Preferences = field(default_factory=Preferences)
    policy: Policy | None = None
    jobs: Any = None

    def set_document(self, document: Document) -> None:
        self.document = document


def _project_file(path: Path, executable: str) -> Path:
    doc = Document()
    from molforma.app import ops

    ops.add_atoms(doc, WATER, preview=False)
    ops.set_execution(doc, {"executable": executable}, preview=False)
    path.write_text(json.dumps(doc.project), encoding="utf-8")
    return path


def test_the_window_actor_is_the_person_unless_a_window_command_of_mcp_runs() -> None:
    assert window_actor() is Actor.PERSON
    with acting_for_mcp():
        assert window_actor() is Actor.MCP_WINDOW
    assert window_actor() is Actor.PERSON
    assert Actor.PERSON.origin == "user"
    assert Actor.MCP_WINDOW.origin == Actor.MCP_TOOL.origin == "mcp"


def test_an_mcp_driven_open_outside_the_allowed_directories_is_refused_the_persons_is_not(
    tmp_path: Path,
) -> None:
    (tmp_path / "allowed").mkdir()
    outside = tmp_path / "water.xyz"
    outside.write_text(XYZ, encoding="utf-8")
    app = _App(policy=Policy(allow_dirs=(str(tmp_path / "allowed"),)))
    before = app.document.revision
    for actor in (Actor.MCP_WINDOW, Actor.MCP_TOOL):
        with pytest.raises(FileAccessError) as info:
            files.open_path(app, str(outside), actor=actor)
        assert info.value.code == "path_not_allowed"
    assert app.document.revision == before
    opened = files.open_path(app, str(outside), actor=Actor.PERSON)
    assert opened is not None and opened.kind == "structure"
    assert opened.source_name == "water.xyz"
    assert [a["element"] for a in app.document.project["document"]["atoms"]] == ["O", "H", "H"]


def test_a_project_opened_by_an_mcp_window_command_is_recorded_as_mcp_and_not_trusted(
    tmp_path: Path,
) -> None:
    path = _project_file(tmp_path / "other.molforma.json", "/opt/other/nwchem")
    app = _App(policy=Policy())
    trusted = dict(app.document.trusted)
    opened = files.open_path(app, str(path), actor=Actor.MCP_WINDOW)
    assert opened is not None and opened.kind == "project"
    doc = app.document
    assert doc._undo[-1].origin == "mcp"
    assert doc.trusted == trusted and not doc.is_trusted
    # Nor does the person's own open of the same file trust what it carries.
    files.open_path(app, str(path), actor=Actor.PERSON)
    assert doc._undo[-1].origin == "user"
    assert doc.trusted == trusted


def test_the_launch_file_is_trusted_because_the_person_named_it(tmp_path: Path) -> None:
    path = _project_file(tmp_path / "mine.molforma.json", "/opt/mine/nwchem")
    app = _App()
    doc = files.launch_document(app, str(path), undo_limit=10)
    assert app.document is doc and doc.is_trusted
    assert doc.trusted["executable"] == "/opt/mine/nwchem"
    assert not doc.can_undo


def test_a_new_project_keeps_the_trusted_values_and_takes_the_persons_job_root(
    tmp_path: Path,
) -> None:
    app = _App(preferences=Preferences(job_root=str(tmp_path / "jobs")))
    from molforma.app import ops

    ops.add_atoms(app.document, WATER, preview=False)
    trusted = dict(app.document.trusted)
    files.new_project(app, actor=Actor.MCP_WINDOW)
    doc = app.document
    assert doc.project["document"]["atoms"] == []
    assert doc.project["execution"]["job_root"] == str(tmp_path / "jobs")
    assert doc.trusted == trusted and doc.undo_labels[-1] == "New project"
    assert doc._undo[-1].origin == "mcp"


def test_a_structure_loaded_from_a_project_file_takes_only_its_molecule(tmp_path: Path) -> None:
    path = _project_file(tmp_path / "other.molforma.json", "/opt/other/nwchem")
    app = _App()
    executable = app.document.project["execution"]["executable"]
    files.load_structure(app, str(path), actor=Actor.PERSON)
    doc = app.document
    assert len(doc.project["document"]["atoms"]) == 3
    assert doc.project["execution"]["executable"] == executable
    assert doc.undo_labels[-1] == "Load structure"
    outside = Policy(allow_dirs=(str(tmp_path / "allowed"),))
    (tmp_path / "allowed").mkdir()
    app.policy = outside
    with pytest.raises(FileAccessError):
        files.load_structure(app, str(path), actor=Actor.MCP_WINDOW)


def test_may_it_run_refuses_mcp_with_untrusted_values_and_asks_the_person(
    water_doc: Document, tmp_path: Path
) -> None:
    doc = water_doc
    from molforma.app import ops

    ops.set_execution(
        doc,
        {"executable": "/opt/other/nwchem", "job_root": str(tmp_path)},
        preview=False,
        actor=Actor.MCP_TOOL,
    )
    project, trusted = doc.project, doc.trusted
    policy = Policy()
    for actor in (Actor.MCP_TOOL, Actor.MCP_WINDOW):
        with pytest.raises(CalculationError) as info:
            runs.check_run(project, trusted, policy=policy, actor=actor)
        assert info.value.code == "untrusted_execution"
    assert runs.check_run(project, trusted, policy=policy, actor=Actor.PERSON) is True
    assert (
        runs.check_run(project, trusted, policy=policy, actor=Actor.MCP_TOOL, action="save_inputs")
        is False
    )
    # --mcp-allow-execution-settings lifts the rule for the tool, never for a window
    # command (the confirmation it would need is the person's alone).
    lifted = Policy(allow_execution_settings=True)
    assert runs.check_run(project, trusted, policy=lifted, actor=Actor.MCP_TOOL) is False
    with pytest.raises(CalculationError):
        runs.check_run(project, trusted, policy=lifted, actor=Actor.MCP_WINDOW)
    same = protected_values(project)
    assert runs.check_run(project, same, policy=policy, actor=Actor.PERSON) is False


def test_may_it_run_limits_the_job_root_for_mcp_only(water_doc: Document, tmp_path: Path) -> None:
    (tmp_path / "allowed").mkdir()
    doc = water_doc
    from molforma.app import ops

    ops.set_execution(doc, {"job_root": str(tmp_path / "jobs")}, preview=False)
    policy = Policy(allow_dirs=(str(tmp_path / "allowed"),))
    for actor in (Actor.MCP_TOOL, Actor.MCP_WINDOW):
        with pytest.raises(FileAccessError) as info:
            runs.check_run(doc.project, doc.trusted, policy=policy, actor=actor)
        assert info.value.code == "job_root_not_allowed"
        assert info.value.data["setting"] == "job_root"
    assert runs.check_run(doc.project, doc.trusted, policy=policy, actor=Actor.PERSON) is False


def test_a_placement_click_confirms_only_the_same_actors_previous_placement(
    water_doc: Document,
) -> None:
    doc = water_doc
    placed = building.place_fragment(
        doc, "methyl", "a2", kind="fragment", actor=Actor.PERSON, previous=None
    )
    assert placed is not None and doc.candidate is not None
    assert doc.candidate_origin == "user"
    first = doc.candidate
    # An MCP window command does not confirm the person's placement, and vice versa.
    with pytest.raises(CandidateExistsError):
        building.place_fragment(
            doc, "methyl", "a3", kind="fragment", actor=Actor.MCP_WINDOW, previous=placed.revision
        )
    again = building.place_fragment(
        doc, "methyl", "a3", kind="fragment", actor=Actor.PERSON, previous=placed.revision
    )
    assert again is not None and doc.undo_labels[-1] == "Place methyl"
    # The second placement went onto the first one, confirmed.
    assert again.before["document"]["atoms"] == first["document"]["atoms"]
    doc.cancel()
    mcp = building.place_fragment(
        doc, "methyl", "a3", kind="fragment", actor=Actor.MCP_WINDOW, previous=None
    )
    assert mcp is not None and doc.candidate_origin == "mcp"
    with pytest.raises(CandidateExistsError):
        building.place_fragment(
            doc, "methyl", "a1", kind="fragment", actor=Actor.PERSON, previous=mcp.revision
        )


def test_an_atom_bonded_to_a_candidate_only_atom_is_not_added(water_doc: Document) -> None:
    doc = water_doc
    assert (
        building.add_bonded_atom(doc, "a99", "C", actor=Actor.PERSON, adjust_hydrogens=False)
        is None
    )
    out = building.add_bonded_atom(doc, "a1", "C", actor=Actor.MCP_WINDOW, adjust_hydrogens=False)
    assert out is not None and len(doc.project["document"]["atoms"]) == 4
    assert doc._undo[-1].origin == "mcp"


def test_a_smiles_structure_becomes_a_candidate_with_the_actors_origin(water_doc: Document) -> None:
    from molforma.app.smiles import replace_structure, smiles_to_structure

    atoms, bonds = smiles_to_structure("CO")
    assert sorted(a["element"] for a in atoms) == ["C", "H", "H", "H", "H", "O"]
    replace_structure(water_doc, atoms, bonds, actor=Actor.MCP_WINDOW)
    cand = water_doc.candidate
    assert cand is not None and water_doc.candidate_origin == "mcp"
    assert len(cand["document"]["atoms"]) == 6
    assert water_doc.undo_labels[-1] != "Structure from SMILES"  # not applied yet


def test_may_it_run_lists_the_input_problems_for_every_actor(tmp_path: Path) -> None:
    doc = Document()  # no atoms: nothing NWChem could run
    from molforma.app import ops

    ops.set_execution(doc, {"job_root": str(tmp_path)}, preview=False)
    for actor in Actor:
        with pytest.raises(CalculationError) as info:
            runs.check_run(doc.project, doc.trusted, policy=Policy(), actor=actor)
        assert info.value.code == "input_invalid"
        assert info.value.data["problems"] and all(
            p["message"] for p in info.value.data["problems"]
        )


def test_the_document_records_the_origin_it_is_told_and_window_code_takes_it_from_the_actor() -> (
    None
):
    from molforma.app import ops

    doc = Document()
    atom = [{"element": "He", "position": [0.0, 0.0, 0.0]}]
    with acting_for_mcp():  # a window command of MCP runs
        ops.add_atoms(doc, atom, preview=False, actor=window_actor())
        assert doc._undo[-1].origin == "mcp"
        # The document model holds no actor state of its own: it records what it is told.
        ops.add_atoms(
            doc, [{**atom[0], "position": [3.0, 0.0, 0.0]}], preview=False, actor=Actor.PERSON
        )
        assert doc._undo[-1].origin == "user"
    assert window_actor() is Actor.PERSON
