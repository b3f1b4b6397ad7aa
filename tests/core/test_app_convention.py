"""One calling convention for the application layer: a use case takes its arguments and
the keywords ``actor``, ``expected_revision`` and ``preview``; the origin recorded on the
edit is the actor's (``"user"`` for the person, ``"mcp"`` for both MCP actors)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from typing import Any

import pytest

import molforma.app
from molforma.app import ops
from molforma.app.actor import Actor
from molforma.document.document import Document

HE = [{"element": "He", "position": [0.0, 0.0, 0.0]}]


def _use_cases() -> list[tuple[str, Callable[..., Any]]]:
    """Every public function of the ``molforma.app`` modules that takes
    ``expected_revision`` (the ones that act on a document)."""
    found: dict[str, Callable[..., Any]] = {}
    for info in pkgutil.iter_modules(molforma.app.__path__):
        module = importlib.import_module(f"molforma.app.{info.name}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("_") or fn.__module__ != module.__name__:
                continue
            if "expected_revision" in inspect.signature(fn).parameters:
                found[f"{fn.__module__}.{fn.__qualname__}"] = fn
    return sorted(found.items())


def test_every_use_case_is_told_its_actor_and_never_an_origin() -> None:
    cases = _use_cases()
    assert len(cases) > 20  # the ops edits, settings, files, job reuse, ...
    wrong = []
    for name, fn in cases:
        params = inspect.signature(fn).parameters
        actor = params.get("actor")
        if "origin" in params or actor is None or actor.kind is not actor.KEYWORD_ONLY:
            wrong.append(name)
    assert wrong == []


@pytest.mark.parametrize(
    ("actor", "origin"),
    [(Actor.PERSON, "user"), (Actor.MCP_TOOL, "mcp"), (Actor.MCP_WINDOW, "mcp")],
)
def test_an_edit_records_the_origin_of_its_actor(actor: Actor, origin: str) -> None:
    doc = Document()
    ops.add_atoms(doc, HE, preview=True, actor=actor)
    assert doc.candidate_origin == origin
    ops.history_step(doc, "cancel", expected_revision=doc.revision, actor=actor)
    ops.add_atoms(doc, HE, preview=False, actor=actor)
    assert doc._undo[-1].origin == origin
    ops.set_molecule(doc, title="helium", preview=False, actor=actor)
    assert doc._undo[-1].origin == origin


def test_the_person_told_by_default() -> None:
    doc = Document()
    ops.add_atoms(doc, HE, preview=True)
    assert doc.candidate_origin == "user"
    # confirmed by MCP: recorded as MCP's, though the person proposed it
    ops.history_step(doc, "confirm", actor=Actor.MCP_TOOL)
    assert doc._undo[-1].origin == "mcp"
