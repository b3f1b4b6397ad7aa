"""MolForma results (no Qt): one model for NWChem outputs, MOLDEN and XYZ files.

Public API: :func:`read_results` (a file, a folder or an animation group key),
:func:`get_section` (paged views), :class:`ResultsSession` (background loading
shared by MCP and the window) and the pydantic models of :mod:`.model`.
"""

from __future__ import annotations

from molforma.results.reader import list_result_files, read_results
from molforma.results.results_model import (
    EnergyPoint,
    FileEntry,
    Message,
    Mode,
    Results,
    Structure,
    Summary,
)
from molforma.results.sections import SECTIONS, get_section
from molforma.results.session import LoadHandle, ResultsSession

__all__ = [
    "SECTIONS",
    "EnergyPoint",
    "FileEntry",
    "LoadHandle",
    "Message",
    "Mode",
    "Results",
    "ResultsSession",
    "Structure",
    "Summary",
    "get_section",
    "list_result_files",
    "read_results",
]
