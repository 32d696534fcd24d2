"""A real headless Chromium (Debian's ``chromium`` with ``chromedriver``) driven by Selenium,
and ``notation serve`` on a free loopback port for it to open. For tests/http_service/test_page_browser.py.

``chromium_or_skip`` skips, saying what is missing, only when no browser or driver can be
found (``NOTATION_CHROMIUM`` / ``NOTATION_CHROMEDRIVER`` name them where they are not on
``PATH``). Screenshots go to ``tests/artifacts/`` (``ARTIFACTS``), left for a person to look at.
"""

from __future__ import annotations

import http.client
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import pytest

ARTIFACTS = pathlib.Path(__file__).resolve().parent / "artifacts"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PAGE_TIMEOUT = 60  # seconds for any one state of the page to appear (a shared, busy machine)


def find_chromium() -> tuple[str, str] | None:
    """(browser, driver) paths, or ``None`` when either cannot be found."""
    browser = os.environ.get("NOTATION_CHROMIUM") or next(filter(None, map(shutil.which, BROWSERS)), None)
    driver = os.environ.get("NOTATION_CHROMEDRIVER") or shutil.which("chromedriver")
    if driver is None and os.path.exists("/usr/lib/chromium/chromedriver"):
        driver = "/usr/lib/chromium/chromedriver"
    if browser is None or driver is None:
        return None
    return browser, driver


def chromium_or_skip() -> tuple[str, str]:
    found = find_chromium()
    if found is None:
        pytest.skip(
            "browser tests skipped: no chromium and chromedriver found on PATH "
            "(apt-get install chromium chromium-driver, as .ci/run does, or set NOTATION_CHROMIUM "
            "and NOTATION_CHROMEDRIVER)"
        )
    try:
        import selenium  # noqa: F401
    except ImportError:
        pytest.skip("browser tests skipped: the selenium package is not installed (it is in the dev extra)")
    return found


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


def serve(**settings: str) -> Iterator[str]:
    """``notation serve`` on a free port; yields its base URL, stops it with SIGTERM and
    expects exit status 0. Under ``make test`` (``NOTATION_INSTALLED_TEST``) it is the
    installed package (its page assets as installed); elsewhere ``PYTHONPATH`` is kept, so
    that a run from the sources serves the sources. ``settings`` are environment variables
    for it (``NOTATION_MAX_BODY_BYTES="1000"``)."""
    port = free_port()
    env = {**os.environ, "NOTATION_LOG_LEVEL": "warning", "PORT": "1", **settings}
    if os.environ.get("NOTATION_INSTALLED_TEST"):
        env.pop("PYTHONPATH", None)
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "notation", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"],
            env=env, stdout=log, stderr=log, text=True, cwd=tempfile.gettempdir(),
        )
        try:
            deadline = time.monotonic() + 60
            while not _healthy(port):
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise AssertionError(f"notation serve did not come up: {log.read()}")
                time.sleep(0.2)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.seek(0)
        assert process.returncode == 0, log.read()


def start_chromium(browser: str, driver: str):
    """A headless Chromium session that keeps the page's console messages."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1400", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    os.environ.setdefault("SE_OFFLINE", "true")  # never let Selenium Manager fetch a driver
    session = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    session.set_page_load_timeout(PAGE_TIMEOUT)
    session.set_script_timeout(PAGE_TIMEOUT)
    return session


def screenshot(session, name: str) -> pathlib.Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    session.save_screenshot(str(path))
    return path
