"""The page at ``/`` and Swagger UI at ``/docs`` in a real headless Chromium, served by
``notation serve`` of the installed package. Each state is photographed into
tests/artifacts/ (left there for a person to look at); no test may leave a console error.
"""

from __future__ import annotations

import json
import pathlib
import urllib.parse

import pytest
import yaml
from browser import PAGE_TIMEOUT, chromium_or_skip, screenshot, serve, start_chromium

ROOT = pathlib.Path(__file__).resolve().parents[1]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CRAZYHOUSE = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"  # 1. e4 d5 2. exd5 Qxd5
BROKEN = "rnbqkbnr/ppxppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # 'x' at column 12
TWO_KINGS = "4k3/8/8/8/8/8/8/4KK2 w - - 0 1"
HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


@pytest.fixture(scope="module")
def base_url():
    chromium_or_skip()
    yield from serve()


@pytest.fixture(scope="module")
def browser(base_url):
    session = start_chromium(*chromium_or_skip())
    try:
        yield session
    finally:
        session.quit()


@pytest.fixture
def page(browser, base_url, request):
    """The browser; after the test, no console message of level SEVERE may have been logged."""
    browser.get_log("browser")  # drop what earlier tests left
    yield browser
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    if errors:
        screenshot(browser, f"{request.node.name}-console-errors")
    assert errors == [], errors


def wait_for(session, condition, what: str):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(session, PAGE_TIMEOUT, poll_frequency=0.1).until(condition, message=f"waiting for {what}")


def labelled(session, text: str):
    """The control whose <label> says ``text`` (as assistive technology finds it)."""
    from selenium.webdriver.common.by import By

    label = session.find_element(By.XPATH, f"//label[normalize-space()='{text}']")
    return session.find_element(By.ID, label.get_attribute("for"))


def open_page(session, base_url: str, query: str = "") -> None:
    session.get(base_url + "/" + query)
    wait_for(session, lambda s: s.execute_script("return document.body.dataset.ready === 'true'"), "the page to start")


def show(session, fen: str, variant: str = "auto") -> None:
    """Type ``fen`` and ``variant`` into their labelled fields and wait until the page shows them."""
    field = labelled(session, "Variant")
    field.clear()
    field.send_keys(variant)
    field = labelled(session, "FEN")
    field.clear()
    field.send_keys(fen)
    wait_for(session, lambda s: s.execute_script("return document.body.dataset.shownFen") == fen, f"{fen!r} shown")


def board_pieces(session) -> dict[str, str]:
    return session.execute_script(
        "const out = {};"
        "for (const p of document.querySelectorAll('#board g.pieces g.piece')) out[p.dataset.square] = p.dataset.piece;"
        "return out;"
    )


def test_page_loads_with_its_labelled_controls_and_draws_the_start(page, base_url):
    open_page(page, base_url)
    screenshot(page, "page-start")
    assert labelled(page, "FEN").get_attribute("value") == START
    assert labelled(page, "Variant").get_attribute("value") == "auto"
    pieces = board_pieces(page)
    assert len(pieces) == 32
    assert pieces["e1"] == "K" and pieces["d8"] == "q"
    assert page.execute_script("return document.querySelector('#problems').children.length") == 0
    rows = page.execute_script(
        "return [...document.querySelectorAll('#profiles tbody tr')]"
        ".map(r => [r.dataset.profile, r.querySelector('output').textContent])"
    )
    spec = yaml.safe_load((ROOT / "service" / "openapi.yaml").read_text(encoding="utf-8"))
    assert [name for name, _ in rows] == spec["components"]["schemas"]["Profile"]["enum"]
    assert dict(rows)["lichess"] == START


def test_typing_a_fen_draws_its_board_and_guesses_the_variant(page, base_url):
    open_page(page, base_url)
    show(page, CRAZYHOUSE)
    screenshot(page, "page-crazyhouse")
    assert "Crazyhouse" in page.find_element("id", "variant-used").text
    pieces = board_pieces(page)
    assert pieces["d5"] == "q" and pieces["e1"] == "K" and "e2" not in pieces
    pockets = page.execute_script(
        "return [...document.querySelectorAll('#board g.pocket')].map(g => g.dataset.pocket)"
    )
    assert pockets == ["p", "p"]
    assert page.execute_script("return document.querySelector('#board g.turn').dataset.turn") == "w"
    assert page.execute_script("return document.querySelectorAll('#problems li').length") == 0
    dialect = page.execute_script("return document.querySelector('#dialect dd[data-name=pockets]').textContent")
    assert dialect == "bracketed"


