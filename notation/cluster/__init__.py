"""Normalising and checking databases on a Dask cluster (the optional ``dask`` extra).

``connect`` reaches a scheduler (or starts a local cluster), ``files`` reads and writes
paths through fsspec (local files, ``s3://``, ``gs://``, ``az://``, ``http(s)://``, ``memory://``
where those file systems are installed), ``plan`` cuts inputs into partitions at game
starts, ``chunks`` reads a compressed input once and cuts its text into chunks at the same
points, ``window`` keeps a bounded number of tasks in flight and takes their results in
order (the ordering and the cutting into ranges are ``notation.parallel``'s, which
``--jobs`` uses; what is here is Dask's own: futures, fsspec paths, chunks sent with
their tasks), and ``normalize`` and ``check`` run the partitions on the workers and put the one
report together on the client, in input order, so the results are those of one process
(``damage`` merges what ``check``'s reading layer finds piece by piece). ``failures`` says
in one line what stopped a run.

Dask (``distributed``) and fsspec are imported only when a cluster is used; ``require``
raises ``ClusterError`` naming the extra when they are missing.
"""

from __future__ import annotations

EXTRA = "dask"
INSTALL_HINT = "pip install 'notation[dask]'"


class ClusterError(Exception):
    """What stops a run on a cluster, in one line for the user: the extra is missing, a
    scheduler cannot be reached, an input cannot be read, an output cannot be written.
    ``reason``: the message without the path, where there is one."""

    def __init__(self, message: str, reason: str | None = None):
        super().__init__(message)
        self.reason = reason or message


def require() -> None:
    """Raises ``ClusterError`` naming the extra when Dask or fsspec is not installed."""
    try:
        import distributed  # noqa: F401
        import fsspec  # noqa: F401
    except ImportError as exc:
        raise ClusterError(
            f"--dask needs the {EXTRA!r} extra ({exc.name} is not installed): {INSTALL_HINT}"
        ) from None
