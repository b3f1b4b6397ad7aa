"""What ``tools/list`` sends of a tool's models: compact schemas (no Qt, no pydantic import).

Two steps, both applied where the registry emits a schema, so the models stay the one
definition of every tool:

* :func:`compact_schema` drops what only repeats or restates (pydantic's titles, output
  defaults, ``X | None`` spelled as ``anyOf``) and shares a repeated field schema through
  ``$defs``; the result admits exactly the same values.
* :func:`thin_output_schema` keeps an output schema's top-level fields typed and
  described and gives each record nested below them as an open object that the field's
  description describes in words. ``tools/list`` is context every agent pays for in every
  session, and most of it was nested records (``get_results``' items, the edit summary's
  formula counts) and their repeated error object. The full schema, every nested field
  typed and described, is the resource :data:`SCHEMA_URI` names; the server still checks
  every answer against the models themselves (``ToolSpec.check_output``), so a thin
  schema loosens only what a client validates.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

# -- compaction ----------------------------------------------------------------------------------
# Keywords whose value is a map of names to subschemas, one subschema, or a list of them.
_SCHEMA_MAPS = frozenset({"properties", "$defs", "patternProperties", "dependentSchemas"})
_SCHEMA_ONE = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
# Keywords that constrain only values of their own type, so "A or null" keeps its meaning
# when A's type and null become one type list.
_TYPE_SPECIFIC = frozenset(
    {
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "properties",
        "additionalProperties",
        "required",
        "minProperties",
        "maxProperties",
    }
)
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
    return _plain(out)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}[type(value)]


def _plain(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` without a keyword its other keywords already imply (the same values admitted).

    A ``type`` beside an ``enum`` or ``const`` whose values all have that type says
    nothing more, and a fixed-length ``prefixItems`` of one repeated schema is ``items``
    with that length (a coordinate triple).
    """
    kind = node.get("type")
    values = (
        node["enum"]
        if isinstance(node.get("enum"), list)
        else ([node["const"]] if "const" in node else None)
    )
    if values is not None and kind is not None:
        kinds = set(kind) if isinstance(kind, list) else {kind}
        if "number" in kinds:
            kinds.add("integer")
        if all(_json_type(v) in kinds for v in values):
            node = {k: v for k, v in node.items() if k != "type"}
    prefix = node.get("prefixItems")
    if (
        isinstance(prefix, list)
        and prefix
        and "items" not in node
        and all(p == prefix[0] for p in prefix)
        and node.get("minItems") == node.get("maxItems") == len(prefix)
    ):
        node = {k: v for k, v in node.items() if k != "prefixItems"}
        node["items"] = prefix[0]
    return node


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
                name = ref[len("#/$defs/") :]
                uses[name] += 1
                if (set(node) - {"$ref"}) & set(defs.get(name) or {}):
                    clashes.add(name)
            mapping = node.get("mapping")
            if isinstance(mapping, dict):
                for target in mapping.values():
                    if isinstance(target, str) and target.startswith("#/$defs/"):
                        clashes.add(target[len("#/$defs/") :])
            for v in node.values():
                count(v)

    count(schema)
    root = schema.get("anyOf") or []
    if root and isinstance(root[0], dict) and isinstance(root[0].get("$ref"), str):
        clashes.add(root[0]["$ref"].rsplit("/", 1)[1])
    inline = {
        name
        for name, body in defs.items()
        if uses[name] == 1
        and name not in clashes
        and isinstance(body, dict)
        and f'"#/$defs/{name}"' not in _key(body)
    }
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
                out[k] = {
                    name: (
                        {"$ref": f"#/$defs/{shared[_key(sub)]}"}
                        if _key(sub) in shared
                        else swap(sub)
                    )
                    for name, sub in v.items()
                }
            else:
                out[k] = swap(v)
        return out

    out: dict[str, Any] = swap(schema)
    out["$defs"] = {
        **out.get("$defs", {}),
        **{name: swap(json.loads(key)) for key, name in shared.items()},
    }
    return out


# -- thin output schemas -------------------------------------------------------------------------
SCHEMA_URI = "molforma://tools/{name}/output-schema"
SCHEMA_MIME = "application/schema+json"
# The resource template of the full output schemas (resources/templates/list).
SCHEMA_TEMPLATE: dict[str, str] = {
    "uriTemplate": SCHEMA_URI,
    "name": "tool_output_schema",
    "title": "Tool output schema",
    "mimeType": SCHEMA_MIME,
    "description": "A tool's output schema in full: every nested record typed and described "
    "(tools/list gives nested records as open objects).",
}
# The error branch of every thin output schema. ToolErrorObject is the same in every tool
# and the docs describe it ({code, message, details}); the full schema keeps its fields.
ERROR_BRANCH: dict[str, Any] = {"required": ["code", "message"]}
# What a record keeps when it is opened: its type (object, or object or null) and its words.
_OPEN_KEEP = ("type", "description")


