"""An SDF record's SD data fields are kept with the molecule read from it (the document's
``sdData``), written back by the SDF export, and dropped when another structure replaces
the molecule."""

from __future__ import annotations

from molforma.app.document_files import export_document, import_document
from molforma.document.document import Document
from molforma.formats.sdf_records import sdf_records


def _sdf() -> str:
    import io

    from rdkit import Chem
    from rdkit.Chem import AllChem

    out = io.StringIO()
    writer = Chem.SDWriter(out)
    for smi, name, kind in (("CCO", "ethanol", "solvent"), ("c1ccccc1", "benzene", "arene")):
        m = Chem.AddHs(Chem.MolFromSmiles(smi))
        AllChem.EmbedMolecule(m, randomSeed=1)
        m.SetProp("_Name", name)
        m.SetProp("KIND", kind)
        m.SetProp("CAS", "71-43-2" if name == "benzene" else "64-17-5")
        writer.write(m)
    writer.close()
    return out.getvalue()


def test_sd_data_kept_written_back_and_dropped() -> None:
    doc = Document()
    import_document(doc, _sdf(), "sdf", frame=1, preview=False)
    assert doc.project["document"]["sdData"] == {"KIND": "arene", "CAS": "71-43-2"}
    text = export_document(doc, "sdf")
    assert sdf_records(text)[0]["data"]["CAS"] == "71-43-2"
    again = Document()
    import_document(again, text, "sdf", preview=False)
    assert again.project["document"]["sdData"] == {"KIND": "arene", "CAS": "71-43-2"}
    import_document(
        doc,
        "3\nwater\nO 0 0 0.1173\nH 0 0.7572 -0.4692\nH 0 -0.7572 -0.4692\n",
        "xyz",
        preview=False,
    )
    assert "sdData" not in doc.project["document"]
