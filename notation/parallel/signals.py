"""How the worker processes of a pool take signals, so that they end quietly and only
when the parent stops the pool (``WorkerSignals``). Nothing here raises but what
``signal`` and ``mmap`` raise.
"""

from __future__ import annotations

import mmap
import os
import signal

from notation.signals import HANDLED


class WorkerSignals:
    """How the worker processes of a pool take signals, so that they end quietly and only
    when the parent stops the pool.

    A signal sent to the whole process group (Ctrl-C, a closed terminal, ``kill -TERM
    -PGID``) reaches the workers as well as the parent. The parent decides what happens:
    it stops the pool, cleans up and exits with the signal's status; a worker that died of
    the signal first would make the parent report a lost worker instead. So workers
    ignore SIGINT and SIGHUP, and ignore SIGTERM until the parent has called
    ``stopping()``; then the SIGTERM the parent sends ends them at once (``os._exit``: no
    traceback, no clean-up of the parent's files). Create it in the parent before the
    workers are forked, fork them with the handled signals blocked
    (``notation.signals.signals_deferred``) and call ``install()`` in each worker.

    The flag the parent sets is one byte of an anonymous shared mapping, which the forked
    workers share with the parent.
    """

    def __init__(self) -> None:
        self._stop = mmap.mmap(-1, 1)

    def install(self) -> None:
        """In a worker: the handlers above, then the signals unblocked."""

        def on_term(signo, frame) -> None:
            if self._stop[0]:
                os._exit(128 + signo)

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, on_term)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HANDLED)

    def stopping(self) -> None:
        """In the parent, just before it ends the workers: let SIGTERM end them."""
        self._stop[0] = 1
