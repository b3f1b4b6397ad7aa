"""Reaction paths (IRC) NWChem's mepgs module writes: ``<prefix>.fxyz`` (forward) and
``<prefix>.bxyz`` (backward), multi-frame XYZ files whose comment line is the energy of
each point in hartree (no Qt).

The first frame of each file is the transition state; the last is the end of that side of
the path. Read as an XYZ trajectory, each point gets its energy and the energies become
the steps of the energy plot, so a person sees the barrier from either side.
"""

from __future__ import annotations

from molforma.results.results_model import EnergyPoint, Results

# The suffixes mepgs uses with "xyz" in its block (NWChem 7.0.2).
IRC_EXTENSIONS: tuple[str, ...] = (".fxyz", ".bxyz")


def is_irc_path(name: str) -> bool:
    """Whether ``name`` is a reaction-path file of NWChem (``.fxyz``, ``.bxyz``)."""
    return name.lower().endswith(IRC_EXTENSIONS)


def add_path_energies(res: Results, name: str) -> Results:
    """Each frame's energy from its comment line, and one energy step per point."""
    side = "forward" if name.lower().endswith(".fxyz") else "backward"
    energies: list[EnergyPoint] = []
    for k, frame in enumerate(res.structures):
        try:
            value = float((frame.comment or "").split()[0])
        except (ValueError, IndexError):
            continue
        frame.energy = value
        frame.label = f"IRC {side} {k}"
        energies.append(
            EnergyPoint(
                index=len(energies),
                kind="optimization",
                label=f"IRC {side} point {k}",
                energy=value,
                optimization=0,
                step=k,
                structureIndex=frame.index,
            )
        )
    res.energies = energies
    if energies:
        res.summary.finalEnergy = energies[-1].energy
        res.summary.finalEnergyLabel = f"IRC {side}, last point"
        res.summary.energyCount = len(energies)
    return res
