"""Fuzz: thousands of random and mutated JSON-RPC lines against ``molforma --mcp``.

The server must never die or hang, must answer every request exactly once, and the
document may change only through edits that succeeded: replaying just those edits on
a fresh server gives the same project.
"""

from __future__ import annotations

import copy
import json
import random
import threading
import time
from pathlib import Path
from typing import Any

from tests.mcp.conftest import McpProcess, meta

EDIT_TOOLS = {
    "add_atoms",
    "delete_atoms",
    "move_atoms",
    "set_atom_properties",
    "set_bonds",
    "set_internal_coordinate",
    "add_hydrogens",
    "set_molecule",
    "set_nwchem",
    "set_advanced",
    "set_execution",
    "import_document",
    "history",
}
N_LINES = 2500
BATCH = 100


def _rand_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 1, 2**63, -(2**70), 7])
    if kind == 3:
        return rng.choice([0.5, -1e308, 1e-9, 3.0])
    if kind == 4:
        return rng.choice(["", "a1", "a2", "a9", "r1", "x" * 50, "水", "\u0000", "../../etc"])
    if kind == 5:
        return rng.choice(["He", "H", "C", "O", "Xx"])
    if kind == 6:
        return [_rand_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(["a", "b", "id", "x", "element", "position"]): _rand_value(rng, depth + 1)
        for _ in range(rng.randrange(4))
    }


def _tool_args(
    rng: random.Random, name: str, doc_id: str, tmp: Path, cur_rev: str
) -> dict[str, Any]:
    rev = cur_rev if rng.random() < 0.5 else f"r{rng.randrange(1, 200)}"
    base: dict[str, Any] = {
        "documentId": doc_id if rng.random() < 0.9 else "doc-x",
        "expectedRevision": rev,
        "preview": rng.random() < 0.05,
    }
    ids = [f"a{rng.randrange(1, 12)}" for _ in range(rng.randrange(1, 4))]
    pos = [round(rng.uniform(-6, 6), 2) for _ in range(3)]
    specific: dict[str, dict[str, Any]] = {
        "add_atoms": {
            "atoms": [{"element": rng.choice(["H", "He", "C", "O", "Q"]), "position": pos}],
            "bonds": [],
        },
        "delete_atoms": {"atomIds": ids},
        "move_atoms": rng.choice(
            [
                {"translate": pos},
                {"positions": {ids[0]: pos}},
                {"rotate": {"axis": pos, "angle": 30.0}},
            ]
        ),
        "set_atom_properties": {
            "atoms": [
                {
                    "id": ids[0],
                    rng.choice(["name", "formalCharge", "fixed", "massNumber"]): rng.choice(
                        [1, "n", True, 2]
                    ),
                }
            ]
        },
        "set_bonds": {
            "bonds": [{"a": ids[0], "b": f"a{rng.randrange(1, 12)}", "order": rng.randrange(4)}]
        },
        "set_internal_coordinate": {"atomIds": [*ids[:2], "a1"], "value": rng.uniform(0.5, 3)},
        "add_hydrogens": {},
        "set_molecule": {
            "title": rng.choice(["t", "水", "x" * 300]),
            "charge": rng.randrange(-2, 3),
        },
        "set_nwchem": {"values": {"basis": rng.choice(["sto-3g", "6-31g*"])}},
        "set_advanced": {"values": {"memory_mb": rng.choice([100, 5, "x"])}},
        "set_execution": {"values": {"threads": rng.randrange(0, 4)}},
        "import_document": {
            "format": "xyz",
            "text": rng.choice(
                ["1\n\nHe 0 0 0\n", "2\n\nHe 0 0 0\nHe 0 0 3\n", "garbage", "1\n\nHe 0 0 0"]
            ),
        },
        "history": {"action": rng.choice(["undo", "redo", "confirm", "cancel", "cancel", "nope"])},
        "get_document": {"include": rng.choice([[], ["project"], None])},
        "export_document": {"format": rng.choice(["xyz", "project", "nwchem", "bad"])},
        "measure": {"distances": [ids[:2]]},
        "save_file": {"path": str(tmp / rng.choice(["a.json", "sub/b.json", ""]))},
        "open_file": {"path": str(tmp / "missing.xyz")},
        "get_results": {"section": rng.choice(["summary", "log", "bogus"])},
        "results_action": {"action": "reload"},
        "get_app_state": {},
        "list_documents": {},
        "get_execution": {},
        "validate_document": {},
        "get_catalog": {"kind": rng.choice(["tasks", None, "x"])},
    }
    args = {**base, **specific.get(name, {})}
    if name in ("list_documents", "get_catalog", "get_app_state"):
        args = specific[name]
    elif name in (
        "get_document",
        "export_document",
        "measure",
        "get_results",
        "get_execution",
        "validate_document",
        "save_file",
    ):
        args = {"documentId": base["documentId"], **specific[name]}
    return {k: v for k, v in args.items() if v is not None}


