"""The ``notation`` command line: one module per subcommand (``*_cmd.py``), the parser and
the dispatch in ``main``.

``main_process`` is the executable's entry point (``[project.scripts]``, ``python -m
notation``). It stops the cyclic collector before anything of the command line is imported
(``main`` lets it run again once the command's modules have loaded: ``collector``), and,
where a command line is not plain and argparse reads it (``plain_arguments``), has argparse
take its own words as written, without importing gettext (``_argparse_words_as_written``).
Until it calls ``main``, this module imports nothing but ``collector``, which imports
``gc``, and ``sys``, which the interpreter has loaded already.
"""

import sys

from notation.cli.collector import pause_collector

# typing.TYPE_CHECKING without importing typing (the entry point loads nothing it can spare).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn


def main_process() -> "NoReturn":
    """Run the command ``sys.argv`` names, the collector paused while it loads, and end the
    process with its status (``notation.cli.main.main_process``). A Ctrl-C while the command
    line module loads ends with 130 and no traceback, as one while the command's own modules
    load does (``main``)."""
    pause_collector()
    try:
        from notation.cli.main import main_process as run_command
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    run_command(_argparse_words_as_written)


def _argparse_words_as_written() -> None:
    """argparse has gettext translate each of its own words (its groups' titles, ``-h``'s
    help, its errors), and each lookup searches the environment's languages for a message
    catalogue; the first one imports ``locale``. Python ships no catalogue of argparse's
    words, so none is found and they are used as written. The executable uses them as
    written without the search, and without loading gettext (whose module compiles a
    regular expression of plural forms as it loads): argparse is imported with a stand-in
    for gettext holding the two functions argparse takes from it, each doing what gettext
    does when no catalogue is found, and the stand-in leaves ``sys.modules`` as soon as
    argparse has them, so that a later ``import gettext`` loads gettext itself. Where
    argparse or gettext was loaded before (by a ``sitecustomize``, say), or where argparse
    asks gettext for more than the stand-in holds, argparse's two names are replaced."""
    if "argparse" not in sys.modules and "gettext" not in sys.modules:
        stand_in = type(sys)("gettext")
        stand_in.gettext = _as_written  # type: ignore[attr-defined]
        stand_in.ngettext = _as_written_plural  # type: ignore[attr-defined]
        sys.modules["gettext"] = stand_in
        try:
            import argparse
        except ImportError:  # an argparse that takes more from gettext: loaded with gettext itself
            pass
        finally:
            del sys.modules["gettext"]
    import argparse

    argparse._ = _as_written  # type: ignore[attr-defined]
    argparse.ngettext = _as_written_plural  # type: ignore[attr-defined]


def _as_written(message: str) -> str:
    return message


def _as_written_plural(singular: str, plural: str, count: int) -> str:
    """What gettext gives when no catalogue is found (``NullTranslations.ngettext``)."""
    return singular if count == 1 else plural
