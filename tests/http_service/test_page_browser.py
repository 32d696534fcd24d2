"""The page at ``/`` and Swagger UI at ``/docs`` in a real headless Chromium, served by
``notation serve`` of the installed package. Each state is photographed into
tests/artifacts/ (left there for a person to look at); no test may leave a console error.
"""

from __future__ import annotations

import contextlib
import json
import pathlib
import urllib.parse

import pytest
import yaml
from browser import PAGE_TIMEOUT, chromium_or_skip, screenshot, serve, start_chromium
from paths import ROOT

pytestmark = [pytest.mark.live_server, pytest.mark.browser, pytest.mark.slow]

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
    # Only the profiles that write chess (the service lists them per variant): no Xiangqi or tafl ones.
    assert [name for name, _ in rows] == ["lichess", "chesscom", "xboard", "fairy-stockfish", "python-chess", "scid",
                                          "cqli"]
    assert dict(rows)["lichess"] == START
    width = page.execute_script("return document.querySelector('#board svg').getBoundingClientRect().width")
    assert width >= 600  # large: min(80vh, 60vw) of a 1280 x 1400 window is 768 pixels


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
    assert page.find_element("id", "variant-used").text.startswith(f"Guessed: {guessed} (from ")
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
    # The last position that could be read stays drawn, dimmed, with the error beside it.
    assert len(board_pieces(page)) == 32
    assert "stale" in page.find_element("id", "board").get_attribute("class")
    assert "fen-syntax" in page.find_element("id", "board-note").text


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
    # Grouped by the contract's tags, in its order: none falls in Swagger UI's "default".
    groups = page.execute_script("return [...document.querySelectorAll('.opblock-tag')].map(t => t.dataset.tag)")
    assert groups == [tag["name"] for tag in spec["tags"]] and "default" not in groups


def test_docs_try_it_out_calls_the_service_on_its_own_port(page, base_url):
    # The service runs on a free port, never the 8080 an absolute server URL would name, and
    # the page is opened by another name of the host than the one it listens on: "Try it
    # out" must call the server that served /docs (openapi.yaml's server is "/"), and the
    # page's Content-Security-Policy (connect-src 'self') must let it.
    from selenium.webdriver.common.by import By

    port = urllib.parse.urlsplit(base_url).port
    assert port not in (None, 80, 8080)
    base_url = f"http://localhost:{port}"
    page.get(base_url + "/docs")
    found = wait_for(page, lambda s: s.find_elements(By.ID, "operations-FEN-validateFen"), "POST /v1/fen/validate")
    block = found[0]
    block.find_element(By.CSS_SELECTOR, ".opblock-summary-control").click()
    wait_for(page, lambda s: block.find_elements(By.CSS_SELECTOR, ".try-out__btn"), "the Try it out button")[0].click()
    wait_for(page, lambda s: block.find_elements(By.CSS_SELECTOR, "button.execute"), "the Execute button")[0].click()

    def answered(session):
        cells = block.find_elements(By.CSS_SELECTOR, ".live-responses-table .response .response-col_status")
        return cells[0].text.strip() if cells and cells[0].text.strip() else False

    status = wait_for(page, answered, "the answer of Try it out")
    page.execute_script("arguments[0].scrollIntoView()", block.find_element(By.CSS_SELECTOR, ".responses-wrapper"))
    screenshot(page, "docs-try-it-out")
    assert status == "200"
    assert block.find_element(By.CSS_SELECTOR, ".request-url pre").text.strip() == base_url + "/v1/fen/validate"
    body = block.find_element(By.CSS_SELECTOR, ".live-responses-table .response-col_description pre").text
    assert json.loads(body)["valid"] is True and json.loads(body)["variant"] == "threecheck"


# --- play, edit, the guess, sharing ------------------------------------------------------

XIANGQI_START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
TABLUT_START = "3TTT3/4T4/4t4/T3t3T/TTttkttTT/T3t3T/4t4/4T4/3TTT3 w - - 0 1"


def square_element(session, name: str):
    return session.find_element("css selector", f'#board g.squares [data-square="{name}"]')


