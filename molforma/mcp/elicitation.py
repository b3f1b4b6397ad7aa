"""Form elicitation over MRTR for ``save_file`` onto an existing file (no Qt).

docs/reference/mcp.md, Elicitation: the server answers ``resultType: "input_required"`` with one
form question and a ``requestState`` signed with a per-process HMAC key. The state
names the document, the resolved path and the document revision, and expires after
10 minutes. On the retry a state that fails verification is a JSON-RPC error; a
genuine but stale one (expired, other path, document changed) asks again.

A 2025-11-25 connection whose client declared elicitation is asked the same question
with a server→client ``elicitation/create`` (:mod:`molforma.mcp.client_requests`).
In both eras a person's decline stands for that path until the document changes
(:class:`DeclineMemory`): an ``overwrite: true`` right after it is refused, so a
client cannot go around the person; asking the person again is allowed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
from typing import Any

from molforma.mcp.protocol import INVALID_PARAMS, RpcError

STATE_TTL_S = 600.0
OVERWRITE_KEY = "overwrite"


class InputRequired(Exception):
    """Raised by a handler: answer ``input_required`` with these requests and state."""

    def __init__(self, input_requests: dict[str, Any], request_state: str | None) -> None:
        super().__init__("input required")
        self.input_requests = input_requests
        self.request_state = request_state

    def to_result(self) -> dict[str, Any]:
        """The ``InputRequiredResult`` (never cacheable, so no caching hints)."""
        out: dict[str, Any] = {"resultType": "input_required", "inputRequests": self.input_requests}
        if self.request_state is not None:
            out["requestState"] = self.request_state
        return out


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class StateSigner:
    """Signs and verifies ``requestState`` with a key that lives only in this process."""

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key or secrets.token_bytes(32)

    def sign(self, payload: dict[str, Any], ttl: float = STATE_TTL_S) -> str:
        """An opaque state: payload plus expiry, HMAC-SHA256 protected."""
        body = dict(payload, exp=time.time() + ttl)
        raw = json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")
        mac = hmac.new(self._key, raw, hashlib.sha256).digest()
        return _b64(raw) + "." + _b64(mac)

    def verify(self, state: Any) -> dict[str, Any]:
        """The payload of a genuine state (expiry not checked here).

        Raises:
            RpcError: -32602 for a forged, tampered or malformed state.
        """
        bad = RpcError(INVALID_PARAMS, "Invalid params: requestState failed verification")
        if not isinstance(state, str) or state.count(".") != 1 or len(state) > 8192:
            raise bad
        body_text, mac_text = state.split(".")
        try:
            raw, mac = _unb64(body_text), _unb64(mac_text)
        except (ValueError, TypeError):
            raise bad from None
        if not hmac.compare_digest(mac, hmac.new(self._key, raw, hashlib.sha256).digest()):
            raise bad
        try:
            payload = json.loads(raw)
        except ValueError:
            raise bad from None
        if not isinstance(payload, dict):
            raise bad
        return payload


def overwrite_question(path: str, lang: str) -> dict[str, Any]:
    """The ``inputRequests`` map asking whether to overwrite ``path``."""
    if lang == "ja":
        message = f"「{path}」は既に存在します。上書きしますか？"
        title, desc = "上書きする", "既存のファイルを置き換えます。"
    else:
        message = f"'{path}' already exists. Overwrite it?"
        title, desc = "Overwrite", "Replace the existing file."
    return {
        OVERWRITE_KEY: {
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": message,
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        OVERWRITE_KEY: {
                            "type": "boolean",
                            "title": title,
                            "description": desc,
                            "default": True,
                        }
                    },
                    "required": [OVERWRITE_KEY],
                },
            },
        }
    }


def save_state_payload(doc_id: str, path: str, revision: str) -> dict[str, Any]:
    """What a save_file state is bound to."""
    return {"tool": "save_file", "doc": doc_id, "path": path, "rev": revision}


def state_is_current(payload: dict[str, Any], expected: dict[str, Any]) -> bool:
    """A verified state still applies: not expired and bound to the same target."""
    exp = payload.get("exp")
    if not isinstance(exp, int | float) or exp < time.time():
        return False
    return all(payload.get(k) == v for k, v in expected.items())


def overwrite_answer(responses: Any) -> str | None:
    """``"accept"``, ``"decline"`` or ``"cancel"`` from ``inputResponses``; None if absent.

    Only an accept whose form holds the boolean ``overwrite: true`` counts as accept;
    any other accept (``false``, ``"true"``, ``1``, a missing field or form) is a
    decline: replacing a file needs an unambiguous yes.
    """
    if not isinstance(responses, dict):
        return None
    ans = responses.get(OVERWRITE_KEY)
    if not isinstance(ans, dict):
        return None
    action = ans.get("action")
    if action == "accept":
        content = ans.get("content")
        if isinstance(content, dict) and content.get(OVERWRITE_KEY) is True:
            return "accept"
        return "decline"
    if action in ("decline", "cancel"):
        return str(action)
    return None


class DeclineMemory:
    """Paths a person refused to overwrite, with the document revision at that moment."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._declined: dict[tuple[str, str], str] = {}

    def record(self, doc_id: str, path: str, revision: str) -> None:
        """The person declined (or dismissed) overwriting ``path`` with this revision."""
        with self._lock:
            self._declined[(doc_id, path)] = revision

    def clear(self, doc_id: str, path: str) -> None:
        """The person accepted: the earlier decline no longer stands."""
        with self._lock:
            self._declined.pop((doc_id, path), None)

    def stands(self, doc_id: str, path: str, revision: str) -> bool:
        """True while the document is unchanged since the person declined ``path``."""
        with self._lock:
            return self._declined.get((doc_id, path)) == revision


# One per process, like the documents it remembers revisions of.
DECLINES = DeclineMemory()
