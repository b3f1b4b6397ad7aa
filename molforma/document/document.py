"""Document: confirmed project, candidate, revision, shared undo history (no Qt).

Every change goes through :meth:`Document.edit` (or load/undo/redo/confirm/cancel):
an edit function receives a private copy of the confirmed project, changes it and
reports the ids it touched; the result is checked and only then becomes the
candidate (``preview``) or the new confirmed project. A failing edit therefore
changes nothing. States are never mutated after they are stored, so undo and
redo swap references and restore a project byte for byte.

The window and the MCP server share one Document and one history; a lock makes
every operation atomic across the MCP thread and the GUI thread. Listeners hear of
a change (a :class:`~molforma.document.changes.Change` flag) only once the lock is
released, so a listener that waits for another thread can never hold up an edit.

Stored states hold their atoms and bonds as column tables
(:mod:`molforma.document.molecule`) and share every column, table and block that an
edit left equal (:func:`~molforma.document.changes.share_unchanged`): an undo step
costs what the edit changed (a rigid move: one coordinate array), not a copy of the
project. The history has a step limit and a byte budget (:data:`UNDO_BYTE_BUDGET`,
the arrays a step does not share with the state after it); the oldest steps go first.
"""

from __future__ import annotations

import itertools
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from molforma.document.changes import Change, share_unchanged
from molforma.document.edit_ids import _capped, _id_sets
from molforma.document.edit_ids import first_ids as first_ids  # the tools import it here
from molforma.document.envelope import (
    Project,
    atoms_of,
    check_contacts,
    check_settings,
    check_structure,
    clone_project,
    first_free_id,
    formula,
    new_project,
)
from molforma.document.locking import DocumentLock
from molforma.document.tabletypes import is_atom_table, tables_loaded
from molforma.errors import BusyError, CandidateExistsError, MolFormaError, StaleRevisionError
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.document import molecule
else:  # imported on first use (start-up time, numpy): molforma.lazy
    molecule = lazy_import("molforma.document.molecule")

log = logging.getLogger(__name__)

Origin = Literal["user", "mcp", "launch", "system"]
Listener = Callable[["Document", Change], None]
HEADLESS_UNDO_LIMIT = 100
# Bytes the undo history may keep beyond the current state (the oldest steps go first;
# the newest step stays whatever its size): 100 moves of a million atoms fit in it.
UNDO_BYTE_BUDGET = 3 * 1024**3

# Revisions are unique in the process, so a revision never returns to an earlier value
# even when the content does (undo), and two documents never share one.
_REVISIONS = itertools.count(1)


def _next_revision() -> str:
    return f"r{next(_REVISIONS)}"


