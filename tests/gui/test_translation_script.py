"""scripts/update_translations.py keeps every translation the catalogues hold.

lupdate drops a message it cannot find in the sources; a translation reached through a
helper function was lost that way once. Here the script runs over copies of the
committed catalogues and nothing translated may go missing or change.
"""

from __future__ import annotations

import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.paths import REPO

sys.path.insert(0, str(REPO / "scripts"))
import update_translations

TRANSLATIONS = REPO / "translations"


def _translated(ts: Path) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            tr = message.find("translation")
            if tr is None or tr.get("type") in ("unfinished", "obsolete", "vanished"):
                continue
            source = message.findtext("source") or ""
            forms = [f.text or "" for f in tr.iter("numerusform")]
            text = "|".join(forms) or (tr.text or "")
            if text != source:  # an English entry equal to its source changes nothing
                out[(name, source)] = text
    return out


def test_a_run_of_the_script_loses_no_translation(tmp_path: Path) -> None:
    for ts in TRANSLATIONS.glob("*.ts"):
        shutil.copy(ts, tmp_path / ts.name)
    update_translations.update_sources(tmp_path)
    for ts in TRANSLATIONS.glob("*.ts"):
        before, after = _translated(ts), _translated(tmp_path / ts.name)
        lost = {k: v for k, v in before.items() if after.get(k) != v}
        assert not lost, f"{ts.name}: a run of update_translations.py would lose {lost}"


def test_every_catalogue_compiles(tmp_path: Path) -> None:
    for ts in TRANSLATIONS.glob("*.ts"):
        shutil.copy(ts, tmp_path / ts.name)
    built = update_translations.compile_all(tmp_path)
    assert {q.stem for q in built} == {t.stem for t in TRANSLATIONS.glob("*.ts")}
    assert all(q.stat().st_size > 0 for q in built)
