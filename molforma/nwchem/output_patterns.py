"""Every line of NWChem output that MolForma recognises, defined once (no Qt).

The full reader (:mod:`molforma.nwchem.parser` and :mod:`molforma.nwchem.parser_properties`),
the live progress of a running job (:mod:`molforma.nwchem.progress`) and the history
scan of job folders (:mod:`molforma.history.nwfiles`) all read the same NWChem lines
(totals, ``@`` step lines, convergence, the error banner, timings). Each kind of line
is one :class:`Pattern` here, made with :func:`line` together with real lines it
must match, copied verbatim from the outputs in ``tests/data``; a test checks each
example against its regex and against those outputs. A line no small real run
prints (asterisks in place of a total, launcher messages) says why in ``unseen``.

Most patterns are anchored at the start of a line (``^``); the few that are not are
searched within a line. Text is matched line by line (``match``/``search`` on a str)
or, in the history's bytes buffers, at the start of a line found from the pattern's
literal ``anchor`` (:meth:`Pattern.match_bytes`): ``bytes_pattern`` is compiled with
``re.MULTILINE``, so ``^`` and ``$`` meet the line's ends inside a bigger buffer.
"""

from __future__ import annotations

import re

FLOAT = r"[-+]?\d*\.\d+(?:[EeDd][-+]?\d+)?"


class Pattern:
    """A regex for one kind of NWChem line, compiled on first use.

    ``molforma results`` starts faster when most of the reader's sixty patterns never
    meet their kind of output. After the first call ``match`` and ``search`` are the
    compiled pattern's own methods (no extra call).

    Attributes:
        pattern: the regex text.
        examples: real lines the regex must match.
        anchor: a literal every matching line holds, for readers that find lines with a
            substring search before matching (None when there is none to share).
        unseen: why no output in the tests shows this line ("" when one does).
    """

    def __init__(
        self,
        regex: str,
        examples: tuple[str, ...],
        *,
        flags: int = 0,
        anchor: str | None = None,
        unseen: str = "",
    ) -> None:
        self.pattern = regex
        self.flags = flags
        self.examples = examples
        self.anchor = anchor
        self.unseen = unseen
        self._compiled: re.Pattern[str] | None = None
        self._bytes: re.Pattern[bytes] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled regex."""
        c = self._compiled
        if c is None:
            c = self._compiled = re.compile(self.pattern, self.flags)
            # Instance attributes shadow the methods below from now on.
            self.match = c.match  # type: ignore[method-assign, assignment]
            self.search = c.search  # type: ignore[method-assign, assignment]
        return c

    @property
    def bytes_pattern(self) -> re.Pattern[bytes]:
        """The regex for bytes, multi-line: ``^``/``$`` match at every line's ends."""
        b = self._bytes
        if b is None:
            b = self._bytes = re.compile(self.pattern.encode("ascii"), self.flags | re.MULTILINE)
        return b

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        """:meth:`re.Pattern.match`."""
        return self.compiled.match(text, pos)

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        """:meth:`re.Pattern.search`."""
        return self.compiled.search(text, pos)

    def match_bytes(self, buf: bytes, line_start: int) -> re.Match[bytes] | None:
        """The match on the line of ``buf`` that starts at ``line_start``."""
        return self.bytes_pattern.match(buf, line_start)

    def __repr__(self) -> str:
        return f"Pattern({self.pattern!r})"


_ALL: list[Pattern] = []


def line(
    regex: str, *examples: str, flags: int = 0, anchor: str | None = None, unseen: str = ""
) -> Pattern:
    """A :class:`Pattern` with the real lines it must match (registered for the tests)."""
    pat = Pattern(regex, examples, flags=flags, anchor=anchor, unseen=unseen)
    _ALL.append(pat)
    return pat


def table() -> dict[str, Pattern]:
    """Every pattern of this module by its name (``TOTAL_ENERGY``, ...)."""
    names = {id(v): k for k, v in globals().items() if isinstance(v, Pattern)}
    return {names[id(p)]: p for p in _ALL}


def d_float(tok: str) -> float:
    """Float of a Fortran number (``1.0D-04`` included)."""
    return float(tok.replace("D", "E").replace("d", "e"))


# --- energies -------------------------------------------------------------------------