def thin_output_schema(
    schema: dict[str, Any], name: str, *, shared: str | None = None, shared_elsewhere: bool = False
) -> dict[str, Any]:
    """``schema`` (compacted) with every record below the top-level fields an open object.

    The top level is the tool's own model (the first branch of the root ``anyOf``) and,
    when that model is a union chosen by a discriminator (``get_results``' sections), each
    variant: their fields stay typed and described. A field whose value is a record, a
    list of records or a map of records keeps its own type (array, object, null) and
    description, which says what the records hold; the record itself becomes
    ``{"type": "object"}``. The error branch becomes :data:`ERROR_BRANCH`, entries of
    ``$defs`` nothing refers to any more go, and when something was opened the root's
    description names the resource that holds the full schema (:data:`SCHEMA_URI`).

    ``shared`` is given for a record many tools return alike (the edit summary, the window
    command record): it is then itself an open object with its ``required`` keys and
    ``shared`` as its description, one sentence that describes its fields, instead of the
    same typed fields repeated in every one of those tools (that sentence is the whole
    description, so it names no resource). With ``shared_elsewhere`` the sentence only says
    which tool's schema describes the record, and its ``required`` keys are left to that
    one too.
    """
    out: dict[str, Any] = json.loads(json.dumps(schema))
    defs: dict[str, Any] = out.get("$defs") or {}
    root = out.get("anyOf") or []
    top = _def_name(root[0].get("$ref")) if root and isinstance(root[0], dict) else None
    if top is None or top not in defs:
        return out
    tops = [
        top,
        *(_def_name(v.get("$ref")) for v in defs[top].get("oneOf") or [] if isinstance(v, dict)),
    ]
    found: list[bool] = []
    if shared is not None:
        body = defs[top]
        defs[top] = {"type": "object", "description": shared}
        if body.get("required") and not shared_elsewhere:
            defs[top]["required"] = body["required"]
        tops = []
    elif "oneOf" in defs[top]:
        # A union's docstring, as every model's, is the tool's to say (its description).
        defs[top].pop("description", None)
    for def_name in [t for t in tops if t in defs]:
        props = defs[def_name].get("properties") or {}
        for field, prop in props.items():
            props[field] = _open(prop, defs, found)
    # Field schemas shared through $defs (lower-case names) are top-level fields too.
    for def_name in [n for n in defs if n[:1].islower()]:
        defs[def_name] = _open(defs[def_name], defs, found)
    out["anyOf"] = [root[0], ERROR_BRANCH]
    _drop_unused_defs(out)
    if found:
        out["description"] = f"Full schema: {SCHEMA_URI.format(name=name)}"
    return out


def _def_name(ref: Any) -> str | None:
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return ref[len("#/$defs/") :]
    return None


def _is_record(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("properties"), dict)


def _open(node: Any, defs: dict[str, Any], found: list[bool]) -> Any:
    """``node`` with each record in it (inline or a model in ``defs``) an open object.

    ``found`` gains an entry for each record opened.
    """
    if not isinstance(node, dict):
        return node
    target = _def_name(node.get("$ref"))
    if target is not None and _is_record(defs.get(target)):
        found.append(True)
        return {"type": "object", **{k: v for k, v in node.items() if k != "$ref"}}
    if _is_record(node):
        found.append(True)
        return {
            "type": node.get("type", "object"),
            **{k: node[k] for k in _OPEN_KEEP if k in node and k != "type"},
        }
    out = dict(node)
    for k in ("items", "additionalProperties"):
        if isinstance(out.get(k), dict):
            out[k] = _open(out[k], defs, found)
    if isinstance(out.get("prefixItems"), list):
        out["prefixItems"] = [_open(x, defs, found) for x in out["prefixItems"]]
    alts = out.get("anyOf")
    if isinstance(alts, list):
        opened: list[Any] = []
        for a in alts:
            a = _open(a, defs, found)
            if a not in opened:
                opened.append(a)
        merged = _types_only(opened)
        if merged is not None and not set(out) - {"anyOf", "description"}:
            del out["anyOf"]
            out = {"type": merged, **out}
        else:
            out["anyOf"] = opened
    return out


def _types_only(alts: list[Any]) -> str | list[str] | None:
    """The type (or type list) ``anyOf: alts`` admits when every branch is a bare type."""
    types: list[str] = []
    for a in alts:
        if not isinstance(a, dict) or set(a) != {"type"}:
            return None
        for t in a["type"] if isinstance(a["type"], list) else [a["type"]]:
            if t not in types:
                types.append(t)
    return types[0] if len(types) == 1 else types


def _drop_unused_defs(schema: dict[str, Any]) -> None:
    """Remove the ``$defs`` entries no reference (or discriminator mapping) reaches."""
    defs = schema.get("$defs")
    if not isinstance(defs, dict):
        return
    reached: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for x in node:
                walk(x)
        elif isinstance(node, dict):
            for v in node.values():
                name = _def_name(v)
                if name is not None and name in defs and name not in reached:
                    reached.add(name)
                    walk(defs[name])
                walk(v)

    walk({k: v for k, v in schema.items() if k != "$defs"})
    for name in [n for n in defs if n not in reached]:
        del defs[name]
    if not defs:
        schema.pop("$defs", None)
