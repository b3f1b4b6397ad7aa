"""The one NWChem lexer (molforma.nwchem.lexer) and its three users agreeing with it."""

from __future__ import annotations

import inspect

import pytest

from molforma.formats import nwchem_input
from molforma.history import nwfiles
from molforma.history.nwfiles import summarize_input
from molforma.nwchem import constraints, lexer, protected_text
from molforma.nwchem.lexer import (
    block_end,
    cut_comment,
    join_continuations,
    split_statements,
    statements,
    walk,
)
from molforma.nwchem.protected_text import find_directives


def test_comment_is_cut_at_hash() -> None:
    assert cut_comment("charge 1 # the cation") == "charge 1 "
    assert cut_comment("# whole line") == ""
    assert cut_comment("no comment") == "no comment"


def test_hash_inside_quotes_is_text() -> None:
    assert cut_comment('title "run #3" # note') == 'title "run #3" '
    # Without the quoting rule (one of the protected-text readings) it is a comment.
    assert cut_comment('title "run #3"', quotes=False) == 'title "run '


def test_escaped_characters_are_text_when_escapes_count() -> None:
    assert split_statements("title x\\; task", escapes=True) == ["title x\\; task"]
    assert split_statements("title x\\; task") == ["title x\\", " task"]
    assert cut_comment("a \\# b", escapes=True) == "a \\# b"


def test_semicolons_split_statements_outside_quotes() -> None:
    assert split_statements("scf; triplet; end") == ["scf", " triplet", " end"]
    assert split_statements('title "a;b" ; charge 0') == ['title "a;b" ', " charge 0"]
    assert split_statements("a;b # c;d") == ["a", "b "]
    assert split_statements("a;b # c;d", comments=False) == ["a", "b # c", "d"]


def test_continuation_joins_lines_with_a_blank() -> None:
    assert join_continuations(["task \\", "scf energy", "end"]) == [
        (0, 2, "task  scf energy"),
        (2, 3, "end"),
    ]
    # The backslash is read as the glue (NWChem: a blank); blanks after it do not matter.
    assert join_continuations(["tas\\  ", "k"], glue="") == [(0, 2, "task")]
    # The record buffer cuts each line and the joined text.
    assert join_continuations(["abcdef\\", "ghij"], limit=8) == [(0, 2, "abcdef g")]
    # Only the given blanks count before the backslash (a form feed is not one to NWChem).
    assert join_continuations(["a \\\f", "b"], blanks=" \t\r") == [(0, 1, "a \\\f"), (1, 2, "b")]
    assert join_continuations(["last \\"]) == [(0, 1, "last \\")]


def test_statements_read_comments_continuations_and_semicolons() -> None:
    text = (
        '\ufefftitle "a # b"  # comment\n'
        "geometry units angstrom \\\n"
        "  noautosym\n"
        "  O 0 0 0 ; H 0 0 1\n"
        "end\n"
        "\n"
        "TASK scf energy\n"
    )
    assert statements(text) == [
        (1, 'title "a # b"'),
        (2, "geometry units angstrom    noautosym"),
        (4, "O 0 0 0"),
        (4, "H 0 0 1"),
        (5, "end"),
        (7, "TASK scf energy"),
    ]


def test_end_closes_the_nested_block_first() -> None:
    stmts = statements(
        "geometry\n O 0 0 0\n ZCOORD\n  bond 1 2 constant\n END\n"
        " H 0 0 1\nend\nscf\n triplet\nend\nend\ntask scf\n"
    )
    walked = [(s.kind, s.path, s.key) for s in walk(stmts)]
    assert walked == [
        ("open", ("geometry",), "geometry"),
        ("statement", ("geometry",), "o"),
        ("open", ("geometry", "zcoord"), "zcoord"),
        ("statement", ("geometry", "zcoord"), "bond"),
        ("end", ("geometry", "zcoord"), "end"),
        ("statement", ("geometry",), "h"),
        ("end", ("geometry",), "end"),
        ("open", ("scf",), "scf"),
        ("statement", ("scf",), "triplet"),
        ("end", ("scf",), "end"),
        ("statement", (), "end"),  # a stray end at the top level closes nothing
        ("statement", (), "task"),
    ]
    assert block_end(stmts, 0) == 6
    assert block_end(stmts, 7) == 9
    assert block_end(statements("dft\n xc b3lyp\n"), 0) is None


def test_zmatrix_sections_end_with_their_zmatrix() -> None:
    stmts = statements("geometry\n zmatrix\n O\n H 1 r\n variables\n r 0.96\n end\nend\n")
    walked = [(s.kind, s.path, s.section) for s in walk(stmts)]
    assert walked[4] == ("statement", ("geometry", "zmatrix"), "variables")
    assert walked[5] == ("statement", ("geometry", "zmatrix"), "variables")
    assert walked[6] == ("end", ("geometry", "zmatrix"), "variables")
    assert walked[7] == ("end", ("geometry",), None)


def test_keywords_ignore_case() -> None:
    stmts = statements("GEOMETRY\n O 0 0 0\nEnd\n")
    assert [s.kind for s in walk(stmts)] == ["open", "statement", "end"]
    assert [s.block for s in walk(stmts)] == ["geometry", "geometry", "geometry"]


@pytest.mark.parametrize("module", [nwchem_input, protected_text, nwfiles, constraints])
def test_every_reader_uses_the_one_lexer(module: object) -> None:
    """No reader keeps a comment or statement cutter of its own."""
    source = inspect.getsource(module)  # type: ignore[arg-type]
    assert "molforma.nwchem.lexer import" in source
    assert "def _strip_comment" not in source
    assert "_BLOCKS = " not in source
    assert "quoted = not quoted" not in source


def test_the_three_readers_agree_on_a_hash_in_quotes_and_a_nested_end() -> None:
    text = (
        'title "water #2; a test"\n'
        "geometry units angstrom\n"
        " O 0 0 0\n"
        " zcoord\n  bond 1 2 0.96 oh constant\n end\n"
        " H 0 0 0.96\n H 0.93 0 -0.24\n"
        "end\n"
        "basis; * library 6-31g ; end\n"
        'scf; triplet; end   # a comment; task shell "touch x"\n'
        "task scf energy\n"
    )
    assert find_directives(text) == []
    summary = summarize_input(text)
    assert summary.title == "water #2; a test"
    assert summary.elements == ("O", "H", "H")
    assert summary.basis == "6-31g"
    assert summary.multiplicity == 3
    assert summary.task == "energy"
    structure = nwchem_input.read_nwchem(text)
    assert structure.title == "water #2; a test"
    assert structure.multiplicity == 3
    # The reader keeps the atoms before the zcoord part (its constraints are read apart).
    assert [a["element"] for a in structure.atoms][:1] == ["O"]


def test_lexer_has_no_qt_and_no_io() -> None:
    source = inspect.getsource(lexer)
    assert "PySide6" not in source and "open(" not in source