# The SCF, DFT and MP2 modules' totals (the CCSD module prints its own, with a colon).
TOTAL_ENERGY = line(
    rf"^\s*Total (SCF|DFT|MP2) energy\s*=?\s*({FLOAT})\s*$",
    "         Total SCF energy =    -76.010504991041",
    "         Total DFT energy =      -40.518351921010",
    "          Total MP2 energy           -74.998568775084",
    anchor="Total ",
)
CC_ENERGY = line(
    rf"^\s*Total (CCSD|CCSD\(T\)|MP2) energy:\s*({FLOAT})\s*$",
    " Total CCSD(T) energy:                 -76.120349855891646",
    " Total CCSD energy:            -76.119353995815544",
    " Total MP2 energy:            -76.112825384344916",
    anchor="Total ",
)
# Totals of modules MolForma's inputs never run; only the history's "last energy" reads them.
OTHER_TOTAL_ENERGY = line(
    rf"^\s*Total (TDDFT|RI-MP2) energy\s*[=:]?\s*({FLOAT})\s*$",
    "         Total RI-MP2 energy =    -76.230512345678",
    anchor="Total ",
    unseen="the RI-MP2 module is not run by any input in the tests",
)
TCE_ENERGY = line(
    rf"^\s*(CCSD|CCSD\(T\)|CCSDT|CCSD\[T\]|CR-CCSD\[T\]|CR-CCSD\(T\)|LR-CCSD\(T\)|MP2|CCD|CC2|"
    rf"QCISD|CISD|LCCSD|CCSDTQ)\s+total energy / hartree\s*=\s*({FLOAT})",
    " CCSD total energy / hartree       =       -75.012461681003884",
)
FAILED_TOTAL = line(
    r"^\s*Total (SCF|DFT|MP2|CCSD|CCSD\(T\)) energy\s*[=:]?\s*\*{3,}",
    "          Total MP2 energy           ******************",
    unseen="Fortran prints asterisks only when a number overflows its field",
)
ZERO_POINT = line(
    rf"Zero-Point correction to Energy\s*=\s*{FLOAT}\s*kcal/mol\s*\(\s*({FLOAT})\s*au\)",
    " Zero-Point correction to Energy  =   14.411 kcal/mol  (  0.022966 au)",
)
DISPERSION = line(
    rf"^\s*Dispersion correction\s*=\s*({FLOAT})",
    "    Dispersion correction =       -0.000007883792",
)

# --- SCF / DFT iterations (live progress) ---------------------------------------------

SCF_TABLE_HEADER = line(
    r"^\s+iter\s+energy\s+gnorm\s+gmax\s+time",
    "              iter       energy          gnorm     gmax       time",
)
SCF_ITERATION = line(
    rf"^\s+(\d+)\s+({FLOAT})\s+\d\.\d+D[+-]\d+\s+\d\.\d+D[+-]\d+\s+\d+\.\d+\s*$",
    "                 1      -75.9747160549  8.31D-01  3.41D-01      0.1",
)
DFT_ITERATION = line(
    rf"^\s*d=\s*\d+,ls=\s*[\d.]+,\S+\s+(\d+)\s+({FLOAT})\s",
    " d= 0,ls=0.0,diis     1    -40.5079639052 -5.39D+01  1.04D-02  1.12D-01     0.4",
)
SCF_FAILED = line(
    r"^\s*Calculation failed to converge",
    "      Calculation failed to converge",
    anchor="Calculation failed to converge",
)

# --- geometry optimisation ------------------------------------------------------------

# The driver's step line: step, energy, delta E, gradient max/rms, step max/rms, time.
# Progress and history need only its step and energy, which also suits a line still
# being written; the reader takes the whole row.
OPT_STEP_ENERGY = line(
    rf"^@\s+(\d+)\s+({FLOAT})(?=\s|$)",
    "@    0     -76.01050499  0.0D+00  0.01105  0.00905  0.00000  0.00000      0.2",
    anchor="@",
)
OPT_STEP = line(
    OPT_STEP_ENERGY.pattern + rf"\s+({FLOAT})\s+({FLOAT})\s+({FLOAT})\s+({FLOAT})\s+({FLOAT})",
    "@    1     -76.01073828 -2.3D-04  0.00094  0.00062  0.00724  0.01213      0.4",
    anchor="@",
)
OPT_CONVERGED = line(
    r"^\s*Optimization converged",
    "      Optimization converged",
    anchor="Optimization converged",
)
OPT_FAILED = line(
    r"^\s*Failed to converge in maximum number of steps",
    " Failed to converge in maximum number of steps or available time",
    anchor="Failed to converge in maximum number of steps",
)

# --- the end of a task, of the run, and errors ----------------------------------------

