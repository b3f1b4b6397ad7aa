"""agent_task_bench counts what an agent's task costs on the wire: one round trip per
request answered, and exactly the bytes of the JSON lines in both directions."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

from tests.paths import REPO


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look their module up while the class is built
    spec.loader.exec_module(mod)
    return mod


_load("harness", REPO / "bench" / "harness.py")  # the bench imports it by this name
bench = _load("agent_task_bench", REPO / "bench" / "agent_task_bench.py")

# A server that sends a notification before each answer, and a second line for tools/list:
# neither may count as a round trip, both count as bytes received.
CHATTY = r"""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    note = {"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "info", "data": "é" * 10}}
    sys.stdout.write(json.dumps(note, ensure_ascii=False) + "\n")
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"],
                                 "result": {"echo": msg["method"]}}) + "\n")
    sys.stdout.flush()
"""


def _lines(transcript: list[tuple[str, bytes]], direction: str) -> list[bytes]:
    return [line for d, line in transcript if d == direction]


def test_the_start_and_one_tool_call_of_molforma_are_counted_line_by_line(tmp_path: Path):
    wire = bench.spawn(bench.Revision("now", REPO), tmp_path, keep=True)
    agent = bench.Agent(wire)
    try:
        bench.start_steps(agent)
    finally:
        assert wire.close() == 0
    _, tools_list, list_documents = agent.steps
    assert [s.key for s in agent.steps] == ["start", "tools_list", "list_documents"]
    # Every request got its own answer: one round trip each, and no more lines than that.
    sent, received = _lines(wire.transcript, ">"), _lines(wire.transcript, "<")
    assert [s.trips for s in agent.steps] == [1, 1, 1]
    assert len(sent) == len(received) == 3
    for request, answer in zip(sent, received, strict=True):
        assert json.loads(answer)["id"] == json.loads(request)["id"]
    # Bytes are the lines' lengths on the wire, newline included, per step.
    for step, request, answer in zip(agent.steps, sent, received, strict=True):
        assert request.endswith(b"\n") and answer.endswith(b"\n")
        assert (step.sent, step.received) == (len(request), len(answer))
    assert json.loads(sent[1])["method"] == "tools/list"
    assert len(json.loads(received[1])["result"]["tools"]) == len(agent.tools) >= 20
    assert tools_list.received > 20 * list_documents.received
    assert agent.doc_id and agent.rev
    assert wire.trips == 3 and wire.sent == sum(map(len, sent))
    assert wire.received == sum(map(len, received))


def test_notifications_are_bytes_received_but_not_round_trips(tmp_path: Path):
    wire = bench.Wire([sys.executable, "-c", CHATTY], {}, tmp_path, keep=True)
    agent = bench.Agent(wire)
    try:
        with agent.step("two") as rec:
            assert agent.result("ping")["echo"] == "ping"
            assert agent.result("tools/list")["echo"] == "tools/list"
    finally:
        wire.close()
    assert agent.steps == [rec]
    received = _lines(wire.transcript, "<")
    assert len(received) == 4  # a notification and an answer for each request
    assert rec.trips == 2
    assert rec.received == sum(map(len, received)) == wire.received
    # "é" is two bytes in UTF-8: bytes, not characters, are counted
    assert rec.received == sum(len(line.decode("utf-8").encode("utf-8")) for line in received)
    assert rec.received > sum(len(line.decode("utf-8")) for line in received)
    assert rec.sent == sum(map(len, _lines(wire.transcript, ">")))
