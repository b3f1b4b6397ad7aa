"""MolForma: a molecular editor for quantum chemistry with a built-in MCP server.

The package root holds no Qt import; only ``molforma.gui`` touches Qt.
"""

from __future__ import annotations

from molforma import i18n as _i18n

__version__ = "0.1.0"


def _preferences_language() -> str | None:
    # Imported when the first message needs a language, not when the package loads.
    from molforma.preferences import preferred_language

    return preferred_language()


# The display language follows the Preferences; the package root connects the two because
# molforma.preferences itself renders messages through molforma.i18n.
_i18n.set_language_source(_preferences_language)
