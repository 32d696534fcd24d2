"""A command's plain command line read without argparse, as argparse reads it.

Importing argparse and building a command's parser is a share of a one-line ``notation
convert``'s or a one-game ``notation check``'s start-up (bench_startup) that reading a few
words does not need, and nearly every command line a CI step or a shell loop runs is
plain: the command, its options written out in full (``--format json``,
``--format=json``, ``-j 2``) and its operands. So a command's
``add_parser`` is first given ``Declarations`` in argparse's stead: it declares its options
with argparse's own calls (``add_parser``, ``add_argument``, ``add_argument_group``,
``add_mutually_exclusive_group``, ``set_defaults``), nothing more is made, and
``read_plainly`` reads the command line from what was declared, giving the values argparse
gives (the same defaults, types, choices, ``store``/``append``/``count`` actions and
operand counts).

Where argparse would say anything, or where its reading is not plain, ``read_plainly``
gives None and ``notation.cli.main`` asks argparse itself, which reads it as it always did:
``--help`` and ``--version``, an unknown or abbreviated option (``--var``), a short option
joined to its value (``-j2``), ``--``, a value that starts with ``-``, a value argparse
would refuse (its type or its choices), an operand missing or one too many, operands on
both sides of an option, two options of one mutually exclusive group, a required option left
out, and every action or ``nargs`` not named above. tests/cli/test_plain_arguments.py
holds every command's readings to argparse's. Nothing here raises; a type function's own
error is argparse's to report.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

SUPPRESS = "==SUPPRESS=="  # argparse.SUPPRESS: an action that puts nothing in the namespace
# What each kind of operand takes, as argparse's regular expressions of "A"s (one per word).
_OPERAND_PATTERNS = {None: "(A)", "?": "(A?)", "*": "(A*)", "+": "(A+)"}
# The actions read here: those that take a value, and those that take none (with the value they store).
_TAKING_A_VALUE = frozenset({"store", "append"})
_TAKING_NONE = frozenset({"store_const", "store_true", "store_false", "append_const", "count"})
_SAYING = frozenset({"help", "version"})  # argparse prints and exits: left to it when given


class _Argument:
    """One ``add_argument`` call, as argparse reads its keywords; ``plain`` is False for
    what ``read_plainly`` leaves to argparse (an action class, an ``nargs`` on an option)."""

    def __init__(self, flags: tuple[str, ...], keywords: dict[str, Any], defaults: dict[str, Any]) -> None:
        self.option_strings = flags if flags and flags[0].startswith("-") else ()
        action = keywords.get("action")
        self.action = "store" if action is None else action
        self.nargs = keywords.get("nargs")
        if self.option_strings:
            long = [flag for flag in flags if flag.startswith("--")]
            self.dest: str = keywords.get("dest") or (long or list(flags))[0].lstrip("-").replace("-", "_")
        else:
            self.dest = keywords.get("dest") or (flags[0] if flags else "")
        self.const = keywords.get("const")
        default: Any
        if self.action == "store_true":
            self.const, default = True, False
        elif self.action == "store_false":
            self.const, default = False, True
        elif self.action in _SAYING:
            default = SUPPRESS
        else:
            default = None
        if "default" in keywords:
            default = keywords["default"]
        elif self.dest in defaults:
            default = defaults[self.dest]
        self.default = default
        self.type: Callable[[str], Any] | None = keywords.get("type")
        self.choices = keywords.get("choices")
        self.required = bool(keywords.get("required", not self.option_strings and self.nargs not in ("?", "*")))
        if not self.option_strings and self.nargs == "*" and "default" not in keywords:
            self.required = True  # argparse's own rule; such an operand always has its words
        if self.option_strings:
            known = self.action in _TAKING_A_VALUE or self.action in _TAKING_NONE or self.action in _SAYING
            self.plain = known and self.nargs is None and (self.type is None or callable(self.type))
        else:
            self.plain = self.action == "store" and self.nargs in _OPERAND_PATTERNS


class Declarations:
    """What a command's ``add_parser`` declares, in argparse's calls: the parser
    (``add_argument``, ``set_defaults``, groups) and its ``subparsers`` (``add_parser``)."""

    def __init__(self) -> None:
        self.arguments: list[_Argument] = []
        self.defaults: dict[str, Any] = {}
        self.exclusive_groups: list[tuple[list[_Argument], bool]] = []  # (its arguments, required)
        self.commands: dict[str, Declarations] = {}
        self.add_argument("-h", "--help", action="help")  # argparse's own, on every parser

    # the subparsers' call
    def add_parser(self, name: str, **keywords: Any) -> Declarations:
        command = Declarations()
        self.commands[name] = command
        return command

    # the parser's calls
    def add_argument(self, *flags: str, **keywords: Any) -> _Argument:
        argument = _Argument(flags, keywords, self.defaults)
        self.arguments.append(argument)
        return argument

    def set_defaults(self, **defaults: Any) -> None:
        self.defaults.update(defaults)
        for argument in self.arguments:
            if argument.dest in defaults:
                argument.default = defaults[argument.dest]

    def add_argument_group(self, *args: Any, **keywords: Any) -> Declarations:
        return self  # a group's arguments are its parser's

    def add_mutually_exclusive_group(self, *, required: bool = False) -> _ExclusiveGroup:
        group = _ExclusiveGroup(self)
        self.exclusive_groups.append((group.arguments, required))
        return group


class _ExclusiveGroup:
    """``add_mutually_exclusive_group``'s group: its arguments are its parser's too."""

    def __init__(self, declarations: Declarations) -> None:
        self._declarations = declarations
        self.arguments: list[_Argument] = []

    def add_argument(self, *flags: str, **keywords: Any) -> _Argument:
        argument = self._declarations.add_argument(*flags, **keywords)
        self.arguments.append(argument)
        return argument


class _NotPlain(Exception):
    """Raised inside ``read_plainly`` where argparse must read the command line."""


def read_plainly(command: str, declarations: Declarations, words: Sequence[str]) -> SimpleNamespace | None:
    """The namespace argparse's ``parse_args`` gives for ``command`` followed by ``words``
    (``command`` included, as the subparsers' ``dest``), or None where argparse must read
    them (module doc). Never raises: a type function that raises gives None too."""
    if not all(argument.plain for argument in declarations.arguments):
        return None
    try:
        return SimpleNamespace(command=command, **_read(declarations, words))
    except _NotPlain:
        return None
    except Exception:  # noqa: BLE001 - a type function's error: argparse reports it
        return None


def _read(declarations: Declarations, words: Sequence[str]) -> dict[str, Any]:
    """The values of ``words`` by dest; raises _NotPlain."""
    options: dict[str, _Argument] = {}
    for argument in declarations.arguments:
        for flag in argument.option_strings:
            options[flag] = argument
    values: dict[str, Any] = {}
    for argument in declarations.arguments:
        if argument.dest != SUPPRESS and argument.dest not in values and not _suppressed(argument.default):
            values[argument.dest] = argument.default
    for dest, default in declarations.defaults.items():
        values.setdefault(dest, default)
    seen: list[_Argument] = []
    operands: list[str] = []
    operands_closed = False  # an option came after operands: more operands are not plain
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if not word.startswith("-") or word == "-":
            if operands_closed:
                raise _NotPlain
            operands.append(word)
            continue
        operands_closed = bool(operands)
        exact = options.get(word)
        if exact is None:
            flag, _, joined = word.partition("=")
            given_to = options.get(flag) if word.startswith("--") and joined else None
            if given_to is None or given_to.action not in _TAKING_A_VALUE:
                raise _NotPlain  # unknown or abbreviated, or a value for an option that takes none
            _take(given_to, values, _value(given_to, joined))
            seen.append(given_to)
            continue
        argument = exact
        if argument.action in _TAKING_NONE:
            _take(argument, values, argument.const)
        elif argument.action in _TAKING_A_VALUE:
            if index == len(words) or (words[index].startswith("-") and words[index] != "-"):
                raise _NotPlain
            _take(argument, values, _value(argument, words[index]))
            index += 1
        else:
            raise _NotPlain  # --help, --version
        seen.append(argument)
    for argument, share in zip(_operands(declarations), _shares(declarations, len(operands)), strict=True):
        _take_operand(argument, values, operands[share.start : share.stop])
        seen.append(argument)
    for group, required in declarations.exclusive_groups:
        chosen = {id(argument) for argument in seen if argument in group}
        if len(chosen) > 1 or (required and not chosen):
            raise _NotPlain
    for argument in declarations.arguments:
        if argument in seen:
            continue
        if argument.required:
            raise _NotPlain
        if isinstance(argument.default, str) and argument.dest in values and values[argument.dest] is argument.default:
            values[argument.dest] = _converted(argument, argument.default)
    return values


def _operands(declarations: Declarations) -> list[_Argument]:
    return [argument for argument in declarations.arguments if not argument.option_strings]


def _shares(declarations: Declarations, count: int) -> list[range]:
    """The operand words each operand argument takes, as argparse's greedy match of their
    patterns shares ``count`` words among them; raises _NotPlain where argparse would leave
    words over or an argument that needs words without."""
    arguments = _operands(declarations)
    pattern = "".join(_OPERAND_PATTERNS[argument.nargs] for argument in arguments)
    match = re.fullmatch(pattern, "A" * count)
    if match is None:
        raise _NotPlain
    return [range(match.start(group), match.end(group)) for group in range(1, len(arguments) + 1)]


def _take(argument: _Argument, values: dict[str, Any], value: Any) -> None:
    """What the option's action does with ``value`` (its const for one that takes none)."""
    if argument.action in ("append", "append_const"):
        values[argument.dest] = [*(values.get(argument.dest) or ()), value]
    elif argument.action == "count":
        values[argument.dest] = (values.get(argument.dest) or 0) + 1
    else:
        values[argument.dest] = value


def _take_operand(argument: _Argument, values: dict[str, Any], given: list[str]) -> None:
    """The operand's value from its words, as argparse's ``_get_values`` makes it."""
    if argument.nargs is None:
        values[argument.dest] = _value(argument, given[0])
    elif argument.nargs == "?":
        if given:
            values[argument.dest] = _value(argument, given[0])
        elif isinstance(argument.default, str):
            values[argument.dest] = _value(argument, argument.default)
        else:
            values[argument.dest] = argument.default
    elif not given and argument.nargs == "*":
        if argument.choices is not None:
            raise _NotPlain
        values[argument.dest] = given if argument.default is None else argument.default
    else:
        values[argument.dest] = [_value(argument, word) for word in given]


def _value(argument: _Argument, word: str) -> Any:
    """``word`` converted by the argument's type and found among its choices; raises
    _NotPlain (or the type's own error) where argparse would refuse it."""
    value = _converted(argument, word)
    if argument.choices is not None and value not in argument.choices:
        raise _NotPlain
    return value


def _converted(argument: _Argument, word: str) -> Any:
    return word if argument.type is None else argument.type(word)


def _suppressed(default: Any) -> bool:
    return isinstance(default, str) and default == SUPPRESS