TOTAL_TIMES = line(
    r"^\s*Total times\s+cpu:",
    " Total times  cpu:        0.9s     wall:        1.0s",
    anchor="Total times",
)
TASK_TIMES = line(
    r"^\s*Task\s+times\s+cpu:",
    " Task  times  cpu:        0.5s     wall:        0.6s",
)
# One substring finds both timing lines ("Total times" ends the run, "Task  times" a task).
TIMES_ANCHOR = "times  cpu:"
# The banner NWChem prints around an error: rules of dashes, the message with a code
# at the end, "current input line :" and the input line, a hint.
ERROR_RULE = line(
    r"^\s?-{72}\s*$",
    " ------------------------------------------------------------------------",
)
ERROR_CODE_TAIL = line(
    r"^\s*(.*?\S)\s{2,}-?\d+\s*$",
    " bas_tag_lib: failed opening basis file                   0",
)
CURRENT_INPUT_LINE = "current input line"
ERROR_INPUT_ANCHOR = " current input line :"
INPUT_LINE = line(r"^\s*\d+:\s*(.*?)\s*$", "    10: task scf energy")
FATAL_ERROR = line(
    r"^\s*Fatal Error:\s*(.*?)\s*$",
    " Fatal Error: scratch directory not accessible                 911",
    unseen="older NWChem builds print this; 7.0.2 reports errors with the banner",
)
# Substrings that mark a failed run in the closing lines of an output (the banner, its
# hints) or of the launcher's messages (ARMCI/MPI aborts, which go to stderr).
FAILED_MARKERS: tuple[str, ...] = (
    "For further details see manual section",
    "There is an error",
    "ARMCI Error",
    "MPI_ABORT was invoked",
    CURRENT_INPUT_LINE,
    "Calculation failed to converge",
)

# --- the head of the output -----------------------------------------------------------

# The banner at the top of every NWChem output (how a file is recognised as one).
BANNER = "Northwest Computational Chemistry Package"
VERSION = line(
    r"Northwest Computational Chemistry Package \(NWChem\)\s+(\S+)",
    "             Northwest Computational Chemistry Package (NWChem) 7.0.2",
    anchor=BANNER,
)
# The input deck NWChem echoes near the top, between this banner and a rule of "=".
ECHO_START = "echo of input deck"
ECHO_RULE = "=========="
ECHO_END = line(
    r"^={40,}\s*$",
    "================================================================================",
    flags=re.MULTILINE,
    anchor=ECHO_RULE,
)
FILE_PREFIX = line(r"^\s*prefix\s*=\s*(\S+?)\.?\s*$", "    prefix          = water_scf_bomd.")

# --- excitations, orbitals, populations, moments --------------------------------------

TD_ROOT = line(
    rf"^\s*Root\s+(\d+)\s+(?:(singlet|triplet)\s+)?(\S+)?\s+({FLOAT})\s+a\.u\.\s+({FLOAT})\s+eV",
    "  Root   1 singlet b2             0.294844967 a.u.                8.0231 eV ",
    "  Root   2 triplet a1             0.344057842 a.u.                9.3623 eV ",
)
TD_STRENGTH = line(
    rf"^\s*(Dipole Oscillator Strength|Total Oscillator Strength|Oscillator Strength)\s+({FLOAT})",
    "     Dipole Oscillator Strength                    0.0143853823",
)
# A root's dominant one-electron transitions (|coefficient| above NWChem's print threshold);
# unrestricted runs name the spin, full TDDFT prints X and Y components.
TD_TRANSITION = line(
    rf"^\s*Occ\.\s+(\d+)\s+(?:(alpha|beta)\s+)?(\S+)\s+---\s+Virt\.\s+(\d+)\s+"
    rf"(?:(?:alpha|beta)\s+)?(\S+)\s+({FLOAT})(?:\s+([XY]))?\s*$",
    "     Occ.    5  b2  ---  Virt.    6  a1      -1.00000",
    "     Occ.    4 beta  a   ---  Virt.    5 beta  a    1.92332 X",
)
# COSMO prints gas - solution (positive when the solvent stabilises).
COSMO_SOLVATION = line(
    rf"^\s*\(electrostatic\) solvation energy\s*=\s*({FLOAT})",
    " (electrostatic) solvation energy =         0.0068551369 (    4.30 kcal/mol)",
)
VECTOR = line(
    rf"^\s*Vector\s+(\d+)\s+Occ=\s*({FLOAT})\s+E=\s*({FLOAT})(?:\s+Symmetry=(\S+))?",
    " Vector    2  Occ=2.000000D+00  E=-1.341539D+00  Symmetry=a1",
    " Vector    6  Occ=0.000000D+00  E= 1.159624D-01",
)
EIGENVALUE_ROW = line(rf"^\s*(\d+)\s+({FLOAT})\s*$", "    1  -20.6389")
MULLIKEN_ROW = line(
    rf"^\s*(\d+)\s+(\S+)\s+(\d+)\s+({FLOAT})(?:\s|$)",
    "    1 O    8     8.44   2.00  0.96  2.72  0.96  1.75  0.06",
)
GROSS_ROW = line(
    rf"^\s*(\d+)\s+(\S+)\s+({FLOAT})\s+({FLOAT})\s*$",
    "              1  O    8.0     8.86623",
)
MULTIPOLE_ROW = line(
    rf"^\s*([12])\s+(\d)\s+(\d)\s+(\d)\s+({FLOAT})",
    "     1   0 0 1      0.000000      0.000000      0.000000      0.000000",
)
EXPANSION_POINT = line(
    rf"X\s*=\s*({FLOAT})\s+Y\s*=\s*({FLOAT})\s+Z\s*=\s*({FLOAT})",
    "         X =       0.0000000 Y =       0.0000000 Z =       0.0000000",
)
DIPOLE_COMPONENT = line(
    rf"^\s*DM([XYZ])\s+({FLOAT})", "             DMZ       -0.8757850074 DMZEFC        0.0000000000"
)
DIPOLE_DEBYE = line(
    rf"^\s*Dipole moment\s+({FLOAT})\s+Debye", "   Dipole moment        2.2260402748 Debye(s)"
)
QUADRUPOLE_ROW = line(
    rf"^\s*(XX|YY|ZZ|XY|XZ|YZ)\s+({FLOAT})\s+({FLOAT})\s+({FLOAT})\s*$",
    "      XX            1.8371652934          0.0000000000          1.8371652934",
)
POLAR_FREQUENCY = line(rf"^\s*Frequency\s*=\s*({FLOAT})", " Frequency  =       0.0000000 / au")
POLAR_ROW = line(
    rf"^\s*([XYZ])\s+({FLOAT})\s+({FLOAT})\s+({FLOAT})\s*$",
    " X       7.1938924     -0.0000000     -0.0000000",
)

