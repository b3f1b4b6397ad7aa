"""What every format module shares: the Structure a file gives, line-numbered errors, tokens.

Readers raise :class:`molforma.errors.FormatError` with code ``format_error`` and
data: ``kind`` (a message code registered here, e.g. ``format_bad_number``), the
format name, ``where`` (``" (line N)"`` or ``""``), ``line`` (the 1-based line number
or None) and an English ``reason`` for logs; the sentence a person sees is rendered
from ``kind`` in the display language. A reader never returns a half-read structure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, NoReturn

from molforma.document import elements
from molforma.document import messages as _document_messages  # noqa: F401 - file_too_large
from molforma.document.envelope import MAX_NAME, new_atom
from molforma.errors import FormatError
from molforma.file_formats import LABELS
from molforma.i18n import catalogue, register, render

# Display names used in messages ("Cannot read XYZ (line 3): ...").
FORMAT_LABELS: dict[str, str] = LABELS

_MESSAGES: dict[str, dict[str, str]] = {
    "format_bad_number": {
        "en": "Cannot read {format}{where}: '{value}' is not a valid {what}.",
        "ja": "{format} を読み込めません{where}: 「{value}」は{what}として正しい数値ではありません。",
    },
    "format_unknown_element": {
        "en": "Cannot read {format}{where}: unknown element symbol '{symbol}'.",
        "ja": "{format} を読み込めません{where}: 不明な元素記号「{symbol}」です。",
    },
    "format_truncated": {
        "en": "Cannot read {format}{where}: the file ends too early ({expected} expected).",
        "ja": "{format} を読み込めません{where}: ファイルが途中で終わっています（{expected} が必要です）。",
    },
    "format_atom_count": {
        "en": "Cannot read {format}{where}: {expected} atoms announced but {found} found.",
        "ja": "{format} を読み込めません{where}: 原子数は {expected} とありますが、{found} 個しかありません。",
    },
    "format_syntax": {
        "en": "Cannot read {format}{where}: {reason}",
        "ja": "{format} を読み込めません{where}: {reason}",
    },
    "format_no_atoms": {
        "en": "Cannot read {format}: no atoms found ({reason}).",
        "ja": "{format} を読み込めません: 原子が見つかりません（{reason}）。",
    },
    "format_frame_required": {
        "en": "The {format} file has {count} frames; choose one with frame (0-based, 0..{last}).",
        "ja": "{format} ファイルには {count} 個のフレームがあります。frame（0 始まり、0〜{last}）で"
        "1 つ選んでください。",
    },
    "format_frame_range": {
        "en": "Frame {frame} does not exist: the {format} file has {count} frame(s) "
        "(0-based, 0..{last}).",
        "ja": "フレーム {frame} はありません。{format} ファイルのフレームは {count} 個です"
        "（0 始まり、0〜{last}）。",
    },
    "format_unknown": {
        "en": "Unknown file format of '{path}'. Readable: {readable}; writable: {writable}.",
        "ja": "「{path}」のファイル形式が分かりません。読込可能: {readable}、書出し可能: {writable}。",
    },
    "format_not_readable": {
        "en": "MolForma cannot read the format '{format}'. Readable: {readable}.",
        "ja": "形式「{format}」は読み込めません。読込可能: {readable}。",
    },
    "format_not_writable": {
        "en": "MolForma cannot write the format '{format}'. Writable: {writable}.",
        "ja": "形式「{format}」には書き出せません。書出し可能: {writable}。",
    },
    "format_unsupported": {
        "en": "Cannot read {format}{where}: {feature} is not supported.",
        "ja": "{format} を読み込めません{where}: {feature} には対応していません。",
    },
    "format_write_failed": {
        "en": "Cannot write {format}: {reason}",
        "ja": "{format} に書き出せません: {reason}",
    },
}
_KNOWN = catalogue()  # once: a comprehension calling it per code races with registrations
register({code: text for code, text in _MESSAGES.items() if code not in _KNOWN})


@dataclass
class Structure:
    """What a structure file gives: atoms, bonds and what the file says about the molecule.

    ``atoms`` are atom dicts as :func:`molforma.document.envelope.new_atom` makes them,
    with ids ``a1``.. in file order, or the file's own ids when it stored them
    (SDF, MOL and CML written by MolForma; PDB serial numbers). ``None`` fields mean
    "the file does not say": loading keeps the project's value.
    """

    atoms: list[dict[str, Any]]
    bonds: list[dict[str, Any]]
    title: str | None = None
    charge: int | None = None
    multiplicity: int | None = None
    calculation: dict[str, Any] | None = None
    advanced: dict[str, Any] | None = None
    frame_count: int = 1
    info: dict[str, Any] = field(default_factory=dict)  # format extras: PDB models/altlocs...


def where(line: int | None) -> str:
    """The ``where`` text of an error: ``" (line N)"`` or ``""``."""
    return f" (line {line})" if line else ""


class FileFormatError(FormatError):
    """A FormatError (code ``format_error``) whose sentence depends on its ``kind``.

    Callers test ``code == "format_error"`` (or the class); ``data["kind"]`` names
    the failure (``format_bad_number``, ``format_frame_required`` ...) and selects
    the localized sentence, so a Japanese reader gets a Japanese reason.
    """

    def message(self, lang: str | None = None) -> str:
        """The sentence of ``kind`` in ``lang`` (default: the display language)."""
        kind = self.data.get("kind")
        return render(str(kind) if kind else self.code, self.data, lang)


def format_error(
    kind: str, fmt: str, line: int | None = None, reason: str = "", **data: Any
) -> FormatError:
    """A ``format_error`` of ``kind`` for ``fmt`` at ``line`` (1-based), to be raised."""
    return FileFormatError(
        "format_error",
        kind=kind,
        format=FORMAT_LABELS.get(fmt, fmt),
        where=where(line),
        line=line,
        reason=reason or kind,
        **data,
    )


def fail(kind: str, fmt: str, line: int | None = None, reason: str = "", **data: Any) -> NoReturn:
    """Raise a ``format_error`` of ``kind`` for ``fmt`` at ``line`` (1-based)."""
    raise format_error(kind, fmt, line, reason, **data)


def syntax(fmt: str, line: int | None, reason: str) -> NoReturn:
    """Raise a generic ``format_syntax`` error with an English ``reason``."""
    fail("format_syntax", fmt, line, reason=reason)


def is_number(word: str) -> bool:
    """Whether ``word`` parses as a Python float (no Fortran ``D`` exponent)."""
    try:
        float(word)
    except ValueError:
        return False
    return True


def to_float(text: str, fmt: str, line: int | None, what: str = "coordinate") -> float:
    """``text`` as a finite float (Fortran ``1.0D-3`` accepted), else a line-numbered error."""
    t = text.strip()
    try:
        value = float(t.replace("D", "E").replace("d", "e"))
    except ValueError:
        fail("format_bad_number", fmt, line, reason=f"'{t}' is not a {what}", value=t, what=what)
    if not math.isfinite(value) or abs(value) > 1e5:
        fail("format_bad_number", fmt, line, reason=f"'{t}' is not a {what}", value=t, what=what)
    return value


def to_int(text: str, fmt: str, line: int | None, what: str = "integer") -> int:
    """``text`` as an int, else a line-numbered error."""
    t = text.strip()
    try:
        return int(t)
    except ValueError:
        fail("format_bad_number", fmt, line, reason=f"'{t}' is not an {what}", value=t, what=what)


def element_from_label(label: str, fmt: str, line: int | None) -> str:
    """Element of an atom label such as ``C12``, ``Cl_a``, ``HW`` or ``6`` (atomic number).

    Two leading letters win when they form an element (``Cl``), else one; an atomic
    number is accepted too.
    """
    t = label.strip()
    if t.isdigit():
        z = int(t)
        if 1 <= z <= elements.MAX_Z:
            return elements.symbol_of(z)
        fail("format_unknown_element", fmt, line, reason=f"unknown element '{t}'", symbol=t)
    letters = ""
    for ch in t:
        if not ch.isalpha():
            break
        letters += ch
    for n in (2, 1):
        if len(letters) >= n:
            el = elements.normalize_symbol(letters[:n])
            if el is not None:
                return el
    fail("format_unknown_element", fmt, line, reason=f"unknown element '{t}'", symbol=t)


def clean_name(name: str) -> str:
    """An atom name the document accepts: printable and at most 16 characters."""
    text = name.strip()
    if not text.isprintable():
        text = "".join(ch for ch in text if ch.isprintable())
    return text[:MAX_NAME]


def plain_atoms(
    symbols: list[str],
    xs: list[float],
    ys: list[float],
    zs: list[float],
    ids: list[str] | None = None,
    first: int = 1,
) -> list[dict[str, Any]]:
    """Document atoms of default properties from columns, ids ``a<first>``.. unless given.

    Copies of one template in new_atom's key order: far cheaper per atom than a literal,
    which counts for a reader of 10,000 atoms.
    """
    if ids is None:
        ids = [f"a{k}" for k in range(first, first + len(symbols))]
    template = new_atom("", "", 0.0, 0.0, 0.0)
    atoms = []
    for aid, el, x, y, z in zip(ids, symbols, xs, ys, zs, strict=True):
        atom = template.copy()
        atom["id"] = aid
        atom["element"] = el
        atom["x"] = x
        atom["y"] = y
        atom["z"] = z
        atoms.append(atom)
    return atoms


def make_atom(
    index: int, element: str, x: float, y: float, z: float, **props: Any
) -> dict[str, Any]:
    """A document atom ``a<index>`` (1-based index)."""
    return new_atom(f"a{index}", element, x, y, z, **props)


def numbered_lines(text: str) -> list[str]:
    """Lines of ``text`` without line ends (a UTF-8 BOM dropped); index + 1 is the line number."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.splitlines()


def pick_frame(fmt: str, count: int, frame: int | None, *, required: bool) -> int:
    """The 0-based frame to read: ``frame`` checked, or 0 when a choice is not required."""
    if frame is None:
        if required and count > 1:
            fail(
                "format_frame_required",
                fmt,
                None,
                reason=f"{count} frames; pass frame",
                count=count,
                last=count - 1,
            )
        return 0
    if isinstance(frame, bool) or not isinstance(frame, int) or not 0 <= frame < count:
        fail(
            "format_frame_range",
            fmt,
            None,
            reason=f"frame {frame} of {count}",
            frame=frame,
            count=count,
            last=count - 1,
        )
    return frame
