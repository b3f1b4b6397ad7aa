"""MCP prompts (docs/reference/mcp.md, Prompts; no Qt).

Each prompt returns one user message with its arguments filled in; prompts change
nothing. Arguments are strings and keep their definition order, because Claude
Code passes slash-command words in that order. Unknown prompt, missing required
argument and non-string values are -32602.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from molforma.mcp.protocol import INVALID_PARAMS, RpcError


@dataclass(frozen=True)
class Arg:
    """One prompt argument."""

    name: str
    description: str
    required: bool = False


@dataclass(frozen=True)
class PromptSpec:
    """One prompt: its arguments and the message template."""

    name: str
    title: str
    description: str
    args: tuple[Arg, ...]
    template: str
    # The same request in the window (--mcp-gui), where the agent works the window the
    # chemist watches: None when the headless wording fits both.
    window_template: str | None = None


PROMPTS: tuple[PromptSpec, ...] = (
    PromptSpec(
        "review_candidate",
        "Review the candidate",
        "Look at the pending candidate of a document and recommend confirming or cancelling.",
        (Arg("documentId", "Document id (default: the first document)."),),
        "Review the candidate of MolForma document {documentId}. Call get_document with "
        "include ['project', 'candidate'], compare them (atoms added, removed or moved, "
        "settings changed), use measure and validate_document where useful, and tell me "
        "whether the candidate should be confirmed. Do not confirm or cancel it yourself "
        "unless I ask.",
    ),
    PromptSpec(
        "geometry_optimization",
        "Geometry optimisation",
        "Set up and run a geometry optimization (optionally followed by frequencies).",
        (
            Arg("method", "Theory or functional, e.g. scf, b3lyp, mp2.", required=True),
            Arg("basis", "Basis set, e.g. 6-31g*.", required=True),
            Arg("frequencies", "yes or no: add a frequency calculation (default no)."),
            Arg("documentId", "Document id (default: the first document)."),
        ),
        "Optimize the geometry of MolForma document {documentId} with {method}/{basis}"
        "{freq_text}. Steps: set_nwchem with values {values} (preview false); "
        "validate_document and fix any error it reports; calculation start; follow the task "
        "or get_app_state until it ends; then results_action open_directory on the job "
        "folder (jobDirectory of the finished calculation) and summarise get_results "
        "summary (final energy, convergence, imaginary modes).",
    ),
    PromptSpec(
        "vibrational_analysis",
        "Vibrational analysis",
        "Interpret the vibrational modes of the loaded results.",
        (
            Arg("documentId", "Document id (default: the first document)."),
            Arg(
                "threshold",
                "Imaginary-frequency magnitude in cm-1 to treat as significant (default 10).",
            ),
        ),
        "Analyse the vibrational modes of the results loaded for MolForma document "
        "{documentId}. Read get_results sections summary and modes; list the significant "
        "imaginary modes (below -{threshold} cm-1), the strongest IR bands, and say whether "
        "the structure is a minimum. Use mode_displacements to describe any imaginary mode.",
    ),
    PromptSpec(
        "troubleshoot_calculation",
        "Troubleshoot a calculation",
        "Find out why the last calculation failed or did not converge and propose a fix.",
        (Arg("documentId", "Document id (default: the first document)."),),
        "The last NWChem calculation of MolForma document {documentId} failed or did not "
        "converge. Read get_app_state (calculation status and folder), open the job folder "
        "with results_action, read get_results summary and the end of the log, explain the "
        "cause, and propose concrete changes (set_nwchem / set_advanced / geometry) without "
        "applying them until I agree.",
    ),
    PromptSpec(
        "build_molecule",
        "Build a molecule",
        "Build a molecule from a name or description as a candidate.",
        (
            Arg("molecule", "Name, formula or description of the molecule.", required=True),
            Arg("documentId", "Document id (default: the first document)."),
        ),
        "Build {molecule} in MolForma document {documentId}: if it has a SMILES string, use "
        "import_document with format smiles (a 3D candidate with hydrogens); otherwise use "
        "add_atoms (with bonds), place_fragment and add_hydrogens as needed. Keep it as a "
        "candidate, clean a strained geometry with move_atoms cleanup: true, check it with "
        "measure and validate_document, then show me the candidate summary and ask before "
        "confirming.",
        "Build {molecule} in the MolForma window, document {documentId}. If it has a SMILES "
        "string, use the chemistry tool (action smiles): it makes a 3D candidate with "
        "hydrogens in the window's worker; follow the command with get_ui_command (or a "
        "task) until it is done or failed, and read a failure's message. Otherwise use "
        "add_atoms, place_fragment and add_hydrogens as candidates. Clean the geometry with "
        "chemistry cleanup if it looks strained. Check with measure and validate_document, "
        "show me the candidate in the window (capture_screenshot of moleculeView) and its "
        "summary, and ask before confirming (history confirm, or ui_activate confirmButton).",
    ),
)
_BY_NAME = {p.name: p for p in PROMPTS}
_THEORIES = ("scf", "dft", "mp2")


def _nwchem_values(method: str, basis: str, frequencies: bool) -> dict[str, str]:
    """The ``set_nwchem`` values a method word means: a theory, or a DFT functional.

    A model otherwise has to guess that "b3lyp" is ``theory: dft`` plus
    ``functional: b3lyp`` (``theory: b3lyp`` is refused).
    """
    low = method.lower()
    values = {"task": "optimize+frequencies" if frequencies else "optimize"}
    if low in _THEORIES:
        values["theory"] = low
    else:
        values["theory"] = "dft"
        values["functional"] = low
    values["basis"] = basis
    return values


def list_prompts() -> list[dict[str, Any]]:
    """The ``prompts`` array, arguments in definition order."""
    return [
        {
            "name": p.name,
            "title": p.title,
            "description": p.description,
            "arguments": [
                {"name": a.name, "description": a.description, "required": a.required}
                for a in p.args
            ],
        }
        for p in PROMPTS
    ]


def get_prompt(
    name: Any, arguments: Any, lang: str = "en", mode: str = "headless"
) -> dict[str, Any]:
    """The ``prompts/get`` result (the window's wording under ``--mcp-gui``).

    Raises:
        RpcError: -32602 for an unknown prompt, a missing required argument, an unknown
            argument or a value that is not a string.
    """
    spec = _BY_NAME.get(name) if isinstance(name, str) else None
    if spec is None:
        raise RpcError(INVALID_PARAMS, f"Unknown prompt: {name}", {"name": name})
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise RpcError(INVALID_PARAMS, "Invalid params: arguments must be an object")
    known = {a.name for a in spec.args}
    for key, value in arguments.items():
        if key not in known:
            raise RpcError(
                INVALID_PARAMS, f"Unknown argument {key!r} for prompt {name}", {"argument": key}
            )
        if not isinstance(value, str):
            raise RpcError(INVALID_PARAMS, f"Argument {key!r} must be a string", {"argument": key})
    for a in spec.args:
        if a.required and not arguments.get(a.name, "").strip():
            raise RpcError(
                INVALID_PARAMS, f"Missing required argument {a.name!r}", {"argument": a.name}
            )
    values = {a.name: arguments.get(a.name, "").strip() for a in spec.args}
    if not values.get("documentId"):
        values["documentId"] = "(the first document in list_documents)"
    if spec.name == "geometry_optimization":
        freq = values.get("frequencies", "").lower()
        if freq not in ("", "yes", "no"):
            raise RpcError(
                INVALID_PARAMS,
                "Argument 'frequencies' must be 'yes' or 'no'",
                {"argument": "frequencies"},
            )
        values["freq_text"] = (
            " followed by a frequency calculation (task optimize+frequencies)"
            if freq == "yes"
            else " (task optimize)"
        )
        values["values"] = json.dumps(
            _nwchem_values(values["method"], values["basis"], freq == "yes")
        )
    if spec.name == "vibrational_analysis" and not values.get("threshold"):
        values["threshold"] = "10"
    template = spec.window_template if mode == "gui" and spec.window_template else spec.template
    text = template.format(**values)
    if lang == "ja":
        text += "\n\n(Answer in Japanese.)"
    return {
        "description": spec.description,
        "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
    }
