"""Molecular orbitals of a MOLDEN file on a grid: values, isosurfaces, cube files (no Qt).

Besides one orbital, the densities the orbitals add up to: the total electron density,
the spin density (alpha minus beta, for open shells) and the electrostatic potential of
nuclei and electrons at points such as the vertices of a density isosurface (PySCF's
three-centre integrals with point charges, the way ``pyscf.tools.cubegen.mep`` does it).

PySCF reads the MOLDEN basis and MO coefficients and evaluates the basis functions
on grid points; scikit-image meshes a surface of constant value with marching cubes.
Both are imported when an orbital is first asked for (PySCF takes seconds to import),
never at start-up. They are the optional ``orbitals`` extra of the wheel: where they are
missing, everything else runs and asking for orbitals raises ``orbitals_unavailable``,
which names the missing package and the command that installs it. Grids are in bohr, as in the cube format; meshes are returned in
Ångström for the 3D view.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from molforma.document.elements import atomic_number, normalize_symbol
from molforma.errors import ResultsError
from molforma.fileio import atomic_write_text
from molforma.i18n import register

BOHR = 0.52917721092  # Å per bohr
DEFAULT_SPACING = 0.25  # bohr between grid points
DEFAULT_MARGIN = 5.0  # bohr of space around the outermost nuclei
MAX_POINTS = 4_000_000  # about 32 MB of float64 values per orbital
DEFAULT_ISOVALUE = 0.05  # e^(1/2) bohr^(-3/2), the usual value for orbital plots
# The usual isovalues of density plots (e/bohr^3): 0.002 is the molecular surface an ESP
# is mapped on (Bader's van der Waals envelope is 0.001-0.002), 0.005 shows a spin density.
DENSITY_ISOVALUE = 0.002
SPIN_ISOVALUE = 0.005
# Densities have sharp core peaks that a 0.25-bohr grid samples badly (the sum over the
# grid of O-H's density is off by a third); 0.15 bohr integrates to within about 1 %.
DENSITY_SPACING = 0.15
DENSITY_MAX_POINTS = 2_000_000  # above this the coarser orbital spacing is used
DENSITY_KINDS = ("density", "spin", "esp")
# What installs the two packages into the environment MolForma runs from (the extra's name
# is in pyproject.toml).
INSTALL_ORBITALS = "pip install 'molforma[orbitals]'"
# The Linux bundle leaves PySCF out (its size budget); its users cannot pip install into
# it, so they are sent to the wheel, which has them.
INSTALL_ORBITALS_BUNDLE = (
    "the Linux bundle has no orbital surfaces; install the wheel "
    "with them: pipx install 'molforma[orbitals]'"
)

register(
    {
        "orbitals_unavailable": {
            "en": "Orbital surfaces need PySCF and scikit-image, and {missing} is not installed. "
            "Install the orbitals extra: {install}",
            "ja": "軌道の表示には PySCF と scikit-image が必要ですが、{missing} がインストールされて"
            "いません。orbitals の追加パッケージをインストールしてください: {install}",
        },
        "orbitals_unreadable": {
            "en": "{path} has no molecular orbitals MolForma can read: {reason}",
            "ja": "{path} に読める分子軌道がありません: {reason}",
        },
        "orbital_index": {
            "en": "Orbital {index} does not exist (0 to {last}).",
            "ja": "軌道 {index} はありません（0〜{last}）。",
        },
        "orbital_grid_too_large": {
            "en": "The grid would have {points} points (limit {limit}); use a coarser spacing.",
            "ja": "格子点が {points} 個になります（上限 {limit}）。間隔を粗くしてください。",
        },
        "cube_unreadable": {
            "en": "{path} is not a Gaussian cube file: {reason}",
            "ja": "{path} は Gaussian cube ファイルではありません: {reason}",
        },
    }
)


@dataclass(frozen=True)
class Orbital:
    """One molecular orbital as the file lists it (0-based ``index`` over all spins)."""

    index: int
    energy: float  # hartree
    occupation: float
    spin: str  # "alpha" or "beta"
    symmetry: str


@dataclass
class OrbitalSet:
    """The orbitals of one MOLDEN file, with what evaluating them needs."""

    path: str
    orbitals: list[Orbital]
    symbols: list[str]
    coordinates: np.ndarray  # nuclei, bohr
    _mol: Any = field(repr=False)
    _coefficients: list[np.ndarray] = field(repr=False)  # one column vector per orbital

    def frontier(self, spin: str = "alpha") -> tuple[int | None, int | None]:
        """Indices of the HOMO and LUMO of ``spin`` (None where there is none)."""
        same = [o for o in self.orbitals if o.spin == spin]
        # Occupation above 0.5 is occupied, as in molforma.results.results_model.frontier_of:
        # the Orbitals tab names the LUMO the summary names.
        occupied = [o for o in same if o.occupation > 0.5]
        empty = [o for o in same if o.occupation <= 0.5]
        homo = max(occupied, key=lambda o: o.energy).index if occupied else None
        lumo = min(empty, key=lambda o: o.energy).index if empty else None
        return homo, lumo

    @property
    def open_shell(self) -> bool:
        """True when alpha and beta densities differ (beta orbitals, or single occupations)."""
        return any(o.spin == "beta" for o in self.orbitals) or any(
            0.5 < o.occupation < 1.5 for o in self.orbitals
        )

    @property
    def electron_count(self) -> float:
        """The sum of the occupations."""
        return float(sum(o.occupation for o in self.orbitals))


@dataclass(frozen=True)
class Grid:
    """A box of points: ``origin`` and per-axis ``step`` in bohr, ``shape`` points."""

    origin: np.ndarray
    step: float
    shape: tuple[int, int, int]

    def points(self) -> np.ndarray:
        """All points, x slowest and z fastest (the cube file's order), shape (N, 3)."""
        axes = [self.origin[k] + self.step * np.arange(self.shape[k]) for k in range(3)]
        return np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)

    @property
    def volume_element(self) -> float:
        """bohr³ per grid point."""
        return self.step**3


