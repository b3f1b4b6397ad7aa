"""MolForma mcp (no Qt)."""
