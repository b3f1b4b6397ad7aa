"""The typed, array-backed structure of a document: atoms and bonds as numpy columns (no Qt).

A stored project keeps its ``document["atoms"]`` as an :class:`AtomTable` and its
``document["bonds"]`` as a :class:`BondTable`: immutable values whose columns are
read-only numpy arrays (the shape of ASE's ``Atoms`` and Avogadro's ``Molecule``).
An edit builds a new table that *shares* every column it did not touch: a move
replaces ``xyz`` only (:meth:`AtomTable.with_xyz`), so an undo step of a rigid move
costs one coordinate array, not copies of atom records.

The JSON of docs/reference/project-file.md, Atoms is produced from the columns at the edge. Both tables
are also read-only sequences of plain dicts (each row is built when asked for, a fresh
``dict`` every time): ``atoms[i]["x"]``, ``for a in atoms``, ``atoms[a:b]`` (only the
rows of that slice are built) and ``json``-ready :meth:`to_records` keep working for
code that reads records, while writing into such a dict changes nothing stored. Code
that edits goes through the table methods or hands :func:`tables_of` a list of records.

:class:`BondTable` lives in :mod:`molforma.document.bond_table` (re-exported here); the
pieces both tables use (read-only columns, ids) in :mod:`molforma.document.columns`.

Columns of :class:`AtomTable`:

``ids`` int64
    the number of each stable id (``"a17"`` is 17), unique.
``z`` uint8
    atomic numbers 1..118.
``xyz`` float64 (N, 3)
    positions in Ångström.
``charge`` int8, ``unpaired`` uint8, ``fixed`` bool
    formal charge, unpaired electrons, fixed flag.
``mass_number`` uint16
    0 where the atom has none.
``mass`` float64
    NaN where the atom has none.
``names`` object array or None
    None while no atom has a name (the common case costs nothing).
``extra`` dict id -> dict
    the fields of an atom the columns do not hold (unknown keys of a newer file, kept
    through every edit), and a standard value written as another JSON type than its
    column's (``"z": 1`` stays ``1``, not ``1.0``), both sparse.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, overload

import numpy as np

from molforma.document import elements
from molforma.document.bond_table import BOND_KEYS as BOND_KEYS
from molforma.document.bond_table import BondTable as BondTable
from molforma.document.columns import (
    IDS,
    RecordTable,
    frozen,
    int_id,
    int_ids,
    same_column,
)

ATOM_KEYS: Final = (
    "id",
    "element",
    "x",
    "y",
    "z",
    "name",
    "formalCharge",
    "unpairedElectrons",
    "massNumber",
    "mass",
    "fixed",
)
_STANDARD = frozenset(ATOM_KEYS)
# Symbols by atomic number (index 0 unused) as one array: a column of symbols is a take.
_SYMBOL_OF = np.array(
    ["", *(elements.symbol_of(z) for z in range(1, elements.MAX_Z + 1))], dtype=object
)
_Z_OF = {s: z for z, s in enumerate(_SYMBOL_OF.tolist()) if s}


_ALL_KEYS = operator.itemgetter(*ATOM_KEYS)


def _plain_columns(records: Sequence[Mapping[str, Any]]) -> AtomTable | None:
    """:meth:`AtomTable.from_records` for the usual records (the eleven standard keys and
    nothing else, floats for coordinates, no mass): column by column, in C; None for
    anything else (the record-by-record path decides)."""
    try:
        if set(map(len, records)) != {11}:
            return None
        cols = list(zip(*map(_ALL_KEYS, records), strict=True))
    except (KeyError, TypeError):
        return None
    ids, syms, xs, ys, zs, names, fcs, ues, mns, ms, fixed = cols
    joined = "\n".join(ids) + "\n" if set(map(type, ids)) == {str} else ""
    if not IDS.fullmatch(joined) or joined.count("\n") != len(ids):
        return None
    if set(map(type, xs)) | set(map(type, ys)) | set(map(type, zs)) != {float}:
        return None
    if set(map(type, fcs)) | set(map(type, ues)) != {int} or set(map(type, fixed)) != {bool}:
        return None
    if set(mns) != {None} or set(ms) != {None} or set(map(type, names)) != {str}:
        return None
    try:
        z = np.fromiter(map(_Z_OF.__getitem__, syms), np.uint8, count=len(syms))
    except KeyError:
        return None
    charge = np.array(fcs, dtype=np.int64)
    unpaired = np.array(ues, dtype=np.int64)
    if charge.min() < -128 or charge.max() > 127 or unpaired.min() < 0 or unpaired.max() > 255:
        return None
    id_numbers = np.fromiter(map(int, [i[1:] for i in ids]), np.int64, count=len(ids))
    xyz = np.empty((len(ids), 3))
    xyz[:, 0], xyz[:, 1], xyz[:, 2] = xs, ys, zs
    return AtomTable(
        id_numbers,
        z,
        xyz,
        charge=charge,
        unpaired=unpaired,
        fixed=np.array(fixed, dtype=bool),
        names=np.array(names, dtype=object) if any(names) else None,
    )


class AtomTable(RecordTable):
    """Atoms of a structure as read-only columns; a read-only sequence of atom dicts.

    Build one with :meth:`from_records` (atom dicts as docs/reference/project-file.md, Atoms spells them)
    or :meth:`from_columns`; derive others with :meth:`with_xyz`, :meth:`take`,
    :meth:`delete` and :meth:`shared_with`. Instances are never changed.
    """

    __slots__ = (
        "_index",
        "charge",
        "extra",
        "fixed",
        "ids",
        "mass",
        "mass_number",
        "names",
        "unpaired",
        "xyz",
        "z",
    )

    ids: np.ndarray
    z: np.ndarray
    xyz: np.ndarray
    charge: np.ndarray
    unpaired: np.ndarray
    fixed: np.ndarray
    mass_number: np.ndarray
    mass: np.ndarray
    names: np.ndarray | None
    extra: Mapping[int, Mapping[str, Any]]

    def __init__(
        self,
        ids: np.ndarray,
        z: np.ndarray,
        xyz: np.ndarray,
        *,
        charge: np.ndarray | None = None,
        unpaired: np.ndarray | None = None,
        fixed: np.ndarray | None = None,
        mass_number: np.ndarray | None = None,
        mass: np.ndarray | None = None,
        names: np.ndarray | None = None,
        extra: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        n = len(ids)
        self.ids = frozen(np.asarray(ids, dtype=np.int64))
        self.z = frozen(np.asarray(z, dtype=np.uint8))
        xyz = np.asarray(xyz, dtype=np.float64)
        self.xyz = frozen(xyz if xyz.shape == (n, 3) else xyz.reshape(n, 3))
        self.charge = frozen(
            np.zeros(n, np.int8) if charge is None else np.asarray(charge, dtype=np.int8)
        )
        self.unpaired = frozen(
            np.zeros(n, np.uint8) if unpaired is None else np.asarray(unpaired, dtype=np.uint8)
        )
        self.fixed = frozen(np.zeros(n, bool) if fixed is None else np.asarray(fixed, bool))
        self.mass_number = frozen(
            np.zeros(n, np.uint16)
            if mass_number is None
            else np.asarray(mass_number, dtype=np.uint16)
        )
        self.mass = frozen(
            np.full(n, np.nan) if mass is None else np.asarray(mass, dtype=np.float64)
        )
        self.names = None if names is None else frozen(np.asarray(names, dtype=object))
        self.extra = extra if extra is not None else {}
        self._index: np.ndarray | None = None
        for col in (self.z, self.charge, self.unpaired, self.fixed, self.mass_number, self.mass):
            if len(col) != n:
                raise ValueError("columns of different lengths")
        if self.names is not None and len(self.names) != n:
            raise ValueError("columns of different lengths")

    # -- building ----------------------------------------------------------------------
    @classmethod
    def empty(cls) -> AtomTable:
        """No atoms."""
        return cls(np.zeros(0, np.int64), np.zeros(0, np.uint8), np.zeros((0, 3)))

    @classmethod
    def from_columns(
        cls,
        ids: Iterable[int] | np.ndarray,
        symbols: Sequence[str] | np.ndarray,
        xyz: np.ndarray,
        **columns: Any,
    ) -> AtomTable:
        """A table from id numbers, element symbols and positions (other columns by name).

        Raises:
            ValueError: a symbol that is no element.
        """
        syms = np.asarray(symbols, dtype=object)
        try:
            z = np.fromiter(map(_Z_OF.__getitem__, syms.tolist()), dtype=np.uint8, count=len(syms))
        except KeyError as exc:
            raise ValueError(f"not an element: {exc}") from exc
        return cls(np.asarray(ids, dtype=np.int64), z, xyz, **columns)

    @classmethod
    def from_records(cls, records: Sequence[Mapping[str, Any]]) -> AtomTable:
        """A table from atom dicts of docs/reference/project-file.md, Atoms (already checked by its rules).

        Raises:
            ValueError: a record the columns cannot hold (a bad id, element or type).
        """
        n = len(records)
        if n == 0:
            return cls.empty()
        fast = _plain_columns(records)
        if fast is not None:
            return fast
        try:
            ids = np.fromiter(map(int_id, (r["id"] for r in records)), np.int64, count=n)
            z = np.fromiter(
                map(_Z_OF.__getitem__, (r["element"] for r in records)), np.uint8, count=n
            )
            xyz = np.fromiter(
                itertools.chain.from_iterable((r["x"], r["y"], r["z"]) for r in records),
                np.float64,
                count=3 * n,
            )
            charge = np.array([r.get("formalCharge", 0) for r in records], dtype=np.int64)
            unpaired = np.array([r.get("unpairedElectrons", 0) for r in records], np.int64)
            fixed_list = [r.get("fixed", False) for r in records]
            mn_list = [r.get("massNumber") for r in records]
            mass_list = [r.get("mass") for r in records]
            name_list = [r.get("name", "") for r in records]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"an atom record the columns cannot hold: {exc}") from exc
        if set(map(type, fixed_list)) - {bool}:
            raise ValueError("fixed must be true or false")
        if charge.min() < -128 or charge.max() > 127 or unpaired.min() < 0 or unpaired.max() > 255:
            raise ValueError("a formal charge or unpaired count out of range")
        if set(map(type, name_list)) - {str}:
            raise ValueError("a name that is not text")
        mass_number = np.array([0 if v is None else v for v in mn_list], dtype=np.int64)
        if mass_number.min() < 0 or mass_number.max() > 65535:
            raise ValueError("a mass number out of range")
        mass = np.array([np.nan if v is None else v for v in mass_list], dtype=np.float64)
        names = np.array(name_list, dtype=object) if any(name_list) else None
        extra: dict[int, dict[str, Any]] = {}
        # Fields the columns do not hold, and values of another JSON type than the column's
        # (an int coordinate is saved as the int it was written as).
        odd = [
            i
            for i, r in enumerate(records)
            if len(r) != 11
            or r.keys() != _STANDARD
            or type(r["x"]) is not float
            or type(r["y"]) is not float
            or type(r["z"]) is not float
            or not (r["mass"] is None or type(r["mass"]) is float)
        ]
        for i in odd:
            r = records[i]
            more = {k: v for k, v in r.items() if k not in _STANDARD}
            for k in ("x", "y", "z", "mass"):
                v = r.get(k)
                if v is not None and type(v) is not float:
                    if isinstance(v, bool) or not isinstance(v, int):
                        raise ValueError(f"{k} of {r.get('id')!r} is not a number")
                    more[k] = v
            if more:
                extra[int(ids[i])] = more
        return cls(
            ids,
            z,
            xyz,
            charge=charge,
            unpaired=unpaired,
            fixed=np.array(fixed_list, dtype=bool),
            mass_number=mass_number,
            mass=mass,
            names=names,
            extra=extra,
        )

    # -- reading -----------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.ids)

    @property
    def symbols(self) -> np.ndarray:
        """Element symbols as an object array."""
        out: np.ndarray = _SYMBOL_OF[self.z]
        return out

    def element_counts(self) -> dict[str, int]:
        """How many atoms of each element (symbol -> count)."""
        counts = np.bincount(self.z, minlength=1)
        return {str(_SYMBOL_OF[z]): int(c) for z, c in enumerate(counts.tolist()) if c and z}

    @property
    def id_strings(self) -> list[str]:
        """The ids as the JSON spells them (``"a17"``)."""
        return [f"a{i}" for i in self.ids.tolist()]

    def to_records(self, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        """Atom dicts ``start``..``stop`` (plain, new dicts: the JSON of docs/reference/project-file.md, Atoms)."""
        sl = slice(start, stop)
        ids = self.ids[sl].tolist()
        if not ids:
            return []
        syms = _SYMBOL_OF[self.z[sl]].tolist()
        xs, ys, zs = self.xyz[sl].T.tolist()
        names = itertools.repeat("") if self.names is None else self.names[sl].tolist()
        fcs = self.charge[sl].tolist()
        ues = self.unpaired[sl].tolist()
        mns = [None if v == 0 else v for v in self.mass_number[sl].tolist()]
        ms = [None if v != v else v for v in self.mass[sl].tolist()]
        fx = self.fixed[sl].tolist()
        out = [
            {
                "id": f"a{i}",
                "element": s,
                "x": x,
                "y": y,
                "z": z,
                "name": nm,
                "formalCharge": fc,
                "unpairedElectrons": ue,
                "massNumber": mn,
                "mass": m,
                "fixed": f,
            }
            for i, s, x, y, z, nm, fc, ue, mn, m, f in zip(
                ids, syms, xs, ys, zs, names, fcs, ues, mns, ms, fx, strict=False
            )
        ]
        if self.extra:
            extra = self.extra
            for i, rec in zip(ids, out, strict=True):
                more = extra.get(i)
                if more:
                    rec.update(more)
        return out

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step != 1:
                return self.to_records()[i]
            return self.to_records(start, stop)
        n = len(self)
        j = int(i)
        if j < 0:
            j += n
        if not 0 <= j < n:
            raise IndexError("atom index out of range")
        return self.to_records(j, j + 1)[0]

    def __repr__(self) -> str:
        return f"AtomTable({len(self)} atoms)"

    def index_of(self, id_numbers: np.ndarray | Sequence[int]) -> np.ndarray:
        """Rows of the given id numbers (-1 where no atom has that id)."""
        if self._index is None:
            self._index = np.argsort(self.ids, kind="stable")
        q = np.asarray(id_numbers, dtype=np.int64)
        if not len(self):
            return np.full(q.shape, -1, np.int64)
        pos = np.searchsorted(self.ids, q, sorter=self._index)
        pos = np.minimum(pos, len(self) - 1)
        rows: np.ndarray = self._index[pos]
        return np.where(self.ids[rows] == q, rows, -1)

    def rows_of(self, ids: Iterable[Any]) -> np.ndarray:
        """Rows of ids spelled as in JSON (``"a3"``); -1 for anything not an atom here."""
        return self.index_of(int_ids(ids))

    def arrays(self) -> list[np.ndarray]:
        """Every column (what an undo step may keep)."""
        cols = [
            self.ids,
            self.z,
            self.xyz,
            self.charge,
            self.unpaired,
            self.fixed,
            self.mass_number,
            self.mass,
        ]
        if self.names is not None:
            cols.append(self.names)
        return cols

    # -- deriving ----------------------------------------------------------------------
    def _replace(self, **cols: Any) -> AtomTable:
        fields: dict[str, Any] = {
            "charge": self.charge,
            "unpaired": self.unpaired,
            "fixed": self.fixed,
            "mass_number": self.mass_number,
            "mass": self.mass,
            "names": self.names,
            "extra": self.extra,
        }
        ids = cols.pop("ids", self.ids)
        z = cols.pop("z", self.z)
        xyz = cols.pop("xyz", self.xyz)
        fields.update(cols)
        out = AtomTable(ids, z, xyz, **fields)
        if ids is self.ids:
            out._index = self._index
        return out

    def with_xyz(self, xyz: np.ndarray) -> AtomTable:
        """The same atoms at ``xyz`` (every other column shared)."""
        xyz = np.asarray(xyz, dtype=np.float64)
        if xyz.shape != self.xyz.shape:
            raise ValueError("positions of another shape")
        extra = self.extra
        if extra and any(k in ("x", "y", "z") for more in extra.values() for k in more):
            # a moved atom's position is the float it was moved to
            extra = {
                i: m
                for i, m in (
                    (i, {k: v for k, v in more.items() if k not in ("x", "y", "z")})
                    for i, more in extra.items()
                )
                if m
            }
        return self._replace(xyz=xyz, extra=extra)

    def with_ids(self, ids: np.ndarray) -> AtomTable:
        """The same atoms under other ids (a structure numbered into a document)."""
        ids = np.asarray(ids, dtype=np.int64)
        if ids.shape != self.ids.shape:
            raise ValueError("ids of another length")
        extra = self.extra
        if extra:
            new_of = dict(zip(self.ids.tolist(), ids.tolist(), strict=True))
            extra = {new_of[i]: m for i, m in extra.items()}
        out = self._replace(ids=ids, extra=extra)
        out._index = None
        return out

    def take(self, rows: np.ndarray) -> AtomTable:
        """The atoms at ``rows`` (in that order)."""
        rows = np.asarray(rows, dtype=np.int64)
        ids = self.ids[rows]
        keep = set(ids.tolist()) if self.extra else set()
        return AtomTable(
            ids,
            self.z[rows],
            self.xyz[rows],
            charge=self.charge[rows],
            unpaired=self.unpaired[rows],
            fixed=self.fixed[rows],
            mass_number=self.mass_number[rows],
            mass=self.mass[rows],
            names=None if self.names is None else self.names[rows],
            extra={i: m for i, m in self.extra.items() if i in keep},
        )

    def concat(self, other: AtomTable) -> AtomTable:
        """These atoms, then ``other``'s (ids must stay distinct; the caller checks)."""
        if not len(other):
            return self
        names = None
        if self.names is not None or other.names is not None:
            names = np.concatenate(
                [
                    t.names if t.names is not None else np.full(len(t), "", dtype=object)
                    for t in (self, other)
                ]
            )
        return AtomTable(
            np.concatenate([self.ids, other.ids]),
            np.concatenate([self.z, other.z]),
            np.concatenate([self.xyz, other.xyz]),
            charge=np.concatenate([self.charge, other.charge]),
            unpaired=np.concatenate([self.unpaired, other.unpaired]),
            fixed=np.concatenate([self.fixed, other.fixed]),
            mass_number=np.concatenate([self.mass_number, other.mass_number]),
            mass=np.concatenate([self.mass, other.mass]),
            names=names,
            extra={**self.extra, **other.extra} if other.extra else self.extra,
        )

    def delete(self, rows: np.ndarray) -> AtomTable:
        """Without the atoms at ``rows`` (the rest keep their order)."""
        keep = np.ones(len(self), bool)
        keep[np.asarray(rows, dtype=np.int64)] = False
        return self.take(np.flatnonzero(keep))

    def shared_with(self, old: AtomTable) -> AtomTable:
        """This table with every column equal to ``old``'s replaced by ``old``'s array.

        Undo keeps what an edit changed: after an edit that rebuilt the table from records,
        the columns it left equal are ``old``'s own arrays again.
        """
        if len(old) != len(self):
            return self
        if self.extra == old.extra and all(
            same_column(a, b) for a, b in zip(self._core(), old._core(), strict=True)
        ):
            return old
        cols = {
            name: (o if same_column(s, o) else s)
            for name, s, o in zip(_CORE_NAMES, self._core(), old._core(), strict=True)
        }
        extra = old.extra if self.extra == old.extra else self.extra
        out = AtomTable(
            cols["ids"],
            cols["z"],
            cols["xyz"],
            charge=cols["charge"],
            unpaired=cols["unpaired"],
            fixed=cols["fixed"],
            mass_number=cols["mass_number"],
            mass=cols["mass"],
            names=cols["names"],
            extra=extra,
        )
        if out.ids is old.ids:
            out._index = old._index
        return out

    def _core(self) -> tuple[Any, ...]:
        return (
            self.ids,
            self.z,
            self.xyz,
            self.charge,
            self.unpaired,
            self.fixed,
            self.mass_number,
            self.mass,
            self.names,
        )


