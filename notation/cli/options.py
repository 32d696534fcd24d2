"""The argparse options the subcommands share, and reading them back: ``--profile`` and
the writer flags, ``--variant``/``--variant-alias``/``--from`` (``build_registry``),
``-i/--input``, ``--accept``, ``--repair``. Reading them back raises ``UsageError`` for a
bad value (exit status 2) before any input is read.
"""

from __future__ import annotations

import functools
import sys

from notation.cli.usage import UsageError
from notation.errors import NotationError, Problem
from notation.fen.profiles import DEFAULT_PROFILE, PROFILES, WRITER_OPTIONS, WriteOptions, options_from
from notation.name_sets import SOURCE_NAMES, Source, registry_for
from notation.variants import AUTO, Registry, normalize_name, parse_aliases

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse


def add_writer_options(parser: argparse.ArgumentParser) -> None:
    """``--profile`` and one flag per writer option (``WRITER_OPTIONS``), shared by every
    command that writes FENs; ``writer_options_from`` reads them back."""
    parser.add_argument(
        "--profile",
        choices=list(PROFILES),
        default=None,
        help=f"write as this program does (default: {DEFAULT_PROFILE}); options below override it",
    )
    for option in WRITER_OPTIONS:
        parser.add_argument(option.flag, dest=option.name, choices=option.values, help=option.help)


def writer_options_from(args: argparse.Namespace) -> WriteOptions:
    """The writer options given by ``add_writer_options``'s flags (argparse checked them)."""
    return options_from(vars(args))


def add_variant_options(parser: argparse.ArgumentParser, *, default: str = "standard", auto: bool = False) -> None:
    """``--variant`` (with ``auto``, ``guessing`` reads it) and ``--variant-alias``."""
    guess = "; auto: guess each FEN's variant from its shape, with a warning" if auto else ""
    parser.add_argument(
        "--variant",
        default=default,
        metavar="NAME",
        help=f"variant name or alias (default: {default}); lookup ignores case, spaces, - and _{guess}; "
        "help: list the variants (as `notation variants`)",
    )
    add_alias_option(parser)
    add_source_option(parser)


def add_source_option(parser: argparse.ArgumentParser) -> None:
    """``--from SOURCE``: read variant names as that program writes them (``args.source``)."""
    parser.add_argument(
        "--from",
        dest="source",
        choices=SOURCE_NAMES,
        default=Source.DEFAULT.value,
        help="read variant names as this program writes them (itsyourturn: CH is its Horde, "
        "'Atomic Chess' its bomb variant; default: every registry name)",
    )


def add_alias_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant-alias",
        action="append",
        default=[],
        metavar="ALIAS=VARIANT",
        help="teach an extra variant name, e.g. --variant-alias zh960=crazyhouse (repeatable, or comma-separated)",
    )


def build_registry(args: object) -> Registry:
    """The registry of ``--from``'s names plus ``--variant-alias`` entries, as the parsed
    command line ``args`` gives them (its ``source``, ``variant_alias`` and ``variant``, each
    optional). Raises
    ``UsageError`` (exit status 2) for a bad alias, and for a ``--variant`` the registry
    does not know (``auto`` aside), so that every command refuses it alike before reading
    any input; a variant named inside the input (a JSON line's) is that input's problem."""
    base = registry_for(getattr(args, "source", None) or Source.DEFAULT)
    try:
        aliases = parse_aliases(getattr(args, "variant_alias", None) or [])
        registry = base.with_aliases(aliases) if aliases else base
    except (NotationError, ValueError) as exc:
        raise UsageError(f"--variant-alias: {exc}") from None
    check_variant_option(getattr(args, "variant", None), registry)
    return registry


# ``--variant help`` and ``--variant list``: the table of ``notation variants``, on any command.
LIST_VARIANTS = frozenset({"help", "list"})


def check_variant_option(name: str | None, registry: Registry) -> None:
    """Raise ``UsageError`` when ``--variant`` names no variant of ``registry`` (its message
    suggests the closest names and says where they are listed); None (not given) and
    ``auto`` pass. ``help`` and ``list`` print the variants (``notation variants``) and
    exit 0 (``SystemExit``), as ``--help`` does."""
    if name is None or is_auto(name):
        return
    if normalize_name(name) in LIST_VARIANTS:
        from notation.cli.variant_table import print_variants

        print_variants(registry, sys.stdout)
        raise SystemExit(0)
    try:
        registry.find(name)
    except NotationError as exc:
        raise UsageError(f"--variant: {exc} (`notation variants` lists them)") from None


def variant_hint(problem: Problem) -> Problem:
    """A failed ``--variant auto`` guess's problem with the command line's way of saying
    which variant: ``--variant`` (``notation.guess.with_hint``)."""
    from notation.guess import with_hint  # only for a failed guess: not at start-up

    return with_hint(problem, "--variant", "`notation variants`")


@functools.lru_cache(maxsize=256)
def is_auto(variant: str) -> bool:
    """Whether a variant name asks for a guess (``auto``, any case or spacing); cached, as
    every input line asks it of the same few names."""
    return normalize_name(variant) == AUTO


def add_input_option(parser: argparse.ArgumentParser) -> None:
    """``-i/--input PATH`` (repeatable): read FENs from files, ``args.inputs``."""
    parser.add_argument(
        "-i",
        "--input",
        dest="inputs",
        action="append",
        default=[],
        metavar="PATH",
        help="read FENs from this file, one per line (plain, gzip, bzip2 or zstd; - for standard input); "
        "repeatable; output lines then start with PATH:LINE:",
    )


def add_piece_letters_option(parser: argparse.ArgumentParser) -> None:
    """``--piece-letters``: the language of chess-family moves' piece letters (``MoveLanguage``)."""
    from notation.move_options import MoveLanguage

    parser.add_argument(
        "--piece-letters", choices=[language.value for language in MoveLanguage], default=MoveLanguage.EN.value,
        help="read chess moves' piece letters in this language (de: K D T L S B, fr: R D T F C P, ...; "
        "a foreign-piece-letters warning each game); only its letters are then read (German B is a pawn); "
        "default en",
    )


def add_accept_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--accept",
        action="append",
        default=[],
        metavar="CODE",
        help="report this validation code as a warning instead of an error (repeatable, or comma-separated), "
        "e.g. --accept bad-castling-rights",
    )


def accepted_codes(values: list[str]) -> frozenset[str]:
    """The ``--accept`` codes; raises ``UsageError`` naming the known codes for an unknown one."""
    from notation.validation import CODES

    codes = frozenset(code.strip() for value in values for code in value.split(",") if code.strip())
    unknown = sorted(codes - set(CODES))
    if unknown:
        raise UsageError(f"--accept: unknown code(s) {', '.join(unknown)}; known codes: {', '.join(CODES)}")
    return codes


def add_repair_option(parser: argparse.ArgumentParser, *, what: str = "refusing the setup") -> None:
    """``--repair``: ``args.on_illegal`` becomes ``IllegalPolicy.REPAIR`` (default REFUSE)."""
    from notation.options import IllegalPolicy

    parser.add_argument(
        "--repair",
        dest="on_illegal",
        action="store_const",
        const=IllegalPolicy.REPAIR,
        default=IllegalPolicy.REFUSE,
        help="drop bad castling rights and implausible en passant squares (each reported as a warning) "
        f"instead of {what}",
    )
