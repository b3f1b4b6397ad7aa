"""The application layer (no Qt): what a person's click, a window command driven by
MCP and an MCP tool all run.

It sits above ``formats``, ``nwchem``, ``jobs``, ``results`` and ``history`` and below
``mcp`` and ``gui`` (it imports neither). :mod:`molforma.app.ops` names one entry point
per document tool (atoms and bonds there; settings in ``document_settings``, files in
``document_files`` with the one open of the window and MCP, checks in
``document_checks``); the other modules hold the window's own decisions (``files``:
open, new project, load structure; ``smiles``; ``place_clicks``; ``job_reuse``: a past
job back into the editor; ``runs``: may this calculation run), each told who acts
(:mod:`molforma.app.actor`) and, for MCP, judged by the safety policy beside it
(:mod:`molforma.app.policy`). ``app_state`` says what they act on.

The calling convention: a use case takes the application state, its own arguments, and
the keywords ``actor``, ``expected_revision`` and ``preview`` (``files.open_path``,
``document_files.open_file``, ``files.new_project``, ``files.load_structure``,
``job_reuse.reuse_job``, ``job_reuse.use_final_structure``); the per-tool document
operations of ``ops`` take the document and the same keywords. Every edit records the
origin of its actor (``actor.origin``: ``"user"`` or ``"mcp"``) on the document.
"""
