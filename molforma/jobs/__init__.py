"""MolForma jobs (no Qt)."""
