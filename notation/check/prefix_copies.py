"""``check --duplicates --duplicates-by prefix``: the copies found over every PGN file first.

A game whose main line is the start of a longer game's is a copy of it, and the longer
one is the game kept, wherever it comes; so, unlike ``--duplicates`` alone, the check
cannot decide as it reads. Before checking, one pass reads every PGN file to be checked,
in the order checked, with ``normalize``'s finder (``notation.pgn.duplicate_jobs``: each
game's identity and its main line, ``--jobs`` processes reading); the
check then reports each game that is not kept as ``duplicate-game`` naming the game kept
(``CheckDuplicates``), as ``normalize --duplicates mark`` does. The moves are read twice.
Memory: as ``duplicate_jobs`` says (under 200 bytes a distinct game, 36 a game, some 250 a
copy; the main lines, 5 bytes a move, in a temporary file).

Raises ``PrefixesUnavailable`` for an input that cannot be read twice (standard input, a
FIFO or device) and for a default variant other than the registry's (the finder reads a
game without a ``Variant`` tag as the registry's default); ``OSError`` from the
temporary files. On a cluster (``--dask``) the finding pass runs on the workers
(``notation.cluster.check.prefix_copies_on``). A file that cannot be opened is left to the check, which reports it.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from notation.check.runner import CheckOptions
from notation.check.sources import FileKind, Found, Source
from notation.inputs import Compression, InputError, InputFile
from notation.pgn.duplicates import Verdict

if TYPE_CHECKING:
    from notation.pgn.normalize import NormalizeOptions

Copies = Mapping[str, Mapping[tuple[int, int], Verdict]]


class PrefixesUnavailable(ValueError):
    """The check cannot look for prefixes over these inputs (see the module doc)."""


def find_prefix_copies(found: Sequence[Found], options: CheckOptions, jobs: int) -> Copies:
    """Per PGN file of ``found`` (by its path as the check names it): its games that are
    copies, by (first line, first column), each with the game kept of its set."""
    from notation.pgn.duplicate_jobs import readable, with_copies_in

    normalize = finding_options(options)
    with contextlib.ExitStack() as stack:
        inputs: list[tuple[str, int]] = []
        for item in found:
            if not isinstance(item, Source) or item.kind not in (FileKind.PGN, None):
                continue
            if item.is_stdin or not _regular(item.path):
                raise PrefixesUnavailable(f"--duplicates-by prefix reads every input twice; {item.path!r} can be "
                                          "read only once (standard input, a FIFO or a device)")
            try:
                source = stack.enter_context(InputFile(item.path))
                fd = stack.enter_context(readable(item.path, source.blocks(),
                                                  source.compression is not Compression.NONE))
            except (InputError, OSError):
                continue  # the check says why it cannot be read
            inputs.append((item.path, fd))
        each = with_copies_in(normalize, inputs, jobs)
        return {path: own.duplicates.verdicts or {} for (path, _fd), own in zip(inputs, each, strict=True)}


def finding_options(options: CheckOptions) -> NormalizeOptions:
    """The options ``normalize``'s finder reads the check's games with (its registry,
    accepted codes, piece letters and duplicate settings); raises ``PrefixesUnavailable``
    for a default variant other than the registry's."""
    from notation.pgn.normalize import NormalizeOptions

    assert options.duplicates is not None, "prefixes are looked for only with --duplicates"
    if options.variant.key != options.registry.default.key:
        raise PrefixesUnavailable(f"--duplicates-by prefix reads a game without a Variant tag as "
                                  f"{options.registry.default.key}; --variant {options.variant.key} cannot go with it")
    return NormalizeOptions.create(registry=options.registry, accept=options.accept, move_letters=options.letters,
                                   duplicates=options.duplicates)


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # it cannot be read: the check says so
