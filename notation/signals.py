"""Ending on SIGINT, SIGTERM and SIGHUP: clean up, then exit 128 + the signal's number.

Inside ``exit_on_signals()`` the first of these signals raises ``Interrupted`` (a
``BaseException``, so ``except Exception`` does not swallow it) wherever the main thread
is; ``with`` blocks unwind and remove their temporary files, and ``main`` turns it into
the conventional exit status without a traceback. Later signals are ignored so the
clean-up itself is not interrupted. Process pools use ``WorkerSignals``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator

HANDLED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(BaseException):
    """A handled signal arrived; ``status`` is the exit status to end with (128 + signo)."""

    def __init__(self, signo: int):
        super().__init__(signal.Signals(signo).name)
        self.signo = signo

    @property
    def status(self) -> int:
        return 128 + self.signo


@contextlib.contextmanager
def exit_on_signals() -> Iterator[None]:
    """Within: the first handled signal raises ``Interrupted``; handlers restored after.
    Outside the main thread (where Python cannot set handlers) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[int] = []

    def handler(signo, frame) -> None:
        if fired:
            return
        fired.append(signo)
        raise Interrupted(signo)

    previous = {signo: signal.signal(signo, handler) for signo in HANDLED}
    try:
        yield
    finally:
        for signo, old in previous.items():
            signal.signal(signo, old)


class WorkerSignals:
    """How the worker processes of a pool take signals, so that they end quietly and only
    when the parent stops the pool.

    A signal sent to the whole process group (Ctrl-C, a closed terminal, ``kill -TERM
    -PGID``) must not kill a worker: one killed while holding the pool's task-queue lock
    leaves ``Pool.terminate`` waiting for that lock for ever. So workers ignore SIGINT and
    SIGHUP, and ignore SIGTERM until the parent has called ``stopping()``; then the SIGTERM
    of ``Pool.terminate`` ends them at once (``os._exit``: no traceback, no clean-up of the
    parent's files). Create it in the parent, create the pool inside ``signals_deferred()``
    (workers start with the signals blocked) and call ``install()`` in the worker
    initializer.
    """

    def __init__(self, context) -> None:
        self._stop = context.RawValue("b", 0)

    def install(self) -> None:
        """In a worker: the handlers above, then the signals unblocked."""
        stop = self._stop

        def on_term(signo, frame) -> None:
            if stop.value:
                os._exit(128 + signo)

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, on_term)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HANDLED)

    def stopping(self) -> None:
        """In the parent, just before ``Pool.terminate``: let SIGTERM end the workers."""
        self._stop.value = 1


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Within: the handled signals wait (blocked) until the block ends; for the few
    steps that must not be cut in two (keeping a backup, then renaming)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, HANDLED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
