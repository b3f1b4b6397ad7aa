"""Calculation, advanced and execution settings of a project (no Qt).

These pydantic models are the single definition of the ``calculation``,
``advanced`` and ``execution`` blocks of the project envelope (docs/reference/calculation.md).
They allow unknown keys, because a project written by a newer MolForma must
survive an edit and a save by this one. Keys follow docs/reference/project-file.md: snake_case in these
blocks (``extra_input``), camelCase in the ``document`` block.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from molforma.nwchem import solvents
from molforma.nwchem import value_grammar as grammar

Task = Literal[
    "energy",
    "optimize",
    "frequencies",
    "optimize+frequencies",
    "excited-states",
    "transition-state",
]
Theory = Literal["scf", "dft", "mp2"]
Reference = Literal["rhf", "rohf", "uhf"]
Scheduler = Literal["local", "slurm"]
ExcitedSpin = Literal["singlets", "triplets", "both"]
ExcitedMethod = Literal["tddft", "tda"]
TASKS: tuple[str, ...] = (
    "energy",
    "optimize",
    "frequencies",
    "optimize+frequencies",
    "excited-states",
    "transition-state",
)
# Tasks whose NWChem steps include a Hessian (task ... freq).
FREQUENCY_TASKS: tuple[str, ...] = ("frequencies", "optimize+frequencies", "transition-state")
MAX_ROOTS = solvents.MAX_ROOTS
THEORIES: tuple[str, ...] = ("scf", "dft", "mp2")


class CalculationSettings(BaseModel):
    """Tab "2 Calculation": what to compute and at which level."""

    model_config = ConfigDict(extra="allow")

    task: Task = Field(
        "energy",
        description="energy, optimize, frequencies, "
        "optimize+frequencies, excited-states (TDDFT/CIS) or transition-state "
        "(saddle search, then frequencies).",
    )
    theory: Theory = Field("scf", description="scf (Hartree-Fock), dft or mp2.")
    functional: str = Field("b3lyp", description="DFT exchange-correlation functional (xc).")
    basis: str = Field("6-31g*", description="Basis set name from NWChem's library.")
    reference: Reference | None = Field(
        None, description="SCF reference; null chooses rhf for singlets and uhf otherwise."
    )
    excited_roots: int = Field(10, ge=1, le=MAX_ROOTS, description="Excited states: roots.")
    excited_spin: ExcitedSpin = Field(
        "singlets", description="Excited states of a closed shell: singlets, triplets or both."
    )
    excited_method: ExcitedMethod = Field(
        "tddft",
        description="tddft (full linear response; TDHF with SCF) or tda "
        "(Tamm-Dancoff; CIS with SCF).",
    )
    irc: bool = Field(
        False,
        description="transition-state: then follow the reaction path "
        "down both sides (IRC, NWChem's mepgs).",
    )
    solvent: str | None = Field(None, description="COSMO solvent name; null: gas phase.")
    dielectric: float | None = Field(None, description="COSMO custom dielectric constant.")
    extra_input: str = Field("", description="Protected: text added to the input before tasks.")
    extra_tasks: list[str] = Field(
        default_factory=list, description="Protected: extra task lines, e.g. 'scf property'."
    )
    constraints: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Coordinates held during optimisation: "
        "{kind, atoms (2-4 ids: distance, angle, dihedral), value (Å or degrees)}.",
    )
    scan: dict[str, Any] | None = Field(
        None,
        description="Relaxed scan of one coordinate: {kind, atoms, start, end, steps}; "
        "a constrained optimisation per point (task optimize).",
    )

    # The grammar is checked here, so every way a value arrives (a tool, the window, a
    # project file, a reused job) is refused at once with the same error, not only later
    # by the input generator; the error is the project's own and passes through pydantic.
    # Shape and ranges here (every route); the atom ids against the molecule where the
    # molecule is known (ops.set_nwchem, the input check).
    @field_validator("constraints", mode="before")
    @classmethod
    def _constraints(cls, value: Any) -> list[dict[str, Any]]:
        from molforma.nwchem.constraint_values import normalize_constraints

        return normalize_constraints(value)

    @field_validator("scan", mode="before")
    @classmethod
    def _scan(cls, value: Any) -> dict[str, Any] | None:
        from molforma.nwchem.constraint_values import normalize_scan

        return normalize_scan(value)

    @field_validator("basis")
    @classmethod
    def _basis(cls, value: str) -> str:
        return grammar.validate_basis(value)

    @field_validator("functional")
    @classmethod
    def _functional(cls, value: str) -> str:
        # Characters only: a saved project whose functional the table does not know still
        # opens (its molecule is the person's); the input check refuses to run it, and every
        # route that sets a functional checks it against the table (validate_functional).
        return grammar.validate_functional_text(value)

    @field_validator("excited_roots", "excited_spin", "excited_method", mode="before")
    @classmethod
    def _excited(cls, value: Any, info: Any) -> Any:
        # Said in the display language with what is allowed (a project file, a window
        # command); the field's own type check follows.
        return solvents.validate_excited(str(info.field_name), value)

    @field_validator("solvent", mode="before")
    @classmethod
    def _solvent(cls, value: Any) -> str | None:
        return solvents.validate_solvent(value)

    @field_validator("dielectric", mode="before")
    @classmethod
    def _dielectric(cls, value: Any) -> float | None:
        return solvents.validate_dielectric(value)

    @model_validator(mode="after")
    def _one_solvent(self) -> CalculationSettings:
        # Two sources for one constant: the person could not tell which one ran.
        if self.solvent is not None and self.dielectric is not None:
            from molforma.errors import ValidationError

            raise ValidationError(
                "solvent_and_dielectric", solvent=self.solvent, dielectric=self.dielectric
            )
        return self


class AdvancedSettings(BaseModel):
    """The advanced group of tab 2; null means NWChem's default."""

    model_config = ConfigDict(extra="allow")

    memory_mb: int | None = Field(None, ge=16, le=1_048_576, description="Total memory in MB.")
    scratch_dir: str | None = Field(None, description="scratch_dir directive (absolute path).")
    permanent_dir: str | None = Field(None, description="permanent_dir directive (absolute path).")
    input_movecs: str | None = Field(None, description="Initial MO vectors file (vectors input).")
    output_movecs: str | None = Field(None, description="MO vectors output file (vectors output).")
    scf_maxiter: int | None = Field(None, ge=1, le=10_000, description="SCF iteration limit.")
    scf_thresh: float | None = Field(None, gt=0, le=1, description="SCF convergence threshold.")
    dft_iterations: int | None = Field(None, ge=1, le=10_000, description="DFT iteration limit.")
    dft_convergence_energy: float | None = Field(
        None, gt=0, le=1, description="DFT energy convergence (null: 1e-8 with frequencies)."
    )
    dft_grid: Literal["xcoarse", "coarse", "medium", "fine", "xfine"] | None = Field(
        None, description="DFT integration grid (null: fine with frequencies)."
    )
    dispersion: Literal["d2", "d3", "d3bj"] | None = Field(
        None, description="Empirical dispersion (DFT only)."
    )
    noautosym: bool | None = Field(
        None,
        description="Symmetry off (geometry noautosym). null: automatic, symmetry is used "
        "unless atoms are fixed; results are mapped back to the document's frame.",
    )
    nocenter: bool | None = Field(
        None,
        description="Keep the user's frame and Cartesian coordinates (geometry nocenter "
        "noautoz). null: automatic, internal coordinates unless atoms are fixed; false with "
        "fixed atoms is refused (NWChem cannot combine Cartesian constraints and internals).",
    )
    basis_spherical: bool | None = Field(
        None,
        description="Spherical (pure) basis functions (basis spherical). null: as the basis "
        "set was defined (cc-pVXZ, def2-* spherical; Pople sets Cartesian).",
    )
    mp2_frozen_core: bool = Field(
        True,
        description="MP2 with frozen core orbitals (mp2; freeze atomic); false "
        "correlates all electrons.",
    )
    opt_maxiter: int | None = Field(None, ge=1, le=10_000, description="Optimiser step limit.")
    freq_animate: bool = Field(False, description="Write per-mode animation XYZ files (freq).")
    print_level: Literal["none", "low", "medium", "high", "debug"] | None = Field(
        None, description="Global print level."
    )
    properties: bool = Field(
        False,
        description="Dipole and quadrupole moments and Mulliken charges: a "
        "'property; dipole; quadrupole; mulliken; end' block and a 'task <theory> "
        "property' after the tasks (SCF level for MP2).",
    )
    molden_file: bool = Field(
        False,
        description="Write the molecular orbitals to a MOLDEN file (<prefix>.molden in "
        "the job folder, opened in the Results tab's Orbitals view): 'moldenfile' in the "
        "property block and a 'task <theory> property' after the tasks (SCF level for MP2).",
    )


