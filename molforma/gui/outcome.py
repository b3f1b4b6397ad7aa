"""What the window told the person while a window command ran (Qt layer, no widgets).

Panels show a refusal where the person looks — under the 3D view, beside a field, in a
status line, in a box. An MCP window command must carry the same outcome in its record
(docs/reference/window.md, Commands: never ``done`` when the window refused), so every place that shows a
refusal also hands it to :func:`refused`. While the command runner runs a command it
collects them with :func:`collecting`; outside a command nothing is kept.

The error itself travels when there is one (:class:`~molforma.errors.MolFormaError`),
so a field refused through the window fails with the same code as the MCP tool for
that setting; a panel's own sentence travels as ``window_refused``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from molforma.errors import MolFormaError

_open: list[list[MolFormaError]] = []  # GUI thread only: one list per running command


@contextmanager
def collecting() -> Iterator[list[MolFormaError]]:
    """Collect the refusals the window shows while the block runs."""
    got: list[MolFormaError] = []
    _open.append(got)
    try:
        yield got
    finally:
        _open.remove(got)


def refused(reason: MolFormaError | str) -> None:
    """The window showed the person a refusal (kept only while a command runs)."""
    if not _open or not reason:
        return
    err = (
        reason
        if isinstance(reason, MolFormaError)
        else MolFormaError("window_refused", message=str(reason))
    )
    _open[-1].append(err)


def first() -> MolFormaError | None:
    """The first refusal the running command collected so far (None: none)."""
    return _open[-1][0] if _open and _open[-1] else None


__all__ = ["collecting", "first", "refused"]
