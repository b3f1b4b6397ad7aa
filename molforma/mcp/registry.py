"""The tool registry: every MCP tool is defined here once, by the ``@tool`` decorator (no Qt).

A tool is one handler ``(ctx: ToolContext, args: <Verb><Noun>Input) -> <Verb><Noun>Output``.
The decorator reads the input and output models from the annotations, checks the
name, refuses duplicates and records the annotations. ``tools/list``, the
dispatcher, the tests and ``docs/tools.md`` are all generated from :data:`TOOLS`.

Every output schema admits the common error object (:class:`ToolErrorObject`),
because clients validate ``structuredContent`` of error results too (SPEC.md 9).

Schemas come from the models and are then compacted (:func:`compact_schema`), since
``tools/list`` is context every agent pays for on every session: pydantic's
generated ``title`` entries go (each tool keeps its own title), ``X | None`` becomes
a type list, output ``default`` values and model docstrings go (every field keeps its
description), a field schema repeated within one tool's schema is defined once
under ``$defs`` and referenced (``$ref``), and a model used once is written in place.
The result validates exactly the same values.
The window mode reuses this registry: the window tools (``modes=("gui",)``) reach
the window through ``ctx.bridge``, a :class:`~molforma.mcp.bridge.WindowBridge`.
"""

from __future__ import annotations

import json
import re
import typing
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)

if TYPE_CHECKING:
    from molforma.mcp.bridge import WindowBridge
    from molforma.mcp.protocol import Request
    from molforma.mcp.state import AppServices
    from molforma.mcp.tasks import Background

T = TypeVar("T")
Mode = Literal["headless", "gui"]
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
MAX_RESULT_CHARS = 100_000


# The tools that change a document. In the window they are refused while a modal
# dialog is open (SPEC.md 9.1) through the window bridge's check_document_edit().
DOCUMENT_EDIT_TOOLS: frozenset[str] = frozenset({
    "open_file", "import_document", "history", "add_atoms", "delete_atoms", "move_atoms",
    "set_atom_properties", "set_bonds", "set_internal_coordinate", "add_hydrogens",
    "place_fragment", "set_molecule", "set_nwchem", "set_advanced", "set_execution",
})


class ToolInput(BaseModel):
    """Base of every tool's input model and of the models nested in one.

    Unknown arguments are refused, and so are ``Infinity`` and ``NaN`` in every float
    field: Python's JSON reader accepts them, but no coordinate, angle, mass or time
    limit can be infinite, and they must never reach a document or a file.
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class SparseOutput(BaseModel):
    """Base of output models (and models nested in one) whose optional keys may be absent.

    Only the fields given when the model was built are sent: a key a section or a mode
    does not have stays absent rather than becoming ``null``, so an answer keeps the
    shape SPEC.md section 9 gives it. Unknown keys are refused, so a value the
    underlying code adds without a declared field fails in the tests instead of
    silently leaving the ``outputSchema``.
    """

    model_config = ConfigDict(extra="forbid")

    @model_serializer(mode="wrap")
    def _only_given(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        given = self.model_fields_set
        return {k: v for k, v in data.items() if k in given}


class ToolErrorObject(BaseModel):
    """The common error object of every tool (``structuredContent`` of an error result)."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="Stable error code, e.g. 'stale_revision'.")
    message: str = Field(description="The error in the display language.")
    details: dict[str, Any] = Field(default_factory=dict, description="Machine-readable details.")


@dataclass
class ToolContext:
    """What a handler may use: the services of the mode and the request."""

    state: AppServices
    request: Request

    @property
    def lang(self) -> str:
        """Display language of messages inside results."""
        return self.state.lang

    @property
    def bridge(self) -> WindowBridge | None:
        """The window bridge (``--mcp-gui``), None headless."""
        return self.state.window


