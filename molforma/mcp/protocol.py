"""JSON-RPC and MCP protocol constants, era detection and message helpers (no Qt).

The server speaks two revisions on one stdio process (docs/reference/mcp.md,
Protocol eras): 2026-07-28, where every request carries its version and
client capabilities in ``params._meta``, and 2025-11-25, reached only through a real
``initialize``. This module decides which era a message belongs to and builds the
envelopes; it never touches documents.

The wire models of the official ``mcp-types`` package validate request shapes. That
package costs about half a second to import, more than the whole start-up budget, so
it is loaded on a background thread at start (:func:`preload_wire`) and used from the
first request that needs it; ``server/discover`` and the error paths need only the
constants below (a test checks they equal the package's).
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from types import ModuleType

# --- versions and reserved _meta keys ----------------------------------------------------
MODERN_VERSION = "2026-07-28"
LEGACY_VERSION = "2025-11-25"
SUPPORTED_VERSIONS: tuple[str, ...] = (MODERN_VERSION, LEGACY_VERSION)
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
MAX_RESULT_SIZE_KEY = "anthropic/maxResultSizeChars"
REQUIRES_INTERACTION_KEY = "anthropic/requiresUserInteraction"

# --- JSON-RPC / MCP error codes ----------------------------------------------------------
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022

# Methods that the modern revision removed; a modern request naming them gets -32601.
REMOVED_IN_MODERN = frozenset(
    {
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "tasks/result",
        "tasks/list",
        "notifications/initialized",
    }
)
# The six results that carry caching hints on 2026-07-28.
CACHEABLE_METHODS = frozenset(
    {
        "server/discover",
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "resources/read",
    }
)
TASK_METHODS = frozenset({"tasks/get", "tasks/update", "tasks/cancel"})

Era = Literal["modern", "legacy"]
RequestId = int | str


class RpcError(Exception):
    """A JSON-RPC error answer (protocol failure, not a tool failure)."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_error(self) -> dict[str, Any]:
        """The JSON-RPC ``error`` object."""
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            err["data"] = self.data
        return err


def missing_capability(required: dict[str, Any], what: str) -> RpcError:
    """-32021 naming the capability the request should have declared."""
    return RpcError(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        f"Missing required client capability: {what}",
        {"requiredCapabilities": required},
    )


def tasks_capability_error() -> RpcError:
    """-32021 for a request that needs the Tasks extension."""
    return missing_capability({"extensions": {TASKS_EXTENSION: {}}}, TASKS_EXTENSION)