ADVANCED_PATH_KEYS: tuple[str, ...] = (
    "scratch_dir",
    "permanent_dir",
    "input_movecs",
    "output_movecs",
)


class ExecutionSettings(BaseModel):
    """Tab "3 Execution": how and where NWChem runs (section 7 protects some)."""

    model_config = ConfigDict(extra="allow")

    executable: str = Field("nwchem", description="Protected: NWChem command (shell-split).")
    launcher: str = Field("mpirun", description="Protected: MPI launcher command (shell-split).")
    processes: int = Field(1, ge=1, le=4096, description="MPI process count; 1 runs no launcher.")
    threads: int = Field(1, ge=1, le=1024, description="OMP_NUM_THREADS.")
    environment: dict[str, str] = Field(
        default_factory=dict, description="Protected: extra environment variables."
    )
    job_root: str = Field("~/molforma-jobs", description="Where job folders are made.")
    reference_dir: str | None = Field(None, description="Extra folder scanned by History.")
    time_limit: float | None = Field(
        None, gt=0, description="Wall-time limit in seconds (at most 366 days)."
    )
    # Batch runs (docs/reference/jobs.md, Batch jobs). Threads become CPUs per task, the time limit the
    # job's wall time; nodes x tasksPerNode MPI processes replace ``processes``.
    scheduler: Scheduler = Field(
        "local", description="Protected: local (run here) or slurm (submit to the cluster)."
    )
    partition: str | None = Field(None, description="SLURM partition; null: the cluster's default.")
    account: str | None = Field(None, description="Protected: SLURM account charged for the job.")
    qos: str | None = Field(None, description="SLURM quality of service; null: the default.")
    nodes: int = Field(1, ge=1, le=4096, description="Nodes of a batch job.")
    tasksPerNode: int = Field(1, ge=1, le=4096, description="MPI processes per node (batch).")
    batch_directives: list[str] = Field(
        default_factory=list,
        description="Protected: extra batch options, one '--name=value' per entry "
        "(e.g. '--mem=4G').",
    )
    # A remote cluster (molforma.jobs.remote): the name of one of the person's cluster
    # profiles in Preferences. Choosing one is not protected (the profile itself is: only
    # Preferences hold it, and MCP can neither write nor read them); with scheduler slurm
    # the job is submitted there over ssh instead of to a local SLURM.
    remote_profile: str | None = Field(
        None,
        description="Cluster profile (Preferences) a batch job is submitted to over "
        "ssh; null: the local SLURM.",
    )

    # Each value below reaches NWChem's command line or the batch script PSI/J writes:
    # checked by its grammar here (every route that sets it) and again at submission
    # (molforma.jobs.batch), so none can end a script line or a quote.
    @field_validator("executable", "launcher")
    @classmethod
    def _command(cls, value: str, info: Any) -> str:
        return grammar.validate_command(str(info.field_name), value)

    @field_validator("environment")
    @classmethod
    def _environment(cls, value: dict[str, str]) -> dict[str, str]:
        return grammar.validate_environment(value)

    @field_validator("processes", "threads", "nodes", "tasksPerNode")
    @classmethod
    def _count(cls, value: int, info: Any) -> int:
        return grammar.validate_count(str(info.field_name), value)

    @field_validator("time_limit")
    @classmethod
    def _time_limit(cls, value: float | None) -> float | None:
        return grammar.validate_time_limit(value)

    @field_validator("partition", "account", "qos")
    @classmethod
    def _slurm_name(cls, value: str | None, info: Any) -> str | None:
        return grammar.validate_slurm_name(str(info.field_name), value)

    @field_validator("batch_directives")
    @classmethod
    def _directives(cls, value: list[str]) -> list[str]:
        return grammar.validate_batch_directives(value)

    @field_validator("remote_profile")
    @classmethod
    def _remote_profile(cls, value: str | None) -> str | None:
        return grammar.validate_remote_profile(value)


PROTECTED_EXECUTION_KEYS: tuple[str, ...] = (
    "executable",
    "launcher",
    "environment",
    "scheduler",
    "account",
    "batch_directives",
)
SCHEDULERS: tuple[str, ...] = ("local", "slurm")
PROTECTED_CALCULATION_KEYS: tuple[str, ...] = ("extra_input", "extra_tasks")
