"""``notation split``: a PGN database into files, N games each or one a variant or tag value."""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from collections import OrderedDict
from typing import TYPE_CHECKING, BinaryIO

from notation.cli.options import add_alias_option, add_source_option
from notation.cli.select_cmd import registry_from
from notation.cli.usage import SUMMARIES, UsageError
from notation.inputs import ENCODING, ERRORS, InputError, InputFile, split_compression_suffix
from notation.selection.split import SplitBy, Splitter

if TYPE_CHECKING:
    import argparse

DESCRIPTION = """\
Split the PGN database INPUT into files in the directory DIR (made if missing), each game
byte for byte as it was read (its blank lines with it), every game in exactly one file, in
input order within each file:

  --games N          N games a file: PREFIX-0001.pgn, PREFIX-0002.pgn, ... (four digits
                     at least); PREFIX is --prefix, else INPUT's name without .pgn and
                     compression suffixes ('games' for standard input)
  --by variant       one file a variant, named by its key (standard.pgn, crazyhouse.pgn,
                     ...; `notation variants` lists them); an unknown variant: unknown.pgn
  --by TAG           one file a value of the tag TAG (--by Event, --by Date), named after
                     the value: characters other than ASCII letters, digits, '.', '-' and
                     '_' written '_', a name taken already (another value, another case)
                     followed by -2, -3, ...; a game without the tag: unknown.pgn

INPUT may be '-' (standard input) and .gz, .bz2 or .zst files (recognised by content); the
files written are plain PGN. They are written in a temporary directory inside DIR and
moved into DIR only when the whole input was read: a failed run leaves DIR as it was. A
file of DIR with the name of one the split writes is an error, unless --force (then it is
replaced; other files of DIR are left alone). A summary goes to standard error.
The whole story: `notation docs pgn`.
Exit status: 0 split, 2 usage or I/O error (nothing written),
130/143/129 stopped by SIGINT/SIGTERM/SIGHUP (temporary files removed)."""

_OPEN_FILES = 64  # output files kept open at once; the others are reopened to append


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "split", help=SUMMARIES["split"], description=DESCRIPTION,
    )
    parser.add_argument("input", metavar="INPUT", help="PGN file (.pgn, .gz, .bz2, .zst) or '-' for standard input")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--games", type=int, metavar="N", help="N games a file")
    how.add_argument("--by", metavar="variant|TAG", help="one file a variant, or a value of the tag TAG")
    parser.add_argument("-o", "--output-dir", required=True, metavar="DIR", help="the directory to write into")
    parser.add_argument("--prefix", metavar="PREFIX", help="with --games: the files' names before -0001.pgn")
    add_alias_option(parser)
    add_source_option(parser)
    parser.add_argument("--force", action="store_true", help="replace files of DIR that have the names written")
    parser.add_argument("--summary", choices=("text", "none"), default="text",
                        help="summary on standard error at the end (default: text)")
    parser.set_defaults(run=run)


def _splitter(args: argparse.Namespace) -> Splitter:
    registry = registry_from(args)  # a bad --variant-alias is refused whatever the split
    if args.games is not None:
        if args.games < 1:
            raise UsageError("--games must be at least 1")
        prefix = args.prefix or _stem(args.input)
        if not prefix or prefix != os.path.basename(prefix) or prefix.startswith("."):
            raise UsageError(f"--prefix {prefix!r}: give a file name without directories, not starting with '.'")
        return Splitter(SplitBy.COUNT, count=args.games, prefix=prefix)
    if args.prefix is not None:
        raise UsageError("--prefix goes with --games")
    if args.by == "variant":
        return Splitter(SplitBy.VARIANT, registry=registry)
    if not args.by or not all(ch.isascii() and (ch.isalnum() or ch == "_") for ch in args.by):
        raise UsageError(f"--by {args.by!r}: write 'variant' or a tag name (letters, digits and underscores)")
    return Splitter(SplitBy.TAG, tag=args.by)


def _stem(path: str) -> str:
    if path == "-":
        return "games"
    base, _ = split_compression_suffix(os.path.basename(path))
    stem, extension = os.path.splitext(base)
    return stem if extension.lower() == ".pgn" and stem else base


def _directory(path: str) -> str:
    """``path`` as a directory to write into, made if missing; raises ``UsageError``."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        try:
            os.makedirs(path)
        except OSError as exc:
            raise UsageError(f"cannot make the directory {path!r}: {exc.strerror or exc}") from None
        return path
    except OSError as exc:
        raise UsageError(f"cannot use {path!r} as the output directory: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(mode):
        raise UsageError(f"{path!r} is not a directory: -o names the directory the files are written into")
    return path


class _Files:
    """The files being written in a temporary directory, at most ``_OPEN_FILES`` open."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.names: list[str] = []  # in the order of their first game
        self.games: dict[str, int] = {}
        self._open: OrderedDict[str, BinaryIO] = OrderedDict()

    def write(self, name: str, text: str, game: bool) -> None:
        handle = self._open.get(name)
        if handle is None:
            if name not in self.games:
                self.names.append(name)
                self.games[name] = 0
            if len(self._open) >= _OPEN_FILES:
                self._open.popitem(last=False)[1].close()
            handle = self._open[name] = open(os.path.join(self.directory, name), "ab")  # noqa: SIM115
        else:
            self._open.move_to_end(name)
        handle.write(text.encode(ENCODING, ERRORS))
        self.games[name] += game

    def close(self) -> None:
        while self._open:
            self._open.popitem()[1].close()


def run(args: argparse.Namespace) -> int:
    from notation.pgn.splitter import iter_games

    splitter = _splitter(args)
    target = _directory(args.output_dir)
    try:
        work = tempfile.mkdtemp(prefix=".notation-split-", dir=target)
    except OSError as exc:
        raise UsageError(f"cannot write into {target!r}: {exc.strerror or exc}") from None
    files = _Files(work)
    games = 0
    try:
        try:
            with InputFile(args.input) as source:
                for raw in iter_games(source.blocks()):
                    name = splitter.name(raw)
                    if name is not None:
                        game = raw.part == 0
                        games += game
                        files.write(name, raw.text, game)
        finally:
            files.close()
        clashes = [name for name in files.names if os.path.lexists(os.path.join(target, name))]
        if clashes and not args.force:
            shown = ", ".join(clashes[:5]) + (f" and {len(clashes) - 5} more" if len(clashes) > 5 else "")
            raise UsageError(f"{target!r} already holds {shown}: remove them, write elsewhere or give --force "
                             "(nothing was written)")
        for name in files.names:
            os.replace(os.path.join(work, name), os.path.join(target, name))
    except InputError as exc:
        raise UsageError(f"{exc} (nothing was written)") from None
    except OSError as exc:
        raise UsageError(f"writing into {target!r} failed: {exc.strerror or exc} (files moved into it so far stay)"
                         ) from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.summary == "text":
        sys.stderr.write(f"notation split: {games} games into {len(files.names)} files in {target}\n")
    return 0
