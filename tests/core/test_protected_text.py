"""Protected text is judged as NWChem's reader reads it (docs/reference/calculation.md and docs/reference/safety.md, Protected text).

The threat cases run the real ``nwchem`` first, with no MolForma in between, to
show that NWChem does run the shell (the canary appears) and that the model of
its reader agrees; then MolForma must refuse the same text on every way in.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from molforma.document.envelope import new_atom, new_project, project_from_json
from molforma.errors import FormatError, MolFormaError, ValidationError
from molforma.formats import read_text
from molforma.nwchem.input import input_errors, render_input
from molforma.nwchem.protected_text import (
    check_extra_input,
    check_generated_input,
    find_directives,
    nwchem_records,
)

CANARY = 'shell "touch canary"'


def _padded(junk_column: int) -> str:
    """``task \\`` padded with blanks, ``JUNK`` starting at ``junk_column`` (1-based)."""
    head = "task \\"
    return head + " " * (junk_column - 1 - len(head)) + "JUNK"


PADDED = _padded(1025) + "\n" + CANARY + "\n"
# The continued line is cut by the 1,024-byte buffer and ends in a backslash again.
TWO_LEVEL = "task \\\n" + " " * 994 + "\\" + " " * 24 + "JUNK\n" + CANARY + "\n"
MID_WORD_QUOTE = 'title a"b;task shell "touch canary"\n'
THREATS = {
    "padded continuation": PADDED,
    "continuation cut again": TWO_LEVEL,
    "quote inside a word": MID_WORD_QUOTE,
}


def water(**calc: object) -> dict:
    proj = new_project()
    proj["document"]["atoms"] = [
        new_atom("a1", "O", 0.0, 0.0, 0.1173),
        new_atom("a2", "H", 0.0, 0.7572, -0.4692),
        new_atom("a3", "H", 0.0, -0.7572, -0.4692),
    ]
    proj["document"]["nextAtomId"] = 4
    proj["calculation"].update(calc)
    return proj


def _run_nwchem(folder: Path, body: str) -> None:
    (folder / "in.nw").write_text("start t\n" + body)
    subprocess.run(
        ["nwchem", "in.nw"],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=120,
    )


@pytest.mark.parametrize("text", list(THREATS.values()), ids=list(THREATS))
def test_nwchem_runs_the_shell_of_text_a_line_filter_misses_and_molforma_refuses_it(
    text: str, tmp_path: Path
) -> None:
    run = tmp_path / "nwchem"
    run.mkdir()
    _run_nwchem(run, text)
    assert (run / "canary").exists()  # the threat is real: NWChem ran the shell
    assert [f.reason for f in find_directives(text)] == ["task_shell"]

    with pytest.raises(ValidationError) as info:
        check_extra_input(text, [])
    assert info.value.code == "forbidden_extra_input"
    assert info.value.data["reason"] == "task_shell"
    assert "task shell" in info.value.data["line"]
    with pytest.raises(ValidationError):
        render_input(water(extra_input=text))
    assert not (tmp_path / "canary").exists()


def test_the_cut_lies_after_column_1024_as_in_nwchem(tmp_path: Path) -> None:
    kept = _padded(1024) + "\n" + CANARY + "\n"  # the record keeps "J": no continuation
    run = tmp_path / "nwchem"
    run.mkdir()
    _run_nwchem(run, kept)
    assert not (run / "canary").exists()
    assert find_directives(kept) == []
    assert nwchem_records(kept)[0][1].endswith("J")
    assert nwchem_records(PADDED)[0][1].rstrip().endswith('shell "touch canary"')


def test_an_included_file_runs_its_shell_task_in_nwchem_and_include_is_refused(
    tmp_path: Path,
) -> None:
    run = tmp_path / "nwchem"
    run.mkdir()
    (run / "other.nw").write_text('task shell "touch canary"\n')
    _run_nwchem(run, "INCLUDE other.nw\n")
    assert (run / "canary").exists()

    for text, tasks in (
        ("include other.nw", []),
        ("  Include /etc/passwd\n", []),
        ("scf\nend ; include x.nw", []),
        ("", ["scf energy ; include x"]),
    ):
        with pytest.raises(ValidationError) as info:
            check_extra_input(text, tasks)
        assert info.value.code == "forbidden_extra_input"
        assert info.value.data["reason"] == "include"
    assert not (tmp_path / "canary").exists()


def test_nwchem_runs_a_python_block_with_task_python_and_both_are_refused(tmp_path: Path) -> None:
    text = 'python\n  import os\n  os.system("touch canary")\nend\ntask python\n'
    run = tmp_path / "nwchem"
    run.mkdir()
    _run_nwchem(run, text)
    assert (run / "canary").exists()
    assert [f.reason for f in find_directives(text)] == ["python", "task_python"]
    with pytest.raises(ValidationError) as info:
        render_input(water(extra_input=text))
    assert info.value.data["reason"] == "python"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("geometry\n load /etc/hosts format xyz\nend", "load"),
        ("basis\n * library 6-31g file /home/x/lib\nend", "library_file"),
        ("python\n print('x')\nend", "python"),
        ("task python", "task_python"),
        ('task sh\\ell "touch canary"', "task_shell"),
        ('TASK\t"sh"ell "touch canary"', "task_shell"),
        ('TASK \\\n shell "touch canary"', "task_shell"),
    ],
)
def test_file_reading_and_code_running_directives_are_refused(text: str, reason: str) -> None:
    with pytest.raises(ValidationError) as info:
        check_extra_input(text, [])
    assert info.value.data["reason"] == reason


@pytest.mark.parametrize(
    ("text", "reason", "lineno"),
    [
        ("print low" + " " * 1000, "long_line", 1),
        ("scf\n  maxiter 30 \\\nend", "continuation", 2),
        ("scf\n  maxiter 30 \\ \t\nend", "continuation", 2),
        ("title x\u2028include y", "control_character", 1),
        ("print low\x0bdft", "control_character", 1),
        ("print\rlow", "control_character", 1),
    ],
)
def test_long_lines_continuations_and_other_line_breaks_are_refused(
    text: str, reason: str, lineno: int
) -> None:
    with pytest.raises(ValidationError) as info:
        check_extra_input(text, [])
    assert info.value.code == "forbidden_extra_input"
    assert (info.value.data["reason"], info.value.data["lineno"]) == (reason, lineno)


def test_a_line_counts_in_bytes_as_nwchem_counts_it() -> None:
    check_extra_input("# " + "é" * 499, [])  # 1,000 bytes: accepted
    with pytest.raises(ValidationError) as info:
        check_extra_input("# " + "é" * 500, [])  # 500 characters but 1,002 bytes
    assert info.value.data["reason"] == "long_line"


def test_harmless_extra_input_is_accepted_and_rendered_unchanged() -> None:
    text = (
        "set tolguess 1e-7\nscf\n  vectors input atomic\nend\n"
        '# task shell in a comment is only a comment\r\ndft\n  print "final vectors"\nend'
    )
    check_extra_input(text, ["scf property", "dft energy ignore"])
    rendered = render_input(water(extra_input=text, extra_tasks=["scf property"]))
    assert "set tolguess 1e-7\nscf\n  vectors input atomic\nend\n" in rendered
    assert "task scf property\n" in rendered


def test_the_message_names_the_line_and_the_reason_in_english_and_japanese() -> None:
    with pytest.raises(MolFormaError) as info:
        check_extra_input("scf\nend\n" + PADDED, [])
    err = info.value
    assert err.data["lineno"] == 3
    en, ja = err.message("en"), err.message("ja")
    assert "line 3" in en and "shell command" in en and 'task shell "touch canary"' in en
    assert "3 行目" in ja and "シェルコマンド" in ja
    with pytest.raises(MolFormaError) as info:
        check_extra_input("", ["scf energy", "dft energy; include x.nw"])
    assert info.value.data["source"] == "extra_tasks" and info.value.data["lineno"] == 2
    assert "extra task" in info.value.message("en") and "追加タスク" in info.value.message("ja")


def test_input_errors_list_the_refusal_under_the_field_it_came_from() -> None:
    problems = input_errors(water(extra_tasks=["scf energy;include x.nw"]))
    assert [(p["field"], p["code"]) for p in problems] == [
        ("calculation.extra_tasks", "forbidden_extra_input")
    ]
    assert "include" in problems[0]["message"]


def test_the_generated_input_is_judged_once_more_before_it_is_returned() -> None:
    with pytest.raises(ValidationError) as info:
        check_generated_input('start x\ntitle "a"\n' + PADDED)
    assert info.value.data["source"] == "generated_input"
    # A title cannot smuggle a line break or a directive through the generator.
    text = render_input(
        water() | {"document": {**water()["document"], "title": "x\u2028include y; task shell"}}
    )
    check_generated_input(text)
    assert "include y" not in text.split("\n")[1].split('"')[0]


def test_a_project_carrying_refused_text_is_not_loaded() -> None:
    data = water(extra_input=PADDED)
    with pytest.raises(ValidationError) as info:
        project_from_json(json.loads(json.dumps(data)))
    assert info.value.code == "forbidden_extra_input"
    with pytest.raises(ValidationError) as info:
        read_text(
            json.dumps(water(extra_tasks=["scf energy", "dft energy ; include other.nw"])),
            "project",
        )
    assert info.value.data["reason"] == "include"


def test_a_nw_file_nwchem_would_read_as_a_shell_task_is_not_opened() -> None:
    good = (
        "start w\ngeometry\n O 0 0 0.1173\n H 0 0.7572 -0.4692\n H 0 -0.7572 -0.4692\n"
        "end\nbasis\n * library sto-3g\nend\n"
    )
    assert len(read_text(good + "task scf energy\n", "nwchem").atoms) == 3
    for tail, reason, line in (
        (PADDED, "task_shell", 10),
        ("include other.nw\n", "include", 10),
        ("python\n print(1)\nend\n", "python", 10),
    ):
        with pytest.raises(FormatError) as info:
            read_text(good + tail, "nwchem")
        err = info.value
        assert err.data["kind"] == "format_forbidden_directive"
        assert (err.data["reason"], err.data["line"]) == (reason, line)
        assert f"(line {line})" in err.message("en") and "NWChem" in err.message("ja")


# Measured with NWChem 7.0.2: a lone CR ends a line (``print low`` CR ``task shell …`` ran
# the shell); CR CR is two line ends, whose empty line ends the continuation.
@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('print low\rtask shell "touch canary"', [("task_shell", 2)]),
        ('title x\r\ntask shell "touch canary"', [("task_shell", 2)]),
        ('task \\\r\nshell "touch canary"', [("task_shell", 1)]),
        ('task \\\rshell "touch canary"', [("task_shell", 1)]),
        ('task \\\r\rshell "touch canary"', []),
    ],
)
def test_lines_end_where_nwchem_ends_them(text: str, found: list[tuple[str, int]]) -> None:
    assert [(f.reason, f.lineno) for f in find_directives(text)] == found


@pytest.mark.parametrize(
    ("text", "lineno"),
    [
        ('task sh\\\nell "touch canary"', 1),
        ("scf\nend\ninc\\\nlude other.nw", 3),
        ("py\\\nthon\n print(1)\nend", 1),
        ("geometry\n lo\\\nad /etc/hosts format xyz\nend", 2),
    ],
)
def test_a_directive_spelled_by_glued_continuation_lines_is_refused(text: str, lineno: int) -> None:
    # NWChem reads "task sh ell" (a blank for the backslash); a reader that drops the
    # backslash reads "task shell": the text means something else to it.
    assert [(f.reason, f.lineno) for f in find_directives(text)] == [("split_directive", lineno)]
    with pytest.raises(ValidationError) as info:
        check_extra_input(text, [])
    assert info.value.data["reason"] == "split_directive"
    assert "backslash" in info.value.message("en") and info.value.message("ja")


@pytest.mark.parametrize(
    "sep", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
)
def test_a_character_python_breaks_lines_at_and_nwchem_does_not_is_refused(sep: str) -> None:
    text = f'scf\nend\nta{sep}sk shell "touch canary"'
    assert len(text.splitlines()) == 4  # Python's reading: four lines; NWChem's: three
    assert [(f.reason, f.lineno) for f in find_directives(text)] == [("line_separator", 3)]
    with pytest.raises(ValidationError) as info:
        check_extra_input(text, [])
    assert info.value.data["reason"] == "control_character"


def test_continuations_and_line_ends_that_read_the_same_both_ways_stay_allowed() -> None:
    for text in ("task scf en\\\nergy", "xc b3lyp \\\n  ; print low", "scf\r\nend\r\n"):
        assert find_directives(text) == []
