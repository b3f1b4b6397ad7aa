"""The one error hierarchy of MolForma, shared by the core, the MCP server and the window.

Every error carries a stable ``code`` and keyword ``data``. The sentence shown to a
person or returned in an MCP result is rendered at the boundary from the message
catalogue (``molforma.i18n``) in the display language, never parsed from English.
"""

from __future__ import annotations

from typing import Any, ClassVar

from molforma.i18n import render


class MolFormaError(Exception):
    """Base class: ``code`` names the failure, ``data`` holds its details."""

    code: ClassVar[str] = "error"

    def __init__(self, code: str | None = None, /, **data: Any) -> None:
        if code is not None:
            self.code = code  # type: ignore[misc]
        self.data: dict[str, Any] = data
        super().__init__(self.message("en"))

    def message(self, lang: str | None = None) -> str:
        """The sentence for this error in ``lang`` (default: the display language)."""
        return render(self.code, self.data, lang)

    def to_dict(self, lang: str | None = None) -> dict[str, Any]:
        """The common error object: code, localized message, details."""
        return {"code": self.code, "message": self.message(lang), "details": dict(self.data)}


class ValidationError(MolFormaError):
    """An argument or an edit breaks a rule; nothing was changed."""

    code = "invalid_argument"


class StaleRevisionError(MolFormaError):
    """``expectedRevision`` does not match the document's revision."""

    code = "stale_revision"


class UnknownAtomError(MolFormaError):
    """An atom id does not exist in the document."""

    code = "unknown_atom"


class CandidateExistsError(MolFormaError):
    """The document has a candidate; confirm or cancel it first."""

    code = "candidate_exists"


class FormatError(MolFormaError):
    """A file or string could not be read or written in the given format."""

    code = "format_error"


class FileAccessError(MolFormaError):
    """A path could not be read or written, or is outside the allowed directories."""

    code = "file_error"


class ProtectedSettingError(MolFormaError):
    """An execution setting or extra input that MCP may not change."""

    code = "protected_setting"


class CalculationError(MolFormaError):
    """A calculation could not be started, saved or controlled."""

    code = "calculation_error"


class ResultsError(MolFormaError):
    """Results could not be read or are over a limit."""

    code = "results_error"


class BusyError(MolFormaError):
    """The document or the program is busy (clean-up, a load, a dialog)."""

    code = "busy"
