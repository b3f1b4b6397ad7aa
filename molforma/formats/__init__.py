"""MolForma formats (no Qt)."""
