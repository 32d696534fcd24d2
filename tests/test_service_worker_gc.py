"""A service worker sets the garbage collector for serving (``tune_collector``): what was
built before the first request is frozen, and young collections come less often.

Run in a fresh interpreter: ``gc.freeze`` and the thresholds belong to the whole process.
"""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import gc, json
from notation_service.app import create_app
from notation_service.wsgi_worker import GC_YOUNG_THRESHOLD, tune_collector
before = gc.get_threshold()
create_app()
tune_collector()
print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count(),
                  "young": GC_YOUNG_THRESHOLD}))
"""


def test_the_worker_freezes_what_it_built_and_collects_young_objects_less_often():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True)
    seen = json.loads(done.stdout)
    assert seen["after"] == [seen["young"], *seen["before"][1:]]
    assert seen["young"] > seen["before"][0]
    assert seen["frozen"] > 1000  # the app and its imports, not a handful of objects
