"""The shape and ranges of constraints and relaxed scans (no Qt, no molecule).

What every route checks before a project holds them (the calculation settings' validators,
the window, MCP): 2-4 distinct atom ids, a value in range, at most 50 of them, a scan's
start, end and steps. Judging them against a molecule, and writing and reading NWChem's
``zcoord`` text, is :mod:`molforma.nwchem.constraints`, which needs the document; this
part sits beside the settings, below it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from molforma.errors import ValidationError
from molforma.i18n import register

KINDS: dict[int, str] = {2: "distance", 3: "angle", 4: "dihedral"}
ATOM_COUNTS: dict[str, int] = {kind: n for n, kind in KINDS.items()}
ZCOORD_WORDS: dict[str, str] = {"distance": "bond", "angle": "angle", "dihedral": "torsion"}
UNITS: dict[str, str] = {"distance": "Å", "angle": "°", "dihedral": "°"}
# Inclusive ranges a value may take. A distance below 0.3 Å puts two nuclei on top of each
# other; a bend of 0 or 180 degrees has no direction NWChem can vary (a linear angle needs
# its own pair of coordinates); a dihedral is taken modulo 360 and written in (-180, 180].
RANGES: dict[str, tuple[float, float]] = {
    "distance": (0.3, 20.0),
    "angle": (1.0, 179.0),
    "dihedral": (-360.0, 360.0),
}
MAX_CONSTRAINTS = 50
MAX_SCAN_STEPS = 50

register(
    {
        "constraint_bad_atoms": {
            "en": "A {what} needs 2, 3 or 4 different atom ids (distance, angle, dihedral); "
            "got {atoms}.",
            "ja": "{what}には異なる原子 ID が 2、3、4 個必要です（距離・角度・二面角）。"
            "指定: {atoms}",
        },
        "constraint_kind_mismatch": {
            "en": "A {kind} takes {count} atoms; got {given}.",
            "ja": "{kind} には原子が {count} 個必要です（指定は {given} 個）。",
        },
        "constraint_bad_value": {
            "en": "{name} {value} is not a number in {low}…{high} {unit}.",
            "ja": "{name} の値 {value} は {low}…{high} {unit} の数値ではありません。",
        },
        "constraint_bad_entry": {
            "en": "A {what} is an object with {keys}; got {value}.",
            "ja": "{what}は {keys} をもつオブジェクトです（指定: {value}）。",
        },
        "constraint_unknown_atom": {
            "en": "The {what} on {atoms} names atom {id}, which the molecule does not have.",
            "ja": "{atoms} の{what}が参照する原子 {id} は分子にありません。",
        },
        "constraint_fixed_atoms": {
            "en": "NWChem cannot combine fixed atoms (Cartesian constraints) with distance, angle "
            "or dihedral constraints or a scan (internal coordinates): unfix the atoms or "
            "remove the constraints.",
            "ja": "NWChem では固定原子（デカルト座標の拘束）と、距離・角度・二面角の拘束や"
            "スキャン（内部座標）を同時に使えません。原子の固定を外すか拘束を削除して"
            "ください。",
        },
        "constraints_cartesian": {
            "en": "Constraints and scans use NWChem's internal coordinates: clear the advanced "
            "setting nocenter (Cartesian coordinates, noautoz), which would ignore them.",
            "ja": "拘束とスキャンは NWChem の内部座標を使います。詳細設定 nocenter（デカルト座標、"
            "noautoz）では無視されるため、空にしてください。",
        },
        "constraint_duplicate": {
            "en": "The coordinate {atoms} is constrained twice; keep one.",
            "ja": "座標 {atoms} が二重に拘束されています。一つにしてください。",
        },
        "too_many_constraints": {
            "en": "At most {limit} constraints; got {count}.",
            "ja": "拘束は最大 {limit} 個です（指定は {count} 個）。",
        },
        "scan_bad_steps": {
            "en": "A scan takes 1 to {limit} steps (whole number); got {value}.",
            "ja": "スキャンのステップ数は 1～{limit} の整数です（指定: {value}）。",
        },
        "scan_no_span": {
            "en": "The scan's start and end are the same ({value}); choose an end value.",
            "ja": "スキャンの開始値と終了値が同じです（{value}）。終了値を選んでください。",
        },
        "scan_span_too_wide": {
            "en": "A dihedral scan spans at most 360° (from {start}° to {end}°).",
            "ja": "二面角のスキャン範囲は 360° までです（{start}° から {end}°）。",
        },
        "scan_needs_optimize": {
            "en": "A relaxed scan is a series of constrained optimisations: set the task to "
            "optimize (now {task}).",
            "ja": "緩和スキャンは拘束付き構造最適化の連続です。タスクを optimize にしてください"
            "（現在は {task}）。",
        },
        "scan_also_constrained": {
            "en": "The scanned coordinate {atoms} is also among the constraints; remove it there.",
            "ja": "スキャンする座標 {atoms} が拘束にも含まれています。拘束から外してください。",
        },
        "constraint_word": {"en": "constraint", "ja": "拘束"},
        "scan_word": {"en": "scan", "ja": "スキャン"},
    }
)


def word(code: str) -> str:
    """The word a message code names, in the display language."""
    from molforma.i18n import render

    return render(code, {})


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def atom_ids(value: Any, what: str) -> list[str]:
    """The 2-4 atom ids of a constraint entry, checked (``what`` names the entry in errors)."""
    if (
        not isinstance(value, list | tuple)
        or not 2 <= len(value) <= 4
        or not all(isinstance(a, str) and 0 < len(a) <= 32 for a in value)
        or len(set(value)) != len(value)
    ):
        raise ValidationError(
            "constraint_bad_atoms",
            what=word(what),
            atoms=_shown(value),
            block="calculation",
            key=what,
        )
    return [str(a) for a in value]


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _kind(entry: Mapping[str, Any], atoms: list[str]) -> str:
    kind = KINDS[len(atoms)]
    given = entry.get("kind")
    if given is not None and given != kind:
        if given in ATOM_COUNTS:
            raise ValidationError(
                "constraint_kind_mismatch", kind=given, count=ATOM_COUNTS[given], given=len(atoms)
            )
        raise ValidationError("constraint_bad_entry", what=given, keys="kind", value=_shown(given))
    return kind


def check_value(kind: str, value: Any, name: str | None = None) -> float:
    """``value`` as a float inside the range of ``kind``.

    Raises:
        ValidationError: ``constraint_bad_value``.
    """
    low, high = RANGES[kind]
    number = _number(value)
    if number is None or not low <= number <= high:
        raise ValidationError(
            "constraint_bad_value",
            name=name or kind,
            value=_shown(value),
            low=low,
            high=high,
            unit=UNITS[kind],
        )
    return number


def _entry(value: Any, what: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or not set(value) <= {"kind", "atoms", *keys}:
        raise ValidationError(
            "constraint_bad_entry",
            what=word(what),
            keys=", ".join(("atoms", *keys)),
            value=_shown(value),
        )
    return value


def normalize_constraint(value: Any) -> dict[str, Any]:
    """One constraint as stored: ``{"kind", "atoms", "value"}``.

    Raises:
        ValidationError: a bad shape, atom list or value.
    """
    entry = _entry(value, "constraint_word", ("value",))
    atoms = atom_ids(entry.get("atoms"), "constraint_word")
    kind = _kind(entry, atoms)
    return {"kind": kind, "atoms": atoms, "value": check_value(kind, entry.get("value"))}


def normalize_constraints(value: Any) -> list[dict[str, Any]]:
    """The ``constraints`` list as stored (each entry normalised, no coordinate twice)."""
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise ValidationError(
            "constraint_bad_entry",
            what=word("constraint_word"),
            keys="atoms, value",
            value=_shown(value),
        )
    if len(value) > MAX_CONSTRAINTS:
        raise ValidationError("too_many_constraints", limit=MAX_CONSTRAINTS, count=len(value))
    out = [normalize_constraint(v) for v in value]
    seen: set[tuple[str, ...]] = set()
    for c in out:
        key = coordinate_key(c["atoms"])
        if key in seen:
            raise ValidationError("constraint_duplicate", atoms="-".join(c["atoms"]))
        seen.add(key)
    return out


def normalize_scan(value: Any) -> dict[str, Any] | None:
    """The ``scan`` as stored: ``{"kind", "atoms", "start", "end", "steps"}`` or None."""
    if value is None:
        return None
    entry = _entry(value, "scan_word", ("start", "end", "steps"))
    atoms = atom_ids(entry.get("atoms"), "scan_word")
    kind = _kind(entry, atoms)
    start = check_value(kind, entry.get("start"), "start")
    end = check_value(kind, entry.get("end"), "end")
    steps = entry.get("steps")
    if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= MAX_SCAN_STEPS:
        raise ValidationError("scan_bad_steps", limit=MAX_SCAN_STEPS, value=_shown(steps))
    if abs(end - start) < 1e-9:
        raise ValidationError("scan_no_span", value=start)
    if kind == "dihedral" and abs(end - start) > 360.0 + 1e-9:
        raise ValidationError("scan_span_too_wide", start=start, end=end)
    return {"kind": kind, "atoms": atoms, "start": start, "end": end, "steps": steps}


def coordinate_key(atoms: Sequence[str]) -> tuple[str, ...]:
    """The same coordinate read either way (a-b-c and c-b-a are one angle)."""
    forward = tuple(atoms)
    return min(forward, forward[::-1])


def scan_values(scan: Mapping[str, Any]) -> list[float]:
    """The target value of each point: ``steps + 1`` values from start to end."""
    start, end, steps = float(scan["start"]), float(scan["end"]), int(scan["steps"])
    return [round(start + (end - start) * i / steps, 10) for i in range(steps + 1)]


def has_any(calc: Mapping[str, Any]) -> bool:
    """Whether the calculation block holds constraints or a scan."""
    return bool(calc.get("constraints")) or bool(calc.get("scan"))