@pytest.mark.parametrize(
    ("fen", "guessed", "square", "piece"),
    [
        ("rnbqkbnr/gggggggg/pppppppp/8/8/PPPPPPPP/GGGGGGGG/RNBQKBNR w KQkq - 0 1", "Grasshopper", "a2", "G"),
        ("rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1", "Knightmate", "b1", "M"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3 0 1", "Three-check", "e1", "K"),
        ("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", "Racing Kings", "h2", "K"),
    ],
)
def test_auto_guesses_the_variant_from_the_fen(page, base_url, fen, guessed, square, piece):
    open_page(page, base_url)
    show(page, fen)
    assert page.find_element("id", "variant-used").text == f"Guessed: {guessed}."
    assert board_pieces(page)[square] == piece
    assert page.execute_script("return document.querySelectorAll('#problems li').length") == 0
    options = page.execute_script("return [...document.querySelectorAll('#variant-list option')].map(o => o.value)")
    assert {"auto", guessed, "ZH", "KOTH"} <= set(options)  # names and aliases to pick from


def test_a_broken_fen_marks_its_column_and_lists_its_problem(page, base_url):
    open_page(page, base_url)
    show(page, BROKEN, "standard")
    screenshot(page, "page-broken-fen")
    mark = page.find_element("css selector", "#fen-marked mark.column")
    assert mark.get_attribute("data-column") == "12"
    assert mark.text == "x"
    codes = page.execute_script("return [...document.querySelectorAll('#problems li')].map(li => li.dataset.code)")
    assert codes == ["fen-syntax"]
    assert "column 12" in page.find_element("css selector", "#problems li").text
    assert labelled(page, "FEN").get_attribute("aria-invalid") == "true"
    assert board_pieces(page) == {}  # nothing to draw


def test_an_illegal_fen_highlights_the_squares_its_problem_names(page, base_url):
    open_page(page, base_url)
    show(page, TWO_KINGS, "Chess")  # an alias
    screenshot(page, "page-illegal-fen")
    codes = page.execute_script("return [...document.querySelectorAll('#problems li')].map(li => li.dataset.code)")
    assert codes == ["too-many-kings"]
    marked = page.execute_script(
        "return [...document.querySelectorAll('#board .highlight.problem')].map(e => e.dataset.square).sort()"
    )
    assert marked == ["e1", "f1"]
    row = page.execute_script("return document.querySelector('#profiles tr[data-profile=lichess] output').textContent")
    assert "too-many-kings" in row


def test_copy_buttons_copy(page, base_url):
    open_page(page, base_url)
    page.execute_cdp_cmd(
        "Browser.grantPermissions",
        {"origin": base_url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]},
    )
    show(page, CRAZYHOUSE)
    for profile in ("lichess", "xboard"):
        expected = page.execute_script(f"return document.querySelector('#profile-{profile}').textContent")
        button = page.find_element("css selector", f"button[aria-label='Copy {profile} FEN']")
        button.click()
        wait_for(page, lambda s, e=expected: s.find_element("id", "status").text == f"Copied: {e}", "the copy")
        copied = page.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.clipboard.readText().then(done, e => done('failed: ' + e.message));"
        )
        assert copied == expected
    screenshot(page, "page-copied")


def test_the_keyboard_alone_flips_the_board_and_the_share_link_keeps_it(page, base_url):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    open_page(page, base_url)
    show(page, TWO_KINGS, "standard")
    labelled(page, "FEN").click()
    for _ in range(10):  # FEN -> Variant -> Flip board, however the page orders them
        if page.execute_script("return document.activeElement.id") == "flip":
            break
        ActionChains(page).send_keys(Keys.TAB).perform()
    assert page.execute_script("return document.activeElement.id") == "flip"
    before = page.execute_script("return document.querySelector('#board svg').outerHTML")
    ActionChains(page).send_keys(Keys.SPACE).perform()
    wait_for(page, lambda s: s.find_element("id", "flip").get_attribute("aria-pressed") == "true", "the flip")
    wait_for(page, lambda s: s.execute_script("return document.querySelector('#board svg').outerHTML") != before,
             "the flipped board")
    screenshot(page, "page-flipped")
    x = page.execute_script(
        "const x = s => +document.querySelector(`#board g.squares [data-square=${s}]`).getAttribute('x');"
        "return [x('a1'), x('h1')];"
    )
    assert x[0] > x[1]  # a1 on the right: Black's view
    link = page.find_element("id", "share-link").get_attribute("href")
    query = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)
    assert query == {"fen": [TWO_KINGS], "variant": ["standard"], "orientation": ["black"]}
    page.get(link)
    wait_for(page, lambda s: s.execute_script("return document.body.dataset.shownFen") == TWO_KINGS, "the shared FEN")
    assert labelled(page, "FEN").get_attribute("value") == TWO_KINGS
    assert page.find_element("id", "flip").get_attribute("aria-pressed") == "true"
    screenshot(page, "page-shared-link")


def test_docs_list_every_endpoint(page, base_url):
    spec = yaml.safe_load((ROOT / "service" / "openapi.yaml").read_text(encoding="utf-8"))
    expected = sorted(
        (method.upper(), path) for path, item in spec["paths"].items() for method in item if method in HTTP_METHODS
    )
    page.get(base_url + "/docs")

    def operations(session):
        found = session.execute_script(
            "return [...document.querySelectorAll('.opblock')].map(b => ["
            "b.querySelector('.opblock-summary-method').textContent,"
            "b.querySelector('.opblock-summary-path').dataset.path])"
        )
        return sorted(map(tuple, found)) if len(found) >= len(expected) else False

    shown = wait_for(page, operations, "Swagger UI to list the operations")
    screenshot(page, "docs")
    assert shown == expected, json.dumps(shown)
