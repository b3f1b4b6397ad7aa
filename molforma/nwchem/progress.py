"""Live progress of a running NWChem job, read line by line from its output (no Qt).

:class:`ProgressTracker` is fed each output line as it arrives. It keeps the SCF
iteration, the optimisation step and energy (the ``@`` lines), the last total
energy, and whether SCF and the optimisation converged. The job runner uses it
both for live progress and for the final job record, because NWChem's exit code
alone does not say whether anything converged. The lines it recognises are those
of :mod:`molforma.nwchem.output_patterns`, shared with the reader and the history.
"""

from __future__ import annotations

import re
from typing import Any

from molforma.nwchem.output_patterns import (
    CURRENT_INPUT_LINE,
    DEGENERATE_SYMMETRY,
    DFT_ITERATION,
    ERROR_CODE_TAIL,
    ERROR_RULE,
    FATAL_ERROR,
    OPT_CONVERGED,
    OPT_FAILED,
    OPT_STEP_ENERGY,
    SCF_FAILED,
    SCF_ITERATION,
    SCF_TABLE_HEADER,
    TOTAL_ENERGY,
    d_float,
)

# A numerical Hessian's displacement line: " atom:   1 xyz: 1(+) wall time: ..." (NWChem's
# finite-difference frequencies print one per displaced geometry, two per coordinate).
FREQ_DISPLACEMENT = re.compile(r"^\s*atom:\s*(\d+)\s+xyz:\s*(\d)\(([+-])\)\s+wall time:")
# The banner NWChem prints when the frequency part of a run starts (analytic or numerical).
FREQ_BANNER = "NWChem Nuclear Hessian and Frequency Analysis"
# The banner of the excited-state part (task tddft energy) and one line per root found.
TDDFT_BANNER = "NWChem TDDFT Module"
# The reaction path (mepgs) after a transition-state search.
IRC_BANNER = "Gonzalez & Schlegel IRC Optimization"
TDDFT_ROOT = re.compile(r"^\s*Root\s+\d+\s.*\sa\.u\.\s")


def _without_code(text: str) -> str:
    """An error message without the code NWChem prints at its end."""
    m = ERROR_CODE_TAIL.match(text)
    return (m.group(1) if m else text).strip()


