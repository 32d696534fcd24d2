"""The cyclic collector while a command loads: stopped, then what loading made frozen.

Loading makes many objects that live as long as the process (modules, classes, the variant
registry, the parser) and almost no garbage, so the collector's passes over them free
nothing: the executable stops it before anything of the command line is imported
(``notation.cli.main_process``), ``notation.cli.main.main`` stops it too (for a program
that calls ``main``) and lets it run again once the command's modules have loaded.
bench_startup prints the start-up. This module imports nothing but ``gc``.
"""

import gc

_stopped_here = False  # whether pause_collector stopped the collector (resume_collector restarts it)


def pause_collector() -> None:
    """Stop the cyclic collector until ``resume_collector``; nothing if it is stopped already
    (by the caller, or by the executable before ``main`` pauses it again)."""
    global _stopped_here
    if gc.isenabled():
        gc.disable()
        _stopped_here = True


def resume_collector() -> None:
    """What loading made lives as long as the process: frozen, the collector no longer walks
    it (nor at the last collection on exit); the collector runs again if ``pause_collector``
    stopped it."""
    global _stopped_here
    gc.freeze()
    if _stopped_here:
        _stopped_here = False
        gc.enable()
