"""The one table of file formats: names, extensions, reader, writer, what each keeps (no Qt).

Everything that lists formats is made from :data:`FORMATS` (and :data:`RESULT_FILES`
for calculation results): the registry's readable and writable names and extension
map, the message labels, ``molforma convert``'s choices, the format descriptions of
the ``open_file`` / ``import_document`` / ``export_document`` tools, the window's
file-dialog filters and the format table of ``docs/reference/files.md``
(``scripts/update_readme.py``).

This module is plain data, imported without any reader: the window builds its
dialog filters from it at start-up, and the registry imports a reader module only
when a file of its format is read. Labels the window shows are marked with
``QT_TRANSLATE_NOOP`` so that ``pyside6-lupdate`` finds them here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pyside6-lupdate seeks
    """A window label for Qt's translation tools, returned as it is (this module has no Qt)."""
    del context
    return text


@dataclass(frozen=True)
class FileFormat:
    """One format MolForma reads (and maybe writes).

    Attributes:
        name: the format name of the tools and ``--format`` (``xyz``).
        label: its name in messages ("Cannot read XYZ (line 3): ...").
        extensions: file name endings, the one written first (case-insensitive).
        reader: ``module:function`` (a module under ``molforma.formats`` unless dotted)
            reading ``(text, frame)`` into a Structure, ``(text)`` when ``frames`` is
            False; the project reader takes ``(text, source)`` and gives the project.
        frames: whether the reader takes a frame (several structures in one file).
        writer: ``module:function`` writing a project mapping as text; None when read only.
        write_rank: place in the writable list (messages, ``--format`` choices).
        dialog_label: the window's Export… filter label (translated in MainWindow).
        readme_name: the format cell of the docs' format table.
        reads: what reading the file gives (the docs' format table).
        keeps: what survives a round trip through MolForma (the docs' format table).
        mime: the MIME type chemists' tools know it by (resources and resource links).
        resource: (name, title, description) of its MCP document resource view
            (:func:`resource_views`); None gives ``(name, "<label> file", "The confirmed
            structure as <label>.")``.
    """

    name: str
    label: str
    extensions: tuple[str, ...]
    reader: str
    frames: bool
    writer: str | None
    write_rank: int | None
    dialog_label: str | None
    readme_name: str
    reads: str
    keeps: str
    mime: str = "text/plain"
    resource: tuple[str, str, str] | None = None

    def patterns(self) -> list[str]:
        """File-dialog patterns of the extensions (``*.xyz``)."""
        return [f"*{ext}" for ext in self.extensions]


FORMATS: tuple[FileFormat, ...] = (
    FileFormat(
        "project",
        "MolForma project",
        (".molforma.json", ".json"),
        "registry:read_project",
        False,
        "registry:write_project",
        0,
        QT_TRANSLATE_NOOP("MainWindow", "MolForma project"),
        "MolForma project",
        "whole project (one undo step)",
        "everything, unknown fields of a newer MolForma included",
        mime="application/json",
        resource=("project", "Project JSON", "The confirmed project envelope (*.molforma.json)."),
    ),
    FileFormat(
        "xyz",
        "XYZ",
        (".xyz",),
        "xyz:read_xyz",
        True,
        "xyz:write_xyz",
        1,
        QT_TRANSLATE_NOOP("MainWindow", "XYZ file"),
        "XYZ (multi-frame with `--frame`/`frame`, 0-based)",
        "structure",
        "elements, coordinates, title (bonds perceived again)",
        mime="chemical/x-xyz",
        resource=("xyz", "XYZ coordinates", "The confirmed structure as XYZ."),
    ),
    FileFormat(
        "mol",
        "MOL",
        (".mol", ".mdl"),
        "mdl:read_mol",
        False,
        "mol_write:write_mol",
        2,
        QT_TRANSLATE_NOOP("MainWindow", "MDL Molfile"),
        "MOL",
        "structure",
        "bonds, bond orders, charges, isotopes, radicals (also of atoms without bonds), "
        "atom ids (up to 999 atoms), title",
        mime="chemical/x-mdl-molfile",
        resource=(
            "mol",
            "MOL file",
            "The confirmed structure as a MOL file (V3000 above 999 atoms).",
        ),
    ),
    FileFormat(
        "sdf",
        "SDF",
        (".sdf", ".sd"),
        "mdl:read_sdf",
        True,
        "mdl:write_sdf",
        3,
        QT_TRANSLATE_NOOP("MainWindow", "SD file"),
        "SDF",
        "structure",
        "bonds, bond orders, charges, isotopes, radicals, atom names and ids, title, multiplicity",
        mime="chemical/x-mdl-sdfile",
        resource=(
            "sdf",
            "SDF file",
            "The confirmed structure as a one-record SDF (atom ids and names as data).",
        ),
    ),
    FileFormat(
        "mol2",
        "Mol2",
        (".mol2", ".ml2"),
        "mol2:read_mol2",
        True,
        None,
        None,
        None,
        "Mol2",
        "structure",
        "bonds, bond orders, atom names, formal charges from atom types",
        mime="chemical/x-mol2",
    ),
    FileFormat(
        "cml",
        "CML",
        (".cml",),
        "cml:read_cml",
        True,
        "cml:write_cml",
        6,
        QT_TRANSLATE_NOOP("MainWindow", "CML file"),
        "CML",
        "structure",
        "bonds, bond orders, charges, isotopes, atom names and ids, title",
        mime="chemical/x-cml",
    ),
    FileFormat(
        "pdb",
        "PDB",
        (".pdb", ".ent"),
        "pdb:read_pdb",
        True,
        "pdb:write_pdb",
        4,
        QT_TRANSLATE_NOOP("MainWindow", "PDB file"),
        "PDB (MODEL 1, altloc chosen automatically)",
        "structure",
        "bonds, bond orders, charges, atom names and ids, title",
        mime="chemical/x-pdb",
        resource=("pdb", "PDB file", "The confirmed structure as PDB."),
    ),
    FileFormat(
        "nwchem",
        "NWChem input",
        (".nw", ".nwi"),
        "nwchem_input:read_nwchem",
        False,
        "molforma.nwchem.input:render_input",
        5,
        QT_TRANSLATE_NOOP("MainWindow", "NWChem input"),
        "NWChem input",
        "structure, charge, multiplicity, common conditions",
        "elements, coordinates, masses, fixed atoms, title, settings (bonds perceived again)",
        resource=(
            "nwchem_input",
            "NWChem input",
            "The NWChem input generated from the confirmed project.",
        ),
    ),
    FileFormat(
        "gaussian",
        "Gaussian input",
        (".gjf", ".com", ".gau"),
        "gaussian:read_gaussian",
        False,
        None,
        None,
        None,
        "Gaussian input",
        "structure, charge, multiplicity",
        "charge, multiplicity, title, bonds of the connectivity section (else perceived), "
        "fixed atoms from freeze codes (`-1`)",
    ),
)