class ProgressTracker:
    """Progress and convergence read from NWChem output lines (not thread-safe).

    Attributes:
        scf_iteration: the last SCF/DFT iteration number seen.
        optimization_step: the last ``@`` step number.
        energy: the most recent energy seen (hartree).
        energies: the ``@`` step energies in order, one per step.
        scf_converged: None until an SCF ends; False once any SCF failed.
        optimization_converged: None until the optimiser ends.
        error: the first NWChem error message of the output, if any.
        degenerate_symmetry: NWChem warned that the HOMO and LUMO are degenerate with
            symmetry on (the likely cause when such a run fails).
        displacements: finite-difference frequency displacements done so far.
        frequencies: True once the frequency (Hessian) part of the run started.
        excited_states: True once the TDDFT/CIS part of the run started.
        roots: excited states (roots) printed so far.
        reaction_path: True once the reaction path (IRC) started.
        updates: how many times the progress shown changed (only grows), so a
            progress notification can carry a number that strictly increases.
    """

    def __init__(self) -> None:
        self.scf_iteration: int | None = None
        self.optimization_step: int | None = None
        self.energy: float | None = None
        self.energies: list[float] = []
        self.scf_converged: bool | None = None
        self.optimization_converged: bool | None = None
        self.error: str | None = None
        self.degenerate_symmetry = False
        self.displacements = 0
        self.frequencies = False
        self.excited_states = False
        self.roots = 0
        self.reaction_path = False
        self.updates = 0
        self.first_total: dict[str, float] = {}
        self.last_total: dict[str, float] = {}
        self._in_scf_table = False
        self._after_rule = False

    def feed(self, line: str) -> bool:
        """Read one output line; True when the progress shown to a person changed."""
        changed = self._feed(line)
        if changed:
            self.updates += 1
        return changed

    def _feed(self, line: str) -> bool:
        line = line.rstrip("\r\n")
        after_rule, self._after_rule = self._after_rule, False
        if not line.strip():
            self._in_scf_table = False
            return False
        if after_rule and self.error is None and not line.lstrip().startswith("-"):
            text = _without_code(line)
            if text and not text.startswith(CURRENT_INPUT_LINE):
                self.error = text
            return False
        if ERROR_RULE.match(line):
            self._after_rule = True
            return False
        if line.startswith("@"):
            return self._opt_step(line)
        if FREQ_DISPLACEMENT.match(line):
            self.displacements += 1
            return True
        if not self.frequencies and FREQ_BANNER in line:
            self.frequencies = True
            return True
        if TDDFT_BANNER in line and not self.excited_states:
            self.excited_states = True
            return True
        if IRC_BANNER in line and not self.reaction_path:
            self.reaction_path = True
            return True
        if self.excited_states and TDDFT_ROOT.match(line):
            self.roots += 1
            return True
        if SCF_TABLE_HEADER.match(line):
            self._in_scf_table = True
            return False
        m = SCF_ITERATION.match(line) if self._in_scf_table else DFT_ITERATION.match(line)
        if m:
            self.scf_iteration = int(m.group(1))
            self.energy = d_float(m.group(2))
            return True
        m = TOTAL_ENERGY.match(line)
        if m:
            kind, value = m.group(1), d_float(m.group(2))
            self.first_total.setdefault(kind, value)
            self.last_total[kind] = value
            self.energy = value
            if kind in ("SCF", "DFT") and self.scf_converged is None:
                self.scf_converged = True
            return True
        if SCF_FAILED.match(line):
            self.scf_converged = False
            return True
        if OPT_CONVERGED.match(line):
            self.optimization_converged = True
            return True
        if OPT_FAILED.match(line):
            self.optimization_converged = False
            return True
        if not self.degenerate_symmetry and DEGENERATE_SYMMETRY in line:
            self.degenerate_symmetry = True
            return False
        m = FATAL_ERROR.match(line)
        if m and self.error is None:
            self.error = _without_code(m.group(1)) or "Fatal Error"
        return False

    def _opt_step(self, line: str) -> bool:
        m = OPT_STEP_ENERGY.match(line)
        if not m:
            return False
        step, value = int(m.group(1)), d_float(m.group(2))
        # NWChem repeats the last step line after "Optimization converged".
        if self.optimization_step == step and self.energies:
            return False
        self.optimization_step = step
        self.energies.append(value)
        self.energy = value
        return True

    def to_dict(self) -> dict[str, Any]:
        """The ``progress`` object of the job record."""
        return {
            "scfIteration": self.scf_iteration,
            "optimizationStep": self.optimization_step,
            "energy": self.energy,
            "energies": list(self.energies),
            "frequencyDisplacement": self.displacements or None,
            "frequencies": self.frequencies,
            "excitedStates": self.excited_states,
            "roots": self.roots or None,
            "reactionPath": self.reaction_path,
            "updates": self.updates,
        }

    def final_energy(self, theory: str) -> float | None:
        """The result energy: the last optimisation step, else the first total energy.

        The first total energy of the theory is the one at the input geometry; a
        numerical frequency run prints many more at displaced geometries.
        """
        if self.energies:
            return self.energies[-1]
        kind = {"scf": "SCF", "dft": "DFT", "mp2": "MP2"}.get(theory.lower())
        if kind and kind in self.first_total:
            return self.first_total[kind]
        if self.first_total:
            return next(iter(self.first_total.values()))
        return None


# NWChem 7.0.2's own limits when the input sets none (its output says "Maximum no. of
# iterations : 30" for SCF and DFT and "maximum number of steps (nptopt) = 20").
NWCHEM_SCF_MAXITER = 30
NWCHEM_DFT_MAXITER = 30
NWCHEM_OPT_MAXITER = 20


def progress_limits(project: dict[str, Any]) -> dict[str, Any]:
    """What a progress bar of ``project``'s job counts and up to what.

    Returns ``{"kind": "optimization" | "scf", "maximum": n}``: optimisation steps for a
    task that optimises, else SCF (or DFT) cycles; the maximum from the advanced
    settings, else NWChem's default.
    """
    calc = project.get("calculation") or {}
    adv = project.get("advanced") or {}
    task = str(calc.get("task", "energy"))
    if "optimize" in task or task == "transition-state":  # a saddle search steps too
        return {
            "kind": "optimization",
            "maximum": _limit(adv.get("opt_maxiter"), NWCHEM_OPT_MAXITER),
        }
    if calc.get("theory") == "dft":
        return {"kind": "scf", "maximum": _limit(adv.get("dft_iterations"), NWCHEM_DFT_MAXITER)}
    return {"kind": "scf", "maximum": _limit(adv.get("scf_maxiter"), NWCHEM_SCF_MAXITER)}


def _limit(value: Any, default: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return default
