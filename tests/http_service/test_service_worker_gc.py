"""A service worker freezes what it built before its first request (``tune_collector``),
so that full collections do not walk the app again.

Run in a fresh interpreter: ``gc.freeze`` belongs to the whole process.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.slow]

PROBE = """
import gc, json
from notation_service.app import create_app
from notation_service.wsgi_worker import tune_collector
before = gc.get_freeze_count()
create_app()
tune_collector()
print(json.dumps({"before": before, "frozen": gc.get_freeze_count(), "left": len(gc.get_objects())}))
"""


def test_the_worker_freezes_what_it_built():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True)
    seen = json.loads(done.stdout)
    frozen = seen["frozen"] - seen["before"]  # Python 3.12 starts with a few hundred frozen already
    assert frozen > 1000  # the app and its imports, not a handful of objects
    assert seen["left"] < frozen // 10  # what full collections still walk