# A handler takes its own input model and returns its output model, or a Background
# (molforma.mcp.tasks) whose result and final answer are that model.
Handler = Callable[[ToolContext, Any], "BaseModel | Background[Any]"]


@dataclass(frozen=True)
class ToolSpec:
    """One tool: name, models, handler and the hints that clients see."""

    name: str
    title: str
    description: str
    input: type[BaseModel]
    output: type[BaseModel]
    handler: Handler
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    open_world: bool = False
    modes: frozenset[str] = field(default_factory=lambda: frozenset({"headless", "gui"}))
    max_result_chars: int | None = None
    # Carries anthropic/requiresUserInteraction when execution settings are allowed.
    needs_interaction_when_exec_allowed: bool = False

    def input_schema(self) -> dict[str, Any]:
        """JSON Schema of the arguments (root type object)."""
        return _input_schema(self.input)

    def output_schema(self) -> dict[str, Any]:
        """JSON Schema of ``structuredContent``: the output model or the error object."""
        return _output_schema(self.output)

    def definition(self, *, allow_execution_settings: bool = False) -> dict[str, Any]:
        """The ``Tool`` object of ``tools/list``."""
        meta: dict[str, Any] = {}
        if self.max_result_chars:
            meta["anthropic/maxResultSizeChars"] = self.max_result_chars
        if allow_execution_settings and self.needs_interaction_when_exec_allowed:
            meta["anthropic/requiresUserInteraction"] = True
        out: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema(),
            "outputSchema": self.output_schema(),
            "annotations": {
                "title": self.title,
                "readOnlyHint": self.read_only,
                "destructiveHint": self.destructive,
                "idempotentHint": self.idempotent,
                "openWorldHint": self.open_world,
            },
        }
        if meta:
            out["_meta"] = meta
        return out

    def check_output(self, structured: Any, *, is_error: bool) -> None:
        """Validate ``structuredContent`` against this tool's output schema.

        Raises:
            pydantic.ValidationError: the handler broke its own contract.
        """
        if is_error:
            _adapter(ToolErrorObject).validate_python(structured)
        else:
            _adapter(self.output).validate_python(structured)


TOOLS: dict[str, ToolSpec] = {}

_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}
_SCHEMAS: dict[tuple[str, Any], dict[str, Any]] = {}


def _adapter(tp: Any) -> TypeAdapter[Any]:
    ad = _ADAPTERS.get(tp)
    if ad is None:
        ad = _ADAPTERS[tp] = TypeAdapter(tp)
    return ad


def _input_schema(model: type[BaseModel]) -> dict[str, Any]:
    key = ("in", model)
    if key not in _SCHEMAS:
        schema = compact_schema(model.model_json_schema(), output=False)
        schema["type"] = "object"
        schema.setdefault("properties", {})
        _SCHEMAS[key] = schema
    return _SCHEMAS[key]


def _output_schema(model: type[BaseModel]) -> dict[str, Any]:
    key = ("out", model)
    if key not in _SCHEMAS:
        schema = compact_schema(_adapter(model | ToolErrorObject).json_schema(), output=True)
        # The 2025-11-25 schema wants an object root; anyOf of two objects is one.
        schema = {"type": "object", **schema}
        _SCHEMAS[key] = schema
    return _SCHEMAS[key]


# -- compaction ----------------------------------------------------------------------------------
# Keywords whose value is a map of names to subschemas, one subschema, or a list of them.
_SCHEMA_MAPS = frozenset({"properties", "$defs", "patternProperties", "dependentSchemas"})
_SCHEMA_ONE = frozenset({"items", "additionalProperties", "not", "if", "then", "else",
                         "contains", "propertyNames", "unevaluatedItems",
                         "unevaluatedProperties"})
_SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
# Keywords that constrain only values of their own type, so "A or null" keeps its meaning
# when A's type and null become one type list.
_TYPE_SPECIFIC = frozenset({
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
    "maxLength", "pattern", "format", "items", "prefixItems", "minItems", "maxItems",
    "uniqueItems", "properties", "additionalProperties", "required", "minProperties",
    "maxProperties"})
