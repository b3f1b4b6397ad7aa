"""What the application layer acts on: the application state (no Qt).

:class:`AppState` is the part of the window's context (``molforma.gui.context.
AppContext``) that the application functions need: the current document, the
Preferences and the launch policy. Anything with these members will do, so the
functions are tested without a window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from molforma.app.policy import Policy
    from molforma.document.document import Document
    from molforma.jobs.manager import JobManager
    from molforma.preferences import Preferences


class AppState(Protocol):
    """The current document, the person's Preferences and the MCP policy (or None)."""

    document: Document
    preferences: Preferences
    policy: Policy | None

    def set_document(self, document: Document) -> None:
        """Make ``document`` the current one (the launch file)."""

    @property
    def jobs(self) -> JobManager | None:
        """The job manager, or None before the first calculation made one."""


class DocumentState(Protocol):
    """What opening a file needs: the document acted on and the launch policy (or None).

    :class:`AppState` (the window) has these; an MCP tool acting on one of its
    documents uses :class:`OneDocument`.
    """

    @property
    def document(self) -> Document:
        """The document acted on."""

    @property
    def policy(self) -> Policy | None:
        """The MCP policy; None in the plain window (nothing is checked)."""


@dataclass(frozen=True)
class OneDocument:
    """One document and the policy, for an application function told to act on it."""

    document: Document
    policy: Policy | None = None
