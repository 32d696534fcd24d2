"""``[tool.notation]`` in a project's pyproject.toml: the CI gate's settings kept with the files.

    [tool.notation]
    variant = "crazyhouse"              # default variant of FEN/EPD lines and untagged games
    profile = "lichess"                 # positions must be written as this program writes them
    aliases = { zh960 = "crazyhouse" }  # extra variant names
    accept = ["missing-setup"]          # codes reported as warnings, not errors
    exclude = ["vendor", "*.pgn.zst"]   # paths not checked

``find_settings`` looks for pyproject.toml in a directory and its parents, stopping at the
first one found (with or without a ``[tool.notation]`` table) or at a repository's root
(a directory holding ``.git``). ``load_settings`` reads one file. Exclude patterns are
``fnmatch`` patterns matched against a path relative to the settings file's directory, each
of its parent directories, and (for a pattern without ``/``) its file name. Tables under
``[tool.notation]`` (``[tool.notation.build]``) are other tools' and ignored.

Raises ``SettingsError`` (one line naming the file) for a file that cannot be read, TOML
that cannot be parsed, an unknown key or a value of the wrong type; whether codes, profiles
and variants exist is checked by the caller, which knows them. A file that cannot name
``[tool.notation]`` (``may_name_our_table``: no ``notation`` in it) holds no settings and
is not parsed, so its TOML is not judged: it is the other tools' business.
"""


import os
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from notation.records import Record

FILE_NAME = "pyproject.toml"
KEYS = ("variant", "profile", "aliases", "accept", "exclude")


# A Python class in the compiled build too, as the package's other errors are (notation.errors).
@mypyc_attr(native_class=False)
class SettingsError(Exception):
    """A settings file that cannot be used; the message names it."""


_NO_ALIASES: Final[Mapping[str, str]] = MappingProxyType({})  # read-only: the default is shared


# A record (``notation.records``), not a NamedTuple or a frozen dataclass: every check
# defines it at start-up. A changed copy is ``settings._replace(...)``.
class CheckSettings(Record):
    """The settings of one project (all empty when there is no file)."""

    _NAMES: ClassVar = ("path", "variant", "profile", "aliases", "accept", "exclude")

    def __init__(self, path: str | None = None, variant: str | None = None, profile: str | None = None,
                 aliases: Mapping[str, str] = _NO_ALIASES, accept: tuple[str, ...] = (),
                 exclude: tuple[str, ...] = ()) -> None:
        self.path: Final = path  # the settings file (a str: no pathlib at a check's start-up)
        self.variant: Final = variant
        self.profile: Final = profile
        self.aliases: Final = aliases
        self.accept: Final = accept
        self.exclude: Final = exclude

    @property
    def root(self) -> str:
        """The directory exclude patterns are relative to (the working directory without a file)."""
        return os.path.dirname(self.path) if self.path is not None else os.getcwd()

    def excludes(self, path: str) -> bool:
        """Whether ``path`` (as the user named it or as found) matches an exclude pattern."""
        if not self.exclude:
            return False
        import fnmatch  # exclude patterns come from a settings file or --exclude

        parts = _relative_parts(path, self.root)
        prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
        for pattern in self.exclude:
            pattern = pattern.strip().rstrip("/").removeprefix("./")
            if any(fnmatch.fnmatchcase(prefix, pattern) for prefix in prefixes):
                return True
            if "/" not in pattern and any(fnmatch.fnmatchcase(part, pattern) for part in parts):
                return True
        return False


def _relative_parts(path: str, root: str) -> list[str]:
    """The names along ``path`` from ``root`` (``..`` where it climbs out), as written with
    ``/`` (``sub/zh.fen``: ``["sub", "zh.fen"]``); on another drive than ``root``, along
    ``path`` as named. With ``os.path``, not pathlib: importing pathlib (it brings
    urllib.parse) would cost a check with exclude patterns more than a game does."""
    try:
        relative = os.path.relpath(os.path.abspath(path), root)
    except ValueError:  # another drive
        relative = path
    return [part for part in relative.replace(os.sep, "/").split("/") if part not in ("", ".")]


def find_settings(start: str) -> str | None:
    """The pyproject.toml that governs ``start`` (a directory), or None. Walked with
    ``os.path``: most checks find no file, and they start up without importing pathlib."""
    directory = os.path.realpath(start)
    while True:
        found = os.path.join(directory, FILE_NAME)
        if os.path.isfile(found):
            return found
        if os.path.exists(os.path.join(directory, ".git")):
            return None
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def load_settings(path: str | None) -> CheckSettings:
    """The ``[tool.notation]`` settings of ``path`` (empty for None or a file without the
    table); raises ``SettingsError``."""
    if path is None:
        return CheckSettings()
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise SettingsError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not may_name_our_table(data):
        return CheckSettings(path=path)
    import tomllib  # here: a project whose pyproject.toml has no [tool.notation] starts up without it

    try:
        document = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML: {exc}") from None
    table = document.get("tool", {}).get("notation", {})
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: [tool.notation] must be a table")
    values = {key: value for key, value in table.items() if not isinstance(value, dict) or key == "aliases"}
    unknown = sorted(set(values) - set(KEYS))
    if unknown:
        raise SettingsError(f"{path}: [tool.notation]: unknown key(s) {', '.join(unknown)}; known: {', '.join(KEYS)}")
    return CheckSettings(
        path=path,
        variant=_text(path, values, "variant"),
        profile=_text(path, values, "profile"),
        aliases=_aliases(path, values.get("aliases", {})),
        accept=_texts(path, values, "accept"),
        exclude=_texts(path, values, "exclude"),
    )


def may_name_our_table(data: bytes) -> bool:
    """Whether a TOML document could hold ``[tool.notation]``: a key is spelled
    ``notation`` as written (bare, quoted or dotted) or through a ``\\u``/``\\U`` escape in a
    quoted key, so a file with neither has none, and is not parsed. Importing tomllib
    (with the datetime and regular expressions it loads) and parsing a project's
    pyproject.toml cost a ``check`` in a Python project more than reading its game did."""
    return b"notation" in data or b"\\u" in data or b"\\U" in data


def _text(path: str, values: dict[str, Any], key: str) -> str | None:
    value = values.get(key)
    if value is not None and not isinstance(value, str):
        raise SettingsError(f"{path}: [tool.notation] {key} must be a string")
    return value


def _texts(path: str, values: dict[str, Any], key: str) -> tuple[str, ...]:
    value = values.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise SettingsError(f"{path}: [tool.notation] {key} must be a list of strings")
    return tuple(value)


def _aliases(path: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        example = '{ zh960 = "crazyhouse" }'
        raise SettingsError(f"{path}: [tool.notation] aliases must be a table of names, e.g. {example}")
    return dict(value)