def _valid_message(
    rng: random.Random, rid: Any, doc_id: str, tmp: Path, cur_rev: str
) -> dict[str, Any]:
    choice = rng.random()
    if choice < 0.6:
        name = rng.choice(
            sorted(
                EDIT_TOOLS
                | {
                    "get_document",
                    "export_document",
                    "measure",
                    "list_documents",
                    "get_app_state",
                    "save_file",
                    "get_execution",
                    "validate_document",
                    "get_catalog",
                    "open_file",
                    "get_results",
                    "results_action",
                }
            )
        )
        params: dict[str, Any] = {
            "name": name,
            "arguments": _tool_args(rng, name, doc_id, tmp, cur_rev),
        }
        method = "tools/call"
    else:
        method = rng.choice(
            [
                "server/discover",
                "tools/list",
                "resources/list",
                "resources/read",
                "prompts/list",
                "prompts/get",
                "tasks/get",
                "resources/templates/list",
                "ping",
                "initialize",
            ]
        )
        params = {
            "uri": rng.choice(["molforma://app/state", "molforma://x"]),
            "name": rng.choice(["build_molecule", "nope"]),
            "arguments": {"molecule": "water"},
            "taskId": "t",
        }
    caps: dict[str, Any] = rng.choice(
        [{}, {"elicitation": {}}, {"extensions": {"io.modelcontextprotocol/tasks": {}}}]
    )
    params["_meta"] = meta(caps, rng.choice(["2026-07-28"] * 8 + ["2025-11-25", "1999"]))
    if rng.random() < 0.1:
        del params["_meta"]
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


def _mutate(rng: random.Random, msg: dict[str, Any]) -> Any:
    m = copy.deepcopy(msg)
    op = rng.randrange(8)
    if op == 0:
        m.pop(rng.choice(list(m)), None)
    elif op == 1:
        m[rng.choice(list(m))] = _rand_value(rng)
    elif op == 2 and isinstance(m.get("params"), dict):
        p = m["params"]
        if p:
            p[rng.choice(list(p))] = _rand_value(rng)
    elif op == 3 and isinstance(m.get("params"), dict):
        args = m["params"].get("arguments")
        if isinstance(args, dict) and args:
            args[rng.choice(list(args))] = _rand_value(rng)
    elif op == 4:
        return [m]
    elif op == 5:
        m["params"] = _rand_value(rng)
    elif op == 6:
        m["method"] = rng.choice(["tools/call ", "TOOLS/LIST", "", "notifications/cancelled"])
    else:
        m.pop("id", None)  # becomes a notification: no answer
    return m


def _lines(
    rng: random.Random, doc_id: str, tmp: Path, cur_rev: str, first: int, count: int
) -> tuple[list[bytes], set[Any]]:
    lines: list[bytes] = []
    expect: set[Any] = set()
    for i in range(first, first + count):
        rid: Any = 100_000 + i if rng.random() < 0.5 else f"s{i}"
        msg = _valid_message(rng, rid, doc_id, tmp, cur_rev)
        r = rng.random()
        if r < 0.55:
            lines.append(json.dumps(msg, ensure_ascii=False).encode() + b"\n")
            expect.add(rid)
        elif r < 0.85:
            mut = _mutate(rng, msg)
            lines.append(json.dumps(mut).encode() + b"\n")
            if (
                isinstance(mut, dict)
                and "id" in mut
                and mut.get("id") == rid
                and isinstance(mut.get("method"), str)
                and mut.get("jsonrpc") == "2.0"
            ):
                expect.add(rid)
        elif r < 0.92:
            raw = json.dumps(msg).encode()
            lines.append(raw[: rng.randrange(1, len(raw))] + b"\n")
        elif r < 0.97:
            lines.append(
                bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))).replace(b"\n", b" ")
                + b"\n"
            )
        else:
            lines.append(b"[" * 5000 + b"\n")  # very deep nesting
    return lines, expect


