"""The document: project envelope, atoms with stable ids, candidates, revisions, undo (no Qt)."""
