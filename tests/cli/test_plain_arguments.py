"""notation.cli.plain_arguments: a plain command line read without argparse gives what
argparse gives, for every command; a line that is not plain is left to argparse (None).

Each command's own ``add_parser`` declares its options to both: argparse's parser (as
``notation`` builds it) and ``Declarations``. Command lines come from real use (the
README's, CI steps') and from hypothesis, which mixes each command's options, values
(good, refused, starting with ``-``), ``--opt=value``, abbreviations, joined short options,
``--``, ``--help`` and operands on either side. Whatever ``read_plainly`` reads, argparse
reads the same; whatever argparse refuses, ``read_plainly`` leaves to it.
"""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from notation.cli import main as cli_main
from notation.cli.plain_arguments import Declarations, read_plainly
from notation.cli.usage import SUMMARIES

COMMANDS = sorted(SUMMARIES)


def _declared(command: str) -> Declarations:
    declarations = Declarations()
    __import__(f"notation.cli.{command}_cmd", fromlist=["add_parser"]).add_parser(declarations)
    return declarations.commands[command]


def _argparse_reading(words: list[str]) -> dict | None:
    """What ``notation``'s argparse parser makes of ``words`` (its namespace's attributes),
    or None where it refuses them (a usage error) or prints and exits (``--help``)."""
    parser = cli_main._parser((words[0],), "left out")
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return vars(cli_main.parse_command_line(parser, words))
        except SystemExit:
            return None


def _plain_reading(words: list[str]) -> dict | None:
    read = read_plainly(words[0], _declared(words[0]), words[1:])
    return None if read is None else vars(read)


def _same_as_argparse(words: list[str]) -> dict | None:
    plain = _plain_reading(words)
    if plain is not None:
        assert plain == _argparse_reading(words), words
    return plain


# Command lines as people and CI steps write them: each is plain, and read as argparse reads it.
PLAIN_LINES = [
    ["check", "games.pgn"],
    ["check", "games.pgn", "positions.fen", "--progress", "never"],
    ["check", "--format", "json", "games/", "--strict"],
    ["check", "games.pgn", "--format=sarif", "--exclude", "old/*", "--exclude", "tmp/*", "-j", "2"],
    ["check", "-", "--stdin-format", "pgn", "--accept", "bad-castling-rights", "--variant", "crazyhouse"],
    ["convert"],
    ["convert", "--json"],
    ["convert", "--profile", "lichess", "--castling", "shredder"],
    ["convert", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "--variant", "chess960"],
    ["convert", "-i", "positions.fen", "--jobs", "2", "--repair"],
    ["validate"],
    ["validate", "--json"],
    ["validate", "--variant", "auto", "--variant-alias", "zh=crazyhouse"],
    ["validate", "--input", "a.fen", "--input", "b.fen"],
    ["normalize", "games.pgn", "--progress", "never"],
    ["normalize", "games.pgn", "-o", "out.pgn", "--moves", "uci"],
    ["normalize", "a.pgn", "b.pgn", "--moves", "san", "--duplicates", "drop"],
    ["perft", "--depth", "4"],
    ["perft", "--variant", "xiangqi", "--depth", "3"],
    ["moves", "--notation", "uci"],
    ["start", "--variant", "chess960", "--number", "518"],
    ["variants", "--json"],
    ["docs", "check"],
    ["docs"],
    ["svg", "--size", "480"],
    ["play", "e4", "e5", "Nf3"],
]


@pytest.mark.parametrize("words", PLAIN_LINES, ids=" ".join)
def test_a_plain_command_line_is_read_as_argparse_reads_it(words):
    assert _argparse_reading(words) is not None, "the table's lines are all good command lines"
    assert _same_as_argparse(words) is not None, "a plain command line is read without argparse"


# Command lines argparse must read: it prints or refuses them, or reads them in a way of its own.
LEFT_TO_ARGPARSE = [
    ["check", "--help"],
    ["check", "-h"],
    ["check"],  # PATH is required
    ["check", "games.pgn", "--format", "yaml"],  # not a choice
    ["check", "games.pgn", "--form", "json"],  # an abbreviation
    ["check", "games.pgn", "-j2"],  # a short option joined to its value
    ["check", "games.pgn", "--jobs", "two"],  # not a number
    ["check", "games.pgn", "--jobs"],  # no value
    ["check", "--exclude", "-x", "games.pgn"],  # a value starting with -
    ["check", "a.pgn", "--strict", "b.pgn"],  # operands on both sides of an option
    ["check", "--", "-odd-name.pgn"],
    ["check", "games.pgn", "--no-such-option"],
    ["check", "games.pgn", "--strict=yes"],  # a value for an option that takes none
    ["convert", "--castling="],
    ["perft", "--depth", "deep"],  # refused by the option's own type
    ["start", "--number", "960"],
    ["split", "games.pgn"],  # its required options are missing
    ["view", "--json"],  # --side is required
]


@pytest.mark.parametrize("words", LEFT_TO_ARGPARSE, ids=" ".join)
def test_what_argparse_would_say_or_read_its_own_way_is_left_to_it(words):
    assert _plain_reading(words) is None


