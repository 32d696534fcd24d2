"""What stops a cluster run, said in one line.

``describe`` gives the line for a ``ClusterError`` (what the command found wrong: an input,
an output, an address) and for what Dask raises when the cluster fails (a task whose
workers kept dying, a scheduler gone, a connection lost, a timeout); None for anything
else, which is a bug to be seen as one. Nothing here raises.
"""

from __future__ import annotations

import concurrent.futures

from notation.cluster import ClusterError


def describe(exc: BaseException) -> str | None:
    """The one-line message for ``exc``, or None when it is not a failure of the run."""
    if isinstance(exc, ClusterError):
        return str(exc)
    if not (type(exc).__module__.startswith("distributed.")
            or isinstance(exc, (concurrent.futures.CancelledError, TimeoutError, OSError))):
        return None
    return f"the Dask cluster failed: {type(exc).__name__}: {one_line(exc)}"


def one_line(exc: BaseException) -> str:
    """``exc``'s message on one line ("no message" when it has none or cannot make one)."""
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - an error whose message cannot be made: its name says enough
        text = ""
    return " ".join(text.split()) or "no message"
