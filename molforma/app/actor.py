"""Who acts: the person, an MCP tool, or a window command driven through MCP (no Qt).

Every function of the application layer is told its :class:`Actor`. Two rules of
SPEC.md section 7 hang on it: the allowed directories (``--mcp-allow-dir``, and never
the configuration directory) limit what MCP makes MolForma read or write, not the
person's own clicks; and what MCP edits, directly or by driving the window, is
recorded with the MCP origin and never becomes trusted.

Window code does not pass an actor around: :func:`window_actor` reads it from
:func:`molforma.document.origin.acting_for_mcp`, which the command runner of
``--mcp-gui`` sets while a queued window command runs.
"""

from __future__ import annotations

import enum
import os
from typing import TYPE_CHECKING

from molforma.document.origin import mcp_acting

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


def window_actor() -> Actor:
    """The actor of window code running now: MCP while a window command runs."""
    return Actor.MCP_WINDOW if mcp_acting() else Actor.PERSON


def check_path(policy: Policy | None, path: str | os.PathLike[str], actor: Actor, *,
               for_write: bool = False, must_exist: bool = False) -> str:
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