_import_lock = threading.Lock()


def _molden_module() -> Any:
    """PySCF's MOLDEN reader, once scikit-image is known to be there too.

    Both are checked before a file is read, so a platform without one of them hears
    so when the orbitals are first asked for, not after a list it could never draw.

    Raises:
        ResultsError: ``orbitals_unavailable`` naming what is missing.
    """
    missing: list[str] = []
    reader: Any = None
    with _import_lock:  # PySCF's first import is not safe from two threads at once
        try:
            reader = importlib.import_module("pyscf.tools.molden")
        except ImportError:
            missing.append("PySCF (pyscf)")
        try:
            importlib.import_module("skimage.measure")  # only whether it imports
        except ImportError:
            missing.append("scikit-image (skimage)")
    if missing:
        from molforma.paths import bundle_dir

        raise ResultsError(
            "orbitals_unavailable",
            missing=", ".join(missing),
            install=INSTALL_ORBITALS if bundle_dir() is None else INSTALL_ORBITALS_BUNDLE,
        )
    return reader


def load_orbitals(path: str | Path) -> OrbitalSet:
    """Read the orbitals of the MOLDEN file at ``path``.

    Raises:
        ResultsError: ``orbitals_unavailable`` when PySCF or scikit-image is not
            installed; ``orbitals_unreadable`` when the file has no basis or MOs.
    """
    molden = _molden_module()
    try:
        # PySCF names every section it does not use ([FREQ], [INT], ...) on stderr; a
        # vibration MOLDEN file is normal input here, so that is not worth a line.
        with contextlib.redirect_stderr(io.StringIO()):
            mol, energies, coeffs, occs, irreps, spins = molden.load(str(path))
    except (OSError, ValueError, KeyError, IndexError, RuntimeError) as exc:
        raise ResultsError("orbitals_unreadable", path=str(path), reason=str(exc)) from exc
    try:
        columns, orbitals = _split(energies, coeffs, occs, irreps, spins)
    except (IndexError, ValueError) as exc:  # a file with atoms but no usable [MO]
        raise ResultsError("orbitals_unreadable", path=str(path), reason="no [MO] section") from exc
    if not orbitals:
        raise ResultsError("orbitals_unreadable", path=str(path), reason="no [MO] section")
    symbols = [normalize_symbol(s) or s for s in mol.elements]
    return OrbitalSet(
        path=str(path),
        orbitals=orbitals,
        symbols=symbols,
        coordinates=np.asarray(mol.atom_coords(), dtype=float),
        _mol=mol,
        _coefficients=columns,
    )


