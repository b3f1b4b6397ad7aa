"""The bundle's start-up hook for Qt, in place of PyInstaller's own PySide6 hook.

PyInstaller's hook imports PySide6.QtCore at every start to register a qt.conf that
points Qt at the bundle (its plugins, its translations). That costs some 50 ms before
``molforma --mcp`` can answer, and loads Qt into a server that never uses it. Here the
plugin path is set at once (an environment variable Qt reads when it starts) and the
qt.conf is registered right after PySide6.QtCore is first imported, by the window only.
"""


def _pyi_rthook() -> None:
    import os
    import sys

    qt_dir = os.path.join(sys._MEIPASS, "PySide6", "Qt")
    os.environ["QT_PLUGIN_PATH"] = os.path.join(qt_dir, "plugins")

    class QtCoreFinder:
        """Finds PySide6.QtCore as usual and registers the qt.conf once it is loaded."""

        def find_spec(self, name, path=None, target=None):
            if name != "PySide6.QtCore":
                return None
            sys.meta_path.remove(self)  # once; the finders below do the finding
            import importlib.util

            spec = importlib.util.find_spec(name)
            if spec is None or spec.loader is None:
                return spec
            load = spec.loader.exec_module

            def exec_module(module):
                load(module)
                from _pyi_rth_utils import qt

                qt.create_embedded_qt_conf("PySide6", qt_dir)

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, QtCoreFinder())


_pyi_rthook()
del _pyi_rthook
