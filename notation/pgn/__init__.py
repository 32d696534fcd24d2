"""Streamed PGN reading and normalising.

- ``splitter``: ``iter_games`` splits any text into raw games (``games.RawGame``), keeping
  every byte and reporting damage; whole clean games are matched by regular expressions,
  the rest goes through ``state_machine``. ``tags`` reads tag lines, ``lines`` line
  endings; none of them depends on the rest of the package. ``reader`` re-exports their
  public names under the path the docs first gave.
- ``normalize``: rewrites ``Variant``/``FEN``/``SetUp`` per profile (``naming`` holds the
  Variant names); ``stream_jobs`` and ``file_jobs`` do it on several processes (``cuts``
  says where a text may be cut). Files are read and written by
  ``notation.inputs`` and ``notation.outputs``.

Submodules are imported on demand, so the splitter stays cheap to import.
"""
