"""MolForma: a molecular editor for quantum chemistry with a built-in MCP server.

The package root holds no Qt import; only ``molforma.gui`` touches Qt.
"""

__version__ = "0.1.0"
