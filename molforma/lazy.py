"""Imports deferred for start-up time, declared at the top of their module (no Qt).

``molforma --mcp`` answers ``initialize`` in a fraction of a second and the window opens
without waiting for numpy, RDKit or PySCF, because a module that only some functions need
is imported when one of them first uses it. Written as an ``import`` inside each function,
such a dependency hides from a reader skimming the top of the module, from the type
checker's view of the module and from the import contracts. Declared with
:func:`lazy_import` instead, it sits with the other imports::

    from typing import TYPE_CHECKING

    from molforma.lazy import lazy_import

    if TYPE_CHECKING:
        import numpy as np
    else:
        np = lazy_import("numpy")

The ``TYPE_CHECKING`` branch is what mypy, editors and ``lint-imports`` read (so the
layering contracts check the deferred import too); at run time ``np`` is a stand-in that
imports numpy the first time one of its attributes is read (``np.array``), then behaves as
the module. ``from X import name`` becomes ``X = lazy_import("X")`` and ``X.name`` where it
is used. The stand-in keeps each attribute it has read (later reads cost what a module
attribute costs), so a test that replaces a function patches it where the code reads it
(``monkeypatch.setattr(user_module.X, "name", ...)``), not only on ``X`` itself.

Keep an ``import`` inside a function where a stand-in would not do: an import that breaks
a cycle between two modules of one package (declaring it at the top would make the cycle
the contracts forbid); one whose ``ImportError`` the function turns into a message
("install the orbitals extra"); one on the path of ``molforma --mcp``'s first answers,
which loads neither this module nor :mod:`importlib`; and one whose import is the point
(made on the GUI thread on purpose, the window's launch order, a module imported for the
messages it registers).
"""

from __future__ import annotations

import importlib
import sys
import threading
from types import ModuleType
from typing import Any

__all__ = ["lazy_import"]


class _LazyModule(ModuleType):
    """A stand-in for a module, importing it when an attribute is first read."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.__dict__["_lock"] = threading.Lock()
        self.__dict__["_loaded"] = None

    def _load(self) -> ModuleType:
        module: ModuleType | None = self.__dict__["_loaded"]
        if module is None:
            with self.__dict__["_lock"]:  # one import however many threads ask at once
                module = self.__dict__["_loaded"]
                if module is None:
                    module = importlib.import_module(self.__name__)
                    self.__dict__["_loaded"] = module
        return module

    def __getattr__(self, attr: str) -> Any:
        # Only called for names the stand-in lacks: the first read of each attribute.
        # It is then copied here, so later reads cost what a module attribute costs.
        value = getattr(self._load(), attr)
        self.__dict__[attr] = value
        return value

    def __dir__(self) -> list[str]:
        return dir(self._load())

    def __repr__(self) -> str:
        state = "loaded" if self.__dict__["_loaded"] is not None else "not loaded yet"
        return f"<lazy module {self.__name__!r} ({state})>"


def lazy_import(name: str) -> ModuleType:
    """A stand-in for module ``name`` that imports it on the first attribute read.

    The module itself when it is already imported. A missing module raises its
    ``ImportError`` (``ModuleNotFoundError``) at that first read, not here.
    """
    loaded = sys.modules.get(name)
    if loaded is not None and not isinstance(loaded, _LazyModule):
        return loaded
    return _LazyModule(name)
