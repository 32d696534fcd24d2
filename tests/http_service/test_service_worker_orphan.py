"""A worker whose front end died while it was starting (killed, or itself stopping) has
nobody to serve: it ends with status 0 and a line in the log, not a traceback.

The real worker module is run as the pool runs it, with the other end of its socket closed
before it can say it is ready.
"""

from __future__ import annotations

import dataclasses
import json
import socket
import subprocess
import sys

import pytest

from notation_service.config import Settings

pytestmark = [pytest.mark.slow]


def test_a_worker_whose_front_end_is_gone_ends_quietly():
    ours, theirs = socket.socketpair()
    ours.close()  # the front end is gone before the worker is ready
    settings = json.dumps(dataclasses.asdict(Settings()))
    done = subprocess.run(
        [sys.executable, "-P", "-m", "notation_service.wsgi_worker", str(theirs.fileno()), settings],
        pass_fds=[theirs.fileno()], capture_output=True, text=True, timeout=120, check=False,
    )
    theirs.close()
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "worker ends before serving" in done.stderr
