"""Task bookkeeping of the Tasks extension, in process (docs/reference/mcp.md, Tasks)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from molforma.mcp.protocol import RpcError
from molforma.mcp.tasks import MAX_TASKS, Background, TaskStore


def _bg(done: threading.Event, cancelled: list[bool]) -> Background:
    return Background(
        result={"r": 0},
        wait=lambda t: done.wait(t),
        cancel=lambda: (cancelled.append(True), done.set()),
        final=lambda: {"r": 1},
    )


def _finish(out: Any) -> dict[str, Any]:
    return {"content": [], "structuredContent": out, "isError": False}


def _fail(exc: BaseException) -> dict[str, Any]:
    return {"content": [], "isError": True}


def test_only_the_last_128_tasks_are_kept_and_an_evicted_one_is_32602():
    store = TaskStore()
    done = threading.Event()
    done.set()
    ids = [store.start(_bg(done, []), _finish, _fail).task_id for _ in range(MAX_TASKS + 3)]
    for tid in ids[:3]:
        with pytest.raises(RpcError) as exc:
            store.get(tid)
        assert exc.value.code == -32602
    assert store.get(ids[-1]).task_id == ids[-1]
    assert len(store.all()) == MAX_TASKS


def test_task_completes_with_the_final_tool_result_and_flat_fields():
    store = TaskStore()
    done = threading.Event()
    task = store.start(_bg(done, []), _finish, _fail)
    wire = task.to_wire(detailed=True)
    assert wire["status"] == "working" and "result" not in wire
    assert wire["ttlMs"] is None and wire["pollIntervalMs"] == 500
    assert wire["createdAt"].endswith("Z")
    done.set()
    for _ in range(100):
        if store.get(task.task_id).status == "completed":
            break
        threading.Event().wait(0.02)
    wire = store.get(task.task_id).to_wire(detailed=True)
    assert wire["status"] == "completed"
    assert wire["result"]["structuredContent"] == {"r": 1}


def test_cancel_stops_the_work_and_a_terminal_task_stays_as_it_is():
    store = TaskStore()
    done = threading.Event()
    cancelled: list[bool] = []
    task = store.start(_bg(done, cancelled), _finish, _fail)
    store.cancel(task.task_id)
    assert cancelled == [True]
    assert store.get(task.task_id).status == "cancelled"
    store.cancel(task.task_id)  # idempotent ack
    assert cancelled == [True]
    threading.Event().wait(0.1)
    assert store.get(task.task_id).status == "cancelled"  # the watcher does not overwrite it


def test_task_ids_are_unguessable_strings():
    store = TaskStore()
    done = threading.Event()
    done.set()
    ids = {store.start(_bg(done, []), _finish, _fail).task_id for _ in range(20)}
    assert len(ids) == 20 and all(len(i) >= 20 for i in ids)