def click_square(session, name: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(session).move_to_element(square_element(session, name)).click().perform()


def drag(session, origin: str, target: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    (ActionChains(session).move_to_element(square_element(session, origin)).click_and_hold()
     .move_by_offset(5, 5).move_to_element(square_element(session, target)).release().perform())


def fen_value(session) -> str:
    return labelled(session, "FEN").get_attribute("value")


def wait_for_fen(session, before: str) -> str:
    wait_for(session, lambda s: fen_value(s) != before and s.execute_script(
        "return document.body.dataset.shownFen") == fen_value(s), "the move to be played")
    return fen_value(session)


def wait_for_moves(session) -> None:
    wait_for(session, lambda s: s.execute_script("return document.querySelectorAll('#legal-moves option').length > 0"),
             "the legal moves")


def marked(session, kind: str) -> list[str]:
    return sorted(session.execute_script(
        f"return [...document.querySelectorAll('#board .{kind}')].map(e => e.dataset.square)"))


def targets(session) -> list[str]:
    return marked(session, "target")


def refused(session, name: str) -> None:
    click_square(session, name)
    wait_for(session, lambda s: "is not a legal move here" in s.find_element("id", "status").text, "the refusal")


def test_play_a_move_by_clicking_and_be_refused_an_illegal_one(page, base_url):
    open_page(page, base_url)
    wait_for_moves(page)
    click_square(page, "e2")
    assert targets(page) == ["e3", "e4"]
    screenshot(page, "play-standard-targets")
    click_square(page, "e4")
    after = wait_for_fen(page, START)
    assert after == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert marked(page, "last-move") == ["e2", "e4"]
    wait_for_moves(page)
    click_square(page, "e7")
    refused(page, "e4")  # a pawn cannot take straight ahead
    assert fen_value(page) == after
    screenshot(page, "play-standard-refused")


def test_drag_a_piece_and_see_check_marked(page, base_url):
    open_page(page, base_url, "?" + urllib.parse.urlencode(
        {"fen": "rnbqkbnr/ppppp2p/5p2/6p1/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3"}))
    wait_for_moves(page)
    drag(page, "d1", "h5")
    wait_for_fen(page, "rnbqkbnr/ppppp2p/5p2/6p1/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3")
    wait_for(page, lambda s: marked(s, "check") == ["e8"], "the king in check marked")
    assert marked(page, "last-move") == ["d1", "h5"]
    assert "checkmate" in page.find_element("id", "outcome").text
    screenshot(page, "play-standard-mate")


def test_crazyhouse_drop_from_the_pocket(page, base_url):
    open_page(page, base_url, "?" + urllib.parse.urlencode({"fen": CRAZYHOUSE}))
    wait_for_moves(page)
    from selenium.webdriver.common.action_chains import ActionChains

    pocket = page.find_element("css selector", "#board g.pocket.white g.piece")
    ActionChains(page).move_to_element(pocket).click().perform()
    assert "e4" in targets(page) and "e2" in targets(page)
    refused(page, "d5")  # occupied by Black's queen: no drop there
    pocket = page.find_element("css selector", "#board g.pocket.white g.piece")
    ActionChains(page).move_to_element(pocket).click().perform()
    click_square(page, "e6")
    after = wait_for_fen(page, CRAZYHOUSE)
    assert after.startswith("rnb1kbnr/ppp1pppp/4P3/3q4/8/8/PPPP1PPP/RNBQKBNR[p] b")
    assert marked(page, "last-move") == ["e6"]
    screenshot(page, "play-crazyhouse-drop")


def test_xiangqi_move_and_refusal(page, base_url):
    open_page(page, base_url, "?" + urllib.parse.urlencode({"fen": XIANGQI_START}))
    wait_for_moves(page)
    assert page.find_element("id", "variant-used").text == "Guessed: Xiangqi (from its 9x10 board)."
    click_square(page, "b1")
    refused(page, "b2")  # a horse's leg: it cannot step one point straight
    click_square(page, "b3")
    assert "e3" in targets(page)
    click_square(page, "e3")
    after = wait_for_fen(page, XIANGQI_START)
    assert after.startswith("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b")
    screenshot(page, "play-xiangqi")


def test_tablut_move_and_refusal(page, base_url):
    open_page(page, base_url, "?" + urllib.parse.urlencode({"fen": TABLUT_START, "variant": "tablut"}))
    wait_for_moves(page)
    click_square(page, "e2")
    refused(page, "e4")  # a defender stands between
    click_square(page, "d1")
    assert targets(page) == ["b1", "c1", "d2", "d3", "d4"]
    click_square(page, "b1")
    after = wait_for_fen(page, TABLUT_START)
    assert after.startswith("3TTT3/4T4/4t4/T3t3T/TTttkttTT/T3t3T/4t4/4T4/1T2TT3 b")
    assert marked(page, "last-move") == ["b1", "d1"]
    screenshot(page, "play-tablut")


@pytest.mark.parametrize(
    ("fen", "name", "reason"),
    [
        ("3TTT3/4T4/4t4/T3t3T/TTttkttTT/T3t3T/4t4/4T4/3TT1T2 b - - 1 1", "Tablut", "its 9x9 board"),
        ("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1", "Xiangqi", "its 9x10 board"),
        ("r1bqkbnr/pppp1ppp/2n5/4p3/2PPP3/PPPPPPPP/PPPPPPPP/PPPPPPPP b kq - 0 2", "Horde", "its armies"),
    ],
    ids=["tablut", "cxboard-cfen", "horde"],
)
def test_the_page_asks_the_service_for_the_guess(page, base_url, fen, name, reason):
    """The three positions the page's own guesser once got wrong."""
    open_page(page, base_url)
    show(page, fen)
    assert page.find_element("id", "variant-used").text.startswith(f"Guessed: {name} (from {reason}")
    assert page.execute_script("return document.querySelectorAll('#problems li.error').length") == 0
    rows = page.execute_script(
        "return [...document.querySelectorAll('#profiles tbody tr')].map(r => r.dataset.profile)")
    assert ("wxf" in rows) == (name == "Xiangqi") and ("opentafl" in rows) == (name == "Tablut")


def test_the_address_shares_the_position_and_its_last_move(page, base_url):
    open_page(page, base_url)
    wait_for_moves(page)
    click_square(page, "g1")
    click_square(page, "f3")
    after = wait_for_fen(page, START)
    link = page.find_element("id", "share-link").get_attribute("href")
    query = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)
    assert query == {"fen": [after], "variant": ["auto"], "last": ["g1f3"]}
    assert page.current_url == link
    page.get(link)
    wait_for(page, lambda s: s.execute_script("return document.body.dataset.shownFen") == after, "the shared FEN")
    assert marked(page, "last-move") == ["f3", "g1"]
    # A fragment works too (a link whose FEN never reaches a server's logs).
    page.get(base_url + "/#" + urllib.parse.urlencode({"fen": CRAZYHOUSE}))
    wait_for(page, lambda s: s.execute_script("return document.body.dataset.shownFen") == CRAZYHOUSE, "the fragment")
    screenshot(page, "page-fragment")


def test_edit_a_position_as_the_lichess_board_editor(page, base_url):
    open_page(page, base_url)
    page.find_element("id", "edit-toggle").click()
    wait_for(page, lambda s: s.find_elements("css selector", "#palette button"), "the palette")
    page.find_element("css selector", "#palette button[data-tool='Q']").click()
    click_square(page, "d4")
    after = wait_for_fen(page, START)
    assert after.startswith("rnbqkbnr/pppppppp/8/8/3Q4/8/PPPPPPPP/RNBQKBNR w KQkq")
    page.find_element("css selector", "#palette button[data-tool='erase']").click()
    click_square(page, "e2")
    after = wait_for_fen(page, after)
    assert after.startswith("rnbqkbnr/pppppppp/8/8/3Q4/8/PPPP1PPP/RNBQKBNR w KQkq")
    from selenium.webdriver.support.ui import Select

    Select(labelled(page, "Side to move")).select_by_visible_text("Black")
    after = wait_for_fen(page, after)
    assert " b KQkq " in after
    page.find_element("xpath", "//label[normalize-space()='Black O-O-O']/input").click()
    after = wait_for_fen(page, after)
    assert " b KQk " in after
    screenshot(page, "edit-standard")
    Select(labelled(page, "Start position of")).select_by_value("crazyhouse")
    page.find_element("xpath", "//button[normalize-space()='Set start position']").click()
    after = wait_for_fen(page, after)
    assert after == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    wait_for(page, lambda s: s.find_element("id", "pocket-white").is_displayed(), "the pockets")
    field = page.find_element("id", "pocket-white")
    field.send_keys("QN\n")
    after = wait_for_fen(page, after)
    assert after.startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QN] w")
    Select(labelled(page, "Start position of")).select_by_value("standard")
    number = page.find_element("id", "chess960-number")
    number.send_keys("0")
    page.find_element("xpath", "//button[normalize-space()='Set Chess960 position']").click()
    after = wait_for_fen(page, after)
    assert after.startswith("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w")
    assert page.find_element("id", "status").text == "Chess960 position 0. White to move (20 legal moves)."
    screenshot(page, "edit-chess960")
    page.find_element("id", "edit-toggle").click()  # back to play


