"""How the worker processes of a pool take signals, so that they end quietly and only
when the parent stops the pool (``WorkerSignals``). Nothing here raises but what
``signal``, ``mmap`` and ``multiprocessing`` raise.
"""

from __future__ import annotations

import mmap
import os
import signal
from typing import Any

from notation.signals import HANDLED


class WorkerSignals:
    """How the worker processes of a pool take signals, so that they end quietly and only
    when the parent stops the pool.

    A signal sent to the whole process group (Ctrl-C, a closed terminal, ``kill -TERM
    -PGID``) must not kill a worker: one killed while holding the pool's task-queue lock
    leaves ``Pool.terminate`` waiting for that lock for ever. So workers ignore SIGINT and
    SIGHUP, and ignore SIGTERM until the parent has called ``stopping()``; then the SIGTERM
    of ``Pool.terminate`` ends them at once (``os._exit``: no traceback, no clean-up of the
    parent's files). Create it in the parent, create the pool inside
    ``notation.signals.signals_deferred()`` (workers start with the signals blocked) and
    call ``install()`` in the worker initializer.

    The flag the parent sets is one byte of an anonymous shared mapping, which forked
    workers share with the parent; with another start method (no ``fork``: Windows) it
    is a ``multiprocessing`` shared value, which reaches the workers pickled. (The shared
    value costs every ``--jobs`` run a few milliseconds before its workers start:
    ``ctypes`` and a shared-memory arena.)
    """

    def __init__(self, context) -> None:
        self._forked = context.get_start_method() == "fork"
        self._stop: Any = mmap.mmap(-1, 1) if self._forked else context.RawValue("b", 0)

    def _stopping(self) -> bool:
        return bool(self._stop[0] if self._forked else self._stop.value)

    def install(self) -> None:
        """In a worker: the handlers above, then the signals unblocked."""

        def on_term(signo, frame) -> None:
            if self._stopping():
                os._exit(128 + signo)

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, on_term)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HANDLED)

    def stopping(self) -> None:
        """In the parent, just before ``Pool.terminate``: let SIGTERM end the workers."""
        if self._forked:
            self._stop[0] = 1
        else:
            self._stop.value = 1
