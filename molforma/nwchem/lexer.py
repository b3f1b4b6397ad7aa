"""NWChem input text as NWChem's reader cuts it: comments, quotes, statements, blocks (no Qt).

The one home of these rules for every reader of ``.nw`` text in MolForma: the ``.nw``
file reader (:mod:`molforma.formats.nwchem_input`), the protected-text judge
(:mod:`molforma.nwchem.protected_text`, which adds NWChem's 1,024-byte records and
reads uncertain quoting every plausible way) and History's summary of a job's input
(:mod:`molforma.history.nwfiles`).

The rules (NWChem 7.0.2, see :mod:`molforma.nwchem.protected_text` for the measurements):

* ``#`` starts a comment that runs to the end of the line, except inside a ``"``
  string (``title "a#b"`` keeps ``a#b``);
* a line whose last non-blank character is ``\\`` continues on the next line, the
  backslash read as a blank;
* ``;`` ends a statement, except inside a string (``title "a;b"`` is one statement);
* keywords ignore case;
* a top-level directive of :data:`BLOCK_DIRECTIVES` opens a block that an ``end``
  statement closes; a few blocks hold blocks of their own (:data:`SUB_BLOCKS`,
  e.g. ``zcoord`` … ``end`` inside ``geometry``), whose ``end`` closes only them.
  Any other directive is one statement, so an unknown directive never swallows the
  ``task`` lines after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "BLOCK_DIRECTIVES",
    "SECTIONS",
    "SUB_BLOCKS",
    "Statement",
    "block_end",
    "cut_comment",
    "join_continuations",
    "split_statements",
    "statements",
    "walk",
]

# Top-level directives that open a block closed by ``end``.
BLOCK_DIRECTIVES = frozenset(
    {
        "geometry",
        "basis",
        "ecp",
        "so",
        "scf",
        "dft",
        "mp2",
        "driver",
        "freq",
        "vib",
        "property",
        "tddft",
        "tce",
        "ccsd",
        "mcscf",
        "python",
        "constraints",
        "cosmo",
        "esp",
        "stepper",
        "nwpw",
        "qmmm",
        "md",
        "prepare",
        "raman",
        "selci",
        "rimp2",
        "relativistic",
        "zcoord",
        "bq",
        "charge_density",
        "dplot",
        "hessian",
        "pspw",
        "band",
        "smd",
        "xtb",
        "gradients",
        "fcidump",
        "rtdft",
        "ccca",
        "mrcc",
        "direct_mp2",
        "qmd",
        "neb",
        "string",
        "mepgs",
        "bsse",
        "fragment",
        "rt_tddft",
    }
)
_SPECIAL = re.compile(r'["#;\\]')

# Blocks inside a block, each closed by its own ``end``.
SUB_BLOCKS: dict[str, frozenset[str]] = {
    "geometry": frozenset({"zmatrix", "zmt", "zcoord", "system"}),
    "nwpw": frozenset({"simulation_cell", "car-parrinello", "brillouin_zone"}),
}
# Parts of a sub-block that start with a keyword but have no ``end`` of their own: the
# sub-block's ``end`` closes them too (``zmatrix`` … ``variables`` … ``end``).
SECTIONS: dict[str, frozenset[str]] = {
    "zmatrix": frozenset({"variables", "constants"}),
    "zmt": frozenset({"variables", "constants"}),
}


def cut_comment(line: str, *, quotes: bool = True, escapes: bool = False) -> str:
    """``line`` without its ``#`` comment.

    ``quotes``: a ``#`` inside a ``"`` string is text; ``escapes``: ``\\`` makes the
    next character text. The protected-text judge tries every combination.
    """
    if "#" not in line:
        return line
    return split_statements(line, quotes=quotes, escapes=escapes, semicolons=False)[0]


def split_statements(
    record: str,
    *,
    quotes: bool = True,
    escapes: bool = False,
    comments: bool = True,
    semicolons: bool = True,
) -> list[str]:
    """The statements of one record (joined line): cut at its comment, split at ``;``.

    ``quotes`` and ``escapes`` as in :func:`cut_comment`; ``comments=False`` for a
    record whose comments were already cut line by line (the ``.nw`` reader's way),
    ``semicolons=False`` to cut the comment only. Statements are not stripped.
    """
    out: list[str] = []
    start = 0
    quoted = False
    skip_to = -1  # an escaped character is text, whatever it is
    # Only the four characters that mean something are visited (a C-speed search), so a
    # 10,000-atom geometry is cut as fast as it is split into lines.
    for match in _SPECIAL.finditer(record):
        k = match.start()
        if k < skip_to:
            continue
        ch = record[k]
        if ch == "\\":
            if escapes:
                skip_to = k + 2
        elif ch == '"':
            if quotes:
                quoted = not quoted
        elif quoted:
            continue
        elif ch == "#":
            if comments:
                out.append(record[start:k])
                return out
        elif semicolons:
            out.append(record[start:k])
            start = k + 1
    out.append(record[start:])
    return out


def join_continuations(
    lines: Sequence[str], *, glue: str = " ", limit: int | None = None, blanks: str | None = None
) -> list[tuple[int, int, str]]:
    """(first line index, index after the last line, joined text) of ``lines``.

    A line whose last character other than ``blanks`` (default: any whitespace) is
    ``\\`` continues: the backslash becomes ``glue`` and the next line follows.
    ``limit`` cuts each line, and the joined text after each join, to that many
    characters (NWChem's 1,024-byte record buffer).
    """
    out: list[tuple[int, int, str]] = []
    i = 0
    while i < len(lines):
        first = i
        buf = lines[i][:limit]
        i += 1
        while i < len(lines):
            kept = buf.rstrip(blanks)
            if not kept.endswith("\\"):
                break
            buf = (kept[:-1] + glue + lines[i])[:limit]
            i += 1
        out.append((first, i, buf))
    return out


def statements(text: str) -> list[tuple[int, str]]:
    """(line number, statement) pairs of an input text, in NWChem's reading.

    A byte-order mark is dropped, comments are cut line by line, ``\\`` continuations
    joined and statements split at ``;``; each statement is stripped and empty ones
    left out. The line number is that of the statement's first line.
    """
    raw = [cut_comment(line) for line in text.lstrip("\ufeff").splitlines()]
    out: list[tuple[int, str]] = []
    for first, _end, record in join_continuations(raw):
        for stmt in split_statements(record, comments=False):
            stmt = stmt.strip()
            if stmt:
                out.append((first + 1, stmt))
    return out


@dataclass(frozen=True)
class Statement:
    """One statement in its place among the blocks (see :func:`walk`).

    ``path`` names the open blocks around it, outermost first (a block's own opening
    and ``end`` statements included in it); ``section`` is the part of a sub-block it
    belongs to (``variables`` of a ``zmatrix``), if any.
    """

    lineno: int
    text: str
    words: tuple[str, ...]
    kind: Literal["open", "end", "statement"]
    path: tuple[str, ...]
    section: str | None = None

    @property
    def key(self) -> str:
        """The first word, lower case (NWChem's keywords ignore case)."""
        return self.words[0].lower()

    @property
    def block(self) -> str | None:
        """The outermost open block, None at the top level."""
        return self.path[0] if self.path else None


def walk(stmts: Iterable[tuple[int, str]]) -> Iterator[Statement]:
    """Each statement of ``stmts`` (from :func:`statements`) with the blocks around it.

    An ``end`` at the top level closes nothing and is an ordinary statement.
    """
    stack: list[str] = []
    section: str | None = None
    for lineno, text in stmts:
        words = tuple(text.split())
        if not words:
            continue
        key = words[0].lower()
        if key == "end" and stack:
            yield Statement(lineno, text, words, "end", tuple(stack), section)
            stack.pop()
            section = None
            continue
        parent = stack[-1] if stack else None
        opens = key in BLOCK_DIRECTIVES if parent is None else key in SUB_BLOCKS.get(parent, ())
        if opens:
            stack.append(key)
            section = None
            yield Statement(lineno, text, words, "open", tuple(stack))
            continue
        if parent is not None and key in SECTIONS.get(parent, ()):
            section = key
        yield Statement(lineno, text, words, "statement", tuple(stack), section)


def block_end(stmts: Sequence[tuple[int, str]], i: int) -> int | None:
    """Index of the ``end`` that closes the block opened at ``stmts[i]``, None if none.

    Blocks inside it (:data:`SUB_BLOCKS`) are skipped whole with their own ``end``.
    """
    depth = 0
    for j, item in enumerate(walk(stmts[i:])):
        if item.kind == "open":
            depth += 1
        elif item.kind == "end":
            depth -= 1
            if depth == 0:
                return i + j
    return None
