"""Thousands of atoms on one spot are refused at once over the real ``molforma --mcp``.

Two atoms closer than 0.1 Å are duplicates. 10,000 atoms on one spot make 50 million
such pairs; the refusal must not look at them all (it stalled the server for a minute,
and every other request waited behind it). Each route that loads or adds atoms is
refused with ``atoms_too_close`` within a generous bound, the document is unchanged,
and the next request is answered promptly.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import McpProcess

N = 10_000
BOUND = 10.0  # seconds; the refusal takes well under one, the quadratic one took minutes


def _xyz(n: int) -> str:
    return f"{n}\non one spot\n" + "C 1.0 2.0 3.0\n" * n


def _pdb(n: int) -> str:
    line = "HETATM{:5d}  C   UNK A   1       1.000   2.000   3.000  1.00  0.00           C\n"
    return "".join(line.format(k + 1) for k in range(n)) + "END\n"


def _refused_quickly(server: McpProcess, name: str, args: dict[str, Any]) -> dict[str, Any]:
    doc_id, rev = server.doc()
    t0 = time.monotonic()
    err = server.err(name, {"documentId": doc_id, "expectedRevision": rev, **args}, timeout=120)
    assert time.monotonic() - t0 < BOUND
    assert err["code"] == "atoms_too_close"
    assert "duplicate" in err["message"]
    assert err["details"]["distance"] == 0.0 and err["details"]["min"] == 0.1
    assert 1 <= len(err["details"]["pairs"]) <= 5
    t0 = time.monotonic()
    (doc,) = server.ok("list_documents")["documents"]
    assert time.monotonic() - t0 < 2.0
    assert doc["atomCount"] == 0 and doc["revision"] == rev and not doc["hasCandidate"]
    return err


def test_adding_ten_thousand_atoms_on_one_spot_is_refused_at_once(server: McpProcess) -> None:
    atoms = [{"element": "C", "position": [1.0, 2.0, 3.0]}] * N
    err = _refused_quickly(server, "add_atoms", {"atoms": atoms, "preview": False})
    assert {err["details"]["a"], err["details"]["b"]} == {"a1", "a2"}


@pytest.mark.parametrize("preview", [True, False])
def test_importing_ten_thousand_atoms_on_one_spot_is_refused_at_once(
    server: McpProcess, preview: bool
) -> None:
    _refused_quickly(
        server, "import_document", {"format": "xyz", "text": _xyz(N), "preview": preview}
    )


@pytest.mark.parametrize(
    ("name", "text"), [("pile.xyz", _xyz(N)), ("pile.pdb", _pdb(N)), ("small.xyz", _xyz(900))]
)
def test_opening_a_file_of_atoms_on_one_spot_is_refused_at_once(
    server: McpProcess, tmp_path: Path, name: str, text: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    _refused_quickly(server, "open_file", {"path": str(path), "preview": False})


def test_moving_ten_thousand_atoms_onto_one_spot_is_refused_at_once(server: McpProcess) -> None:
    doc_id, rev = server.doc()
    grid = [
        {"element": "He", "position": [2.0 * (k % 25), 2.0 * (k // 25 % 20), 2.0 * (k // 500)]}
        for k in range(N)
    ]
    rev = server.ok(
        "add_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "atoms": grid, "preview": False},
    )["revision"]
    t0 = time.monotonic()
    err = server.err(
        "move_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "positions": {f"a{k + 1}": [0.0, 0.0, 0.0] for k in range(N)},
            "preview": False,
        },
        timeout=120,
    )
    assert time.monotonic() - t0 < BOUND
    assert err["code"] == "atoms_too_close"
    t0 = time.monotonic()
    (doc,) = server.ok("list_documents")["documents"]
    assert time.monotonic() - t0 < 2.0
    assert doc["atomCount"] == N and doc["revision"] == rev


def _packed_xyz(n: int, spacing: float = 0.11) -> str:
    """Carbons on a grid 0.11 Å apart: no duplicates, but packed as no matter is."""
    side = round(n ** (1 / 3)) + 1
    rows = [
        f"C {k % side * spacing:.3f} {k // side % side * spacing:.3f} "
        f"{k // side // side * spacing:.3f}"
        for k in range(n)
    ]
    return f"{n}\npacked\n" + "\n".join(rows) + "\n"


@pytest.mark.parametrize("n", [1000, N])  # 1,000: bond orders would be RDKit's to find
def test_atoms_packed_denser_than_matter_load_and_validate_promptly(
    server: McpProcess, n: int
) -> None:
    doc_id, rev = server.doc()
    t0 = time.monotonic()
    out = server.ok(
        "import_document",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "format": "xyz",
            "text": _packed_xyz(n),
            "preview": False,
        },
        timeout=300,
    )
    assert time.monotonic() - t0 < BOUND  # minutes before, and gigabytes of candidate bonds
    assert out["project"]["atomCount"] == n
    assert (
        server.ok("get_document", {"documentId": doc_id, "include": ["project"], "limit": 1})[
            "project"
        ]["document"]["bonds"]
        == []
    )
    t0 = time.monotonic()
    checks = server.ok("validate_document", {"documentId": doc_id}, timeout=300)
    assert time.monotonic() - t0 < BOUND  # 161 s before, for 10,000 atoms
    assert checks["checks"] and checks["checks"][0]["code"] == "close_contact"