BY_NAME: dict[str, FileFormat] = {f.name: f for f in FORMATS}
READABLE: tuple[str, ...] = tuple(f.name for f in FORMATS)
WRITABLE: tuple[str, ...] = tuple(
    f.name for f in sorted((f for f in FORMATS if f.writer), key=lambda f: f.write_rank or 0)
)
EXTENSIONS: dict[str, str] = {ext: f.name for f in FORMATS for ext in f.extensions}
LABELS: dict[str, str] = {f.name: f.label for f in FORMATS}


def mime_of(name: str) -> str:
    """The MIME type of format ``name`` (``chemical/x-xyz``)."""
    return BY_NAME[name].mime


@dataclass(frozen=True)
class ResultFile:
    """A kind of calculation result file (read by :mod:`molforma.results.reader`)."""

    name: str
    label: str
    extensions: tuple[str, ...]


# NWChem outputs and MOLDEN files are also recognised by content; these endings are
# what the reader looks at in a folder and what the window's file dialogs offer.
RESULT_FILES: tuple[ResultFile, ...] = (
    ResultFile(
        "nwchem-output", "NWChem output", (".out", ".nwout", ".nwo", ".log", ".output", ".txt")
    ),
    ResultFile("molden", "MOLDEN", (".molden", ".mold", ".molf", ".molden.input")),
    ResultFile("xyz", "XYZ", (".xyz",)),
)
RESULT_BY_NAME: dict[str, ResultFile] = {r.name: r for r in RESULT_FILES}


def resource_views() -> dict[str, tuple[str, str, str, str]]:
    """The MCP per-document resource views: one per writable format, in :data:`WRITABLE`
    order, as ``view -> (resource name, title, MIME type, description)``."""
    views: dict[str, tuple[str, str, str, str]] = {}
    for name in WRITABLE:
        f = BY_NAME[name]
        rname, title, description = f.resource or (
            f.name,
            f"{f.label} file",
            f"The confirmed structure as {f.label}.",
        )
        views[name] = (rname, title, f.mime, description)
    return views


def names_text(names: Iterable[str]) -> str:
    """``a, b, c``: a list of format names as messages and tool descriptions show it."""
    return ", ".join(names)


def dialog_patterns(names: Iterable[str]) -> str:
    """The file-dialog patterns of the formats ``names`` (``*.xyz *.mol ...``)."""
    return " ".join(p for n in names for p in BY_NAME[n].patterns())


def open_patterns() -> str:
    """File → Open's "Molecules and projects" patterns: every readable format."""
    return dialog_patterns(READABLE)


def structure_patterns() -> str:
    """The Molecule tab's "Structure files" patterns: the structure formats, then projects."""
    return dialog_patterns([*(n for n in READABLE if n != "project"), "project"])


def export_formats() -> list[FileFormat]:
    """File → Export…'s formats, in the writable order with the project last."""
    rows = [BY_NAME[n] for n in WRITABLE]
    return [f for f in rows if f.name != "project"] + [BY_NAME["project"]]


def export_format_of(path: str) -> str | None:
    """The Export… format a file name asks for, by its first (written) extension."""
    low = path.lower()
    return next((f.name for f in export_formats() if low.endswith(f.extensions[0])), None)


def result_patterns(names: Iterable[str] = ("nwchem-output", "molden")) -> str:
    """File-dialog patterns of result files (NWChem outputs and MOLDEN by default)."""
    return " ".join(f"*{ext}" for n in names for ext in RESULT_BY_NAME[n].extensions)


def readme_table() -> str:
    """The format table of docs/reference/files.md (``scripts/update_readme.py`` writes it)."""
    lines = [
        "| format | extensions | read gives | write | what it keeps |",
        "|---|---|---|---|---|",
    ]
    for f in FORMATS:
        exts = ", ".join(f"`{e}`" for e in f.extensions)
        lines.append(
            f"| {f.readme_name} | {exts} | {f.reads} | {'yes' if f.writer else '—'} | {f.keeps} |"
        )
    results = "; ".join(
        f"{r.label} " + ", ".join(f"`{e}`" for e in r.extensions) for r in RESULT_FILES
    )
    lines += [
        "",
        f"Calculation results open in the Results tab: {results} (NWChem outputs "
        "and MOLDEN files are recognised by their content too).",
    ]
    return "\n".join(lines)
