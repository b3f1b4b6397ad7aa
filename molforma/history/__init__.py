"""MolForma history (no Qt)."""
