"""The solvents COSMO is offered with (name, labels, dielectric constant) and the checks of
the other specialist settings (excited states) (no Qt).

The table is ``resources/solvents.json`` (static dielectric constants at 25 °C, as
NWChem's COSMO takes them with ``dielec``). ``calculation.solvent`` holds a name of
this table; ``calculation.dielectric`` a custom constant instead.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from molforma.errors import ValidationError
from molforma.i18n import register
from molforma.paths import data_dir

# A custom constant: above vacuum's 1 and below any real liquid's few hundred.
MIN_DIELECTRIC = 1.0
MAX_DIELECTRIC = 1000.0

register(
    {
        "unknown_solvent": {
            "en": "Unknown solvent '{value}' (use one of {allowed}, or a custom dielectric "
            "constant).",
            "ja": "不明な溶媒「{value}」です（{allowed} のいずれか、または誘電率を直接指定）。",
        },
        "bad_dielectric": {
            "en": "The dielectric constant must be a number above {low:g} and at most {high:g} "
            "(got {value}).",
            "ja": "誘電率は {low:g} より大きく {high:g} 以下の数値にしてください（{value}）。",
        },
        "bad_excited_roots": {
            "en": "The number of excited states must be a whole number from 1 to {high} (got "
            "{value}).",
            "ja": "励起状態の数は 1 から {high} までの整数にしてください（{value}）。",
        },
        "bad_excited_choice": {
            "en": "{key} must be one of {allowed} (got {value}).",
            "ja": "{key} は {allowed} のいずれかにしてください（{value}）。",
        },
        "solvent_and_dielectric": {
            "en": "Choose either a solvent ({solvent}) or a custom dielectric constant "
            "({dielectric}), not both.",
            "ja": "溶媒（{solvent}）と誘電率（{dielectric}）はどちらか一方だけを指定してください。",
        },
    }
)


@cache
def table() -> tuple[dict[str, Any], ...]:
    """The solvents in the order the window lists them (most polar first)."""
    path = data_dir("resources") / "solvents.json"
    with path.open(encoding="utf-8") as fh:
        return tuple(json.load(fh))


def names() -> tuple[str, ...]:
    """The solvent names of the table, in its order."""
    return tuple(str(e["name"]) for e in table())


def entry(name: str) -> dict[str, Any] | None:
    """The table's entry of a solvent name (any case), None if unknown."""
    key = name.strip().lower()
    return next((e for e in table() if e["name"] == key), None)


def validate_solvent(value: Any) -> str | None:
    """A solvent name of the table (case-insensitive), or None for the gas phase.

    Raises:
        ValidationError: ``unknown_solvent``.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    found = entry(value) if isinstance(value, str) else None
    if found is None:
        raise ValidationError("unknown_solvent", value=str(value)[:60], allowed=", ".join(names()))
    return str(found["name"])


def validate_dielectric(value: Any) -> float | None:
    """A custom dielectric constant (1 < eps <= 1000), or None.

    Raises:
        ValidationError: ``bad_dielectric``.
    """
    if value is None:
        return None
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not (MIN_DIELECTRIC < float(value) <= MAX_DIELECTRIC):
        raise ValidationError(
            "bad_dielectric", value=str(value)[:60], low=MIN_DIELECTRIC, high=MAX_DIELECTRIC
        )
    return float(value)


EXCITED_CHOICES = {
    "excited_spin": ("singlets", "triplets", "both"),
    "excited_method": ("tddft", "tda"),
}
MAX_ROOTS = 200


def validate_excited(key: str, value: Any) -> Any:
    """An excited-state setting: roots 1..200, the spin and method choices.

    Raises:
        ValidationError: ``bad_excited_roots`` or ``bad_excited_choice``.
    """
    if key == "excited_roots":
        whole = isinstance(value, int) and not isinstance(value, bool)
        if not whole or not 1 <= value <= MAX_ROOTS:
            raise ValidationError("bad_excited_roots", value=str(value)[:60], high=MAX_ROOTS)
        return value
    allowed = EXCITED_CHOICES[key]
    if value not in allowed:
        raise ValidationError(
            "bad_excited_choice", key=key, value=str(value)[:60], allowed=", ".join(allowed)
        )
    return value


def dielectric_of(solvent: str | None, dielectric: float | None) -> float | None:
    """The constant COSMO gets: the custom one, else the solvent's, else None."""
    if dielectric is not None:
        return dielectric
    found = entry(solvent) if solvent else None
    return float(found["dielectric"]) if found else None


def solvent_for(dielectric: float) -> str | None:
    """The table's solvent with exactly this constant (reading an input back)."""
    return next(
        (str(e["name"]) for e in table() if abs(float(e["dielectric"]) - dielectric) < 1e-9), None
    )
