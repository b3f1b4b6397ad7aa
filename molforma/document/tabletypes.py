"""Whether a value is one of the column tables, without importing numpy (no Qt).

:mod:`molforma.document.molecule` imports numpy, which the MCP server does not load at
start-up; nothing can be a table before that module is loaded, so these checks ask
``sys.modules`` first and import nothing.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from molforma.document.molecule import AtomTable, BondTable

_MODULE = "molforma.document.molecule"


def is_atom_table(value: Any) -> TypeGuard[AtomTable]:
    """True for an :class:`~molforma.document.molecule.AtomTable`."""
    mod = sys.modules.get(_MODULE)
    return mod is not None and isinstance(value, mod.AtomTable)


def is_bond_table(value: Any) -> TypeGuard[BondTable]:
    """True for a :class:`~molforma.document.molecule.BondTable`."""
    mod = sys.modules.get(_MODULE)
    return mod is not None and isinstance(value, mod.BondTable)


def tables_loaded() -> bool:
    """Whether any table can exist yet."""
    return _MODULE in sys.modules
