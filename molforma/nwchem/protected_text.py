"""Protected NWChem text judged as NWChem's own input reader will see it (no Qt, no I/O).

Extra input and extra tasks (docs/reference/calculation.md and docs/reference/safety.md, Protected text) are copied into
``input.nw``; a few NWChem directives there would let whoever wrote the text run
a program or read files of their choice, so they are refused whatever the launch
flags say. A filter that looks at the text line by line is not enough: NWChem
reads its input in its own way, so this module holds a small model of that reader
and judges what the model gives.

The reader of NWChem 7.0.2 (Debian 7.0.2-4), as measured with the real
``nwchem`` (each point ran a ``task shell "touch canary"`` in a temporary folder
and looked for the canary):

* A record is one line of at most 1,024 bytes; the rest of a longer line is
  dropped. A line ends at LF, CR LF or a lone CR (``print low`` + CR + ``task
  shell "touch canary"`` on one LF line creates the canary; CR CR and LF CR are two
  line ends, whose empty line ends a continuation). Vertical tab, form feed and
  U+2028 are neither line ends nor blanks: ``ta`` + VT + ``sk`` is the unknown
  directive ``ta^Ksk``, ``task`` + FF + ``shell`` the unknown ``task^Lshell``. ``task \\`` + blanks + ``JUNK`` starting at column
  1,025, followed by a ``shell "touch canary"`` line, creates the canary; with
  ``JUNK`` at column 1,024 it does not (the record then ends in ``K``).
  (An earlier reading said 1,023; the measured buffer keeps 1,024 bytes.)
* After the cut, a record whose last character other than space, tab or CR is
  ``\\`` continues: the backslash becomes a blank and the next line is read into
  the rest of the same 1,024-byte buffer (``tas\\`` + ``k shell`` reads
  ``tas k shell``; a backslash at column 1,000 leaves room for a 20-character
  ``shell`` line, one at 1,010 does not). A continued line cut by that buffer
  can end in a backslash again and join a third line: ``task \\``, then 994
  blanks + ``\\`` + blanks + ``JUNK`` at its column 1,020, then the ``shell``
  line, creates the canary. A form feed after the backslash, or a ``# comment``
  after it, ends the record instead. ``task sh\\`` + ``ell "touch canary"`` reads
  ``task sh ell``; a reader that glued the two lines would read ``task shell``.
* ``;`` ends a statement and ``#`` starts a comment anywhere in a word
  (``"touch canary"x#y`` loses ``#y``); ``\\`` escapes the next character
  (``title x\\; task shell …`` is one title); a ``"`` inside a word does not
  open a string (``title a"b;task shell "touch canary"`` runs the shell), while
  ``title "a#b" ; task shell …`` does not run it. Keywords ignore case; tabs
  separate words.
* ``include FILE`` at the start of a record (any case) makes the reader read
  FILE as input: an included file's ``task shell`` runs, and a file that is not
  NWChem input is echoed into the output in the error report ("current input
  line: 1: <first line of the file>").
* ``python`` … ``end`` stores a Python program (``nwchem.py``) and ``task python``
  runs it: ``os.system("touch canary")`` in the block creates the canary.
* ``load FILE format xyz`` in a ``geometry`` block takes the coordinates from any
  file (a water run used an XYZ file outside its folder); ``* library sto-3g file
  FILE`` in a ``basis`` block opens FILE ("bas_tag_lib: failed to locate basis
  h_sto-3g in file …" for a text file).

Where the model is unsure (how quotes and escapes interact, whether a
continuation glues two words), it reads the text every plausible way and a directive
found by any reading counts. Text whose lines Python's ``str.splitlines`` (which
MolForma's own ``.nw`` reader uses) cuts differently from NWChem (at vertical tab,
form feed, FS/GS/RS, NEL, U+2028, U+2029) is refused too (``line_separator``): the
two readers would not see the same statements. Refused
directives (:func:`find_directives`), with the reason code they give:

* ``task_shell``: ``task shell …`` runs a Bourne-shell command (the third form of
  NWChem's TASK directive);
* ``task_python`` and ``python``: ``task python`` runs the program of a
  ``python`` block; a ``python`` block is refused on its own too;
* ``include``: reads another file as input (see above);
* ``load``: ``load FILE`` in a ``geometry`` or ``bq`` block reads coordinates
  from any file, outside MolForma's allowed directories (see above);
* ``library_file``: ``… library NAME file FILE`` in a ``basis``/``ecp``/``so``
  block reads a basis library from any file;
* ``split_directive``: a directive spelled only when a continuation glues two lines
  without a blank (above);
* ``line_separator``: a character Python ends a line at and NWChem does not (above).

Directives that only name files NWChem writes or its own restart data
(``vectors input/output``, ``scratch_dir``, ``permanent_dir``, ``set``/``unset``
of database entries, ``ecce_print``) neither run code nor read another input:
they stay allowed in protected text, which only the person (or a client the
person allowed with ``--mcp-allow-execution-settings``) can change.

Protected text must also leave NWChem nothing to re-join with the lines
MolForma writes around it (:func:`protected_findings`): a line longer than 1,000
bytes (``long_line``), a line whose last non-blank character is a backslash
(``continuation``) and control characters other than tab and CR LF
(``control_character``, which Python and NWChem would split into lines
differently) are refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from molforma.errors import ValidationError
from molforma.i18n import display_language, register, render
from molforma.nwchem.lexer import join_continuations, split_statements

__all__ = [
    "MAX_LINE_BYTES",
    "RECORD_BYTES",
    "Finding",
    "ProtectedTextError",
    "check_extra_input",
    "check_generated_input",
    "check_project_calculation",
    "find_directives",
    "nwchem_records",
    "nwchem_statements",
    "protected_findings",
    "reason_text",
    "task_statement",
]

RECORD_BYTES = 1024
MAX_LINE_BYTES = 1000
# Blanks before a continuation backslash (measured: a form feed is not one).
_BLANKS = " \t\r"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

_MESSAGES: dict[str, dict[str, str]] = {
    "forbidden_extra_input": {
        "en": "The {what} is refused: {why} (line {lineno}: {line}). MolForma never lets "
        "NWChem run a shell command or Python, or read another file.",
        "ja": "{what}を受け付けられません: {why}（{lineno} 行目: {line}）。MolForma は NWChem に"
        "シェルコマンドや Python を実行させたり、別のファイルを読ませたりしません。",
    },
    "bad_extra_task": {
        "en": "Extra task '{task}' must be a single line.",
        "ja": "追加タスク「{task}」は1行で指定してください。",
    },
    "protected_what_extra_input": {"en": "extra input", "ja": "追加入力"},
    "protected_what_extra_tasks": {"en": "extra task", "ja": "追加タスク"},
    "protected_what_generated_input": {
        "en": "generated NWChem input",
        "ja": "生成した NWChem 入力",
    },
    "protected_reason_task_shell": {
        "en": "'task shell' runs a shell command",
        "ja": "'task shell' はシェルコマンドを実行します",
    },
    "protected_reason_task_python": {
        "en": "'task python' runs Python code",
        "ja": "'task python' は Python コードを実行します",
    },
    "protected_reason_python": {
        "en": "a 'python' block holds Python code for NWChem to run",
        "ja": "'python' ブロックは NWChem が実行する Python コードです",
    },
    "protected_reason_include": {
        "en": "'include' makes NWChem read another file as input",
        "ja": "'include' は別のファイルを入力として NWChem に読ませます",
    },
    "protected_reason_load": {
        "en": "'load' makes NWChem read coordinates from another file",
        "ja": "'load' は別のファイルから座標を NWChem に読ませます",
    },
    "protected_reason_library_file": {
        "en": "'library … file' makes NWChem read a basis library from another file",
        "ja": "'library … file' は別のファイルから基底関数ライブラリを NWChem に読ませます",
    },
    "protected_reason_long_line": {
        "en": "the line is longer than 1,000 characters (NWChem cuts lines at 1,024 bytes "
        "and may join what is left with the next line)",
        "ja": "行が 1,000 文字を超えています（NWChem は 1,024 バイトで行を切り、残りを次の行と"
        "つなぐことがあります）",
    },
    "protected_reason_continuation": {
        "en": "the line ends with a backslash, which NWChem joins with the next line",
        "ja": "行末のバックスラッシュは NWChem が次の行とつなぎます",
    },
    "protected_reason_split_directive": {
        "en": "a line ending in a backslash splits a word that, with the lines glued, reads "
        "as a refused directive (NWChem puts a blank there; another reader may not)",
        "ja": "バックスラッシュで終わる行が語を分けており、行をつなげると拒否される指示として"
        "読めます（NWChem はそこに空白を入れますが、そうしない読み手もあります）",
    },
    "protected_reason_line_separator": {
        "en": "it contains a character (vertical tab, form feed, U+2028 or the like) that "
        "Python reads as a line break and NWChem does not, so the two would read different "
        "statements",
        "ja": "Python は改行として読み NWChem は改行として読まない文字（垂直タブ、改ページ、U+2028 "
        "など）が含まれており、両者で異なる文として読まれます",
    },
    "protected_reason_control_character": {
        "en": "it contains a control character or line separator other than tab and line break",
        "ja": "タブと改行以外の制御文字または行区切り文字が含まれています",
    },
}
register(_MESSAGES)


@dataclass(frozen=True)
class Finding:
    """One refused piece of text: why (a reason code), where, and the statement."""

    reason: str
    lineno: int
    statement: str


def reason_text(reason: str, lang: str | None = None) -> str:
    """The sentence part that says why ``reason`` (a :class:`Finding` code) is refused."""
    return render(f"protected_reason_{reason}", {}, lang)


class ProtectedTextError(ValidationError):
    """``forbidden_extra_input``: protected text NWChem would read as a refused directive.

    ``data``: ``reason`` (code), ``lineno`` (1-based line of the text), ``line``
    (the statement as NWChem reads it, shortened) and ``source`` (``extra_input``,
    ``extra_tasks`` or ``generated_input``); the sentence is rendered in the
    display language, the reason included.
    """

    def message(self, lang: str | None = None) -> str:
        """The sentence in ``lang`` (default: the display language)."""
        lang = lang or display_language()
        data = dict(self.data)
        data["why"] = reason_text(str(data.get("reason")), lang)
        data["what"] = render(f"protected_what_{data.get('source', 'extra_input')}", {}, lang)
        return render(self.code, data, lang)


# ---------------------------------------------------------------------------
# The reader model. Text is handled as bytes (one latin-1 character per byte), because
# NWChem counts bytes: a line of 600 two-byte characters is 1,200 bytes long to it.
# Comments, quotes, continuations and statements are cut by molforma.nwchem.lexer, the
# rules every reader of .nw text shares; this model adds the record buffer and readings.


def _as_bytes(text: str) -> str:
    return text.encode("utf-8", "surrogatepass").decode("latin-1")


def _from_bytes(text: str) -> str:
    return text.encode("latin-1").decode("utf-8", "replace")


# NWChem's reader (the gfortran run-time) ends a line at CR LF, a lone CR or LF (measured).
_LINE_END = re.compile(r"\r\n?")


def _nwchem_lines(data: str) -> str:
    """``data`` with every line end NWChem sees as LF (so ``split("\\n")`` gives its lines)."""
    return _LINE_END.sub("\n", data) if "\r" in data else data


def nwchem_records(text: str) -> list[tuple[int, str]]:
    """The records NWChem reads from ``text``: (first line number, record text).

    Lines end at LF, CR LF or CR; they are cut at :data:`RECORD_BYTES`, then a record
    ending in a backslash takes the next line into the rest of its buffer (module
    docstring). The text is returned byte-wise (latin-1), as NWChem sees it.
    """
    lines = _nwchem_lines(_as_bytes(text)).split("\n")
    return [(first + 1, record) for first, _end, record in _records(lines)]


def _records(lines: list[str], glue: str = " ") -> list[tuple[int, int, str]]:
    """(first line index, index after the last line, record) of byte-wise ``lines``.

    ``glue`` takes the place of a continuation backslash: a blank, as NWChem does;
    ``""`` reads the lines glued, as a reader that drops the backslash would.
    """
    return join_continuations(lines, glue=glue, limit=RECORD_BYTES, blanks=_BLANKS)


def _split(record: str, quotes: bool, escapes: bool) -> list[str]:
    """Statements of one record in one reading of quotes and escapes (comments cut)."""
    return split_statements(record, quotes=quotes, escapes=escapes)


# Every reading of quotes and escapes: a directive any of them finds counts, because
# NWChem's rules here are only partly measured (a quote inside a word opens nothing).
_READINGS = ((True, True), (True, False), (False, True), (False, False))


# Every refused directive has one of these in its words, and a record holds only text
# of its own lines (plus blanks). So only records with a line that shows a keyword, once
# quotes, backslashes and control bytes are dropped, need a closer look: that keeps the
# check of a 10,000-atom input to milliseconds.
_KEYWORD = re.compile(r"task|python|include|load|library")
_HIDING = re.compile(r"[\"'\\\x00-\x09\x0b-\x1f\x7f]")


def _candidate_records(text: str, glue: str = " ") -> list[tuple[int, str]]:
    """The records (line number, text) that may hold a refused directive (``glue`` in
    place of a continuation backslash, see :func:`_records`)."""
    data = _nwchem_lines(_as_bytes(text))
    plain = _HIDING.sub("", data).lower()
    hits: list[int] = []
    line, at = 0, 0
    for match in _KEYWORD.finditer(plain):  # line numbers counted once, left to right
        line += plain.count("\n", at, match.start())
        at = match.start()
        if not hits or hits[-1] != line:
            hits.append(line)
    if "\\" not in data:  # no continuation anywhere: one record per line
        if not hits or glue != " ":
            return []
        lines = data.split("\n")
        return [(i + 1, lines[i][:RECORD_BYTES]) for i in hits]
    wanted = set(hits)
    # Glued, a record joined from several lines may spell a keyword no line holds whole
    # (``inc\`` + ``lude``): every such record is looked at then.
    return [
        (first + 1, record)
        for first, end, record in _records(data.split("\n"), glue)
        if first in wanted or (glue != " " and end - first > 1)
    ]


def nwchem_statements(text: str) -> list[tuple[int, str]]:
    """(line number, statement) pairs of ``text`` in every reading, comments removed."""
    return _statements(nwchem_records(text))


def _statements(records: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    seen: set[tuple[int, str]] = set()
    out: list[tuple[int, str]] = []
    for lineno, record in records:
        for quotes, escapes in _READINGS:
            for stmt in _split(record, quotes, escapes):
                key = (lineno, stmt.strip())
                if key[1] and key not in seen:
                    seen.add(key)
                    out.append(key)
    return out


def _word_readings(statement: str) -> list[list[str]]:
    """Lower-case words of a statement with quotes and backslashes removed or as blanks.

    ``"sh"ell`` and ``sh\\ell`` must not hide ``shell``; ``task "shell"`` must not
    either. Any whitespace separates words here (more than NWChem's space and tab).
    """
    out = []
    # Control bytes count as blanks, so none can glue itself to a keyword unseen.
    statement = _CONTROL.sub(" ", statement)
    for quote_to in ("", " "):
        for slash_to in ("", " "):
            text = re.sub(r"[\"']", quote_to, statement).replace("\\", slash_to)
            words = text.lower().split()
            if words:
                out.append(words)
    return out


def _verdict(words: list[str]) -> str | None:
    head = words[0]
    if head == "task":
        for word in words[1:]:
            if word in ("shell", "python"):
                return "task_" + word
    if head.startswith("python"):
        return "python"
    if head.startswith("include"):
        return "include"
    if head == "load":
        return "load"
    if "library" in words and "file" in words[words.index("library") + 1 :]:
        return "library_file"
    return None


def _short(statement: str) -> str:
    text = " ".join(_CONTROL.sub(" ", _from_bytes(statement)).split())
    return text if len(text) <= 80 else text[:77] + "..."


def find_directives(text: str) -> list[Finding]:
    """Refused directives in ``text`` as NWChem's reader will read it (one per statement).

    Then what another reading of the same text finds: a directive spelled by lines a
    continuation glues (``split_directive``: ``task sh\\`` + ``ell``, which NWChem
    reads as ``task sh ell``), and lines Python and NWChem cut differently
    (``line_separator``). Neither runs anything in NWChem 7.0.2, but a text that means
    something else to another reader is not judged safe.
    """
    found: list[Finding] = []
    seen: set[tuple[int, str]] = set()
    glued: list[Finding] = []
    readings = ((" ", found), ("", glued)) if "\\" in text else ((" ", found),)
    for glue, out in readings:
        for lineno, stmt in _statements(_candidate_records(text, glue)):
            for words in _word_readings(stmt):
                reason = _verdict(words)
                if reason and (lineno, reason) not in seen:
                    seen.add((lineno, reason))
                    out.append(Finding(reason, lineno, _short(stmt)))
                    break
    lines = {f.lineno for f in found}
    split = [
        Finding("split_directive", f.lineno, f.statement) for f in glued if f.lineno not in lines
    ]
    return found + split + _python_only_breaks(text)


# What ``str.splitlines`` ends a line at besides LF, CR and CR LF; NWChem reads them as
# characters of a word.
_PYTHON_ONLY_BREAK = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _python_only_breaks(text: str) -> list[Finding]:
    """One ``line_separator`` finding per NWChem line holding a :data:`_PYTHON_ONLY_BREAK`."""
    if not _PYTHON_ONLY_BREAK.search(text):
        return []
    found = []
    for index, line in enumerate(_nwchem_lines(text).split("\n"), start=1):
        if _PYTHON_ONLY_BREAK.search(line):
            found.append(Finding("line_separator", index, _short(_as_bytes(line))))
    return found


# Control characters (Unicode category Cc) and line/paragraph separators, but tab and LF.
_BAD_CHARACTER = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def protected_findings(text: str) -> list[Finding]:
    """Everything refused in protected ``text``: directives, long lines, continuations.

    Long lines and continuation backslashes are refused even where the model finds
    no directive in them: NWChem could join them with the lines written around them.
    """
    found: list[Finding] = []
    lines = text.replace("\r\n", "\n").split("\n")
    # The common case (short lines, no backslash, no control character) in one pass.
    if (
        "\\" not in text
        and not _BAD_CHARACTER.search(text.replace("\r\n", "\n"))
        and (max(map(len, lines)) * 4 <= MAX_LINE_BYTES)
    ):
        lines = []
    for index, line in enumerate(lines, start=1):
        if (
            len(line) * 4 <= MAX_LINE_BYTES
            and "\\" not in line
            and (not _BAD_CHARACTER.search(line))
        ):
            continue  # decided without encoding the line
        shown = _short(_as_bytes(line))
        if _BAD_CHARACTER.search(line):
            found.append(Finding("control_character", index, shown))
        elif len(line.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
            found.append(Finding("long_line", index, shown))
        elif line.rstrip(_BLANKS + "\f\v").endswith("\\"):
            found.append(Finding("continuation", index, shown))
    # A directive explains the refusal best, so it comes first. Protected text refuses
    # every such separator as a control character (below) already.
    directives = [f for f in find_directives(text) if f.reason != "line_separator"]
    return directives + found


def task_statement(task: str) -> str:
    """An extra task entry as the full ``task ...`` statement MolForma writes."""
    words = task.strip().split()
    if words and words[0].lower() == "task":
        return " ".join(words)
    return " ".join(["task", *words])


def _raise(finding: Finding, field: str) -> None:
    raise ProtectedTextError(
        "forbidden_extra_input",
        reason=finding.reason,
        lineno=finding.lineno,
        line=finding.statement,
        source=field,
    )


def check_extra_input(text: str, tasks: Iterable[Any]) -> None:
    """Refuse extra input or extra tasks NWChem could read as a refused directive.

    Raises:
        ValidationError: ``bad_extra_task`` for a task that is not one line of text;
            ``forbidden_extra_input`` (a :class:`ProtectedTextError`) naming the line,
            the statement and the reason.
    """
    task_list = list(tasks)
    for task in task_list:
        if not isinstance(task, str):
            raise ValidationError("bad_extra_task", task=repr(task))
        if "\n" in task or "\r" in task:
            raise ValidationError("bad_extra_task", task=task[:80])
    if not isinstance(text, str):
        raise ValidationError(
            "bad_setting", block="calculation", key="extra_input", reason="not text"
        )
    for finding in protected_findings(text):
        _raise(finding, "extra_input")
    for index, task in enumerate(task_list, start=1):
        for finding in protected_findings(task_statement(task)):
            _raise(Finding(finding.reason, index, finding.statement), "extra_tasks")


def check_generated_input(text: str) -> None:
    """Last check of a whole rendered input before it is returned or written.

    Everything else in the input comes from checked fields, so this never fires
    unless a check elsewhere has a gap; then nothing is written.

    Raises:
        ProtectedTextError: ``forbidden_extra_input`` with field ``generated_input``.
    """
    for finding in protected_findings(text):
        _raise(finding, "generated_input")


def check_project_calculation(calc: Mapping[str, Any]) -> None:
    """The protected text of a loaded project's ``calculation`` block (see above)."""
    tasks = calc.get("extra_tasks") or []
    check_extra_input(calc.get("extra_input") or "", tasks if isinstance(tasks, list) else [])