def _words(command: str) -> st.SearchStrategy[list[str]]:
    """Command lines of ``command``: its options (with good, refused and odd values, some
    written ``--opt=value``), operands, and words argparse reads its own way."""
    declared = _declared(command)
    options = [argument for argument in declared.arguments if argument.option_strings]
    operands = st.sampled_from(["games.pgn", "-", "a b", "", "x=y", "rnbqkbnr/8 w - - 0 1", "3", "e4", "check"])

    @st.composite
    def option(draw: st.DrawFn) -> list[str]:
        argument = draw(st.sampled_from(options))
        flag = draw(st.sampled_from(argument.option_strings))
        if argument.action not in ("store", "append"):
            return [flag]
        good = [str(choice) for choice in argument.choices] if argument.choices else ["1", "2", "standard", "json", "x"]
        value = draw(st.sampled_from([*good, "0", "-1", "-x", "", "bad value", "=", "auto"]))
        if flag.startswith("--") and draw(st.booleans()):
            return [f"{flag}={value}"]
        return [flag, value]

    odd = st.sampled_from([["--"], ["--help"], ["-j2"], ["--var", "auto"], ["--unknown"], ["-x"], ["--json=1"]])
    piece = st.one_of(option(), option(), option(), operands.map(lambda word: [word]), odd)
    return st.lists(piece, max_size=7).map(lambda pieces: [command, *(word for piece in pieces for word in piece)])


@pytest.mark.parametrize("command", COMMANDS)
@settings(max_examples=examples(150))
@given(data=st.data())
def test_whatever_is_read_plainly_argparse_reads_the_same(command, data):
    words = data.draw(_words(command))
    plain = _same_as_argparse(words)
    if plain is None:
        return
    assert plain["command"] == command


@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_options_are_declared_plainly(command):
    """Every command's declarations are ones ``read_plainly`` reads (no action class, no
    ``nargs`` on an option): otherwise its every command line would take argparse."""
    assert all(argument.plain for argument in _declared(command).arguments)


def _declare_every_kind(parser) -> None:
    """Options of every kind ``read_plainly`` reads, declared with argparse's calls (the
    commands' own use only some of them)."""
    parser.add_argument("first", metavar="FIRST")
    parser.add_argument("rest", nargs="?", default="7", type=int)
    parser.add_argument("--level", type=int, default="3")  # a string default goes through the type
    parser.add_argument("--name", default="plain")
    parser.add_argument("--tag", action="append", choices=["a", "b", "c"])
    parser.add_argument("--mark", action="append_const", const="marked", dest="tag")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    parser.add_argument("--fast", action="store_const", const="fast", dest="speed")
    parser.add_argument("--off", action="store_false", dest="on")
    parser.set_defaults(speed="slow", later=True)
    either = parser.add_mutually_exclusive_group()
    either.add_argument("--left", action="store_true")
    either.add_argument("--right", action="store_true")
    group = parser.add_argument_group("more")
    group.add_argument("--size", type=float, default=1.5)


def _every_kind_by_argparse(words: list[str]) -> dict | None:
    import argparse

    parser = argparse.ArgumentParser(prog="every")
    _declare_every_kind(parser)
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            args, unknown = parser.parse_known_args(words)
        except SystemExit:
            return None
    return None if unknown else vars(args)


def _every_kind_plainly(words: list[str]) -> dict | None:
    declarations = Declarations()
    _declare_every_kind(declarations)
    read = read_plainly("every", declarations, words)
    if read is None:
        return None
    values = vars(read)
    assert values.pop("command") == "every"
    return values


@pytest.mark.parametrize("words", [
    ["x"],
    ["x", "9", "--level", "4", "--tag", "b", "--mark", "-v", "-v", "--verbose"],
    ["--fast", "--off", "x", "--left", "--size", "2.25", "--name=other"],
    ["x", "--right", "--tag=c", "--tag", "a"],
])
def test_every_kind_of_option_is_read_as_argparse_reads_it(words):
    plain = _every_kind_plainly(words)
    assert plain is not None
    assert plain == _every_kind_by_argparse(words)


@pytest.mark.parametrize("words", [
    ["x", "--left", "--right"],  # one group, two options
    ["x", "--level", "high"],
    ["x", "--tag", "d"],
    ["x", "1", "2"],  # one operand too many
    [],  # FIRST is required
])
def test_what_argparse_refuses_of_every_kind_is_left_to_it(words):
    assert _every_kind_by_argparse(words) is None
    assert _every_kind_plainly(words) is None


@settings(max_examples=examples(400))
@given(words=st.lists(st.sampled_from([
    "x", "5", "-", "", "--level", "2", "--level=8", "--name", "n", "--tag", "a", "c", "d", "--tag=b", "--mark", "-v",
    "--verbose", "--fast", "--off", "--left", "--right", "--size", "0.5", "--size=1e3", "--lev", "-v2", "--",
]), max_size=9))
def test_every_kind_read_plainly_is_read_as_argparse_reads_it(words):
    plain = _every_kind_plainly(words)
    if plain is not None:
        assert plain == _every_kind_by_argparse(words), words
