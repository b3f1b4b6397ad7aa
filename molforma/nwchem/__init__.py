"""NWChem: settings, input generation, running and output parsing (no Qt)."""
