"""Non-finite numbers, oversized path names and strict JSON (docs/reference/files.md, Limits, and docs/reference/mcp.md, Errors).

``Infinity`` and ``NaN`` are accepted by Python's JSON reader, so a client can send
them; every numeric argument of every tool refuses them as an argument error, a
``.nw`` file holding them gives a clear format error, a path component longer than
the file system allows gives a clear file error, and what MolForma writes is strict
JSON.
"""

from __future__ import annotations

import json
import math
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from molforma.mcp.tool_registry import load_tools
from tests.mcp.conftest import McpProcess

NON_FINITE = [math.inf, -math.inf, math.nan]


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"non-finite constant {name} in strict JSON")


def _numeric_leaves(
    model: type[BaseModel], prefix: tuple[Any, ...] = ()
) -> typing.Iterator[tuple[tuple[Any, ...], Any]]:
    """(location, a value to put there) for every float reachable from ``model``'s fields."""
    for name, info in model.model_fields.items():
        yield from _leaves_of(info.annotation, (*prefix, name))


def _leaves_of(tp: Any, loc: tuple[Any, ...]) -> typing.Iterator[tuple[tuple[Any, ...], Any]]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is float:
        yield loc, None
    elif origin in (typing.Union, types.UnionType):
        for a in args:
            if a is not type(None):
                yield from _leaves_of(a, loc)
    elif origin is tuple:
        for k, a in enumerate(args):
            if a is not Ellipsis:
                yield from _leaves_of(a, (*loc, k))
    elif origin is list:
        yield from _leaves_of(args[0], (*loc, 0))
    elif origin is dict:
        yield from _leaves_of(args[1], (*loc, "a1"))
    elif isinstance(tp, type) and issubclass(tp, BaseModel):
        yield from _numeric_leaves(tp, loc)


def _nest(loc: tuple[Any, ...], value: Any) -> Any:
    """A JSON value that holds ``value`` at ``loc`` (lists padded with zeros)."""
    if not loc:
        return value
    head, rest = loc[0], loc[1:]
    if isinstance(head, int):
        return [0.0] * head + [_nest(rest, value)] + [0.0] * (2 - head)
    return {head: _nest(rest, value)}


def _cases() -> list[tuple[str, tuple[Any, ...]]]:
    cases = []
    for name, spec in load_tools().items():
        for loc, _ in _numeric_leaves(spec.input):
            cases.append((name, loc))
    return cases


CASES = _cases()


def test_the_registry_has_numeric_arguments_to_check() -> None:
    names = {name for name, _ in CASES}
    assert {"move_atoms", "set_execution", "add_atoms", "set_internal_coordinate"} <= names


@pytest.mark.parametrize(
    "name,loc", CASES, ids=[f"{n}:{'.'.join(map(str, loc))}" for n, loc in CASES]
)
@pytest.mark.parametrize("bad", NON_FINITE, ids=["inf", "-inf", "nan"])
def test_every_numeric_argument_of_every_tool_refuses_non_finite_numbers(
    name: str, loc: tuple[Any, ...], bad: float
) -> None:
    spec = load_tools()[name]
    args = _nest(loc, bad)
    try:
        spec.input.model_validate(args)
    except Exception as exc:  # noqa: BLE001 - the error list is inspected below
        errors = exc.errors()  # type: ignore[attr-defined]
    else:
        raise AssertionError(f"{name} accepted {bad} at {loc}")
    at_loc = [e for e in errors if tuple(e["loc"])[: len(loc)] == loc]
    assert any(e["type"] == "finite_number" for e in at_loc), (loc, errors)


