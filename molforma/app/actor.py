"""Who acts: the person, an MCP tool, or a window command driven through MCP (no Qt).

Every function of the application layer is told its :class:`Actor`. Two rules of
docs/reference/safety.md hang on it: the allowed directories (``--mcp-allow-dir``, and never
the configuration directory) limit what MCP makes MolForma read or write, not the
person's own clicks; and what MCP edits, directly or by driving the window, is
recorded with the MCP origin and never becomes trusted.

Window code does not pass an actor around: :func:`window_actor` says who acts at the
window now, the person or MCP while the command runner of ``--mcp-gui`` runs a queued
window command (:func:`acting_for_mcp`). That state is the window's (set and read on
the GUI thread only); the document model knows nothing of it and records the origin it
is told, which window code takes from the actor (``window_actor().origin``).
"""

from __future__ import annotations

import enum
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from molforma.app.policy import Policy
    from molforma.document.document import Origin


class Actor(enum.Enum):
    """Who asked for an action."""

    PERSON = "person"  # a click, key or drop of the person at the window
    MCP_TOOL = "mcp_tool"  # an MCP tool call (open_file, calculation, ...)
    MCP_WINDOW = "mcp_window"  # a window command queued by MCP (ui_activate, ...)

    @property
    def is_mcp(self) -> bool:
        """True for both MCP actors."""
        return self is not Actor.PERSON

    @property
    def origin(self) -> Origin:
        """The origin recorded on the edits it makes (``"user"`` or ``"mcp"``)."""
        return "mcp" if self.is_mcp else "user"


class _WindowActing:
    """Whether the window acts for MCP now (GUI thread only: the command runner, and a
    worker's result that lands later keeping the actor of its start)."""

    mcp = False


@contextmanager
def acting_for_mcp(active: bool = True) -> Iterator[None]:
    """Run the window code inside as MCP's (a queued window command), or as the
    person's (``active=False``); the actor before is restored after."""
    before = _WindowActing.mcp
    _WindowActing.mcp = active
    try:
        yield
    finally:
        _WindowActing.mcp = before


def mcp_acting() -> bool:
    """True inside :func:`acting_for_mcp`: a window command of MCP runs."""
    return _WindowActing.mcp


def window_actor() -> Actor:
    """The actor of window code running now: MCP while a window command runs."""
    return Actor.MCP_WINDOW if mcp_acting() else Actor.PERSON


def check_path(
    policy: Policy | None,
    path: str | os.PathLike[str],
    actor: Actor,
    *,
    for_write: bool = False,
    must_exist: bool = False,
) -> str:
    """``path`` checked against the allowed directories when MCP acts.

    The person's own clicks are never limited; without a policy (the plain window)
    nothing is checked either.

    Returns:
        The resolved path when it was checked, else ``path`` unchanged (as text).

    Raises:
        FileAccessError: ``path_not_allowed``, ``path_in_config_dir``,
            ``dangling_link``, ...
    """
    if policy is None or not actor.is_mcp:
        return os.fspath(path)
    return str(policy.check_path(path, for_write=for_write, must_exist=must_exist))