_CORE_NAMES = ("ids", "z", "xyz", "charge", "unpaired", "fixed", "mass_number", "mass", "names")


class DocumentBlock(dict[str, Any]):
    """A project's ``document`` block holding column tables, which JSON encoders see as
    the lists of records docs/reference/project-file.md, The envelope defines.

    ``json.dumps`` (with or without ``indent`` / ``sort_keys``) asks a dict subclass for
    its ``items()``: here a table comes out as its records, so ``json.dumps(project)``
    writes the project file unchanged. Everything else (``doc["atoms"]``, ``dict(doc)``,
    ``{**doc}``) sees the tables themselves.
    """

    __slots__ = ()

    def items(self) -> Any:
        """Key, value pairs with tables as lists of records (the JSON view)."""
        return [
            (k, v.to_records() if isinstance(v, AtomTable | BondTable) else v)
            for k, v in dict.items(self)
        ]


def tables_of(atoms: Any, bonds: Any) -> tuple[AtomTable, BondTable] | None:
    """``atoms`` and ``bonds`` as tables (as they are when they are tables already), or
    None when some record is one the columns cannot hold (it stays a list then)."""
    try:
        at = atoms if isinstance(atoms, AtomTable) else AtomTable.from_records(atoms)
        bt = bonds if isinstance(bonds, BondTable) else BondTable.from_records(bonds)
    except (ValueError, OverflowError):
        return None
    return at, bt


