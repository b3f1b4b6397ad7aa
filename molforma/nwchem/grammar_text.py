"""How a grammar names a refused value: its text, control characters written out, and the
setting it belongs to (no Qt).

Shared by the grammars of :mod:`molforma.nwchem.value_grammar` and
:mod:`molforma.nwchem.remote_grammar`, so a refusal reads alike whichever judged it.
"""

from __future__ import annotations

import json
import re
from typing import Any

# C0, DEL, C1 and the Unicode line and paragraph separators: never in a title.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# An environment variable's name (the execution setting, a remote ``export`` line).
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def shown(value: Any, limit: int = 80) -> str:
    """``value`` as text with its control characters written out (``\\n``, ``\\u0000``), so a
    message or a confirmation shows exactly what was given and a line break cannot hide
    the rest; cut at ``limit`` characters."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    out = CONTROL.sub(lambda m: json.dumps(m.group(0))[1:-1], text)
    return out if len(out) <= limit else out[: limit - 1] + "…"


def where(setting: str) -> dict[str, str]:
    """The details naming an execution setting: ``setting`` and, as the settings models'
    errors do (``bad_setting``), ``block`` and ``key``."""
    return {"setting": setting, "block": "execution", "key": setting}
