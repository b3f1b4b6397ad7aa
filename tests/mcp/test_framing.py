"""Byte-level line framing of the stdio transport (pure function, in process)."""

from __future__ import annotations

import pytest

from molforma.mcp.transport import MAX_MESSAGE, peek_id, split_lines


def _feed(chunks: list[bytes]) -> list[tuple[str, str]]:
    buf = bytearray()
    skipping = False
    out = []
    for c in chunks:
        events, skipping = split_lines(buf, c, skipping)
        out += [(e.kind, e.text) for e in events]
    return out


def test_a_character_split_between_reads_is_reassembled():
    line = '{"t":"水"}\n'.encode()
    cut = line.index("水".encode()) + 2
    assert _feed([line[:cut], line[cut:]]) == [("line", '{"t":"水"}')]


def test_crlf_and_blank_lines_and_several_messages_per_read():
    assert _feed([b'{"a":1}\r\n\n  \n{"b":2}\n{"c"', b":3}\n"]) == [
        ("line", '{"a":1}'),
        ("line", '{"b":2}'),
        ("line", '{"c":3}'),
    ]


def test_an_oversize_line_is_reported_once_and_skipped_across_reads():
    big = b"x" * (MAX_MESSAGE + 5)
    events = _feed([big[: MAX_MESSAGE // 2], big[MAX_MESSAGE // 2 :], b'tail\n{"ok":1}\n'])
    assert events == [("oversize", ""), ("line", '{"ok":1}')]


def test_a_line_of_exactly_the_limit_is_accepted():
    line = b"y" * MAX_MESSAGE
    assert _feed([line, b"\n"]) == [("line", "y" * MAX_MESSAGE)]


def test_invalid_utf8_is_reported_not_raised():
    assert _feed([b"\xff\xfe\n"]) == [("bad_utf8", "")]


def test_an_oversize_line_carries_the_id_found_at_its_start():
    pad = b"x" * (MAX_MESSAGE + 5)
    events = _feed(
        [b'{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"p":"', pad, b'"}}\n']
    )
    assert events == [("oversize", "42")]
    events = _feed([b'{"id" : "a\\"b","params":"' + pad + b'"}\n'])
    assert events == [("oversize", '"a\\"b"')]


@pytest.mark.parametrize(
    ("head", "found"),
    [
        (b'{"jsonrpc":"2.0","method":"x","params":{"id":7,"a":[', ""),  # nested, not the request's
        (b'{"method":"id","id":-3,"params":[', "-3"),  # a value "id" is not the key
        (b'{"params":{"id":1},"id":9,"x":"', "9"),
        (b'{"id":1.5,"params":"', ""),  # not an id JSON-RPC allows
        (b'{"id":null,"params":"', ""),
        (b'[{"id":1},', ""),  # a batch: not an object
        (b'{"params":"' + b"y" * 5000 + b'","id":1}', ""),  # past the bytes searched
    ],
)
def test_the_id_of_an_oversize_line_is_only_the_outer_members(head: bytes, found: str):
    assert peek_id(head[:4096]) == found
