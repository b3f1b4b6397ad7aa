"""MolForma results (no Qt)."""
