"""The one format table (molforma.file_formats) drives the registry, convert and the tools."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from molforma import file_formats as ff
from molforma.errors import FormatError
from molforma.formats import read_text, registry
from molforma.formats.common import FORMAT_LABELS
from molforma.formats.registry import check_format, format_from_path
from molforma.subcommands.convert import build_parser
from tests.paths import DATA, REPO


@pytest.mark.parametrize(("ext", "name"), sorted(ff.EXTENSIONS.items()))
def test_every_extension_of_the_table_gives_its_format(ext: str, name: str) -> None:
    assert format_from_path(f"/tmp/molecule{ext}") == name
    assert format_from_path(f"/tmp/MOLECULE{ext.upper()}") == name


@pytest.mark.parametrize("fmt", ff.FORMATS, ids=lambda f: f.name)
def test_every_reader_and_writer_named_in_the_table_exists(fmt: ff.FileFormat) -> None:
    for ref in (fmt.reader, fmt.writer):
        if ref is None:
            continue
        module, _, name = ref.partition(":")
        mod = importlib.import_module(module if "." in module else f"molforma.formats.{module}")
        assert callable(getattr(mod, name)), ref
    assert (fmt.writer is None) == (fmt.write_rank is None) == (fmt.name not in ff.WRITABLE)


def test_the_registry_the_labels_and_convert_use_the_table() -> None:
    assert registry.READABLE is ff.READABLE and registry.WRITABLE is ff.WRITABLE
    assert registry.EXTENSIONS is ff.EXTENSIONS
    assert {f.name: f.label for f in ff.FORMATS} == FORMAT_LABELS
    parser = build_parser()
    fmt_action = next(a for a in parser._actions if a.dest == "format")
    assert tuple(fmt_action.choices) == ff.WRITABLE  # type: ignore[arg-type]
    assert f"writable: {', '.join(ff.WRITABLE)}" in (parser.epilog or "")


def test_a_read_only_format_is_refused_for_writing_with_the_same_error() -> None:
    with pytest.raises(FormatError) as info:
        check_format("mol2", write=True)
    err = info.value
    assert err.data["kind"] == "format_not_writable"
    assert err.data["writable"] == "project, xyz, mol, sdf, pdb, nwchem, cml"
    assert err.data["readable"] == "project, xyz, mol, sdf, mol2, cml, pdb, nwchem, gaussian"


def test_a_one_structure_format_still_refuses_a_second_frame() -> None:
    mol = (DATA / "formats").glob("*.mol")
    text = next(iter(sorted(mol))).read_text(encoding="utf-8")
    assert read_text(text, "mol", frame=0).atoms
    with pytest.raises(FormatError) as info:
        read_text(text, "mol", frame=1)
    assert info.value.data["kind"] == "format_frame_range"


def test_the_tool_descriptions_list_the_formats_of_the_table() -> None:
    from molforma.mcp.tools.document_tools import (
        ExportDocumentInput,
        ImportDocumentInput,
        OpenFileInput,
    )

    readable = ", ".join(ff.READABLE)
    assert readable in (ImportDocumentInput.model_fields["format"].description or "")
    assert readable in (OpenFileInput.model_fields["format"].description or "")
    assert ", ".join(ff.WRITABLE) in (ExportDocumentInput.model_fields["format"].description or "")
    path_text = OpenFileInput.model_fields["path"].description or ""
    assert all(f.label in path_text for f in ff.FORMATS)


def test_the_dialog_patterns_offer_every_extension_the_reader_takes() -> None:
    opened = ff.open_patterns().split()
    assert opened == [f"*{e}" for f in ff.FORMATS for e in f.extensions]
    structure = ff.structure_patterns().split()
    assert sorted(structure) == sorted(opened)
    assert structure[-2:] == ["*.molforma.json", "*.json"]  # projects after the structures
    assert ff.result_patterns().split() == [
        "*.out",
        "*.nwout",
        "*.nwo",
        "*.log",
        "*.output",
        "*.txt",
        "*.molden",
        "*.mold",
        "*.molf",
        "*.molden.input",
    ]


def test_export_offers_every_writable_format_with_the_project_last() -> None:
    names = [f.name for f in ff.export_formats()]
    assert sorted(names) == sorted(ff.WRITABLE) and names[-1] == "project"
    assert all(f.dialog_label for f in ff.export_formats())
    assert ff.export_format_of("/tmp/a.molforma.json") == "project"
    assert ff.export_format_of("/tmp/A.CML") == "cml"
    assert ff.export_format_of("/tmp/a.nw") == "nwchem"
    assert ff.export_format_of("/tmp/a.json") is None  # Export… writes .molforma.json only
    assert ff.export_format_of("/tmp/a.mol2") is None


def test_the_format_table_module_loads_no_reader_and_no_qt() -> None:
    code = (
        "import sys, molforma.file_formats\n"
        "bad = [m for m in sys.modules if m.startswith(('molforma.formats', 'PySide6', 'rdkit'))]\n"
        "print(bad)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert out.stdout.strip() == "[]"


def test_the_results_reader_uses_the_result_file_endings_of_the_table() -> None:
    from molforma.results import reader

    assert ff.RESULT_BY_NAME["nwchem-output"].extensions == reader._OUTPUT_EXT
    assert ff.RESULT_BY_NAME["molden"].extensions == reader._MOLDEN_EXT


def test_the_mime_types_of_resources_and_links_come_from_the_format_table():
    from molforma.file_formats import BY_NAME, mime_of
    from molforma.mcp.paging import DOCUMENT_VIEWS, document_links
    from molforma.mcp.resources import VIEWS

    assert mime_of("xyz") == "chemical/x-xyz" and mime_of("mol") == "chemical/x-mdl-molfile"
    assert mime_of("sdf") == "chemical/x-mdl-sdfile" and mime_of("project") == "application/json"
    for view, link in zip(DOCUMENT_VIEWS, document_links("doc-1", DOCUMENT_VIEWS), strict=True):
        assert link["mimeType"] == VIEWS[view][2] == BY_NAME[view].mime
        assert link["description"] == VIEWS[view][3]