# --- charge, spin, wavefunction -------------------------------------------------------

SCF_S2 = line(rf"^\s*S\^2\s*=\s*({FLOAT})", "                      S^2 =      0.7553")
DFT_S2 = line(
    rf"<S2>\s*=\s*({FLOAT})\s*\(Exact\s*=\s*({FLOAT})\)",
    "      <S2> =      0.7537 (Exact =     0.7500)",
)
SCF_HEADER_NUMBER = line(
    rf"^\s*(charge|closed shells|open shells|alpha electrons|beta  electrons)\s*=\s*({FLOAT}|\d+)",
    "  charge          =   0.00",
    "  alpha electrons =     5",
)
SCF_WAVEFUNCTION = line(r"^\s*wavefunction\s*=\s*(\S+)", "  wavefunction    = UHF ")
DFT_HEADER_NUMBER = line(
    r"^\s*(Charge|Spin multiplicity|Alpha electrons|Beta electrons)\s*:\s*(-?\d+)",
    "          Spin multiplicity:     2",
    "           Alpha electrons :     5",
)
DFT_WAVEFUNCTION = line(
    r"Wavefunction type:\s*(.*?)\.?\s*$", "          Wavefunction type:  spin polarized."
)

# --- thermochemistry and molecular dynamics -------------------------------------------

TEMPERATURE = line(
    rf"^\s*Temperature\s*=\s*({FLOAT})K", " Temperature                      =   298.15K"
)
THERMAL_CORRECTION = line(
    rf"Thermal correction to (Energy|Enthalpy)\s*=\s*{FLOAT}\s*kcal/mol\s*\(\s*({FLOAT})\s*au\)",
    " Thermal correction to Enthalpy   =   16.781 kcal/mol  (  0.026742 au)",
)
TOTAL_ENTROPY = line(
    rf"^\s*Total Entropy\s*=\s*({FLOAT})\s*cal/mol-K",
    " Total Entropy                    =   44.967 cal/mol-K",
)
QMD_VALUE = line(
    rf"^\s*(Time elapsed|Kin\. energy|Pot\. energy|Tot\. energy|Current temp\.)[^:]*:\s*"
    rf"(?:\d+\s+)?({FLOAT})",
    "  Tot. energy (a.u.):        1          -74.961577",
    "  Time elapsed (fs) :                     0.241888",
)
# NWChem's warning before an SCF whose frontier orbitals are degenerate under symmetry,
# and what the job record and Results add when such a run then failed.
DEGENERATE_SYMMETRY = "the HOMO and LUMO are degenerate and you are using symmetry"
DEGENERATE_SYMMETRY_HINT = (
    "NWChem warned that the HOMO and LUMO were degenerate with symmetry on, which keeps an "
    "open-shell SCF from converging: run again with symmetry off (Advanced: noautosym)"
)
# A row of an "... ENERGY GRADIENTS" block: index, tag, x y z (bohr), gradient x y z.
GRADIENT_ROW = line(
    rf"^\s*\d+\s+\S+\s+({FLOAT})\s+({FLOAT})\s+({FLOAT})\s+{FLOAT}\s+{FLOAT}\s+{FLOAT}\s*$",
    "   1 O      -0.000000   0.000065   0.222201    0.000000   0.000894  -0.060786",
)
QMD_STEP = line(
    r"^\s*Kin\. energy[^:]*:\s*(\d+)\s", "  Kin. energy (a.u.):        1            0.001514"
)