def _split(
    energies: Any, coeffs: Any, occs: Any, irreps: Any, spins: Any
) -> tuple[list[np.ndarray], list[Orbital]]:
    """Per-orbital coefficient columns and records, restricted and unrestricted alike."""
    spin_of: list[str] = []
    if isinstance(coeffs, tuple | list) or np.ndim(coeffs) == 3:  # (alpha, beta) blocks
        blocks = [("alpha", 0), ("beta", 1)]
        sets = [
            (name, np.asarray(energies[k]), np.asarray(coeffs[k]), np.asarray(occs[k]))
            for name, k in blocks
        ]
    else:
        labels = [str(s).lower() for s in (spins or [])]
        spin_of = [("beta" if lab.startswith("beta") else "alpha") for lab in labels]
        sets = [("", np.asarray(energies), np.asarray(coeffs), np.asarray(occs))]
    columns: list[np.ndarray] = []
    orbitals: list[Orbital] = []
    syms = list(irreps) if irreps is not None else []
    for name, e, c, o in sets:
        for k in range(c.shape[1]):
            spin = name or (spin_of[k] if k < len(spin_of) else "alpha")
            sym = str(syms[len(orbitals)]) if len(orbitals) < len(syms) else ""
            orbitals.append(
                Orbital(
                    index=len(orbitals),
                    energy=float(e[k]),
                    occupation=float(o[k]),
                    spin=spin,
                    symmetry=sym.strip(),
                )
            )
            columns.append(np.ascontiguousarray(c[:, k]))
    return columns, orbitals


def grid_around(
    coordinates: np.ndarray, spacing: float = DEFAULT_SPACING, margin: float = DEFAULT_MARGIN
) -> Grid:
    """A cubic-step box around the nuclei (bohr), ``margin`` beyond the outermost.

    Raises:
        ResultsError: ``orbital_grid_too_large`` above :data:`MAX_POINTS` points.
    """
    lo = coordinates.min(axis=0) - margin
    hi = coordinates.max(axis=0) + margin
    shape = tuple(math.ceil(float(hi[k] - lo[k]) / spacing) + 1 for k in range(3))
    points = shape[0] * shape[1] * shape[2]
    if points > MAX_POINTS:
        raise ResultsError("orbital_grid_too_large", points=points, limit=MAX_POINTS)
    return Grid(origin=lo, step=float(spacing), shape=(shape[0], shape[1], shape[2]))


def orbital_values(
    orbitals: OrbitalSet, index: int, grid: Grid, chunk: int = 100_000
) -> np.ndarray:
    """ψ of orbital ``index`` on ``grid``, shape ``grid.shape`` (bohr^-3/2).

    Raises:
        ResultsError: ``orbital_index`` for an orbital the file does not have.
    """
    if not 0 <= index < len(orbitals.orbitals):
        raise ResultsError("orbital_index", index=index, last=len(orbitals.orbitals) - 1)
    coeff = orbitals._coefficients[index]
    points = grid.points()
    out = np.empty(len(points))
    # Chunks bound the memory of the basis-function matrix (points x functions).
    for start in range(0, len(points), chunk):
        ao = orbitals._mol.eval_gto("GTOval", points[start : start + chunk])
        out[start : start + chunk] = ao @ coeff
    return out.reshape(grid.shape)


def density_matrices(orbitals: OrbitalSet) -> tuple[np.ndarray, np.ndarray]:
    """Alpha and beta density matrices in the file's basis.

    A restricted orbital with occupation n gives min(n, 1) to alpha and the rest to beta
    (RHF: one each; a singly occupied ROHF orbital: alpha only).
    """
    nao = len(orbitals._coefficients[0])
    da, db = np.zeros((nao, nao)), np.zeros((nao, nao))
    unrestricted = any(o.spin == "beta" for o in orbitals.orbitals)
    for o, c in zip(orbitals.orbitals, orbitals._coefficients, strict=True):
        if o.occupation <= 0:
            continue
        cc = np.outer(c, c)
        if unrestricted:
            (db if o.spin == "beta" else da).__iadd__(o.occupation * cc)
        else:
            da += min(o.occupation, 1.0) * cc
            db += max(o.occupation - 1.0, 0.0) * cc
    return da, db


def density_at(
    orbitals: OrbitalSet, points: np.ndarray, kind: str = "density", chunk: int = 100_000
) -> np.ndarray:
    """The total (``"density"``) or spin (``"spin"``: alpha - beta) density at ``points``
    (bohr, shape (N, 3)), in e/bohr³."""
    da, db = density_matrices(orbitals)
    dm = da - db if kind == "spin" else da + db
    out = np.empty(len(points))
    for start in range(0, len(points), chunk):
        ao = orbitals._mol.eval_gto("GTOval", points[start : start + chunk])
        out[start : start + chunk] = np.einsum("pi,pi->p", ao @ dm, ao)
    return out