def _raw_call(server: McpProcess, name: str, args_json: str) -> dict[str, Any]:
    """A tools/call whose arguments are sent as written (Infinity, NaN, 1e999)."""
    rid = server.next_id()
    from tests.mcp.conftest import meta

    params = json.dumps({"name": name, "_meta": meta()})
    line = (
        f'{{"jsonrpc":"2.0","id":{rid},"method":"tools/call",'
        f'"params":{params[:-1]},"arguments":{args_json}}}}}'
    )
    server.write(line.encode("utf-8") + b"\n")
    msg = server.recv(30)
    assert msg["id"] == rid, msg
    return msg["result"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "name,template",
    [
        (
            "move_atoms",
            '{{"documentId":"{d}","expectedRevision":"{r}","preview":false,'
            '"rotate":{{"axis":[0,0,1],"angle":{bad}}}}}',
        ),
        (
            "move_atoms",
            '{{"documentId":"{d}","expectedRevision":"{r}","preview":false,'
            '"positions":{{"a1":[{bad},0,0]}}}}',
        ),
        (
            "set_execution",
            '{{"documentId":"{d}","expectedRevision":"{r}","preview":false,'
            '"values":{{"time_limit":{bad}}}}}',
        ),
        (
            "set_atom_properties",
            '{{"documentId":"{d}","expectedRevision":"{r}","preview":false,'
            '"atoms":[{{"id":"a1","mass":{bad}}}]}}',
        ),
        (
            "set_advanced",
            '{{"documentId":"{d}","expectedRevision":"{r}","preview":false,'
            '"values":{{"scf_thresh":{bad}}}}}',
        ),
        (
            "set_internal_coordinate",
            '{{"documentId":"{d}","expectedRevision":"{r}",'
            '"preview":false,"atomIds":["a1","a2"],"value":{bad}}}',
        ),
    ],
)
@pytest.mark.parametrize("bad", ["Infinity", "-Infinity", "NaN", "1e999"])
def test_non_finite_numbers_on_the_wire_are_argument_errors_and_change_nothing(
    server: McpProcess, name: str, template: str, bad: str
) -> None:
    doc_id, rev = server.water()
    before = server.ok("get_document", {"documentId": doc_id})
    res = _raw_call(server, name, template.format(d=doc_id, r=rev, bad=bad))
    assert res["isError"] is True, res
    assert res["structuredContent"]["code"] == "invalid_arguments", res
    assert server.ok("get_document", {"documentId": doc_id}) == before


NW_TEMPLATE = (
    'title "water"\nmemory total {mem} mb\ngeometry\n O 0 0 0.1173\n'
    " H 0 0.7572 -0.4692\n H 0 -0.7572 -0.4692\nend\nbasis\n * library sto-3g\n"
    "end\n{extra}task scf energy\n"
)


@pytest.mark.parametrize(
    "mem,extra",
    [
        ("inf", ""),
        ("nan", ""),
        ("-inf", ""),
        ("1e999", ""),
        ("400", "scf\n maxiter inf\nend\n"),
        ("400", "scf\n maxiter nan\nend\n"),
        ("400", "dft\n iterations inf\nend\n"),
        ("400", "scf\n thresh nan\nend\n"),
    ],
)
def test_a_non_finite_number_in_a_nw_file_is_a_clear_error_in_open_and_import(
    server: McpProcess, tmp_path: Path, mem: str, extra: str
) -> None:
    nw = tmp_path / "bad.nw"
    nw.write_text(NW_TEMPLATE.format(mem=mem, extra=extra))
    doc_id, rev = server.doc()
    err = server.err("open_file", {"documentId": doc_id, "expectedRevision": rev, "path": str(nw)})
    assert err["code"] in ("format_error", "invalid_argument"), err
    err = server.err(
        "import_document",
        {"documentId": doc_id, "expectedRevision": rev, "format": "nwchem", "text": nw.read_text()},
    )
    assert err["code"] in ("format_error", "invalid_argument"), err
    assert "Traceback" not in server.stderr and "internal" not in server.stderr.lower()


def test_molforma_convert_gives_a_clear_message_for_a_non_finite_memory(tmp_path: Path) -> None:
    from tests.core.test_convert_cli import run

    nw = tmp_path / "bad.nw"
    nw.write_text(NW_TEMPLATE.format(mem="inf", extra=""))
    done = run(nw, "-o", tmp_path / "out.xyz", cwd=tmp_path)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and "line 2" in done.stderr, done.stderr
    assert not (tmp_path / "out.xyz").exists()


