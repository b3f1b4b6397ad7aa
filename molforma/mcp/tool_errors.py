"""Tool errors as a client reads them: argument errors in the display language,
unforeseen file-system refusals, non-finite numbers (no Qt).

pydantic only speaks English, and the message of an ``isError`` result must follow the
display language (docs/reference/mcp.md, Errors), so the argument errors a model meets most have
their Japanese wording here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from molforma.errors import FileAccessError, MolFormaError
from molforma.mcp import protocol as P

if TYPE_CHECKING:
    from pydantic import ValidationError as PydanticValidationError


def file_error(exc: OSError) -> FileAccessError:
    """A file-system refusal no handler foresaw (ENAMETOOLONG, EACCES, ENOSPC, ...).

    It concerns the user's path or disk, not a bug: the answer names the path and the
    reason instead of ``internal_error``.
    """
    return FileAccessError(path=str(exc.filename or ""), reason=exc.strerror or str(exc))


def dumps_text(value: Any) -> str:
    """``value`` as the JSON text of a result's text content."""
    return P.dumps(value).decode("utf-8")


def jsonable(value: Any) -> Any:
    """``value`` made plain JSON data (anything else as text, or its repr)."""
    try:
        return json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError):
        return {"repr": repr(value)}


# Japanese wording of the argument errors a model meets most; pydantic only speaks
# English, and the message of an isError result must follow the display language.
_JA_ARGUMENT_ERRORS: dict[str, str] = {
    "missing": "必須の引数がありません",
    "extra_forbidden": "この引数は使えません",
    "literal_error": "次のいずれかを指定してください: {expected}",
    "enum": "次のいずれかを指定してください: {expected}",
    "greater_than_equal": "{ge} 以上にしてください",
    "greater_than": "{gt} より大きくしてください",
    "less_than_equal": "{le} 以下にしてください",
    "less_than": "{lt} より小さくしてください",
    "string_type": "文字列を指定してください",
    "int_type": "整数を指定してください",
    "int_parsing": "整数を指定してください",
    "int_from_float": "整数を指定してください",
    "float_type": "数値を指定してください",
    "float_parsing": "数値を指定してください",
    "finite_number": "有限の数値を指定してください（Infinity や NaN は使えません）",
    "bool_type": "true か false を指定してください",
    "bool_parsing": "true か false を指定してください",
    "list_type": "配列を指定してください",
    "tuple_type": "配列を指定してください",
    "dict_type": "オブジェクトを指定してください",
    "model_type": "オブジェクトを指定してください",
    "model_attributes_type": "オブジェクトを指定してください",
    "too_short": "要素が少なすぎます（最小 {min_length} 個）",
    "too_long": "要素が多すぎます（最大 {max_length} 個）",
    "string_too_short": "短すぎます（最小 {min_length} 文字）",
    "string_too_long": "長すぎます（最大 {max_length} 文字）",
}


def argument_error_text(error: Mapping[str, Any], lang: str) -> str:
    """One pydantic error in the display language (English: pydantic's own text)."""
    if lang != "ja":
        return str(error["msg"])
    template = _JA_ARGUMENT_ERRORS.get(str(error["type"]))
    if template is None:
        return str(error["msg"])
    ctx = {k: str(v).replace(" or ", ", ") for k, v in (error.get("ctx") or {}).items()}
    try:
        return template.format(**ctx)
    except (KeyError, IndexError):
        return str(error["msg"])


def non_finite_at(args: Any) -> list[str] | None:
    """The location of the first Infinity or NaN anywhere in ``args``, or None.

    The typed fields refuse them by themselves (``ToolInput``); this also covers
    free-form values (``set_advanced`` values, any ``Any`` field), so no non-finite
    number reaches a handler whatever its model says.
    """
    stack: list[tuple[list[str], Any]] = [([], args)]
    while stack:
        loc, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return loc
        if isinstance(value, dict):
            stack.extend(([*loc, str(k)], v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(([*loc, str(i)], v) for i, v in enumerate(value))
    return None


def non_finite_error(loc: list[str], lang: str) -> dict[str, Any]:
    """The ``invalid_arguments`` error of an Infinity or NaN at ``loc``."""
    msg = "Input should be a finite number"
    error = {"loc": loc, "msg": msg, "type": "finite_number"}
    text = argument_error_text(error, lang)
    err = MolFormaError("invalid_arguments", detail=f"{'.'.join(loc)}: {text}")
    out = err.to_dict(lang)
    out["details"] = {"errors": [error]}
    return out


def invalid_args(exc: PydanticValidationError, lang: str) -> dict[str, Any]:
    """The ``invalid_arguments`` error of the first argument errors pydantic found."""
    raw = exc.errors(include_url=False)[:20]
    errors = [{"loc": [str(p) for p in e["loc"]], "msg": e["msg"], "type": e["type"]} for e in raw]
    detail = "; ".join(
        f"{'.'.join(e['loc']) or '(arguments)'}: {argument_error_text(r, lang)}"
        for e, r in zip(errors[:5], raw[:5], strict=True)
    )
    err = MolFormaError("invalid_arguments", detail=detail)
    out = err.to_dict(lang)
    out["details"] = {"errors": errors}
    return out