def density_values(orbitals: OrbitalSet, grid: Grid, kind: str = "density") -> np.ndarray:
    """:func:`density_at` on every point of ``grid``, shape ``grid.shape``."""
    return density_at(orbitals, grid.points(), kind).reshape(grid.shape)


def density_grid(coordinates: np.ndarray) -> Grid:
    """The grid densities are drawn on: :data:`DENSITY_SPACING` where it stays under
    :data:`DENSITY_MAX_POINTS` points, else the orbitals' spacing.

    Raises:
        ResultsError: ``orbital_grid_too_large`` when even the coarse grid is too large.
    """
    fine = grid_around(coordinates, spacing=DENSITY_SPACING)
    if fine.shape[0] * fine.shape[1] * fine.shape[2] <= DENSITY_MAX_POINTS:
        return fine
    return grid_around(coordinates)


def integrate(values: np.ndarray, grid: Grid) -> float:
    """∫ values dV over the grid (a density: its electron count; a spin density: 2S)."""
    return float(np.sum(values) * grid.volume_element)


def potential_at(orbitals: OrbitalSet, points: np.ndarray) -> np.ndarray:
    """Electrostatic potential of the nuclei and the electrons at ``points`` (bohr), in
    hartree/e. A point on a nucleus leaves that nucleus out, as NWChem's property
    ``esp`` does ("Total Potential" at the nuclei)."""
    from pyscf import df, gto

    mol = orbitals._mol
    da, db = density_matrices(orbitals)
    dm = da + db
    charges = np.asarray(mol.atom_charges(), dtype=float)
    nuclei = np.asarray(mol.atom_coords(), dtype=float)
    dist = np.linalg.norm(points[:, None, :] - nuclei[None, :, :], axis=2)
    with np.errstate(divide="ignore"):
        inverse = np.where(dist > 1e-6, 1.0 / np.where(dist > 1e-6, dist, 1.0), 0.0)
    nuclear = inverse @ charges
    nao = dm.shape[0]
    # The three-centre integrals take nao² numbers per point: chunks keep that near 32 MB.
    chunk = max(1, 4_000_000 // max(nao * nao, 1))
    electronic = np.empty(len(points))
    for start in range(0, len(points), chunk):
        fake = gto.fakemol_for_charges(points[start : start + chunk])
        fake.cart = mol.cart  # PySCF refuses a Cartesian basis beside spherical charges
        ints = df.incore.aux_e2(mol, fake)
        electronic[start : start + chunk] = np.einsum("ijp,ij->p", ints, dm)
    return np.asarray(nuclear - electronic, dtype=float)


@dataclass(frozen=True)
class Mesh:
    """A triangle mesh in Å: vertices (V, 3), faces (F, 3) and vertex normals (V, 3)."""

    vertices: np.ndarray
    faces: np.ndarray
    normals: np.ndarray


def isosurfaces(
    values: np.ndarray, grid: Grid, isovalue: float, step: int = 1
) -> tuple[Mesh, Mesh]:
    """The +isovalue and −isovalue surfaces (the two lobes' colours), in Å; ``step`` > 1
    meshes every step-th grid point (fewer triangles for a smooth surface)."""
    from skimage.measure import marching_cubes

    level = abs(float(isovalue))
    meshes = []
    for sign in (1.0, -1.0):
        field_ = sign * values
        if field_.max() <= level:
            meshes.append(Mesh(np.zeros((0, 3)), np.zeros((0, 3), dtype=int), np.zeros((0, 3))))
            continue
        verts, faces, normals, _v = marching_cubes(
            field_, level=level, spacing=(grid.step,) * 3, step_size=step
        )
        # marching_cubes' normals point down the gradient, i.e. out of the lobe.
        meshes.append(Mesh((verts + grid.origin) * BOHR, faces.astype(int), normals))
    return meshes[0], meshes[1]


# The molecular surface is smooth: meshing every other point of the fine density grid
# keeps its shape and the ESP range (benzene: 6,400 vertices instead of 25,800, the ESP
# within 1e-4 hartree/e) and makes the potential four times quicker to evaluate.
SURFACE_STEP = 2


def density_surface(
    values: np.ndarray, grid: Grid, isovalue: float, step: int = SURFACE_STEP
) -> Mesh:
    """The surface where the density equals ``isovalue`` (Å), normals pointing outwards."""
    plus, _minus = isosurfaces(values, grid, isovalue, step)
    return plus


def esp_on_surface(orbitals: OrbitalSet, mesh: Mesh) -> np.ndarray:
    """The electrostatic potential (hartree/e) at each vertex of ``mesh`` (Å)."""
    if not len(mesh.vertices):
        return np.zeros(0)
    return potential_at(orbitals, np.asarray(mesh.vertices) / BOHR)


def cube_text(orbitals: OrbitalSet, index: int | str, grid: Grid, values: np.ndarray) -> str:
    """A Gaussian cube file of orbital ``index``, or of the density ``"density"`` / ``"spin"``
    (the format every viewer reads)."""
    if isinstance(index, str):
        what = "spin density (alpha - beta)" if index == "spin" else "total electron density"
        title = f"MolForma {what}, e/bohr^3"
    else:
        orb = orbitals.orbitals[index]
        title = (
            f"MolForma orbital {index + 1} ({orb.spin}, E = {orb.energy:.6f} Eh, "
            f"occ = {orb.occupation:g})"
        )
    lines = [title, f"from {Path(orbitals.path).name}"]
    # A negative atom count would announce orbital numbers; a plain positive count
    # with one value per point is what every reader accepts.
    lines.append(
        f"{len(orbitals.symbols):5d} {grid.origin[0]:12.6f} {grid.origin[1]:12.6f} "
        f"{grid.origin[2]:12.6f}"
    )
    for k in range(3):
        step = [0.0, 0.0, 0.0]
        step[k] = grid.step
        lines.append(f"{grid.shape[k]:5d} {step[0]:12.6f} {step[1]:12.6f} {step[2]:12.6f}")
    for symbol, xyz in zip(orbitals.symbols, orbitals.coordinates, strict=True):
        z = atomic_number(symbol)
        lines.append(f"{z:5d} {float(z):12.6f} {xyz[0]:12.6f} {xyz[1]:12.6f} {xyz[2]:12.6f}")
    flat = values.reshape(grid.shape[0] * grid.shape[1], grid.shape[2])
    for row in flat:
        for start in range(0, len(row), 6):
            lines.append(" ".join(f"{v:13.5e}" for v in row[start : start + 6]))
    return "\n".join(lines) + "\n"


def write_cube(
    path: str | Path, orbitals: OrbitalSet, index: int | str, grid: Grid, values: np.ndarray
) -> None:
    """Write :func:`cube_text` to ``path`` atomically."""
    atomic_write_text(path, cube_text(orbitals, index, grid, values))


@dataclass(frozen=True)
class Cube:
    """What a cube file holds: nuclei (Z, bohr), the grid and the values."""

    numbers: list[int]
    coordinates: np.ndarray
    origin: np.ndarray
    axes: np.ndarray  # (3, 3) step vectors, bohr
    values: np.ndarray


def read_cube(text: str, path: str = "cube") -> Cube:
    """Parse a Gaussian cube file (one value per point).

    Raises:
        ResultsError: ``cube_unreadable`` for a file of another shape.
    """
    lines = text.splitlines()
    try:
        head = lines[2].split()
        natoms = int(head[0])
        origin = np.array([float(v) for v in head[1:4]])
        counts, axes = [], []
        for k in range(3):
            words = lines[3 + k].split()
            counts.append(int(words[0]))
            axes.append([float(v) for v in words[1:4]])
        atoms = [lines[6 + i].split() for i in range(abs(natoms))]
        numbers = [int(a[0]) for a in atoms]
        coordinates = np.array([[float(v) for v in a[2:5]] for a in atoms])
        data = np.array(" ".join(lines[6 + abs(natoms) :]).split(), dtype=float)
        values = data.reshape(counts[0], counts[1], counts[2])
    except (IndexError, ValueError) as exc:
        raise ResultsError("cube_unreadable", path=path, reason=str(exc)) from exc
    return Cube(numbers, coordinates, origin, np.array(axes), values)


def norm_on_grid(values: np.ndarray, grid: Grid) -> float:
    """∫|ψ|² over the grid (about 1 for a normalised orbital on a large, fine grid)."""
    return float(np.sum(values * values) * grid.volume_element)