def test_a_path_component_longer_than_the_file_system_allows_is_a_clear_error(
    server: McpProcess, tmp_path: Path
) -> None:
    long = tmp_path / ("a" * 300 + ".xyz")
    doc_id, rev = server.water()
    for name, args in (
        ("open_file", {"expectedRevision": rev, "path": str(long)}),
        ("save_file", {"path": str(tmp_path / ("b" * 300 + ".molforma.json")), "overwrite": True}),
        (
            "set_execution",
            {
                "expectedRevision": rev,
                "preview": False,
                "values": {"job_root": str(tmp_path / ("j" * 256))},
            },
        ),
        (
            "results_action",
            {
                "expectedRevision": rev,
                "action": "open_file",
                "path": str(tmp_path / ("r" * 300 + ".out")),
            },
        ),
    ):
        err = server.err(name, {"documentId": doc_id, **args})
        assert err["code"] == "path_too_long", (name, err)
        assert "255" in err["message"]
    assert "Traceback" not in server.stderr


def test_molforma_convert_refuses_a_too_long_name_clearly(tmp_path: Path) -> None:
    from tests.core.test_convert_cli import run

    src = tmp_path / "w.xyz"
    src.write_text("3\nwater\nO 0 0 0.1173\nH 0 0.7572 -0.4692\nH 0 -0.7572 -0.4692\n")
    done = run(src, "-o", tmp_path / ("c" * 300 + ".xyz"), cwd=tmp_path)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and "too long" in done.stderr, done.stderr


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_project_with_non_finite_numbers_is_refused_and_saved_projects_are_strict_json(
    server: McpProcess, tmp_path: Path, bad: str
) -> None:
    doc_id, rev = server.water()
    text = server.ok("export_document", {"documentId": doc_id, "format": "project"})["text"]
    forged = text.rstrip().rstrip("}") + f',\n "note": {bad}\n}}\n'
    assert json.loads(forged)["note"] in (math.inf, -math.inf) or math.isnan(
        json.loads(forged)["note"]
    )
    err = server.err(
        "import_document",
        {"documentId": doc_id, "expectedRevision": rev, "format": "project", "text": forged},
    )
    assert err["code"] == "format_error", err
    path = tmp_path / "forged.molforma.json"
    path.write_text(forged)
    err = server.err(
        "open_file", {"documentId": doc_id, "expectedRevision": rev, "path": str(path)}
    )
    assert err["code"] == "format_error", err
    out = tmp_path / "saved.molforma.json"
    server.ok("save_file", {"documentId": doc_id, "path": str(out)})
    json.loads(out.read_text(), parse_constant=_refuse_constant)


@pytest.mark.parametrize(
    "exc",
    [
        OSError(36, "File name too long", "/x/" + "n" * 300),
        PermissionError(13, "Permission denied", "/root/secret"),
    ],
)
def test_an_os_error_no_handler_foresaw_is_a_file_error_not_an_internal_one(exc: OSError) -> None:
    import dataclasses

    from molforma.mcp.protocol import Request
    from molforma.mcp.server import Server, ServerState

    server = Server(ServerState(), mode="headless")
    spec = server.tools["list_documents"]

    def raising(ctx: Any, args: Any) -> Any:
        raise exc

    server._tools = {"list_documents": dataclasses.replace(spec, handler=raising)}
    req = Request(
        id=1,
        method="tools/call",
        params={"name": "list_documents", "arguments": {}},
        era="modern",
        version="2026-07-28",
    )
    out = server._on_tools_call(req)
    assert out["isError"] is True
    assert out["structuredContent"]["code"] == "file_error"
    assert exc.filename in out["structuredContent"]["message"]
    assert exc.strerror in out["structuredContent"]["message"]