@dataclass
class EditResult:
    """What an edit function reports about the copy it changed."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    touched: list[str] | None = None  # atoms whose distances must be re-checked; None = all
    structure: bool = True  # False: settings-only edit, no structure check needed
    coords_only: bool = False  # True: only positions of `touched` changed (checked already)
    # What the edit function checked itself (a reader that built every atom and bond by
    # the document's rules): "atoms" = ids, atom fields and bonds; "all" = also contacts.
    checked: Literal["", "atoms", "all"] = ""
    info: dict[str, Any] = field(default_factory=dict)  # extra output of the edit


EditFn = Callable[[Project], EditResult]


@dataclass
class _Step:
    label: str
    origin: Origin
    before: Project
    after: Project
    change: Change  # what the step changed (undo and redo change the same parts)
    # The window's own file name on each side: undoing an Open must not leave Save
    # pointing at the opened file while the document holds the previous molecule.
    path_before: str | None = None
    path_after: str | None = None
    nbytes: int = 0  # arrays of ``before`` that ``after`` does not share


@dataclass
class _Candidate:
    project: Project
    origin: Origin  # who made it: a person's confirm never trusts what MCP proposed
    label: str
    trust: bool
    change: Change  # what confirming it changes in the project


def _as_table_project(project: Project) -> Project:
    doc = project.get("document")
    if (
        isinstance(doc, dict)
        and not doc.get("atoms")
        and not doc.get("bonds")
        and not tables_loaded()
    ):
        return project  # an empty molecule: lists until the first structure comes
    return molecule.as_table_project(project)


def summary_of(p: Project | None) -> dict[str, Any] | None:
    """``{"formula", "atomCount"}`` of a project, or None."""
    if p is None:
        return None
    atoms = atoms_of(p)
    return {"formula": formula(atoms), "atomCount": len(atoms)}


class Document:
    """One document of the process: project, optional candidate, history, revision."""

    def __init__(
        self,
        project: Project | None = None,
        *,
        path: str | None = None,
        undo_limit: int | None = HEADLESS_UNDO_LIMIT,
    ) -> None:
        self.id = "doc-" + secrets.token_hex(4)
        self.path = path
        self._project: Project = _as_table_project(
            project if project is not None else new_project()
        )
        self._cand: _Candidate | None = None
        self._undo: list[_Step] = []
        self._redo: list[_Step] = []
        self._undo_limit = undo_limit
        self.undo_byte_budget = UNDO_BYTE_BUDGET
        self._revision = _next_revision()
        self._busy: str | None = None
        # Highest atom id number ever handed out: undo restores an older nextAtomId, but an
        # id that named an atom once is never given to another one (docs/reference/document.md, Atom ids).
        self._id_high = int(self._project["document"].get("nextAtomId", 1))
        self.modified = False
        # Values of protected settings last set by the person (docs/reference/safety.md, Trusted values).
        self.trusted: dict[str, Any] = protected_values(self._project)
        self.lock = DocumentLock(self._deliver)
        self._listeners: list[Listener] = []
        # Formula and atom count of stored states, which are never mutated: asking again
        # (list_documents, get_document include []) costs nothing at any size.
        self._summaries: dict[int, tuple[list[Any], dict[str, Any]]] = {}

    # -- reading ---------------------------------------------------------------------------
    @property
    def revision(self) -> str:
        """Opaque revision string; changes on every change and never returns."""
        return self._revision

    @property
    def project(self) -> Project:
        """The confirmed project (never mutate it)."""
        return self._project

    def first_free_id(self) -> int:
        """The number of the first atom id a structure loaded now gets (ids are never
        reused, not even those of undone atoms)."""
        with self.lock:
            return max(first_free_id(self._project["document"]), self._id_high)

    @property
    def candidate(self) -> Project | None:
        """The candidate project, if any (never mutate it)."""
        return self._cand.project if self._cand is not None else None

    @property
    def candidate_origin(self) -> Origin | None:
        """Who made the candidate: 'user' (window) or 'mcp'."""
        return self._cand.origin if self._cand is not None else None

    @property
    def can_undo(self) -> bool:
        """True when there is a step to undo and no candidate blocks it."""
        return bool(self._undo) and self._cand is None

    @property
    def can_redo(self) -> bool:
        """True when there is a step to redo and no candidate blocks it."""
        return bool(self._redo) and self._cand is None

    @property
    def undo_limit(self) -> int | None:
        """The most undo steps kept (None: no step limit; the byte budget still holds)."""
        return self._undo_limit

    @property
    def undo_bytes(self) -> int:
        """Bytes the undo steps keep beyond the current state (see :data:`UNDO_BYTE_BUDGET`)."""
        return sum(s.nbytes for s in self._undo)

    @property
    def undo_labels(self) -> list[str]:
        """Labels of the undo steps, oldest first."""
        return [s.label for s in self._undo]

    @property
    def redo_labels(self) -> list[str]:
        """Labels of the redo steps, the next one last."""
        return [s.label for s in self._redo]

    @property
    def title(self) -> str:
        """The molecule title."""
        return str(self._project["document"].get("title", ""))

    def stored_summary(self, p: Project | None) -> dict[str, Any] | None:
        """:func:`summary_of` a stored state (the project or the candidate), cached."""
        if p is None:
            return None
        # Keyed by the atom list, which states share while their atoms stay the same:
        # a settings edit asks for the formula of 10,000 atoms again at no cost.
        atoms = atoms_of(p)
        hit = self._summaries.get(id(atoms))
        if hit is not None and hit[0] is atoms:
            return dict(hit[1])
        value = summary_of(p)
        assert value is not None
        self._remember_summary(atoms, value)
        return dict(value)

    def _remember_summary(self, atoms: list[Any], value: dict[str, Any]) -> None:
        if len(self._summaries) >= 8:
            self._summaries.pop(next(iter(self._summaries)))
        self._summaries[id(atoms)] = (atoms, value)  # the reference keeps the id from reuse

    def _keep_summary(self, before: Project, after: Project) -> None:
        """Let ``after``, whose atoms differ from ``before``'s only in position, reuse its
        cached summary (formula and count do not depend on where atoms are)."""
        old, new = atoms_of(before), atoms_of(after)
        if new is not old and len(new) == len(old):
            value = self.stored_summary(before)
            assert value is not None
            self._remember_summary(new, value)

    def summary(
        self, *, added: Iterable[str] = (), removed: Iterable[str] = (), changed: Iterable[str] = ()
    ) -> dict[str, Any]:
        """The edit summary of docs/reference/document.md, The edit summary."""
        a, ta = _capped(added)
        r, tr = _capped(removed)
        c, tc = _capped(changed)
        return {
            "revision": self._revision,
            "project": self.stored_summary(self._project),
            "candidate": self.stored_summary(self.candidate),
            "addedIds": a,
            "removedIds": r,
            "changedIds": c,
            "idsTruncated": ta or tr or tc,
        }

    # -- listeners -------------------------------------------------------------------------
    def subscribe(self, fn: Listener) -> Callable[[], None]:
        """Call ``fn(document, change)`` after every change; returns an unsubscribe function.

        ``fn`` runs after the document lock is released, on the thread that made the
        change; changes made on two threads at once may be told in either order, each
        after it can be seen.
        """
        self._listeners.append(fn)
        return lambda: self._listeners.remove(fn) if fn in self._listeners else None

    def _changed(self, change: Change) -> None:
        """A change happened (lock held): new revision now, listeners after the release."""
        self._revision = _next_revision()
        self.lock.queue(change)

    def _deliver(self, changes: list[Change]) -> None:
        for change in changes:
            for fn in list(self._listeners):
                try:
                    fn(self, change)
                except Exception:  # the change is made: one broken listener must not hide it
                    log.exception("document listener %r failed", fn)

    # -- guards ----------------------------------------------------------------------------
    def set_busy(self, reason: str | None) -> None:
        """While busy (geometry clean-up running), every change is refused."""
        with self.lock:
            was, self._busy = self._busy, reason
            if bool(was) != bool(reason):
                self.lock.queue(Change.BUSY)  # not an edit: the revision stays

    @property
    def busy(self) -> str | None:
        """Why edits are refused right now, or None."""
        return self._busy

    def check_revision(
        self, expected_revision: str | None, *, allow_candidate: bool = True
    ) -> None:
        """Raise what an edit would raise now (stale revision, busy, candidate) without editing.

        Callers that do slow work before an edit (reading a large file, starting a
        calculation) use it to fail fast.
        """
        with self.lock:
            self._check(expected_revision, allow_candidate=allow_candidate)

    def _check(self, expected_revision: str | None, *, allow_candidate: bool = False) -> None:
        if expected_revision is not None and expected_revision != self._revision:
            raise StaleRevisionError(expected=expected_revision, actual=self._revision)
        if self._busy:
            raise BusyError(detail=self._busy)
        if self._cand is not None and not allow_candidate:
            raise CandidateExistsError()

    # -- changing --------------------------------------------------------------------------
    def edit(
        self,
        fn: EditFn,
        *,
        label: str,
        expected_revision: str | None = None,
        preview: bool = True,
        origin: Origin = "user",
        trust: bool = True,
        replaces_structure: bool = False,
        load: bool = False,
        positions_only: bool = False,
        tables: bool = False,
    ) -> dict[str, Any]:
        """Run edit ``fn`` on a copy; make it the candidate or apply it as one undo step.

        ``trust=False`` keeps the trusted execution values even when the person made the
        edit: a loaded project or a reused job may carry values nobody chose here.
        ``replaces_structure``: ``fn`` replaces the atom and bond lists wholesale and never
        changes the old ones, so they are not copied for it (loading a 10,000-atom file).
        ``load=True`` says the edit replaces the whole project (listeners get ``LOAD``).
        ``positions_only``: ``fn`` changes atom positions and nothing else, and it does so
        by putting a new atom list with new records for the moved atoms into the copy; the
        records and the bond list it gets are the stored state's own (never to be changed).
        Nothing is copied or paired for it and the formula is kept: a move of 10,000 atoms
        pays for the moved atoms only.
        ``tables``: ``fn`` works on the stored column tables (atoms and bonds) and puts new
        tables in their place, never changing them (:mod:`molforma.document.table_edits`):
        no atom record is made for it.

        Raises:
            StaleRevisionError, CandidateExistsError, BusyError, ValidationError: and
            nothing changed.
        """
        with self.lock:
            self._check(expected_revision)
            work = clone_project(
                self._project, structure=not (replaces_structure or positions_only or tables)
            )
            if tables and not is_atom_table(atoms_of(work)):
                work = molecule.as_table_project(work)  # a molecule still held as records
            wdoc = work["document"]
            wdoc["nextAtomId"] = max(int(wdoc.get("nextAtomId", 1)), self._id_high)
            res = fn(work)
            assert res.coords_only or not positions_only
            if res.coords_only:
                check_contacts(work, res.touched)
            elif res.structure:
                check_structure(work, res.touched, checked=res.checked)
            if not res.coords_only:  # a move cannot change a setting
                check_settings(work)
            self._id_high = max(self._id_high, int(work["document"]["nextAtomId"]))
            work = _tabled(self._project, work)
            work, change = share_unchanged(
                self._project,
                work,
                coords_only=res.coords_only,
                written=() if positions_only else [*res.changed, *(res.touched or ())],
                whole=replaces_structure,
                positions_only=positions_only,
            )
            if load:
                change |= Change.LOAD
            if positions_only:
                self._keep_summary(self._project, work)
            if preview:
                self._cand = _Candidate(work, origin, label, trust, change)
                self._changed(Change.CANDIDATE)
            else:
                self._push(label, origin, work, change, trust=trust)
                self._changed(change | Change.HISTORY)
            out = self.summary(added=res.added, removed=res.removed, changed=res.changed)
            if res.info:
                out["info"] = res.info
            return out

    def _push(
        self, label: str, origin: Origin, new: Project, change: Change, *, trust: bool = True
    ) -> None:
        cost = 0
        if tables_loaded():
            seen: set[int] = set()
            molecule.table_bytes(new, seen)
            cost = molecule.table_bytes(self._project, seen)
        self._undo.append(
            _Step(label, origin, self._project, new, change, self.path, self.path, cost)
        )
        if self._undo_limit is not None and len(self._undo) > self._undo_limit:
            del self._undo[: len(self._undo) - self._undo_limit]
        total = self.undo_bytes
        drop = 0
        while total > self.undo_byte_budget and drop < len(self._undo) - 1:
            total -= self._undo[drop].nbytes
            drop += 1
        del self._undo[:drop]
        self._redo.clear()
        before = self._project
        self._project = new
        self.modified = True
        if trust and origin == "launch":
            self.trusted = protected_values(new)
        elif trust and origin == "user":
            # The person vouches for what their own edit changed, nothing more: an executable
            # an MCP-driven window command put there stays untrusted through the person's
            # next unrelated edit (adding an atom), until they set it or answer Run → Yes.
            old, now = protected_values(before), protected_values(new)
            self.trusted = {k: now[k] if now[k] != old[k] else self.trusted.get(k) for k in now}

    def load(
        self,
        project: Project,
        *,
        label: str = "Load project",
        expected_revision: str | None = None,
        preview: bool = False,
        origin: Origin = "user",
    ) -> dict[str, Any]:
        """Replace the whole project (one undoable step, or a candidate)."""

        def replace(work: Project) -> EditResult:
            old_ids = first_ids(atoms_of(work))
            work.clear()
            # tables are never changed: a project of tables is taken as it is
            tabled = is_atom_table(atoms_of(project))
            work.update(clone_project(project, structure=not tabled))
            new_ids = first_ids(atoms_of(work))
            return EditResult(added=new_ids, removed=old_ids)

        return self.edit(
            replace,
            label=label,
            expected_revision=expected_revision,
            preview=preview,
            origin=origin,
            trust=origin == "launch",
            load=True,
        )

    def confirm(
        self, *, expected_revision: str | None = None, origin: Origin = "user"
    ) -> dict[str, Any]:
        """Make the candidate the confirmed project, as one undo step."""
        with self.lock:
            self._check(expected_revision, allow_candidate=True)
            cand = self._cand
            if cand is None:
                raise MolFormaError("no_candidate")
            old_atoms, new_atoms = atoms_of(self._project), atoms_of(cand.project)
            if is_atom_table(old_atoms) and is_atom_table(new_atoms):
                added, removed, _ = _id_sets(old_atoms, new_atoms)
            else:
                before = {a["id"] for a in old_atoms}
                after = {a["id"] for a in new_atoms}
                added = sorted(after - before, key=_idkey)
                removed = sorted(before - after, key=_idkey)
            self._cand = None
            # A candidate made by MCP stays untrusted even when the person confirms it.
            self._push(
                cand.label or "Confirm",
                "mcp" if cand.origin == "mcp" else origin,
                cand.project,
                cand.change,
                trust=cand.trust,
            )
            self._changed(cand.change | Change.CANDIDATE | Change.HISTORY)
            return self.summary(added=added, removed=removed)

    def cancel(self, *, expected_revision: str | None = None) -> dict[str, Any]:
        """Drop the candidate."""
        with self.lock:
            self._check(expected_revision, allow_candidate=True)
            if self._cand is None:
                raise MolFormaError("no_candidate")
            self._cand = None
            self._changed(Change.CANDIDATE)
            return self.summary()

    def undo(self, *, expected_revision: str | None = None) -> dict[str, Any]:
        """Go back one step (refused while a candidate exists)."""
        with self.lock:
            self._check(expected_revision)
            if not self._undo:
                raise MolFormaError("nothing_to_undo")
            step = self._undo.pop()
            self._redo.append(step)
            self._project = step.before
            self.path = step.path_before
            self.modified = True
            self._changed(step.change | Change.HISTORY)
            return self._diff_summary(step.after, step.before)

    def redo(self, *, expected_revision: str | None = None) -> dict[str, Any]:
        """Repeat the last undone step."""
        with self.lock:
            self._check(expected_revision)
            if not self._redo:
                raise MolFormaError("nothing_to_redo")
            step = self._redo.pop()
            self._undo.append(step)
            self._project = step.after
            self.path = step.path_after
            self.modified = True
            self._changed(step.change | Change.HISTORY)
            return self._diff_summary(step.before, step.after)

    def _diff_summary(self, old: Project, new: Project) -> dict[str, Any]:
        oa, na = atoms_of(old), atoms_of(new)
        if is_atom_table(oa) and is_atom_table(na):
            added, removed, changed = _id_sets(oa, na)
            return self.summary(added=added, removed=removed, changed=changed)
        o = {a["id"]: a for a in atoms_of(old)}
        n = {a["id"]: a for a in atoms_of(new)}
        added = [k for k in n if k not in o]
        removed = [k for k in o if k not in n]
        changed = [k for k in n if k in o and n[k] is not o[k] and n[k] != o[k]]
        return self.summary(added=added, removed=removed, changed=changed)

    def mark_saved(self, path: str | None = None) -> None:
        """The window saved the project to ``path`` (its own file name)."""
        with self.lock:
            if path is not None:
                self.path = path
                if self._undo and self._undo[-1].after is self._project:
                    self._undo[-1].path_after = path
            self.modified = False

    def forget_path(self) -> None:
        """The project is a new one and no longer names its file (File > New, an extracted
        QM region): Save asks for a name. Undo gives the file name back with the state it
        belongs to; redo forgets it again."""
        with self.lock:
            self.path = None
            if self._undo and self._undo[-1].after is self._project:
                self._undo[-1].path_after = None
            self.modified = True

    def trust_current(self) -> None:
        """Record the current protected values as trusted (file given at launch, Run → Yes)."""
        with self.lock:
            self.trusted = protected_values(self._project)

    @property
    def is_trusted(self) -> bool:
        """True when the protected values equal the trusted ones."""
        return protected_values(self._project) == self.trusted


def protected_values(p: Project) -> dict[str, Any]:
    """Executable, launcher, environment, scheduler, account, batch directives, extra input
    and extra tasks of a project (the protected values of docs/reference/safety.md, Protected settings)."""
    ex = p.get("execution", {})
    calc = p.get("calculation", {})
    return {
        "executable": ex.get("executable"),
        "launcher": ex.get("launcher"),
        "environment": dict(ex.get("environment") or {}),
        "scheduler": ex.get("scheduler", "local"),
        "account": ex.get("account"),
        "batch_directives": list(ex.get("batch_directives") or []),
        "extra_input": calc.get("extra_input", ""),
        "extra_tasks": list(calc.get("extra_tasks") or []),
    }


def _idkey(aid: str) -> int:
    return int(aid[1:]) if aid[1:].isdigit() else 0


def _tabled(old: Project, new: Project) -> Project:
    """``new`` (an edit's copy, changed in place) with its atom and bond lists made column
    tables that share every column equal to ``old``'s (an undo step keeps what changed)."""
    doc = new.get("document")
    if (
        isinstance(doc, dict)
        and not doc.get("atoms")
        and not doc.get("bonds")
        and not tables_loaded()
    ):
        return new  # still no structure: nothing to hold in columns
    doc = new.get("document")
    if not isinstance(doc, dict):
        return new
    atoms, bonds = doc.get("atoms"), doc.get("bonds")
    if isinstance(atoms, molecule.AtomTable) and isinstance(bonds, molecule.BondTable):
        if type(doc) is not molecule.DocumentBlock:
            new["document"] = molecule.DocumentBlock(doc)  # so json.dumps writes the records
        return new
    tables = molecule.tables_of(atoms, bonds)
    if tables is None:
        return new
    at, bt = tables
    odoc = old.get("document") or {}
    oat, obt = odoc.get("atoms"), odoc.get("bonds")
    if isinstance(oat, molecule.AtomTable) and at is not atoms:
        at = at.shared_with(oat)
    if isinstance(obt, molecule.BondTable) and bt is not bonds:
        bt = bt.shared_with(obt)
    doc["atoms"], doc["bonds"] = at, bt
    new["document"] = molecule.DocumentBlock(doc)
    return new
