"""The application layer (no Qt): what a person's click, a window command driven by
MCP and an MCP tool all run.

It sits above ``formats``, ``nwchem``, ``jobs``, ``results`` and ``history`` and below
``mcp`` and ``gui`` (it imports neither). :mod:`molforma.app.ops` holds one entry
point per document tool; the other modules hold the window's own decisions (open a
path with the trust rules, new project, SMILES, fragment placement, history reuse,
may this calculation run), each told who acts (:mod:`molforma.app.actor`).
"""