class Request:
    """One decoded request with what its era says about the client.

    A plain class, not a dataclass: :mod:`dataclasses` imports :mod:`inspect`, which
    the first answer of the server should not wait for.
    """

    __slots__ = ("capabilities", "era", "id", "method", "params", "version")

    def __init__(
        self,
        id: RequestId,
        method: str,
        params: dict[str, Any],
        era: Era,
        version: str,
        capabilities: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.method = method
        self.params = params
        self.era = era
        self.version = version
        self.capabilities: dict[str, Any] = capabilities if capabilities is not None else {}

    def __repr__(self) -> str:
        return (
            f"Request(id={self.id!r}, method={self.method!r}, era={self.era!r}, "
            f"version={self.version!r})"
        )

    @property
    def meta(self) -> dict[str, Any]:
        """``params._meta`` (empty when absent)."""
        m = self.params.get("_meta")
        return m if isinstance(m, dict) else {}

    @property
    def declares_form_elicitation(self) -> bool:
        """Form elicitation declared on this very request (``{}`` or with ``form``)."""
        if self.era != "modern":
            return False
        el = self.capabilities.get("elicitation")
        return isinstance(el, dict) and (not el or isinstance(el.get("form"), dict))

    @property
    def declares_tasks(self) -> bool:
        """The Tasks extension declared on this very request."""
        if self.era != "modern":
            return False
        ext = self.capabilities.get("extensions")
        return isinstance(ext, dict) and isinstance(ext.get(TASKS_EXTENSION), dict)


_fast_to_json: Any = None


def enable_fast_json() -> None:
    """Switch :func:`dumps` to pydantic-core's encoder (call once pydantic is loaded)."""
    global _fast_to_json
    from pydantic_core import to_json

    _fast_to_json = to_json


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON of ``value``.

    pydantic-core's encoder is several times faster than :mod:`json` on big results
    (a 10,000-atom project); it is switched on by :func:`enable_fast_json` once the
    tools have loaded pydantic, so the first answer does not wait for that import.
    """
    fast = _fast_to_json
    if fast is not None:
        try:
            return bytes(fast(value, inf_nan_mode="null"))
        except (ValueError, TypeError):
            pass  # e.g. a lone surrogate echoed from the client: the escaping encoder copes
    # ASCII escapes keep any string (lone surrogates included) valid on the wire.
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=str).encode("ascii")


def is_valid_id(value: Any) -> bool:
    """JSON-RPC ids here are strings or integers (never null, bool or float)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def response(req_id: RequestId, result: dict[str, Any]) -> dict[str, Any]:
    """A success envelope."""
    return {"jsonrpc": "2.0", "id": req_id, "result": result}


def error_response(req_id: RequestId | None, err: RpcError) -> dict[str, Any]:
    """An error envelope; without an id the ``id`` member is omitted (2026 schema)."""
    msg: dict[str, Any] = {"jsonrpc": "2.0"}
    if req_id is not None:
        msg["id"] = req_id
    msg["error"] = err.to_error()
    return msg


def classify(
    params: dict[str, Any], method: str, legacy_session: bool
) -> tuple[Era, str, dict[str, Any]]:
    """Decide the era of a request (docs/reference/mcp.md, Protocol eras).

    Returns ``(era, version, client_capabilities)``.

    Raises:
        RpcError: -32022 for a version not served, -32602 for missing ``_meta``,
            -32601 for a modern request naming a removed method.
    """
    meta = params.get("_meta")
    if isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta:
        version = meta[PROTOCOL_VERSION_KEY]
        if version != MODERN_VERSION:
            # The legacy era is reached only through initialize (docs/reference/mcp.md, Errors).
            raise RpcError(
                UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version",
                {"supported": list(SUPPORTED_VERSIONS), "requested": version},
            )
        caps = meta.get(CLIENT_CAPABILITIES_KEY)
        if not isinstance(caps, dict):
            raise RpcError(
                INVALID_PARAMS,
                f"Invalid params: _meta[{CLIENT_CAPABILITIES_KEY!r}] must be an object",
            )
        if method in REMOVED_IN_MODERN:
            raise RpcError(
                METHOD_NOT_FOUND,
                f"Method not found: {method} (not part of MCP {MODERN_VERSION})",
                {"supported": list(SUPPORTED_VERSIONS)},
            )
        level = meta.get(LOG_LEVEL_KEY)
        if level is not None and level not in _LOG_LEVELS:
            raise RpcError(INVALID_PARAMS, f"Invalid params: unknown log level {level!r}")
        return "modern", MODERN_VERSION, caps
    if method == "initialize" or legacy_session:
        return "legacy", LEGACY_VERSION, {}
    raise RpcError(
        INVALID_PARAMS,
        "Invalid params: params._meta must carry "
        f"{PROTOCOL_VERSION_KEY!r} and {CLIENT_CAPABILITIES_KEY!r} "
        f"(MCP {MODERN_VERSION}), or start a {LEGACY_VERSION} session with initialize",
        {"supported": list(SUPPORTED_VERSIONS)},
    )


_LOG_LEVELS = frozenset(
    {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
)

# --- the mcp-types wire models, loaded in the background ---------------------------------
_wire_lock = threading.Lock()
_wire_thread: threading.Thread | None = None
_wire_module: ModuleType | None = None


def _load_wire() -> None:
    global _wire_module
    import mcp_types.methods as methods

    _wire_module = methods


def preload_wire() -> None:
    """Start importing ``mcp_types.methods`` on a daemon thread (idempotent)."""
    global _wire_thread
    with _wire_lock:
        if _wire_thread is None:
            _wire_thread = threading.Thread(target=_load_wire, name="mcp-types-import", daemon=True)
            _wire_thread.start()


def wire() -> ModuleType:
    """The ``mcp_types.methods`` module (waits for the background import)."""
    if _wire_module is None:
        preload_wire()
        assert _wire_thread is not None
        _wire_thread.join()
        if _wire_module is None:  # the import failed in the thread; fail loudly here
            _load_wire()
    assert _wire_module is not None
    return _wire_module


# Requests whose params are checked by hand when they have the plain shape every client
# sends: the wire models take about a second to import, and the first tool call of a
# session must not wait for them. Anything else goes through the wire models.
_PLAIN_PARAMS: dict[str, dict[str, tuple[type, ...]]] = {
    "tools/call": {"name": (str,), "arguments": (dict, type(None))},
    "tools/list": {"cursor": (str, type(None))},
    "resources/list": {"cursor": (str, type(None))},
    "resources/templates/list": {"cursor": (str, type(None))},
    "prompts/list": {"cursor": (str, type(None))},
    "resources/read": {"uri": (str,)},
    "prompts/get": {"name": (str,), "arguments": (dict, type(None))},
}
_REQUIRED_PARAMS = {"tools/call": "name", "resources/read": "uri", "prompts/get": "name"}
_META_KEYS = frozenset(
    {
        PROTOCOL_VERSION_KEY,
        CLIENT_CAPABILITIES_KEY,
        LOG_LEVEL_KEY,
        "io.modelcontextprotocol/clientInfo",
        "progressToken",
    }
)
_PLAIN_CAPABILITIES = frozenset({"elicitation", "sampling", "roots", "experimental", "extensions"})


def _plainly_valid(req: Request) -> bool:
    """True when ``req.params`` surely pass the wire model of ``req.method``.

    Conservative: a shape outside the few every client uses returns False, and the wire
    model then decides (with its exact error).
    """
    fields = _PLAIN_PARAMS.get(req.method)
    p = req.params
    if fields is None or set(p) - set(fields) - {"_meta"}:
        return False
    required = _REQUIRED_PARAMS.get(req.method)
    if required is not None and required not in p:
        return False
    if not all(isinstance(p[k], fields[k]) for k in fields if k in p):
        return False
    if (
        req.method == "prompts/get"
        and isinstance(p.get("arguments"), dict)
        and not all(isinstance(v, str) for v in p["arguments"].values())
    ):
        return False
    meta = p.get("_meta")
    if meta is None:
        return req.era == "legacy"
    if not isinstance(meta, dict) or set(meta) - _META_KEYS:
        return False
    token = meta.get("progressToken")
    if token is not None and (isinstance(token, bool) or not isinstance(token, str | int)):
        return False
    info = meta.get("io.modelcontextprotocol/clientInfo")
    if info is not None and not (
        isinstance(info, dict)
        and set(info) <= {"name", "version"}
        and all(isinstance(info.get(k), str) for k in ("name", "version"))
    ):
        return False
    if req.era == "legacy":
        return set(meta) <= {"progressToken"}
    caps = meta.get(CLIENT_CAPABILITIES_KEY)
    if not isinstance(caps, dict) or set(caps) - _PLAIN_CAPABILITIES:
        return False
    # each capability an object of objects (or null), as the wire schema has them
    return all(
        v is None
        or (isinstance(v, dict) and all(isinstance(x, dict) or x is None for x in v.values()))
        for k, v in caps.items()
        if k != "roots"
    ) and (caps.get("roots") is None or isinstance(caps["roots"], dict))


def validate_params(req: Request) -> None:
    """Check the request's params against the official wire model of its revision.

    Methods outside the spec tables (the Tasks extension) are checked by their handler.

    Raises:
        RpcError: -32602 with the validation errors.
    """
    if req.method in TASK_METHODS or _plainly_valid(req):
        return
    methods = wire()
    from pydantic import ValidationError

    try:
        methods.validate_client_request(req.method, req.version, req.params)
    except KeyError:
        raise RpcError(METHOD_NOT_FOUND, f"Method not found: {req.method}") from None
    except ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()[:10]]
        raise RpcError(INVALID_PARAMS, f"Invalid params for {req.method}", errors) from None
