"""A drag through ``ui_input`` (kind "drag") on the real ``molforma --mcp-gui`` (offscreen,
over stdio): in the Add-atom tool a drag from an atom to empty space draws a new atom
bonded to it, as a person's drag does (Avogadro's Draw gesture); a drag without its end
point is refused and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, GUI_ENV, run_window_command

pytest.importorskip("PySide6")

WATER = FIXTURES / "water_opt-000.xyz"


def _structure(server: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    doc_id, _rev = server.doc()
    body = server.ok("get_document", {"documentId": doc_id})["project"]["document"]
    return list(body["atoms"]), list(body["bonds"])


def test_a_drag_from_an_atom_draws_a_bonded_atom(spawn: Any) -> None:
    server = spawn(str(WATER), env=GUI_ENV, flag="--mcp-gui")
    atoms, bonds = _structure(server)
    assert run_window_command(server, "ui_activate", {"target": "tool_add"})["status"] == "done"
    view = server.ok("get_ui_item", {"target": "moleculeView"})
    at = {a["atomId"]: a for a in view["atoms"]}
    oxygen = next(a["id"] for a in atoms if a["element"] == "O")
    start = at[oxygen]
    others = [at[a["id"]] for a in atoms if a["id"] != oxygen]
    # Away from both hydrogens: the oxygen's position mirrored past their midpoint's side.
    mx = sum(o["x"] for o in others) / len(others)
    my = sum(o["y"] for o in others) / len(others)
    dx, dy = start["x"] - mx, start["y"] - my
    norm = max((dx * dx + dy * dy) ** 0.5, 1e-6)
    end = {"x2": start["x"] + 60 * dx / norm, "y2": start["y"] + 60 * dy / norm}
    # Missing end point: refused, nothing drawn.
    rec = run_window_command(
        server,
        "ui_input",
        {"target": "moleculeCanvas", "kind": "drag", "x": start["x"], "y": start["y"]},
    )
    assert rec["status"] == "failed" and rec["error"]["code"] == "ui_bad_point", rec
    assert _structure(server) == (atoms, bonds)
    rec = run_window_command(
        server,
        "ui_input",
        {"target": "moleculeCanvas", "kind": "drag", "x": start["x"], "y": start["y"], **end},
    )
    assert rec["status"] == "done", rec
    after_atoms, after_bonds = _structure(server)
    new = {a["id"] for a in after_atoms} - {a["id"] for a in atoms}
    heavy_new = [a for a in after_atoms if a["id"] in new and a["element"] != "H"]
    assert len(heavy_new) == 1, after_atoms
    drawn = heavy_new[0]["id"]
    assert any({b["a"], b["b"]} == {oxygen, drawn} for b in after_bonds), after_bonds
