"""The tool registry: every MCP tool is defined here once, by the ``@tool`` decorator (no Qt).

A tool is one handler ``(ctx: ToolContext, args: <Verb><Noun>Input) -> <Verb><Noun>Output``.
The decorator reads the input and output models from the annotations, checks the
name, refuses duplicates and records the annotations. ``tools/list``, the
dispatcher, the tests and ``docs/tools.md`` are all generated from :data:`TOOLS`.

Every output schema admits the common error object (:class:`ToolErrorObject`),
because clients validate ``structuredContent`` of error results too (docs/reference/mcp.md, Errors).

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

import importlib
import json
import re
import typing
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

from molforma.lazy import lazy_import
from molforma.mcp.list_schema import SCHEMA_MIME, SCHEMA_URI, compact_schema, thin_output_schema

if TYPE_CHECKING:
    from molforma.mcp import tasks
    from molforma.mcp.bridge import WindowBridge
    from molforma.mcp.protocol import Request
    from molforma.mcp.state import AppServices
    from molforma.mcp.tasks import Background
else:  # imported on first use (start-up time): molforma.lazy
    tasks = lazy_import("molforma.mcp.tasks")

T = TypeVar("T")
Mode = Literal["headless", "gui"]
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
MAX_RESULT_CHARS = 100_000


# The tools that change a document. In the window they are refused while a modal
# dialog is open (docs/reference/window.md, Commands) through the window bridge's document_edit().
DOCUMENT_EDIT_TOOLS: frozenset[str] = frozenset(
    {
        "open_file",
        "import_document",
        "history",
        "add_atoms",
        "delete_atoms",
        "move_atoms",
        "set_atom_properties",
        "set_bonds",
        "set_internal_coordinate",
        "add_hydrogens",
        "place_fragment",
        "set_molecule",
        "set_nwchem",
        "set_advanced",
        "set_execution",
    }
)


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
    shape docs/reference/mcp.md, Tools gives it. Unknown keys are refused, so a value the
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
        return _output_schema(self.output, self.name)

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
            # The tool's title is above (both eras have Tool.title); annotations carry hints.
            "annotations": {
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
_SCHEMAS: dict[tuple[Any, ...], dict[str, Any]] = {}


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


def full_output_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The output schema with every nested record typed and described (a resource)."""
    key = ("full", model)
    if key not in _SCHEMAS:
        schema = compact_schema(_adapter(model | ToolErrorObject).json_schema(), output=True)
        # The 2025-11-25 schema wants an object root; anyOf of two objects is one.
        _SCHEMAS[key] = {"type": "object", **schema}
    return _SCHEMAS[key]


def _output_schema(model: type[BaseModel], name: str) -> dict[str, Any]:
    key = ("out", model, name)
    if key not in _SCHEMAS:
        shared, elsewhere = _shared_description(model, name)
        _SCHEMAS[key] = thin_output_schema(
            full_output_schema(model), name, shared=shared, shared_elsewhere=elsewhere
        )
    return _SCHEMAS[key]


# An output model this many tools return is a shared record: described once (below).
SHARED_OUTPUT_TOOLS = 3


def _shared_description(model: type[BaseModel], name: str) -> tuple[str | None, bool]:
    """The description of ``model`` in tool ``name``'s schema, and whether it is a reference.

    (None, False) for a model of its own. A shared record (the edit summary, the window
    command) is described once per tool list: its docstring, which names its fields, goes
    to the first tool returning it that exists in every mode the others do (its home); the
    others say what it is (the docstring up to its colon) and which schema describes it.
    """
    users = [t for t in load_tools().values() if t.output is model]
    if len(users) < SHARED_OUTPUT_TOOLS:
        return None, False
    modes = frozenset().union(*(t.modes for t in users))
    home = next((t for t in users if t.modes >= modes), users[0]).name
    doc = " ".join((model.__doc__ or "").split())
    if name == home or ":" not in doc:
        return doc, False
    return f"{doc.split(':', 1)[0]} (see {home}'s outputSchema).", True


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
            raise ValueError(
                f"tool {name}: return must be annotated with a pydantic model "
                "(or Model | Background[Model])"
            )
        if inp.model_config.get("extra") != "forbid":
            raise ValueError(f"tool {name}: input model must forbid extra fields")
        for fname, finfo in inp.model_fields.items():
            if not finfo.description:
                raise ValueError(f"tool {name}: field {fname} needs a description")
        doc = (fn.__doc__ or "").strip()
        if not doc:
            raise ValueError(f"tool {name}: handler needs a docstring (the description)")
        TOOLS[name] = ToolSpec(
            name=name,
            title=title,
            description=" ".join(doc.split()),
            input=inp,
            output=out,
            handler=fn,
            read_only=read_only,
            destructive=destructive,
            idempotent=idempotent,
            open_world=open_world,
            modes=frozenset(modes),
            max_result_chars=max_result_chars,
            needs_interaction_when_exec_allowed=needs_interaction_when_exec_allowed,
        )
        return fn

    return deco


