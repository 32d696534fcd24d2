"""The duplicate options ``normalize`` and ``check`` take (``notation.pgn.duplicates``).

``notation.pgn.duplicates`` (its option enums and settings) is loaded where a parser of
``normalize`` is built or the options are read: ``check`` without ``--duplicates`` and
``--duplicates-by`` starts up without it (tests/project/test_startup_imports.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.cli.usage import UsageError

if TYPE_CHECKING:
    import argparse

    from notation.pgn.duplicates import DuplicateSettings, DuplicatesPolicy

_TAGS_HELP = ("tags that must be equal too for two games to be copies (White,Black,Date); the default is the "
              "variant, start position and main-line moves alone")
_BY_HELP = (_TAGS_HELP + ". The word prefix among them: a game whose main line is the start of a longer one's is a "
            "copy of it, and the longest is kept (the whole input is read before anything is written; standard "
            "input is copied to a temporary file)")


def add_normalize_options(parser: argparse.ArgumentParser) -> None:
    from notation.pgn.duplicates import DuplicatesPolicy, MergeTags

    parser.add_argument(
        "--duplicates", choices=[p.value for p in DuplicatesPolicy], default=DuplicatesPolicy.KEEP.value,
        help="later copies of a game (the same variant, start position without its move counters and main line, "
        "whatever notation or language the moves are in; tags, comments and variations may differ): keep "
        "(default: not looked for), drop (left out, the first in input order kept) or mark (kept); both report "
        "duplicate-game naming the first copy's line and game number",
    )
    parser.add_argument("--duplicates-by", metavar="TAG,...", default="", help=_BY_HELP)
    parser.add_argument(
        "--merge-tags", action="store_const", const=MergeTags.MISSING.value, default=MergeTags.NONE.value,
        help="with --duplicates drop: the game kept takes the tags it lacks from the copies dropped (the first "
        "value in input order; another value in a later copy is a duplicate-tag-conflict warning); the whole "
        "input is read before anything is written",
    )


def add_identity_options(parser: argparse.ArgumentParser) -> None:
    from notation.pgn.duplicates import IdentityFrom

    parser.add_argument(
        "--add-tags", metavar="TAG,...", default="",
        help="write into every game with an identity: plycount, a PlyCount tag (its main line's plies); gameid, a "
        "NotationId tag (the identity: 32 hex digits of a digest of the variant, the start without its move counters "
        "and the main-line moves, whatever their notation). A tag already there gets the value; a new one goes "
        "after the last tag line",
    )
    parser.add_argument(
        "--identity-from", choices=[i.value for i in IdentityFrom], default=IdentityFrom.MOVES.value,
        help="with --duplicates: moves (default) reads every game's main line; tag takes a game's NotationId tag "
        "(written by --add-tags gameid) where it has one, its moves unread: fast, and as right as the tags are",
    )


def add_check_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--duplicates", action="store_true",
        help="report each later copy of a game (duplicate-game, a warning, naming the first copy's file, line and "
        "game number), across all the files checked: the same variant, start and main line",
    )
    parser.add_argument("--duplicates-by", metavar="TAG,...", default="", help=_TAGS_HELP + (
        ". The word prefix among them: a game whose main line is the start of a longer one's is reported too, "
        "naming the longest, which is kept (every PGN file is read once more first; not standard input)"))


def check_settings_from(args: argparse.Namespace) -> DuplicateSettings | None:
    """``check``'s settings: ``--duplicates`` (a flag: later copies are reported, as
    ``normalize --duplicates mark`` does) and ``--duplicates-by``; None where neither is
    given (``notation.pgn.duplicates`` is not loaded). Raises as ``settings_from``."""
    if not args.duplicates and not args.duplicates_by:
        return None
    from notation.pgn.duplicates import DuplicatesPolicy

    return settings_from(args, "", DuplicatesPolicy.MARK if args.duplicates else DuplicatesPolicy.KEEP)


def settings_from(args: argparse.Namespace, source: str, policy: DuplicatesPolicy | None = None) -> DuplicateSettings:
    """The settings the arguments ask for, ``source`` the input's name in messages, the
    policy ``policy`` or else ``args.duplicates``' (``normalize``'s word); raises
    ``UsageError`` for a bad tag list or ``--duplicates-by`` without ``--duplicates``."""
    from notation.pgn.duplicates import (
        AddedTag,
        DuplicateMatch,
        DuplicateSettings,
        DuplicatesPolicy,
        IdentityFrom,
        MergeTags,
        parse_by_tags,
    )

    try:
        by_tags, match = parse_by_tags(args.duplicates_by)
    except ValueError as exc:
        raise UsageError(f"--duplicates-by: {exc}") from None
    policy = DuplicatesPolicy(args.duplicates) if policy is None else policy
    if (by_tags or match is DuplicateMatch.PREFIX) and policy is DuplicatesPolicy.KEEP:
        raise UsageError("--duplicates-by needs --duplicates")
    merge = MergeTags(getattr(args, "merge_tags", MergeTags.NONE.value))
    identity_from = IdentityFrom(getattr(args, "identity_from", IdentityFrom.MOVES.value))
    if identity_from is IdentityFrom.TAG and match is DuplicateMatch.PREFIX:
        raise UsageError("--identity-from tag cannot find prefixes: a prefix's digest needs its moves")
    added: list[AddedTag] = []
    for name in getattr(args, "add_tags", "").split(","):
        if name.strip():
            try:
                added.append(AddedTag(name.strip().lower()))
            except ValueError:
                raise UsageError(f"--add-tags: {name.strip()!r} is not one of "
                                 f"{', '.join(a.value for a in AddedTag)}") from None
    if merge is not MergeTags.NONE and policy is not DuplicatesPolicy.DROP:
        raise UsageError("--merge-tags needs --duplicates drop: the copies whose tags are taken are left out")
    in_order = tuple(a for a in AddedTag if a in added)
    return DuplicateSettings(policy, by_tags, source, match=match, merge=merge, add_tags=in_order,
                             identity_from=identity_from)


def refuse_repeated(names: list[str]) -> None:
    """Raises ``UsageError`` for an input named twice with ``--duplicates``: copies are told
    apart by their input's name, line and number, so each game would be its own copy."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise UsageError(f"--duplicates: INPUT {name!r} is named twice: copies are told apart by their input's "
                             "name, line and game number, so each of its games would be its own copy")
        seen.add(name)