def test_the_page_has_no_rule_or_guess_of_its_own():
    """Everything it knows comes from the API: no guesser, no FEN grammar, no move rules."""
    script = (ROOT / "service" / "web" / "page.js").read_text(encoding="utf-8")
    for call in ("/v1/fen/validate", "/v1/moves", "/v1/play", "/v1/start", "/v1/board.svg", "/v1/variants"):
        assert call in script, call
    for rule in ("guessVariant", "start_fen", "check_counters", "pockets ||", "isLegal", "attacks", "KQkq-"):
        assert rule not in script, rule
    # No pattern over a FEN's fields (counters, castling letters, pocket brackets) but the square names.
    assert script.count("new RegExp") == 0


# --- a pasted game: stepped through, an illegal move marked, shared, played on -------------

GAMES = ROOT / "fixtures" / "pgn" / "games"


def api_game(base_url: str, pgn: str) -> dict:
    """What ``POST /v1/pgn/game`` answers for ``pgn``: what the page must show."""
    import urllib.request

    request = urllib.request.Request(base_url + "/v1/pgn/game", data=json.dumps({"pgn": pgn}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def paste_game(session, pgn: str) -> None:
    field = labelled(session, "PGN")
    field.clear()
    session.execute_script("arguments[0].value = arguments[1];", field, pgn)  # a paste, not typed key by key
    session.find_element("xpath", "//button[normalize-space()='Show game']").click()
    wait_for(session, lambda s: s.execute_script("return document.body.dataset.game"), "the game to load")


def shown_path(session) -> str:
    return session.execute_script("return document.body.dataset.gamePath")


def wait_for_node(session, path: str, fen: str) -> None:
    def shown(s) -> bool:
        drawn = s.execute_script("return document.body.dataset.shownFen")
        return shown_path(s) == path and drawn == fen_value(s) == fen

    wait_for(session, shown, f"ply {path} shown")


def press(session, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(session).send_keys(key).perform()


def move_button(session, path: str):
    return session.find_element("css selector", f'#move-list button[data-path="{path}"]')


def test_step_through_a_pasted_crazyhouse_game_with_the_keyboard(page, base_url):
    from selenium.webdriver.common.keys import Keys

    pgn = (GAMES / "crazyhouse_drops.pgn").read_text(encoding="utf-8")
    game = api_game(base_url, pgn)
    plies = game["plies"]
    open_page(page, base_url)
    paste_game(page, pgn)
    wait_for_node(page, "0", game["initial_fen"])
    assert page.find_element("id", "game-title").text == "kasia – lukas · Casual Crazyhouse game · Crazyhouse · 0-1"
    shown = page.execute_script(
        "return [...document.querySelectorAll('#move-list button.move')].map(b => b.textContent)")
    # The service's SAN, in order; a pawn drop as lichess spells it (the API's SAN is python-chess's "@e2").
    assert shown == [f"P{ply['san']}" if ply["san"].startswith("@") else ply["san"] for ply in plies]
    assert plies[16]["san"] == "@e2" and shown[16] == "P@e2"
    numbers = page.execute_script(
        "return [...document.querySelectorAll('#move-list .move-number')].map(e => e.textContent)")
    assert numbers[:3] == ["1.", "2.", "3."] and len(numbers) == 18
    press(page, Keys.ARROW_RIGHT)
    wait_for_node(page, "1", plies[0]["fen"])
    assert marked(page, "last-move") == ["e2", "e4"]
    for _ in range(16):
        press(page, Keys.ARROW_RIGHT)
    wait_for_node(page, "17", plies[16]["fen"])  # 9. P@e2, a pawn drop
    assert marked(page, "last-move") == ["e2"]
    assert page.find_element("id", "status").text.startswith("9. P@e2. Black to move")
    assert move_button(page, "17").get_attribute("aria-current") == "step"
    screenshot(page, "game-crazyhouse-drop")
    press(page, Keys.END)
    wait_for_node(page, "36", plies[-1]["fen"])  # 18... N*h3#, mate by a drop
    assert marked(page, "check") == ["g1"] and marked(page, "last-move") == ["h3"]
    assert "checkmate" in page.find_element("id", "outcome").text
    assert "drop-with-star" in page.find_element("id", "game-note").text
    screenshot(page, "game-crazyhouse-mate")
    press(page, Keys.ARROW_LEFT)
    wait_for_node(page, "35", plies[-2]["fen"])
    press(page, Keys.HOME)
    wait_for_node(page, "0", game["initial_fen"])
    # A click on a move in the list shows it; the address carries the game and the ply.
    move_button(page, "28").click()
    wait_for_node(page, "28", plies[27]["fen"])
    assert marked(page, "check") == ["g2"]
    link = page.find_element("id", "share-link").get_attribute("href")
    fragment = urllib.parse.parse_qs(urllib.parse.urlparse(link).fragment)
    assert fragment == {"pgn": [pgn], "ply": ["28"]} and page.current_url == link
    page.get(base_url + "/")  # a new page, then the shared link
    page.get(link)
    wait_for(page, lambda s: s.execute_script("return document.body.dataset.ready") == "true", "the page to start")
    wait_for_node(page, "28", plies[27]["fen"])
    assert labelled(page, "PGN").get_attribute("value") == pgn
    screenshot(page, "game-shared-link")
    # Another move's link opened in the same tab changes only the fragment: the page follows it.
    page.execute_script("location.hash = arguments[0];", urllib.parse.urlencode({"pgn": pgn, "ply": "17"}))
    wait_for_node(page, "17", plies[16]["fen"])


def test_an_illegal_move_is_marked_where_it_stands(page, base_url):
    from selenium.webdriver.common.keys import Keys

    pgn = (GAMES / "illegal_move.pgn").read_text(encoding="utf-8")
    game = api_game(base_url, pgn)
    open_page(page, base_url)
    paste_game(page, pgn)
    wait_for_node(page, "0", game["initial_fen"])
    bad = move_button(page, "13")
    assert bad.text == "Bxf7+" and "illegal" in bad.get_attribute("class")
    assert "illegal-move" in bad.get_attribute("title")
    assert page.find_elements("css selector", '#move-list button[data-path="14"]') == []  # the rest is not played
    problems = page.execute_script(
        "return [...document.querySelectorAll('#game-problems li')].map(li => li.dataset.code)")
    assert problems == ["illegal-move"]
    assert "line 10, column 14, ply 13" in page.find_element("css selector", "#game-problems li").text
    press(page, Keys.END)
    before = game["plies"][11]["fen"]  # the failed move's own position is the one before it
    wait_for_node(page, "13", before)
    note = page.find_element("id", "game-note").text
    assert "7. Bxf7+ cannot be played: illegal-move" in note
    assert "error" in page.find_element("id", "game-note").get_attribute("class")
    screenshot(page, "game-illegal-move")
    # The variation after 3. Bb5 is there to click, and its moves to step through.
    variation = game["plies"][5]["variations"][0]
    move_button(page, "6.1.3").click()
    wait_for_node(page, "6.1.3", variation[2]["fen"])
    press(page, Keys.ARROW_RIGHT)
    wait_for_node(page, "6.1.4", variation[3]["fen"])
    assert "in a variation" in page.find_element("id", "ply-label").text
    screenshot(page, "game-variation")
    # The problem's own button shows the move it is about.
    press(page, Keys.HOME)
    wait_for_node(page, "0", game["initial_fen"])
    page.find_element("css selector", "#game-problems button.go-to-move").click()
    wait_for_node(page, "13", before)


def test_a_xiangqi_game_marks_its_checks(page, base_url):
    pgn = (GAMES / "xiangqi.pgn").read_text(encoding="utf-8")
    game = api_game(base_url, pgn)
    open_page(page, base_url)
    paste_game(page, pgn)
    wait_for_node(page, "0", game["initial_fen"])
    move_button(page, "13").click()  # 7. C5+4, the central cannon takes and checks
    wait_for_node(page, "13", game["plies"][12]["fen"])
    assert marked(page, "check") == ["e10"] and marked(page, "last-move") == ["e3", "e7"]
    assert page.find_element("id", "variant-used").text == ""  # the variant is the game's, not guessed
    assert labelled(page, "Variant").get_attribute("value") == "xiangqi"
    screenshot(page, "game-xiangqi-check")


def test_playing_from_a_position_of_the_game_goes_on_from_there(page, base_url):
    pgn = (GAMES / "illegal_move.pgn").read_text(encoding="utf-8")
    game = api_game(base_url, pgn)
    open_page(page, base_url)
    paste_game(page, pgn)
    move_button(page, "2").click()  # 1... e5
    wait_for_node(page, "2", game["plies"][1]["fen"])
    wait_for_moves(page)
    click_square(page, "g1")  # the game's own 2. Nf3: the game goes on
    click_square(page, "f3")
    wait_for_node(page, "3", game["plies"][2]["fen"])
    wait_for_moves(page)
    click_square(page, "b8")  # 2... Na6 is not the game's move: off the game, from ply 3
    click_square(page, "a6")
    after = wait_for_fen(page, game["plies"][2]["fen"])
    assert after.startswith("r1bqkbnr/pppp1ppp/n7/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w")
    assert "branch" in move_button(page, "3").get_attribute("class")
    assert page.execute_script("return document.querySelectorAll('#move-list [aria-current]').length") == 0
    link = page.find_element("id", "share-link").get_attribute("href")
    assert urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["fen"] == [after]  # a position, not the game's
    screenshot(page, "game-played-off")
    page.find_element("id", "undo").click()
    wait_for(page, lambda s: fen_value(s) == game["plies"][2]["fen"]
             and s.execute_script("return document.body.dataset.shownFen") == fen_value(s), "the undo")
    assert move_button(page, "3").get_attribute("aria-current") == "step"


def test_a_game_whose_setup_cannot_be_played_says_why(page, base_url):
    open_page(page, base_url)
    paste_game(page, '[Variant "Chess 3000"]\n\n1. e4 e5 *\n')
    assert page.execute_script("return document.body.dataset.game") == "unplayable"
    assert page.execute_script("return [...document.querySelectorAll('#game-problems li')].map(li => li.dataset.code)"
                               ) == ["unknown-variant"]
    wait_for(page, lambda s: "cannot be played from its set-up: unknown-variant" in s.find_element("id", "status").text,
             "the reason")
    screenshot(page, "game-unplayable")


def test_the_game_panel_has_no_rule_of_its_own():
    """Moves, numbers and positions come from POST /v1/pgn/game; game.js reads no PGN itself."""
    script = (ROOT / "service" / "web" / "game.js").read_text(encoding="utf-8")
    assert "/v1/pgn/game" in script
    for rule in ("start_fen", "isLegal", "attacks", "KQkq", "O-O", "new RegExp", "split(\" \")", "fullmove"):
        assert rule not in script, rule
    # No pattern over PGN or SAN text: the one regular expression strips the address's "#".
    assert script.count("replace(/") == 1 and ".match(" not in script and "matchAll" not in script


# --- the database panel: a pasted PGN database normalised by POST /v1/pgn/normalize ---------

# A game, its copy in UCI, a prefix of it, a game with a wrong Result tag, a broken game.
DATABASE = ROOT / "fixtures" / "service" / "database.pgn"


def api_normalize(base_url: str, pgn: str, query: str) -> list[dict]:
    """The lines ``POST /v1/pgn/normalize?query`` answers for ``pgn``: what the page must show."""
    import urllib.request

    request = urllib.request.Request(f"{base_url}/v1/pgn/normalize?{query}", data=pgn.encode(),
                                     headers={"Content-Type": "application/x-chess-pgn"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return [json.loads(line) for line in response.read().decode().splitlines()]


def normalize_database(session, pgn: str, **choices: str) -> None:
    """Paste ``pgn`` into the database panel, choose each labelled option's value
    (``{"Export format": "full"}``), press Normalize and wait for the answer."""
    from selenium.webdriver.support.ui import Select

    wait_for(session, lambda s: s.execute_script("return document.body.dataset.databaseReady") == "true",
             "the database panel's options")
    field = labelled(session, "PGN database")
    session.execute_script("arguments[0].value = arguments[1];", field, pgn)  # a paste, not typed key by key
    for label, value in choices.items():
        Select(labelled(session, label)).select_by_value(value)
    session.execute_script("document.getElementById('database-status').textContent = '';")
    session.find_element("xpath", "//button[normalize-space()='Normalize']").click()
    answered = ("Normalised", "The ", "Could")
    wait_for(session, lambda s: s.find_element("id", "database-status").text.startswith(answered),
             "the database's answer")


def test_a_pasted_database_is_normalised_with_its_copies_dropped(page, base_url):
    pgn = DATABASE.read_text(encoding="utf-8")
    lines = api_normalize(base_url, pgn, "export=full&duplicates=drop")
    expected = "".join(line["text"] for line in lines[:-1] if not line["rejected"])
    open_page(page, base_url)
    wait_for(page, lambda s: s.execute_script("return document.body.dataset.databaseReady") == "true",
             "the database panel's options")
    # The choices are the endpoint's own, in words.
    offered = page.execute_script(
        "return [...document.querySelectorAll('#database-export option')].map(o => [o.value, o.textContent])")
    assert offered == [["keep", "Keep layout"], ["full", "Full export format"], ["reduced", "Reduced export format"]]
    normalize_database(page, pgn, **{"Export format": "full", "Duplicates": "drop"})
    page.execute_script("document.getElementById('database-result').scrollIntoView()")
    screenshot(page, "database-normalised")
    status = page.find_element("id", "database-status").text
    assert status.startswith("Normalised 5 games: ") and "1 left out" in status, status
    output = labelled(page, "Normalized PGN")
    assert output.get_attribute("readonly") is not None
    shown = page.execute_script("return document.getElementById('database-output').value")
    assert shown == expected
    # The UCI copy of game 1 is left out; the rest is in the export format (3... after a comment, ?? as $4).
    assert shown.count("[Event ") == 4 and "e2e4" not in shown
    assert "1. e4 e5 2. Bc4 Nc6 3. Qh5 {threatening mate} 3... Nf6 $4 4. Qxf7# 1-0" in shown
    summary = page.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#database-summary dd')]"
        ".map(d => [d.dataset.name, d.textContent]))")
    assert summary["games-read"] == "5" and summary["left-out"] == "1"
    assert summary["games-read"] == str(lines[-1]["games"]) and summary["changed"] == str(lines[-1]["changed"])
    problems = page.execute_script(
        "return [...document.querySelectorAll('#database-problems li')].map(li => [li.dataset.game, li.dataset.line,"
        " li.dataset.code, li.className])")
    assert ["2", "12", "duplicate-game", "warning"] in problems
    assert ["5", "50", "illegal-move", "error"] in problems
    first = page.find_element("css selector", "#database-problems li[data-code=duplicate-game]").text
    assert first.startswith("Game 2, line 12: duplicate-game: the same game as game 1 (line 1)"), first
    # Every control is labelled and reached with the keyboard: Copy and Download are buttons,
    # and Ctrl+Enter in the text normalises again (here with the copies marked: none left out).
    for name in ("Copy", "Download"):
        assert page.find_element("xpath", f"//section[@id='database']//button[normalize-space()='{name}']")
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    Select(labelled(page, "Duplicates")).select_by_value("mark")
    page.execute_script("document.getElementById('database-status').textContent = '';")
    labelled(page, "PGN database").click()
    ActionChains(page).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
    wait_for(page, lambda s: s.find_element("id", "database-status").text.startswith("Normalised"), "Ctrl+Enter")
    assert "0 left out" in page.find_element("id", "database-status").text
    assert page.execute_script("return document.getElementById('database-output').value").count("[Event ") == 5


def test_the_database_panel_cuts_broken_games_and_repairs_results(page, base_url):
    pgn = DATABASE.read_text(encoding="utf-8")
    lines = api_normalize(base_url, pgn, "broken=truncate&fix_results=true")
    open_page(page, base_url)
    wait_for(page, lambda s: s.execute_script("return document.body.dataset.databaseReady") == "true",
             "the database panel's options")
    offered = page.execute_script(
        "return [...document.querySelectorAll('#database-broken option')].map(o => [o.value, o.textContent])")
    assert offered == [["keep", "Keep as read"], ["truncate", "Cut before the bad move"], ["drop", "Drop"]]
    repairs = page.execute_script(
        "return [...document.querySelectorAll('#database-repairs label')].map(l => [l.textContent.trim(), l.hidden])")
    assert repairs == [["Results", False], ["Tags", False], ["Move numbers", False]]
    page.find_element("xpath", "//fieldset[@id='database-repairs']//label[normalize-space()='Results']/input").click()
    normalize_database(page, pgn, **{"Broken games": "truncate"})
    shown = page.execute_script("return document.getElementById('database-output').value")
    assert shown == "".join(line["text"] for line in lines[:-1] if not line["rejected"])
    assert "6. Nf3 Nbd7 {game cut here: illegal-move at ply 13" in shown and '[Result "0-1"]' in shown
    codes = page.execute_script(
        "return [...document.querySelectorAll('#database-problems li')].map(li => li.dataset.code)")
    assert "game-truncated" in codes and "result-fixed" in codes and "illegal-move" not in codes
    page.execute_script("document.getElementById('database-result').scrollIntoView()")
    screenshot(page, "database-repaired")


def test_the_database_panel_says_why_it_was_refused(page, base_url):
    open_page(page, base_url)
    wait_for(page, lambda s: s.execute_script("return document.body.dataset.databaseReady") == "true",
             "the database panel's options")
    page.find_element("xpath", "//button[normalize-space()='Normalize']").click()
    wait_for(page, lambda s: s.find_element("id", "database-status").text == "Paste a PGN database first.",
             "the empty paste's note")
    # An option the service does not take (a page older or newer than its service): its 422 in words.
    page.execute_script("const o = document.createElement('option'); o.value = 'nonsense'; o.textContent = 'x';"
                        "document.getElementById('database-export').appendChild(o);")
    normalize_database(page, DATABASE.read_text(encoding="utf-8"), **{"Export format": "nonsense"})
    status = page.find_element("id", "database-status")
    assert status.text.startswith("The service refused an option (export): query parameter export"), status.text
    assert "error" in status.get_attribute("class")
    screenshot(page, "database-refused")
    # The browser itself logs the refused request as a failed resource; nothing else may be logged.
    errors = [entry for entry in page.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors and all("status of 422" in entry["message"] for entry in errors), errors


def test_the_database_panel_says_when_the_database_is_too_large_or_the_service_is_gone(page):
    """A service of its own, taking 1,024 bytes of PGN (its least): 413 in words; then
    stopped: the network's failure in words. Neither leaves the panel blank."""
    twice = DATABASE.read_text(encoding="utf-8") * 2  # some 1,900 bytes
    server = serve(NOTATION_MAX_PGN_BYTES="1024")
    small_url = next(server)
    try:
        open_page(page, small_url)
        normalize_database(page, twice)
        status = page.find_element("id", "database-status").text
        assert status.startswith("The database is too large for the service: "), status
        assert "1024 bytes" in status
        screenshot(page, "database-too-large")
    finally:
        server.close()  # the service stops
    normalize_database(page, twice)
    status = page.find_element("id", "database-status").text
    assert status.startswith("Could not reach the service ("), status
    assert page.find_element("id", "database-result").get_attribute("hidden") is not None  # nothing stale shown
    errors = [entry for entry in page.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors and all("status of 413" in entry["message"] or "ERR_CONNECTION_REFUSED" in entry["message"]
                          for entry in errors), errors


def test_the_database_panel_reads_no_pgn_itself():
    """Everything it shows comes from POST /v1/pgn/normalize; database.js reads no PGN."""
    script = (ROOT / "service" / "web" / "database.js").read_text(encoding="utf-8")
    assert "/v1/pgn/normalize" in script and "/openapi.json" in script
    for rule in ("[Event", "Result", "1-0", "new RegExp", ".match(", "matchAll"):
        assert rule not in script, rule


# --- the layout: the whole board in view, the side panel beside it or below it -------------

def png_size(path: pathlib.Path) -> tuple[int, int]:
    """(width, height) of a PNG, from its IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


@contextlib.contextmanager
def viewport(session, width: int, height: int):
    """The page's viewport exactly ``width`` x ``height`` CSS pixels (a screen of that size)."""
    session.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    try:
        yield
    finally:
        session.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def box(session, selector: str) -> dict:
    return session.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height};",
        selector)


def drawn_board(session) -> dict:
    """The box of what the board picture draws (squares, pockets, coordinates), in the window."""
    return session.execute_script(
        "const r = document.querySelector('#board svg').getBBox();"
        "const m = document.querySelector('#board svg').getScreenCTM();"
        "return {left: m.e + r.x * m.a, top: m.f + r.y * m.d, right: m.e + (r.x + r.width) * m.a,"
        " bottom: m.f + (r.y + r.height) * m.d};")


def assert_whole_board_in_view(session, width: int, height: int) -> None:
    assert session.execute_script("return [innerWidth, innerHeight, scrollX, scrollY]") == [width, height, 0, 0]
    drawn = drawn_board(session)
    assert drawn["left"] >= 0 and drawn["top"] >= 0, drawn
    assert drawn["right"] <= width and drawn["bottom"] <= height, drawn
    for square in ("a1", "h1", "a8", "h8"):  # rank 1 included, whichever way the board is turned
        corner = session.execute_script(  # looked up in the script: no handle to go stale under a redraw
            "return document.querySelector(`#board g.squares [data-square=${arguments[0]}]`)"
            ".getBoundingClientRect().bottom;", square)
        assert 0 < corner <= height, (square, corner)


def wait_for_orientation(session, side: str) -> None:
    """Wait until the board drawn is seen from ``side``: a flip redraws it after a request, not at the click."""
    script = ("const x = s => +document.querySelector(`#board g.squares [data-square=${s}]`).getAttribute('x');"
              "return x('a1') < x('h1') ? 'white' : 'black';")
    wait_for(session, lambda s: s.execute_script(script) == side, f"the board seen from {side}")


SCREENS = [(1366, 768), (1920, 1080)]


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=lambda x: str(x))
def test_the_whole_board_is_in_view_with_the_side_panel_beside_it(page, base_url, width, height):
    with viewport(page, width, height):
        open_page(page, base_url)
        assert_whole_board_in_view(page, width, height)
        board, side = box(page, "#board"), box(page, ".side")
        # Large: the window's height less the margins and the status line.
        assert max(board["height"], board["width"]) >= height - 90, board
        assert side["left"] >= board["right"] and side["top"] < board["bottom"], (board, side)  # beside it
        status = box(page, "#status")
        assert status["top"] >= board["bottom"] and status["bottom"] <= height, status  # under it, in view
        assert page.find_element("id", "status").text == "White to move (20 legal moves)."
        path = screenshot(page, f"layout-{width}x{height}-start")
        assert png_size(path) == (width, height)
        # A Crazyhouse position (pockets above and below the board), turned round, then a game.
        show(page, CRAZYHOUSE, "crazyhouse")
        page.find_element("id", "flip").click()
        wait_for_orientation(page, "black")
        wait_for(page, lambda s: s.execute_script("return document.querySelector('#board svg g.pockets') !== null"
                                                  " || document.querySelectorAll('#board svg text').length > 0"),
                 "the pockets")
        assert_whole_board_in_view(page, width, height)
        page.find_element("id", "flip").click()
        wait_for_orientation(page, "white")
        paste_game(page, (GAMES / "crazyhouse_drops.pgn").read_text(encoding="utf-8"))
        wait_for(page, lambda s: shown_path(s) == "0", "the game's start")
        page.execute_script("window.scrollTo(0, 0);")
        assert_whole_board_in_view(page, width, height)
        path = screenshot(page, f"layout-{width}x{height}-game")
        assert png_size(path) == (width, height)


def test_a_narrow_window_has_the_side_panel_below_the_whole_board(page, base_url):
    width, height = 800, 1100
    with viewport(page, width, height):
        open_page(page, base_url)
        assert_whole_board_in_view(page, width, height)
        board, side = box(page, "#board"), box(page, ".side")
        assert board["width"] >= width - 40 and side["top"] >= board["bottom"], (board, side)  # below it
        path = screenshot(page, f"layout-{width}x{height}-narrow")
        assert png_size(path) == (width, height)


@pytest.mark.parametrize(
    ("fen", "status"),
    [
        (START, "White to move (20 legal moves)."),
        ("rnbqkbnr/ppppp2p/5p2/6p1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 0 3", "White to move (32 legal moves)."),
        ("rnbqkbnr/ppppp2p/5p2/6pQ/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 3", "Checkmate: White wins (1-0)."),
        ("rnbqkbnr/pppp1ppp/8/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR b KQkq - 1 2", "Black to move (29 legal moves)."),
        ("rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3", "Black to move, in check (6 legal moves)."),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Stalemate: a draw (1/2-1/2)."),
        (TWO_KINGS, "White to move, but the position is not legal: see its problems."),
        (BROKEN, "The FEN cannot be read."),
    ],
)
def test_the_status_line_speaks_of_the_position(page, base_url, fen, status):
    open_page(page, base_url)
    show(page, fen)
    assert page.find_element("id", "status").text == status


def test_the_move_list_shows_each_move_with_its_clock(page, base_url):
    pgn = ('[Event "clocks"]\n[Variant "Crazyhouse"]\n\n1. e4 { [%clk 0:03:00] } d5 { [%clk 0:02:58] } '
           "2. exd5 { [%clk 0:02:55] } Qxd5 { [%clk 0:02:41.5] } 3. Nc3 { [%clk 1:00:02] } Qa5 "
           "4. P@d4 { [%clk 0:00:09] } *\n")
    open_page(page, base_url)
    paste_game(page, pgn)
    steps = page.execute_script(
        "return [...document.querySelectorAll('#move-list .step')].map(s => ["
        "s.querySelector('button.move').textContent, (s.querySelector('.clock') || {}).textContent || ''])")
    assert steps == [["e4", "3:00"], ["d5", "2:58"], ["exd5", "2:55"], ["Qxd5", "2:41.5"], ["Nc3", "1:00:02"],
                     ["Qa5", ""], ["P@d4", "0:09"]]
    title = page.execute_script("return document.querySelectorAll('#move-list .clock')[1].title")
    assert title == "Black's clock after the move: 0:02:58"
    screenshot(page, "game-clocks")