def as_table_project(project: dict[str, Any]) -> dict[str, Any]:
    """``project`` (envelope dict) with its atoms and bonds as tables: a new envelope and
    document dict when they were lists (the caller's dicts are left alone), ``project``
    itself when they are tables already or cannot be (a record the columns cannot hold)."""
    doc = project.get("document")
    if not isinstance(doc, dict):
        return project
    atoms, bonds = doc.get("atoms"), doc.get("bonds")
    if isinstance(atoms, AtomTable) and isinstance(bonds, BondTable):
        if type(doc) is DocumentBlock:
            return project
        return {**project, "document": DocumentBlock(doc)}
    if not isinstance(atoms, AtomTable | list) or not isinstance(bonds, BondTable | list):
        return project
    tables = tables_of(atoms, bonds)
    if tables is None:
        return project
    out = dict(project)
    out["document"] = DocumentBlock({**doc, "atoms": tables[0], "bonds": tables[1]})
    return out


def plain_project(project: Mapping[str, Any]) -> dict[str, Any]:
    """``project`` with its tables as lists of records (for encoders without a hook)."""
    doc = project.get("document")
    out = dict(project)
    if isinstance(doc, dict):
        out["document"] = {
            k: (v.to_records() if isinstance(v, AtomTable | BondTable) else v)
            for k, v in dict.items(doc)
        }
    return out


def table_bytes(project: Mapping[str, Any], seen: set[int]) -> int:
    """Bytes of the arrays of ``project``'s tables that are not in ``seen`` (ids of arrays
    counted already), adding them to ``seen``. An undo step costs what it does not share."""
    doc = project.get("document")
    if not isinstance(doc, dict):
        return 0
    total = 0
    for table in (doc.get("atoms"), doc.get("bonds")):
        if isinstance(table, AtomTable | BondTable):
            for arr in table.arrays():
                base = arr if arr.base is None else arr.base
                if id(base) not in seen:
                    seen.add(id(base))
                    total += arr.nbytes if arr.dtype != object else 8 * arr.size + 64 * arr.size
        elif isinstance(table, list) and id(table) not in seen:  # records, not columns
            seen.add(id(table))
            total += 1000 * len(table)
    return total
