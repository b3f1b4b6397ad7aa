"""The parts palette: periodic table, fragments and ligands (Qt layer).

Shown and hidden with the ``paletteToggle`` button of the Molecule tab. Element
buttons are named ``element_<Symbol>``; the lists ``ringList`` (ring templates: 3- to
8-rings and aromatic rings), ``fragmentList`` (the other substituents) and ``ligandList``
list the core catalogue (``get_catalog``). Ring templates are fragments: the Place tool
puts them on a free site like any other.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QSize, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from molforma.app import ops
from molforma.document import elements
from molforma.document.elements import BY_Z
from molforma.gui.view3d.scene import element_colour
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma import catalog
    from molforma.gui import app as gui_app
else:  # imported on first use (start-up time): molforma.lazy
    catalog = lazy_import("molforma.catalog")
    gui_app = lazy_import("molforma.gui.app")

log = logging.getLogger(__name__)

# (symbol, period row, group column) for the main table; f-block in rows 8 and 9.
_LAYOUT: list[tuple[str, int, int]] = []


def _build_layout() -> None:
    # Rows of the periodic table cut from the one table of symbols by atomic number.
    def span(first: int, last: int) -> list[str]:
        return list(BY_Z[first - 1 : last])

    rows = [
        span(1, 1) + [""] * 16 + span(2, 2),
        span(3, 4) + [""] * 10 + span(5, 10),
        span(11, 12) + [""] * 10 + span(13, 18),
        span(19, 36),
        span(37, 54),
        [*span(55, 56), "", *span(72, 86)],
        [*span(87, 88), "", *span(104, 118)],
        [""] * 18,
        ["", "", *span(57, 71)],  # lanthanides
        ["", "", *span(89, 103)],  # actinides
    ]
    for r, row in enumerate(rows):
        for c, sym in enumerate(row):
            if sym:
                _LAYOUT.append((sym, r, c))


_build_layout()
ELEMENT_SYMBOLS = [s for s, _r, _c in _LAYOUT]


def _atomic_numbers() -> dict[str, int]:
    out = {}
    for sym, _r, _c in _LAYOUT:
        try:
            out[sym] = elements.atomic_number(sym)
        except (KeyError, ValueError, RuntimeError):
            continue
    return out


_LAYOUT_Z = _atomic_numbers()


class PeriodicTableWidget(QWidget):
    """A grid of element buttons; one is checked: the element the Add tool places."""

    elementChosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("periodicTable")
        grid = QGridLayout(self)
        grid.setSpacing(1)
        grid.setContentsMargins(0, 0, 0, 0)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[str, QToolButton] = {}
        # One style sheet for the whole table (a rule per button's name): Qt parses and
        # applies one sheet instead of 118, which the window's start pays for.
        rules = ["QToolButton { border: 1px solid #555; font-size: 9px; }"]
        for sym, r, c in _LAYOUT:
            b = QToolButton(self)
            b.setObjectName(f"element_{sym}")
            b.setText(sym)
            b.setToolTip(f"{sym}  Z = {_LAYOUT_Z.get(sym, '?')}")
            b.setCheckable(True)
            b.setFixedSize(QSize(26, 22))
            rr, gg, bb = (int(v * 255) for v in element_colour(sym))
            light = QColor(rr, gg, bb).lightness() > 110
            rules.append(
                f"QToolButton#element_{sym} {{ background: rgb({rr},{gg},{bb}); "
                f"color: {'black' if light else 'white'}; }}"
            )
            b.clicked.connect(lambda _c=False, s=sym: self.elementChosen.emit(s))
            self.group.addButton(b)
            grid.addWidget(b, r, c)
            self.buttons[sym] = b
        rules.append("QToolButton:checked { border: 2px solid #ffd400; }")
        self.setStyleSheet("\n".join(rules))
        self.set_element("C")

    def set_element(self, symbol: str) -> None:
        """Check the button of ``symbol``."""
        if symbol in self.buttons:
            self.buttons[symbol].setChecked(True)


class PartsPalette(QWidget):
    """Periodic table plus fragment and ligand lists (objectName ``partsPalette``)."""

    elementChosen = Signal(str)
    partChosen = Signal(str, str)  # kind ("fragment" or "ligand"), name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("partsPalette")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.element_label = QLabel(self)
        lay.addWidget(self.element_label)
        self.table = PeriodicTableWidget(self)
        self.table.elementChosen.connect(self.elementChosen)
        lay.addWidget(self.table)
        self.ring_label = QLabel(self)
        lay.addWidget(self.ring_label)
        self.rings = QListWidget(self)
        self.rings.setObjectName("ringList")
        lay.addWidget(self.rings, 1)
        self.fragment_label = QLabel(self)
        lay.addWidget(self.fragment_label)
        self.fragments = QListWidget(self)
        self.fragments.setObjectName("fragmentList")
        lay.addWidget(self.fragments, 1)
        self.ligand_label = QLabel(self)
        lay.addWidget(self.ligand_label)
        self.ligands = QListWidget(self)
        self.ligands.setObjectName("ligandList")
        lay.addWidget(self.ligands, 1)
        self._lists = {"ring": self.rings, "fragment": self.fragments, "ligand": self.ligands}
        for key, widget in self._lists.items():
            widget.currentItemChanged.connect(lambda it, _p, k=key: self._chosen(k, it))
        self._loaded = False
        self.retranslate()

    def _chosen(self, kind: str, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        for key, other in self._lists.items():
            if key == kind:
                continue
            other.blockSignals(True)
            other.setCurrentItem(None)  # type: ignore[call-overload]  # Qt takes nullptr; the stubs lack None
            other.clearSelection()
            other.blockSignals(False)
        # A ring template is a fragment to the Place tool.
        self.partChosen.emit("ligand" if kind == "ligand" else "fragment", str(item.data(256)))

    def load_catalog(self) -> None:
        """Fill the lists from the core catalogue (once)."""
        if self._loaded:
            return
        self._loaded = True
        try:
            cat: dict[str, Any] = ops.get_catalog()
        except Exception as exc:  # noqa: BLE001 - a missing catalogue leaves the lists empty
            log.info("no fragment catalogue: %s", exc)
            return

        for kind, widget in (
            ("fragments", self.rings),
            ("fragments", self.fragments),
            ("ligands", self.ligands),
        ):
            entries = list(cat.get(kind, []) or [])
            if widget is self.rings:  # small rings first, then the aromatic ones
                entries.sort(
                    key=lambda e: (
                        catalog.RING_TEMPLATES.index(e["name"])
                        if isinstance(e, dict) and e.get("name") in catalog.RING_TEMPLATES
                        else len(catalog.RING_TEMPLATES)
                    )
                )
            for entry in entries:
                name = entry.get("name") if isinstance(entry, dict) else str(entry)
                if not name:
                    continue
                if kind == "fragments" and (name in catalog.RING_TEMPLATES) != (
                    widget is self.rings
                ):
                    continue
                it = QListWidgetItem(str(name))
                it.setData(256, str(name))
                it.setData(257, entry.get("label") if isinstance(entry, dict) else None)
                widget.addItem(it)
        self._relabel()

    def _relabel(self) -> None:
        """Show catalogue labels in the window's language."""
        lang = gui_app.current_language()
        for widget in self._lists.values():
            for i in range(widget.count()):
                it = widget.item(i)
                label = it.data(257)
                if isinstance(label, dict):
                    it.setText(str(label.get(lang) or label.get("en") or it.data(256)))

    def current_part(self) -> tuple[str, str] | None:
        """(kind, name) of the chosen fragment or ligand."""
        for key, widget in self._lists.items():
            it = widget.currentItem()
            if it is not None and it.isSelected():
                return ("ligand" if key == "ligand" else "fragment"), str(it.data(256))
        return None

    def retranslate(self) -> None:
        """Re-read texts."""
        self.element_label.setText(self.tr("Element for the Add tool:"))
        self.ring_label.setText(self.tr("Rings (Place tool):"))
        self.rings.setToolTip(
            self.tr(
                "Ring templates (3- to 8-rings, benzene, pyridine, "
                "furan, thiophene, pyrrole, naphthalene): choose one, "
                "then click an atom with the Place tool"
            )
        )
        self.fragment_label.setText(self.tr("Fragments (Place tool):"))
        self.ligand_label.setText(self.tr("Ligands (Place tool):"))
        self._relabel()

    def changeEvent(self, ev: QEvent) -> None:
        """Retranslate on a language change."""
        if ev.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(ev)
