"""Loggers that import :mod:`logging` when a message is first logged (no Qt).

Importing :mod:`logging` (with :mod:`traceback`, :mod:`textwrap` and their regular
expressions) was a large part of what ``molforma --mcp`` imported before its first
answer, which logs nothing (clients time ``server/discover`` out early,
docs/reference/mcp.md, Protocol eras). The modules on that path take their logger from :func:`get_logger`, and
``serve_headless`` sets up stderr with :func:`basic_config`, applied when logging is
first used (or at once when it is loaded already).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import logging

_pending_config: dict[str, Any] | None = None


def basic_config(**kwargs: Any) -> None:
    """``logging.basicConfig(**kwargs)``: now when logging is loaded, else on first use."""
    global _pending_config
    if "logging" in sys.modules:
        sys.modules["logging"].basicConfig(**kwargs)
    else:
        _pending_config = kwargs


def load() -> Any:
    """The :mod:`logging` module, with the set-up :func:`basic_config` recorded applied."""
    global _pending_config
    import logging

    config = _pending_config
    if config is not None:
        logging.basicConfig(**config)  # a second call from a racing thread does nothing
        _pending_config = None
    return logging


class _LazyLogger:
    """Stands for ``logging.getLogger(name)`` until an attribute of it is first used."""

    __slots__ = ("_logger", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._logger: logging.Logger | None = None

    def __getattr__(self, attr: str) -> Any:
        logger = self._logger
        if logger is None:
            logger = self._logger = load().getLogger(self._name)
        return getattr(logger, attr)


def get_logger(name: str) -> logging.Logger:
    """The logger ``name``, made (and :mod:`logging` imported) on its first use."""
    return _LazyLogger(name)  # type: ignore[return-value]