_NULL = {"type": "null"}
_PLAIN_NAME = re.compile(r"^[a-z][A-Za-z0-9_]*$")


def compact_schema(schema: dict[str, Any], *, output: bool) -> dict[str, Any]:
    """``schema`` without what only repeats or restates; it admits exactly the same values.

    Drops pydantic's ``title`` keywords (a property named ``title`` stays), ``default``
    values of output schemas and ``null`` defaults of input schemas (absent from
    ``required`` says the same), ``additionalProperties: true`` (the default) and, in
    output schemas, the models' docstrings (each field keeps its description). ``A | None``
    of plain typed schemas becomes a type list (an enum gains ``null``). Then a property
    schema repeated within this schema is defined once in ``$defs`` (:func:`_share`), and
    a model used once is written where it is used (:func:`_inline_single_use`).
    """
    out = _strip(schema, output)
    if output:
        for name, sub in (out.get("$defs") or {}).items():
            if isinstance(sub, dict) and "properties" in sub:
                out["$defs"][name] = {k: v for k, v in sub.items() if k != "description"}
    return _inline_single_use(_share(out))


def _strip(node: Any, output: bool) -> Any:
    if isinstance(node, list):
        return [_strip(x, output) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for k, v in node.items():
        if k == "title" or (k == "default" and (output or v is None)):
            continue
        if k in _SCHEMA_MAPS and isinstance(v, dict):
            out[k] = {name: _strip(sub, output) for name, sub in v.items()}
        elif k in _SCHEMA_ONE or k in _SCHEMA_LISTS:
            out[k] = _strip(v, output)
        else:
            out[k] = v
    if out.get("additionalProperties") is True:
        del out["additionalProperties"]
    alts = out.get("anyOf")
    if isinstance(alts, list):
        one = _one_of_types(alts)
        if one is not None and not set(one) & (set(out) - {"anyOf"}):
            del out["anyOf"]
            out = {**one, **out}
    return out


def _one_of_types(alts: list[Any]) -> dict[str, Any] | None:
    """One schema admitting what ``anyOf: alts`` admits, or None when there is none simple."""
    if len(alts) == 2 and _NULL in alts:
        [other] = [a for a in alts if a != _NULL]
        if isinstance(other, dict) and set(other) - {"type"} == {"enum"}:
            return {"enum": [*other["enum"], None]}
        if isinstance(other, dict) and set(other) - {"type"} == {"const"}:
            return {"enum": [other["const"], None]}
    if len(alts) < 2:
        return None
    types: list[str] = []
    merged: dict[str, Any] = {}
    for a in alts:
        if not isinstance(a, dict) or not isinstance(a.get("type"), str) or a["type"] in types:
            return None
        rest = {k: v for k, v in a.items() if k != "type"}
        if not set(rest) <= _TYPE_SPECIFIC or set(rest) & set(merged):
            return None
        types.append(a["type"])
        merged.update(rest)
    return {"type": types, **merged}


def _inline_single_use(schema: dict[str, Any]) -> dict[str, Any]:
    """Write each ``$defs`` entry referenced exactly once where it is referenced.

    A name and a ``$ref`` cost more than they give for a model used once (the error object,
    most nested models). Kept: the tool's own model (the first branch of the root
    ``anyOf``, which names what the tool returns), entries a discriminator maps to,
    entries that refer to themselves, and any whose reference carries a key of its own
    that the entry has too.
    """
    defs = schema.get("$defs")
    if not isinstance(defs, dict):
        return schema
    uses: Counter[str] = Counter()
    clashes: set[str] = set()

    def count(node: Any) -> None:
        if isinstance(node, list):
            for x in node:
                count(x)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref[len("#/$defs/"):]
                uses[name] += 1
                if (set(node) - {"$ref"}) & set(defs.get(name) or {}):
                    clashes.add(name)
            mapping = node.get("mapping")
            if isinstance(mapping, dict):
                for target in mapping.values():
                    if isinstance(target, str) and target.startswith("#/$defs/"):
                        clashes.add(target[len("#/$defs/"):])
            for v in node.values():
                count(v)

    count(schema)
    root = schema.get("anyOf") or []
    if root and isinstance(root[0], dict) and isinstance(root[0].get("$ref"), str):
        clashes.add(root[0]["$ref"].rsplit("/", 1)[1])
    inline = {name for name, body in defs.items()
              if uses[name] == 1 and name not in clashes and isinstance(body, dict)
              and f'"#/$defs/{name}"' not in _key(body)}
    if not inline:
        return schema

    def swap(node: Any) -> Any:
        if isinstance(node, list):
            return [swap(x) for x in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.rsplit("/", 1)[1] in inline:
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return swap({**defs[ref.rsplit("/", 1)[1]], **rest})
        return {k: (v if k == "$defs" else swap(v)) for k, v in node.items()}

    out: dict[str, Any] = swap(schema)
    kept = {name: swap(body) for name, body in defs.items() if name not in inline}
    if kept:
        out["$defs"] = kept
    else:
        out.pop("$defs", None)
    return out


def _key(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True, separators=(",", ":"))


def _share(schema: dict[str, Any]) -> dict[str, Any]:
    """Define a property schema repeated within ``schema`` once, under ``$defs``.

    Only where it makes the schema shorter. A shared field is named after the property
    (lower case first, as fields are; models are capitalised), so ``$defs/offset`` is the
    ``offset`` of every section that has one.
    """
    counts: Counter[str] = Counter()
    names: dict[str, str] = {}

    def count(node: Any) -> None:
        if isinstance(node, list):
            for x in node:
                count(x)
        elif isinstance(node, dict):
            for k, v in node.items():
                if k == "properties" and isinstance(v, dict):
                    for name, sub in v.items():
                        key = _key(sub)
                        counts[key] += 1
                        names.setdefault(key, name)
                count(v)

    count(schema)
    defs = schema.get("$defs") or {}
    shared: dict[str, str] = {}
    for key, n in counts.items():
        # A name goes into a JSON pointer as it is: only plain identifiers are shared.
        if n < 2 or not _PLAIN_NAME.match(names[key]):
            continue
        base = names[key]
        name, i = base, 2
        while name in defs or name in shared.values():
            name, i = f"{base}{i}", i + 1
        ref = len(_key({"$ref": f"#/$defs/{name}"}))
        if (n - 1) * len(key) > n * ref + len(name) + 4:
            shared[key] = name
    if not shared:
        return schema

    def swap(node: Any) -> Any:
        if isinstance(node, list):
            return [swap(x) for x in node]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for k, v in node.items():
            if k == "properties" and isinstance(v, dict):
                out[k] = {name: ({"$ref": f"#/$defs/{shared[_key(sub)]}"}
                                 if _key(sub) in shared else swap(sub))
                          for name, sub in v.items()}
            else:
                out[k] = swap(v)
        return out

    out: dict[str, Any] = swap(schema)
    out["$defs"] = {**out.get("$defs", {}),
                    **{name: swap(json.loads(key)) for key, name in shared.items()}}
    return out


def tool(
    name: str,
    *,
    title: str,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool = False,
    open_world: bool = False,
    modes: tuple[Mode, ...] = ("headless", "gui"),
    max_result_chars: int | None = None,
    needs_interaction_when_exec_allowed: bool = False,
) -> Callable[[Handler], Handler]:
    """Register the decorated handler as tool ``name``; its docstring is the description.

    Raises:
        ValueError: a bad or duplicate name, or missing model annotations.
    """

    def deco(fn: Handler) -> Handler:
        if not NAME_PATTERN.match(name):
            raise ValueError(f"bad tool name {name!r}")
        if name in TOOLS:
            raise ValueError(f"tool {name!r} defined twice")
        hints = typing.get_type_hints(fn)
        params = [k for k in hints if k != "return"]
        if len(params) != 2:
            raise ValueError(f"tool {name}: handler must take (ctx, args)")
        inp, out = hints[params[1]], _output_model(hints.get("return"))
        if not (isinstance(inp, type) and issubclass(inp, BaseModel)):
            raise ValueError(f"tool {name}: args must be annotated with a pydantic model")
        if out is None:
            raise ValueError(f"tool {name}: return must be annotated with a pydantic model "
                             "(or Model | Background[Model])")
        if inp.model_config.get("extra") != "forbid":
            raise ValueError(f"tool {name}: input model must forbid extra fields")
        for fname, finfo in inp.model_fields.items():
            if not finfo.description:
                raise ValueError(f"tool {name}: field {fname} needs a description")
        doc = (fn.__doc__ or "").strip()
        if not doc:
            raise ValueError(f"tool {name}: handler needs a docstring (the description)")
        TOOLS[name] = ToolSpec(
            name=name, title=title, description=" ".join(doc.split()), input=inp, output=out,
            handler=fn, read_only=read_only, destructive=destructive, idempotent=idempotent,
            open_world=open_world, modes=frozenset(modes),
            max_result_chars=max_result_chars,
            needs_interaction_when_exec_allowed=needs_interaction_when_exec_allowed,
        )
        return fn

    return deco


def _output_model(annotation: Any) -> type[BaseModel] | None:
    """The output model of a return annotation ``Model`` or ``Model | Background[Model]``."""
    from molforma.mcp.tasks import Background

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    args = typing.get_args(annotation)
    models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
    others = [a for a in args if a not in models]
    if len(models) != 1:
        return None
    for other in others:
        if typing.get_origin(other) is not Background or typing.get_args(other) != (models[0],):
            return None
    return models[0]


INDEX_PATH = Path(__file__).with_name("tool_index.json")


def build_index() -> dict[str, Any]:
    """The headless tool index: every tool's ``tools/list`` entry and the module defining it.

    ``scripts/gen_tool_index.py`` writes it to :data:`INDEX_PATH`; a test checks the file
    equals what the models give. The server answers ``tools/list`` from the file (read by
    ``molforma.mcp.tool_index``, which needs no pydantic) and
    imports only the module of the tool called, so the first answers do not wait for
    every tool's models (SPEC.md section 9: clients time out early).
    """
    tools = []
    for t in tools_for("headless"):
        tools.append({"module": t.handler.__module__,
                      "needsInteractionWhenExecAllowed": t.needs_interaction_when_exec_allowed,
                      "definition": t.definition(allow_execution_settings=False)})
    return {"generatedBy": "scripts/gen_tool_index.py", "tools": tools}


def load_module(module: str) -> dict[str, ToolSpec]:
    """Import one tool module (registering its tools) and return :data:`TOOLS`."""
    import importlib

    if not module.startswith("molforma.mcp.tools."):
        raise ValueError(f"not a tool module: {module}")
    importlib.import_module(module)
    return TOOLS


# The tool modules import this registry to register their tools; the registry loads them
# by name (as the server's index does, one module at a time), never by an import statement.
TOOL_MODULES = (
    "molforma.mcp.tools.document",
    "molforma.mcp.tools.calculation",
    "molforma.mcp.tools.results",
    "molforma.mcp.tools.window",
)


def load_tools() -> dict[str, ToolSpec]:
    """Import the tool modules (registering every tool) and return :data:`TOOLS`."""
    for module in TOOL_MODULES:
        load_module(module)
    return TOOLS


def tools_for(mode: Mode) -> list[ToolSpec]:
    """The tools of one mode, in registration order."""
    return [t for t in load_tools().values() if mode in t.modes]
