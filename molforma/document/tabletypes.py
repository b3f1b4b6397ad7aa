"""Whether a value is one of the column tables, without importing numpy (no Qt).

:mod:`molforma.document.molecule` and :mod:`molforma.document.bond_table` import numpy,
which the MCP server does not load at start-up; nothing can be a table before those
modules are loaded, so these checks ask ``sys.modules`` first and import nothing.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from molforma.document.bond_table import BondTable
    from molforma.document.molecule import AtomTable

_MODULE = "molforma.document.molecule"
_BONDS = "molforma.document.bond_table"


def is_atom_table(value: Any) -> TypeGuard[AtomTable]:
    """True for an :class:`~molforma.document.molecule.AtomTable`."""
    mod = sys.modules.get(_MODULE)
    return mod is not None and isinstance(value, mod.AtomTable)


def is_bond_table(value: Any) -> TypeGuard[BondTable]:
    """True for a :class:`~molforma.document.bond_table.BondTable`."""
    mod = sys.modules.get(_BONDS)
    return mod is not None and isinstance(value, mod.BondTable)


def tables_loaded() -> bool:
    """Whether any table can exist yet."""
    return _MODULE in sys.modules or _BONDS in sys.modules
