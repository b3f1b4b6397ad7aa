"""Fuzz: the protected-text check agrees with an independent model of NWChem's reader.

The model below is written from the measured behaviour (molforma.nwchem.protected_text
has the evidence), not from that module: end lines at LF, CR LF or a lone CR (the
gfortran run-time NWChem reads with does), cut every line at 1,024 bytes, join a
record ending in a backslash with the next line inside the same 1,024-byte buffer,
cut ``#`` comments, split at ``;``, then look at the first words. The generated texts
mix statements, case, blanks, tabs, comments, ``;``, continuations and lines of
990–1,030 characters, without quotes or escapes inside statements (the model does
not need to guess how those interact).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from molforma.errors import ValidationError
from molforma.nwchem.protected_text import check_extra_input, find_directives

KINDS = {"task_shell", "task_python", "python", "include"}
PIECES = [
    'task shell "touch canary"',
    "task scf energy",
    "task  Shell",
    "task dft python",
    "python",
    "python noprint",
    "include other.nw",
    "scf",
    "end",
    "maxiter 3",
    "print low",
    "set tolguess 1e-7",
    "shell",
    "task",
    "tas",
    "k shell",
    "inc",
    "lude other.nw",
    "pyth",
    "on",
    "# comment",
    "# task shell",
    "dft",
    "xc b3lyp",
    "JUNK",
]
SEPARATORS = [" ", "\t", "  ", ";", " ; ", "\t;\t", " # ", "#"]
ENDINGS = ["", "", "", "\\", " \\", "\\ ", "\\\t", "\\\r", " \\  "]


def model_findings(text: str) -> set[tuple[int, str]]:
    """(first line, kind) of every task shell / task python / python / include statement."""
    lines = re.split(rb"\r\n|\r|\n", text.encode("utf-8"))
    found: set[tuple[int, str]] = set()
    i = 0
    while i < len(lines):
        first = i + 1
        buffer = lines[i][:1024]
        i += 1
        while i < len(lines) and re.search(rb"\\[ \t]*$", buffer):
            buffer = re.sub(rb"\\[ \t]*$", b" ", buffer) + lines[i]
            buffer = buffer[:1024]
            i += 1
        record = buffer.decode("latin-1").split("#", 1)[0]
        for statement in record.split(";"):
            words = [w.strip('"') for w in statement.lower().split()]
            words = [w for w in words if w]
            if not words:
                continue
            if words[0] == "task":
                later = [w for w in words[1:] if w in ("shell", "python")]
                if later:
                    found.add((first, "task_" + later[0]))
            elif words[0].startswith("python"):
                found.add((first, "python"))
            elif words[0].startswith("include"):
                found.add((first, "include"))
    return found


def needs_refusal(text: str) -> bool:
    """Lines NWChem could re-join: over 1,000 bytes, or ending in a backslash."""
    for line in text.replace("\r\n", "\n").split("\n"):
        if len(line.encode("utf-8")) > 1000 or re.search(r"\\[ \t\r]*$", line):
            return True
    return False


@st.composite
def lines(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=4))
    upper = draw(st.lists(st.booleans(), min_size=len(parts), max_size=len(parts)))
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(parts), max_size=len(parts)))
    text = draw(st.sampled_from(["", " ", "\t", "   "]))
    for part, up, sep in zip(parts, upper, seps, strict=True):
        text += (part.upper() if up else part) + sep
    if draw(st.booleans()):  # pad to the length where NWChem cuts
        length = draw(st.integers(990, 1030))
        tail = draw(st.sampled_from(["\\", "JUNK", "\\JUNK", "", "\\" + " " * 3 + "JUNK"]))
        text = text + " " * max(0, length - len(text) - len(tail)) + tail
    return text + draw(st.sampled_from(ENDINGS))


@st.composite
def texts(draw: st.DrawFn) -> str:
    body = draw(st.lists(lines(), min_size=1, max_size=5))
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    return newline.join(body)


@settings(
    max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(texts())
def test_the_check_agrees_with_a_model_of_nwchems_reader(text: str) -> None:
    expected = model_findings(text)
    got = {(f.lineno, f.reason) for f in find_directives(text) if f.reason in KINDS}
    assert got == expected, text
    refused = bool(expected) or needs_refusal(text)
    try:
        check_extra_input(text, [])
    except ValidationError as exc:
        assert exc.code == "forbidden_extra_input"
        assert refused, (text, exc.data)
    else:
        assert not refused, text


def test_the_fuzzed_texts_reach_both_verdicts_and_every_kind() -> None:
    """The generator is not idle: over a fixed sample, each kind and each verdict occurs."""
    seen_kinds: set[str] = set()
    verdicts: set[bool] = set()

    @settings(
        max_examples=300,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(texts())
    def collect(text: str) -> None:
        found = model_findings(text)
        seen_kinds.update(kind for _line, kind in found)
        verdicts.add(bool(found) or needs_refusal(text))

    collect()
    assert seen_kinds == KINDS
    assert verdicts == {True, False}


@pytest.mark.parametrize(
    "text",
    [
        "task \\" + " " * 1018 + "JUNK\nshell x",
        "task \\\n" + " " * 994 + "\\" + " " * 24 + "JUNK\nshell x",
        "TAS\\\nK shell",
    ],
)
def test_the_test_model_itself_follows_the_measured_cases(text: str) -> None:
    # 1 and 2: NWChem ran the shell (see test_protected_text); 3: it read "tas k shell".
    assert model_findings(text) == ({(1, "task_shell")} if "TAS" not in text else set())
