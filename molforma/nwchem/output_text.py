"""Line access of the NWChem output reader (no Qt).

:class:`OutputText` gives the lines around positions of one window of the output
(the reader walks a big file window by window, so a line number is the window's
first line number plus the newlines before a position). The regexes for those
lines are in :mod:`molforma.nwchem.output_patterns`.
"""

from __future__ import annotations


class NeedMoreText(Exception):
    """A handler reached the end of the window before the end of the output."""


class OutputText:
    """Line access around positions of one window of the output text.

    When ``complete`` is False the window is not the end of the output: reading past
    its last full line raises :class:`NeedMoreText`, and the reader extends the window
    and runs the handler again, so a block longer than the look-ahead is still read whole.
    """

    def __init__(self, text: str, first_line: int = 1, *, complete: bool = True) -> None:
        self.text = text
        self.complete = complete
        self._line_pos = 0
        self._first_line = first_line
        self._line_no = first_line

    def line_at(self, pos: int) -> tuple[str, int, int]:
        """The line holding ``pos``: (text without newline, start, end-of-line index)."""
        t = self.text
        start = t.rfind("\n", 0, pos) + 1
        end = t.find("\n", pos)
        if end < 0:
            if not self.complete:
                raise NeedMoreText
            end = len(t)
        return t[start:end], start, end

    def next_line(self, end: int) -> tuple[str, int] | None:
        """The line after the one ending at ``end``: (text, its end), None at the end."""
        t = self.text
        if end >= len(t):
            if not self.complete:
                raise NeedMoreText
            return None
        start = end + 1
        nxt = t.find("\n", start)
        if nxt < 0:
            if not self.complete:
                raise NeedMoreText
            nxt = len(t)
        return t[start:nxt], nxt

    def prev_line(self, start: int) -> tuple[str, int] | None:
        """The line before the one starting at ``start``: (text, its start)."""
        if start <= 0:
            return None
        t = self.text
        s = t.rfind("\n", 0, start - 1) + 1
        return t[s : start - 1], s

    def lines_before(self, start: int, count: int) -> list[str]:
        """Up to ``count`` lines before the line that starts at ``start``, in file order."""
        out: list[str] = []
        pos = start
        for _ in range(count):
            prev = self.prev_line(pos)
            if prev is None:
                break
            out.append(prev[0])
            pos = prev[1]
        return out[::-1]

    def lines_after(self, end: int, count: int) -> list[str]:
        """Up to ``count`` lines following the line that ends at ``end``."""
        out: list[str] = []
        cur = end
        for _ in range(count):
            nxt = self.next_line(cur)
            if nxt is None:
                break
            out.append(nxt[0])
            cur = nxt[1]
        return out

    def line_number(self, pos: int) -> int:
        """1-based line number of ``pos``; cheapest when calls come in increasing order."""
        if pos < self._line_pos:
            self._line_pos, self._line_no = 0, self._first_line
        self._line_no += self.text.count("\n", self._line_pos, pos)
        self._line_pos = pos
        return self._line_no
