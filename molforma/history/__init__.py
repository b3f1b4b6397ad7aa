"""History of calculations: job folders scanned into rows, preview, reuse, trash, CSV (no Qt).

The job folders are the truth; see :mod:`molforma.history.scan` for what a job
folder is and what the status column means. Import from the modules:
``molforma.history.scan`` (``scan``, ``preview``, ``reuse``, ``HistoryRow``,
``HistoryScanner``), ``molforma.history.trash`` (``move_to_trash``) and
``molforma.history.export`` (``export_csv``). Nothing is re-exported here, so that
``molforma.history.scan`` always names the module, never the function.
"""
