"""Command-line subcommands for scripts and batch work (no Qt)."""
