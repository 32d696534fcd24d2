"""Ending on SIGINT, SIGTERM and SIGHUP: clean up, then exit 128 + the signal's number.

Inside ``exit_on_signals()`` the first of these signals raises ``Interrupted`` (a
``BaseException``, so ``except Exception`` does not swallow it) wherever the main thread
is; ``with`` blocks unwind and remove their temporary files, and ``main`` turns it into
the conventional exit status without a traceback. Later signals are ignored so the
clean-up itself is not interrupted. Process pools use ``notation.parallel.signals``.

Every command starts by installing these handlers, so they are set with ``_signal``, the
interpreter's own module that ``signal`` wraps: ``signal`` turns its constants into enums
at import (about half a millisecond of every start-up), which plain signal numbers here
do not need.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

# typing.TYPE_CHECKING without importing typing (``notation --version`` needs none of it);
# ``_signal`` has no stubs of its own: its functions and constants are ``signal``'s.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
else:
    import _signal as signal

HANDLED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_NAMES: dict[int, str] = {signal.SIGINT: "SIGINT", signal.SIGTERM: "SIGTERM", signal.SIGHUP: "SIGHUP"}


class Interrupted(BaseException):
    """A handled signal arrived; ``status`` is the exit status to end with (128 + signo)."""

    def __init__(self, signo: int):
        super().__init__(_NAMES.get(signo, f"signal {signo}"))
        self.signo = signo

    @property
    def status(self) -> int:
        return 128 + self.signo


@contextlib.contextmanager
def exit_on_signals() -> Iterator[None]:
    """Within: the first handled signal raises ``Interrupted``; handlers restored after.
    Outside the main thread (where Python cannot set handlers) it does nothing."""
    fired: list[int] = []

    def handler(signo, frame) -> None:
        if fired:
            return
        fired.append(signo)
        raise Interrupted(signo)

    try:
        previous = {signo: signal.signal(signo, handler) for signo in HANDLED}
    except ValueError:  # not the main thread (asked of signal, not threading: start-up imports no threading)
        previous = {}
    try:
        yield
    finally:
        for signo, old in previous.items():
            signal.signal(signo, old)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Within: the handled signals wait (blocked) until the block ends; for the few
    steps that must not be cut in two (keeping a backup, then renaming)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, HANDLED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
