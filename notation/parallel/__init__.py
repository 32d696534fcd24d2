"""The one parallel layer for ``--jobs`` (``normalize``, ``check``, ``convert``, ``validate``).

One module a concern: ``fork_pool`` (the worker processes: forked, fed tasks through one
pipe, answering), ``pool`` (the pool started, finished, stopped),
``signals`` (how the workers take signals: only the parent decides when they end),
``pieces`` (cutting input into pieces: byte ranges, text in blocks) and ``ordered``
(running pieces on the workers and taking their results back in input order). What a
piece is and what a worker does with it is each command's own (``notation.pgn.stream_jobs``,
``notation.pgn.file_jobs``, ``notation.check.jobs``, ``notation.cli.line_jobs``).

Nothing here is imported at start-up: the pool loads only with ``--jobs``.
"""
