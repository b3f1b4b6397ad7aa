"""The Qt-free command store and the size pager of the window tools."""

from __future__ import annotations

import threading

import pytest

from molforma.errors import MolFormaError
from molforma.mcp.ui_paging import MAX_ITEM_BYTES, PAGE_BYTES, item_size, page, page_list
from molforma.mcp.window_commands import MAX_PENDING, MAX_RECORDS, CommandStore, WindowCommand


def _cmd() -> WindowCommand:
    return WindowCommand(tool="view", args={"action": "fit"})


def test_the_17th_pending_command_is_refused_and_a_finished_one_makes_room() -> None:
    woken: list[int] = []
    store = CommandStore(on_add=lambda: woken.append(1))
    recs = [store.add(_cmd()) for _ in range(MAX_PENDING)]
    assert len(woken) == MAX_PENDING and MAX_PENDING == 16
    with pytest.raises(MolFormaError) as exc:
        store.add(_cmd())
    assert exc.value.code == "gui_queue_full" and exc.value.data["limit"] == 16
    assert store.start(recs[0])
    store.finish(recs[0], {"ok": True})
    assert recs[0].to_dict()["status"] == "done" and recs[0].ended.is_set()
    store.add(_cmd())


def test_records_go_queued_running_done_or_failed_and_the_last_128_are_kept() -> None:
    store = CommandStore(max_pending=1000)
    first = store.add(_cmd())
    assert first.status == "queued" and first.id == "cmd-1"
    assert store.start(first) and first.status == "running"
    assert not store.start(first)  # already running
    store.fail(first, MolFormaError("modal_dialog_open", title="About"))
    assert first.to_dict("en")["error"]["code"] == "modal_dialog_open"
    for _ in range(MAX_RECORDS + 10):
        rec = store.add(_cmd())
        store.start(rec)
        store.finish(rec)
    with pytest.raises(MolFormaError) as exc:
        store.get(first.id)
    assert exc.value.code == "unknown_command"
    assert store.get(rec.id) is rec


def test_pending_records_are_never_evicted() -> None:
    store = CommandStore(max_pending=MAX_RECORDS + 5, max_records=MAX_RECORDS)
    recs = [store.add(_cmd()) for _ in range(MAX_RECORDS + 3)]
    assert all(store.get(r.id) is r for r in recs)


def test_a_dropped_command_never_runs_and_a_started_one_cannot_be_dropped() -> None:
    store = CommandStore()
    a, b = store.add(_cmd()), store.add(_cmd())
    assert store.drop(a)
    assert a.status == "failed" and a.error is not None and a.error.code == "command_dropped"
    assert not store.start(a)
    store.start(b)
    assert not store.drop(b)
    assert [r.id for r in store.pending()] == [b.id]


def test_a_synchronous_wait_says_whether_the_command_may_have_run() -> None:
    store = CommandStore()
    queued = store.add(_cmd())
    with pytest.raises(MolFormaError) as exc:
        store.wait(queued, 0.01)
    assert exc.value.code == "command_timeout_not_run" and exc.value.data["ran"] is False
    assert queued.status == "failed"
    running = store.add(_cmd())
    store.start(running)
    with pytest.raises(MolFormaError) as exc:
        store.wait(running, 0.01)
    assert exc.value.code == "command_timeout" and exc.value.data["ran"] is True
    threading.Timer(0.05, lambda: store.finish(running)).start()
    assert store.wait(running, 5).status == "done"


def test_pages_hold_about_40_kib_an_oversized_item_comes_alone_and_2_mib_fails() -> None:
    small = [{"i": i, "t": "x" * 1000} for i in range(200)]
    items, nxt = page_list(small)
    assert 0 < len(items) < 200 and nxt == len(items)
    assert sum(item_size(x) for x in items) <= PAGE_BYTES
    items, nxt = page_list(small, offset=nxt, limit=3)
    assert [x["i"] for x in items] == [nxt - 3, nxt - 2, nxt - 1]
    big = [{"t": "y" * (PAGE_BYTES + 10)}, {"t": "z"}]
    items, nxt = page_list(big)
    assert len(items) == 1 and nxt == 1
    items, nxt = page_list(big, offset=1)
    assert items == [{"t": "z"}] and nxt is None
    huge = "h" * (MAX_ITEM_BYTES + 1)
    with pytest.raises(MolFormaError) as exc:
        page(1, lambda _i: {"t": huge})
    assert exc.value.code == "ui_item_too_large"