def _codes(calls: dict[Any, dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for res in calls.values():
        sc = res.get("structuredContent")
        if isinstance(sc, dict) and res.get("isError"):
            out[sc.get("code", "?")] = out.get(sc.get("code", "?"), 0) + 1
    return out


def test_fuzzed_lines_never_kill_or_hang_the_server_and_every_request_is_answered_once(
    spawn: Any, tmp_path: Path
):
    rng = random.Random(20261129)
    server: McpProcess = spawn()
    doc_id, cur_rev = server.doc()
    t0 = time.monotonic()
    lines: list[bytes] = []
    expected: set[Any] = set()
    answers: dict[Any, int] = {}
    calls: dict[Any, dict[str, Any]] = {}
    final: dict[str, Any] | None = None
    # Batches of lines; after each, the current revision is read back so that about half
    # of the next edits name it and can succeed (others stay stale on purpose).
    for batch in range(N_LINES // BATCH):
        chunk, expect = _lines(rng, doc_id, tmp_path, cur_rev, batch * BATCH, BATCH)
        lines += chunk
        expected |= expect
        sentinel = f"sentinel-{batch}"

        def writer(chunk: list[bytes] = chunk, sentinel: str = sentinel) -> None:
            for line in chunk:
                server.write(line)
            server.send(
                {
                    "jsonrpc": "2.0",
                    "id": sentinel,
                    "method": "tools/call",
                    "params": {
                        "name": "get_document",
                        "_meta": meta(),
                        "arguments": {"documentId": doc_id},
                    },
                }
            )

        th = threading.Thread(target=writer, daemon=True)
        th.start()
        final = None
        while final is None:
            msg = server.recv(timeout=60)
            assert set(msg) <= {"jsonrpc", "id", "result", "error"} and msg["jsonrpc"] == "2.0"
            if "id" in msg:
                answers[msg["id"]] = answers.get(msg["id"], 0) + 1
                if msg["id"] == sentinel:
                    final = msg
                elif "result" in msg:
                    calls[msg["id"]] = msg["result"]
        th.join(30)
        cur_rev = final["result"]["structuredContent"]["revision"]
    assert final is not None
    elapsed = time.monotonic() - t0
    assert server.proc.poll() is None, server.stderr
    missing = expected - set(answers)
    assert not missing, sorted(map(str, missing))[:10]
    # Our own ids are unique, so each must be answered exactly once (random ids that a
    # mutation produced may repeat and are answered once per line).
    twice = {rid: answers[rid] for rid in expected if answers[rid] != 1}
    assert not twice, twice
    assert elapsed < 60

    # Replay the successful edits on a fresh server: same project.
    sent = {}
    for line in lines:
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(obj, dict) and isinstance(obj.get("id"), int | str):
            sent.setdefault(obj["id"], obj)
    order = [rid for rid in answers if rid in calls]
    replay = spawn()
    rdoc, rrev = replay.doc()
    successes = 0
    for rid in order:
        req = sent.get(rid)
        res = calls[rid]
        if (
            req is None
            or req.get("method") != "tools/call"
            or res.get("isError") is not False
            or req["params"].get("name") not in EDIT_TOOLS
        ):
            continue
        args = dict(req["params"]["arguments"], documentId=rdoc, expectedRevision=rrev)
        out = replay.ok(req["params"]["name"], args)
        rrev = out["revision"]
        successes += 1
    assert successes >= 5, json.dumps(_codes(calls))
    fuzz_doc = final["result"]["structuredContent"]
    replayed = replay.ok("get_document", {"documentId": rdoc})
    assert fuzz_doc["project"] == replayed["project"]
    assert fuzz_doc["candidate"] == replayed["candidate"]
    assert server.close(10) == 0
