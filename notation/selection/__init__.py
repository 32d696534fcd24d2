"""Choosing games from PGN databases and splitting them: ``notation select`` and ``notation split``.

- ``criteria``: what a game is asked (``Criteria``: tags, variant, positions reached, plies,
  problems) and how the command line's forms are read;
- ``positions``: positions compared as a game reaches them (``PositionKey``);
- ``select``: ``select_games`` over ``read_games`` and the ``Selector`` behind it;
- ``split``: which file of a split each game goes to (``Splitter``);
- ``jobs``: selection on several processes, the input order kept.

Games are written byte for byte as they were read. This package sits above
``notation.check``: a game's problems are found as ``notation check`` finds them.
"""
