"""How the worker processes of a pool take signals, so that they end quietly and only
when the parent stops the pool (``WorkerSignals``). Nothing here raises but what
``signal`` and ``multiprocessing`` raise.
"""

from __future__ import annotations

import os
import signal

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