def _output_model(annotation: Any) -> type[BaseModel] | None:
    """The output model of a return annotation ``Model`` or ``Model | Background[Model]``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    args = typing.get_args(annotation)
    models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
    others = [a for a in args if a not in models]
    if len(models) != 1:
        return None
    for other in others:
        if typing.get_origin(other) is not tasks.Background or typing.get_args(other) != (
            models[0],
        ):
            return None
    return models[0]


INDEX_PATH = Path(__file__).with_name("tool_index.json")


def build_index() -> dict[str, Any]:
    """The headless tool index: every tool's ``tools/list`` entry and the module defining it.

    ``scripts/gen_tool_index.py`` writes it to :data:`INDEX_PATH`; a test checks the file
    equals what the models give. The server answers ``tools/list`` from the file (read by
    ``molforma.mcp.tool_index``, which needs no pydantic) and
    imports only the module of the tool called, so the first answers do not wait for
    every tool's models (docs/reference/mcp.md, Protocol eras: clients time out early).
    """
    tools = []
    for t in tools_for("headless"):
        tools.append(
            {
                "module": t.handler.__module__,
                "needsInteractionWhenExecAllowed": t.needs_interaction_when_exec_allowed,
                "definition": t.definition(allow_execution_settings=False),
            }
        )
    return {"generatedBy": "scripts/gen_tool_index.py", "tools": tools}


def load_module(module: str) -> dict[str, ToolSpec]:
    """Import one tool module (registering its tools) and return :data:`TOOLS`."""
    if not module.startswith("molforma.mcp.tools."):
        raise ValueError(f"not a tool module: {module}")
    importlib.import_module(module)
    return TOOLS


# The tool modules import this registry to register their tools; the registry loads them
# by name (as the server's index does, one module at a time), never by an import statement.
TOOL_MODULES = (
    "molforma.mcp.tools.document_tools",
    "molforma.mcp.tools.calculation",
    "molforma.mcp.tools.results",
    "molforma.mcp.tools.window",
)


def load_tools() -> dict[str, ToolSpec]:
    """Import the tool modules (registering every tool) and return :data:`TOOLS`."""
    for module in TOOL_MODULES:
        load_module(module)
    return TOOLS


def output_schema_resource(mode: str, uri: str) -> list[dict[str, Any]] | None:
    """The ``contents`` of a tool's full output schema resource (:data:`SCHEMA_URI`).

    None when ``uri`` is not such a resource or names no tool of ``mode``. The full schema
    types and describes every nested record that ``tools/list`` gives as an open object.
    """
    m = _SCHEMA_URI.match(uri)
    if m is None:
        return None
    spec = {t.name: t for t in tools_for(mode)}.get(m["name"])  # type: ignore[arg-type]
    if spec is None:
        return None
    text = json.dumps(full_output_schema(spec.output), ensure_ascii=False)
    return [{"uri": uri, "mimeType": SCHEMA_MIME, "text": text}]


_SCHEMA_URI = re.compile(
    "^" + re.escape(SCHEMA_URI).replace(re.escape("{name}"), "(?P<name>[A-Za-z0-9_.-]{1,64})") + "$"
)


def tools_for(mode: Mode) -> list[ToolSpec]:
    """The tools of one mode, in registration order."""
    return [t for t in load_tools().values() if mode in t.modes]
