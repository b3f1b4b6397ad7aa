"""Pages of list-like window data by size: get_ui nodes, table rows, atoms (no Qt).

docs/reference/window.md, Paging and indices: lists, table rows and result rows come in pages with
``offset`` / ``limit`` / ``nextOffset``; an item over the page budget comes alone on
its page; an item over 2 MiB fails. The budget is 32 KiB of compact JSON, not the earlier
"about 40 KiB": a tool result carries the page twice (structured content and its text
copy, with JSON's spaces), and 40 KiB pages made get_ui (``includeHidden``) and the
coordinate table of a 10,000-atom window ~101,000 characters, past the 100,000-character
size hint of docs/reference/mcp.md, Size of results.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from molforma.errors import MolFormaError
from molforma.i18n import register

PAGE_BYTES = 32 * 1024
MAX_ITEM_BYTES = 2 * 1024 * 1024

register(
    {
        "ui_item_too_large": {
            "en": "Item {index} is {size} bytes, over the {limit}-byte limit of one item; read "
            "a smaller part (get_ui_item of one widget, or a narrower query).",
            "ja": "項目 {index} は {size} バイトで、1項目の上限 {limit} バイトを超えています。"
            "より小さい単位で読んでください（1つのウィジェットの get_ui_item や絞った query）。",
        },
    }
)


def item_size(item: Any) -> int:
    """Bytes of ``item`` as compact UTF-8 JSON (what the page budget counts)."""
    return len(
        json.dumps(item, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8")
    )


def page(
    count: int,
    get: Callable[[int], Any],
    offset: int = 0,
    limit: int | None = None,
    budget: int = PAGE_BYTES,
) -> tuple[list[Any], int | None]:
    """Items ``offset``… up to ``limit`` items and about ``budget`` bytes; and nextOffset.

    ``get(i)`` builds item ``i`` only when it is needed, so a page of a 10,000-row
    table costs a page, not the table.

    Raises:
        MolFormaError: ``ui_item_too_large`` for an item over 2 MiB.
    """
    out: list[Any] = []
    used = 0
    i = max(0, offset)
    while i < count and (limit is None or len(out) < limit):
        item = get(i)
        size = item_size(item)
        if size > MAX_ITEM_BYTES:
            raise MolFormaError("ui_item_too_large", index=i, size=size, limit=MAX_ITEM_BYTES)
        if out and used + size > budget:
            break
        out.append(item)
        used += size
        i += 1
        if used >= budget:
            break
    return out, (i if i < count else None)


def page_list(
    items: Sequence[Any], offset: int = 0, limit: int | None = None, budget: int = PAGE_BYTES
) -> tuple[list[Any], int | None]:
    """:func:`page` over a list already built."""
    return page(len(items), items.__getitem__, offset, limit, budget)
