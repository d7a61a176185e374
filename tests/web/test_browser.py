"""The dashboard in real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright) at
a phone's viewport, served by waitress over a real Table; every request that leaves the machine
is blocked and counted (the table's network may have no internet). Screenshots go to
tests/artifacts/."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tablectl.journal import Journal
from tablectl.table import Table
from tests.support.tables import OPENING, play
from web import serve
from web.security import write_pin

from .conftest import ARTIFACTS, PIN

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}

playwright_api = pytest.importorskip("playwright.sync_api",
                                     reason="playwright is not installed (pip install playwright)")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (apt install chromium)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    d = tmp_path_factory.mktemp("browser")
    table = Table(Journal.open(d / "evening.sqlite"))
    write_pin(d / "state", PIN)
    server = serve.start(table, host="127.0.0.1", port=0, state_dir=d / "state")
    yield table, server
    server.stop()
    table.close()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Phone:
    """A phone-sized page that records every request and blocks those leaving the machine."""

    def __init__(self, browser, base: str, viewport: dict | None = None) -> None:
        wide = viewport is not None  # a laptop's window rather than a phone
        self.context = browser.new_context(viewport=viewport or PHONE,
                                           device_scale_factor=1 if wide else 2, locale="en-US",
                                           is_mobile=not wide, has_touch=not wide)
        self.outside: list[str] = []
        host = urlparse(base).hostname
        self.context.route("**/*", self._route(host))
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.base = base

    def _route(self, host):
        def handle(route):
            url = urlparse(route.request.url)
            if url.scheme in ("http", "https") and url.hostname != host:
                self.outside.append(route.request.url)
                route.abort("internetdisconnected")
            else:
                route.continue_()
        return handle

    def open(self, path: str):
        self.page.goto(self.base + path.lstrip("/"))
        return self.page

    def log_in(self):
        """Log in at /operator/login with the test PIN; the console's page."""
        page = self.open("/operator/login")
        page.fill("#pin", PIN)
        page.click("#login button[type=submit]")
        page.wait_for_url("**/operator")
        return page

    def close(self):
        self.context.close()


def shot(page, name: str, selector: str | None = None) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = str(ARTIFACTS / f"{name}.png")
    if selector:
        page.locator(selector).screenshot(path=path)
    else:
        page.screenshot(path=path, full_page=True)


def wait_live(page) -> None:
    page.wait_for_selector("#conn.live", timeout=10_000)


def test_a_throw_shows_within_a_second(served, browser):
    table, server = served
    play(table, OPENING + [{"command": "side_bet", "id": "h6", "kind": "hardway", "number": 6,
                            "for": "bob", "against": "ann", "stakes": {"bob": 2, "ann": 18}}])
    phone = Phone(browser, server.url)
    page = phone.open("/")
    wait_live(page)
    t0 = time.perf_counter()
    table.submit({"command": "throw", "dice": [5, 1]})
    page.wait_for_function(
        "() => document.querySelector('#last-throw .total')?.textContent.trim() === '6'",
        timeout=3000)
    elapsed = time.perf_counter() - t0
    assert elapsed < 1.0, f"the throw took {elapsed:.2f} s to show"
    text = page.inner_text("main")
    assert "point set" in text and "Point 6: the shooter needs 6 before a 7" in text
    assert "ann throws 5 + 1 = 6" in page.inner_text("#feed")
    # one line per event, without a count in front: inside the feed's scroll box a count of
    # two digits lost its first one ("2." for 12), and it numbered nothing a player knows
    markers = page.eval_on_selector_all(
        "#feed li", "els => els.map(e => getComputedStyle(e).listStyleType)")
    assert len(markers) >= 10 and set(markers) == {"none"}, markers
    shot(page, "phone-view")
    assert phone.outside == [] and phone.errors == []
    phone.close()


def test_operator_rules_a_cocked_die_and_the_public_page_settles(served, browser):
    from vision.dice import DiceReader
    from vision.simulator import simulate_throw
    from vision.tracker import ThrowTracker

    table, server = served
    if table.state()["state"]["shooter"] is None:  # run alone: seat the players the test above does
        play(table, OPENING[:3])
    while table.state()["state"]["point"] is not None:  # finish the point of the test above
        table.submit({"command": "throw", "dice": [3, 3]})
    table.submit({"command": "center_bet", "amount": 10})
    table.submit({"command": "fade", "player": "bob", "amount": 10})
    public = Phone(browser, server.url)
    pub = public.open("/")
    wait_live(pub)

    op = Phone(browser, server.url)
    page = op.open("/operator")
    assert "/operator/login" in page.url
    page.fill("#pin", PIN)
    page.click("#login button[type=submit]")
    page.wait_for_url("**/operator")
    wait_live(page)

    clip = simulate_throw(seed=3, scenario="cocked_die")
    tracker = ThrowTracker(clip.calibration, reader=DiceReader(), annotate=True)
    observation, rest = next((o, f) for ts, f in clip.frames
                             if (o := tracker.feed(ts, f)) is not None)
    assert any(d.cocked for d in observation.dice)
    table.play_observation(observation, rest_image=rest)

    page.wait_for_selector("#ruling-screen", timeout=3000)
    page.wait_for_function("() => document.querySelector('#ruling-image')?.naturalWidth > 0")
    box = page.locator("#ruling-image").bounding_box()
    assert box["width"] >= 340, "the picture must fill the phone's width to be judged"
    assert page.locator(".die-mark").count() == 2
    assert page.locator(".die-mark.doubt").count() >= 1  # the cocked die is marked
    pub.wait_for_selector(".banner.ruling", timeout=3000)
    assert "Waiting for the operator" in pub.inner_text(".banner.ruling")
    # the close-ups are cut from the rest frame as taken: no annotation over the faces
    pending = table.state()["pending_ruling"]
    assert pending["raw_image"] == f"/api/throws/{pending['throw']}/raw"
    hrefs = page.eval_on_selector_all(".zoom image", "els => els.map(e => e.getAttribute('href'))")
    assert hrefs == [pending["raw_image"]] * 2
    # brought into view, the screen's heading stands below the sticky header, not under it
    page.locator("#ruling-screen").scroll_into_view_if_needed()
    page.evaluate("document.getElementById('ruling-screen').scrollIntoView()")
    header = page.locator("header.top, .top").first.bounding_box()
    heading = page.locator("#ruling-screen h2").bounding_box()
    assert heading["y"] >= header["y"] + header["height"] - 1, (heading, header)
    shot(page, "ruling-screen", "#ruling-screen")
    # on a laptop the picture leaves room for the faces to tap without scrolling past it
    laptop = Phone(browser, server.url, viewport=LAPTOP)
    wide = laptop.log_in()
    wide.wait_for_function("() => document.querySelector('#ruling-image')?.naturalWidth > 0")
    picture = wide.locator("#ruling-image").bounding_box()
    assert picture["height"] <= 0.65 * LAPTOP["height"], picture
    assert picture["width"] >= 0.4 * LAPTOP["width"], picture
    assert wide.locator(".die-mark").count() == 2
    laptop.close()

    page.click('.die-values[data-die="0"] label.face:nth-of-type(4)')  # 4
    page.click('.die-values[data-die="1"] label.face:nth-of-type(3)')  # 3: a natural 7
    page.fill('#rule-form input[name="why"]', "leans on the other die, 4 on top")
    page.click('#rule-form button[value="dice"]')
    page.wait_for_selector("#result.done", timeout=3000)
    # the console's audit shows the ruling without a reload
    page.wait_for_function("() => document.querySelector('#audit').textContent"
                           ".includes('leans on the other die')", timeout=3000)

    pub.wait_for_function("() => !document.querySelector('.banner.ruling')", timeout=3000)
    pub.wait_for_function(
        "() => document.querySelector('.recall-card').textContent.includes('center bet: ann wins')",
        timeout=3000)
    assert "natural: the dice win" in pub.inner_text("#last-throw")
    assert "ruled by the operator" in pub.inner_text("#last-throw")
    shot(pub, "phone-view-settled")
    assert public.outside == [] and op.outside == []
    assert public.errors == [] and op.errors == []
    rows = table.journal_rows(0)
    ruling = next(r for r in reversed(rows) if r.command["command"] == "operator_ruling")
    assert ruling.command["dice"] == [4, 3] and ruling.extra["by"] == "operator"
    public.close()
    op.close()


def _scanned(cv2, grey) -> str:
    """What a QR code in ``grey`` says, as a phone finds it: held nearer or farther, the
    screen around it, by either of OpenCV's detectors (the classic one misses about one code
    in a hundred that the other reads; no single one reads every code)."""
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        for zoom in (2, 1, 3):
            seen = cv2.resize(grey, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_NEAREST)
            seen = cv2.copyMakeBorder(seen, 24, 24, 24, 24, cv2.BORDER_CONSTANT, value=255)
            text, _, _ = detector.detectAndDecode(seen)
            if text:
                return text
    return ""


def test_the_console_shows_a_qr_code_that_scans_to_the_dashboard(served, browser):
    import cv2
    import numpy as np

    _, server = served
    op = Phone(browser, server.url)
    page = op.log_in()
    qr = page.locator("img.qr")
    qr.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('img.qr').complete")
    assert page.evaluate("document.querySelector('img.qr').naturalWidth") > 0, \
        "the QR code's picture did not load"
    text = ""
    for _ in range(5):  # as a phone held to the screen: a frame caught mid-layout scans again
        png = np.frombuffer(qr.screenshot(animations="disabled"), np.uint8)
        grey = cv2.cvtColor(cv2.imdecode(png, cv2.IMREAD_COLOR), cv2.COLOR_BGR2GRAY)
        text = _scanned(cv2, grey)
        if text:
            break
        page.wait_for_timeout(200)
    assert text == server.url
    op.close()


@pytest.fixture
def fresh(tmp_path):
    """A table of its own (for a test that must know its state), served; ann's center bet of
    10 is up and nobody has faded it yet."""
    table = Table(Journal.open(tmp_path / "evening.sqlite"))
    write_pin(tmp_path / "state", PIN)
    server = serve.start(table, host="127.0.0.1", port=0, state_dir=tmp_path / "state")
    play(table, OPENING[:4])
    yield table, server
    server.stop()
    table.close()


def console_form(page, group: str, command: str):
    page.evaluate(f"document.getElementById('group-{group}').open = true")
    return page.locator(f'form.cmd[data-command="{command}"]')


def test_a_refusal_shows_its_rule_and_the_games_figures(fresh, browser):
    _, server = fresh
    op = Phone(browser, server.url)
    fade = console_form(op.log_in(), "center", "fade")
    fade.locator('[name="player"]').fill("bob")
    fade.locator('[name="amount"]').fill("50")
    fade.locator("button[type=submit]").click()
    op.page.wait_for_selector("#result.refused", timeout=3000)
    said = op.page.inner_text("#result")
    assert "R-C6" in said
    assert "the bet is 10, 0 faded, 10 open" in said, said  # what to do, with the figures
    assert said.count("faders may not fade more than the shooter's bet") == 1, said
    op.close()


def test_a_refusal_in_russian_says_what_it_means_and_keeps_the_games_words(fresh, browser):
    _, server = fresh
    op = Phone(browser, server.url)
    op.log_in()
    page = op.open("/operator?lang=ru")
    fade = console_form(page, "center", "fade")
    fade.locator('[name="player"]').fill("bob")
    fade.locator('[name="amount"]').fill("50")
    fade.locator("button[type=submit]").click()
    page.wait_for_selector("#result.refused", timeout=3000)
    head = page.inner_text("#result strong")
    assert "Отвечающие покрыли бы больше ставки бросающего" in head, head
    assert "R-C6: отвечающие не могут ответить больше ставки бросающего" in page.inner_text(
        "#result .rule-said")
    english = page.locator('#result span[lang="en"]')
    assert "the bet is 10, 0 faded, 10 open" in english.inner_text()  # the figures, secondary
    shot(page, "refusal-ru", "#result")
    assert op.errors == []
    op.close()


def test_a_throw_by_hand_needs_both_faces_chosen(fresh, browser):
    table, server = fresh
    table.submit({"command": "fade", "player": "bob", "amount": 10})
    before = table.state()["seq"]
    op = Phone(browser, server.url)
    form = console_form(op.log_in(), "dice", "throw")
    form.locator("button[type=submit]").click()  # a tap before choosing: no 1 + 1 thrown
    time.sleep(0.5)
    assert table.state()["seq"] == before
    dice = form.locator('select[name="dice"]')
    dice.nth(0).select_option("3")
    dice.nth(1).select_option("4")
    form.locator("button[type=submit]").click()
    op.page.wait_for_selector("#result.done", timeout=3000)
    assert table.journal_rows(before)[-1].command == {"command": "throw", "dice": [3, 4]}
    op.close()


def test_the_operator_makes_a_void_throw_count_from_the_console(fresh, browser):
    table, server = fresh
    table.submit({"command": "fade", "player": "bob", "amount": 10})
    table.submit({"command": "dice_rolling"}, by="camera")
    table.submit({"command": "void", "rule": "R-I1",
                  "reason": "die 2 came to rest outside the area"}, by="camera")
    op = Phone(browser, server.url)
    page = op.log_in()
    wait_live(page)
    card = page.locator("#override")
    card.wait_for(timeout=3000)
    assert "void" in card.inner_text() and "die 2 came to rest outside the area" in card.inner_text()
    # the throw is void already: only its dice can be given
    assert card.locator('button[value="void"]').count() == 0
    page.click('#override-form .die-values[data-die="0"] label.face:nth-of-type(6)')  # 6
    page.click('#override-form .die-values[data-die="1"] label.face:nth-of-type(5)')  # 5
    page.fill('#override-form input[name="why"]', "the die lay on the line, inside")
    shot(page, "override-void", "#override")
    page.click('#override-form button[value="dice"]')
    page.wait_for_selector("#result.done", timeout=3000)
    # a natural 11: ann's center bet wins bob's fade (R-B2, R-C7)
    assert table.state()["state"]["balances"] == {"ann": 110, "bob": 90}
    page.wait_for_function("() => document.querySelector('#audit').textContent"
                           ".includes('the die lay on the line')", timeout=3000)
    ruled = table.journal_rows(0)[-1]
    assert ruled.command["dice"] == [6, 5] and ruled.extra["by"] == "operator"
    assert ruled.events[0]["previous"]["rule"] == "R-I1"
    assert op.outside == [] and op.errors == []
    op.close()


def test_a_reconnect_after_the_stream_drops_misses_no_event(served, browser):
    table, server = served
    phone = Phone(browser, server.url)
    page = phone.open("/")
    wait_live(page)
    start = table.state()["seq"]
    table.submit({"command": "join", "player": "cy", "buy_in": 50})
    page.wait_for_function(f"() => window.tablectl.seq() >= {start + 1}")
    page.evaluate("window.tablectl.drop()")  # the stream is gone (a phone asleep, WiFi lost)
    for n in range(3):
        table.submit({"command": "join", "player": f"p{n}", "buy_in": 5})
    end = table.state()["seq"]
    page.evaluate("window.tablectl.reconnect()")
    page.wait_for_function(f"() => window.tablectl.seq() >= {end}", timeout=5000)
    ids = page.evaluate("window.tablectl.received.filter(e => e.event !== 'table_status')"
                        ".map(e => e.id)")
    assert ids == list(range(start + 1, end + 1))
    page.wait_for_function("() => document.querySelector('.players-card').textContent"
                           ".includes('p2')")
    phone.close()


def test_statistics_page(served, browser):
    table, server = served
    phone = Phone(browser, server.url)
    page = phone.open("/stats")
    assert page.locator("svg.chart").count() == 2
    assert page.locator("svg.chart rect.bar").count() >= 22
    text = page.inner_text("main")
    assert "do not" in text or "does not" in text  # honest: the past does not predict
    assert "Too few throws to tell yet" in text
    shot(page, "statistics")
    page = phone.open("/?lang=ru")
    assert "Следующий бросок — выходной" in page.inner_text("main")
    shot(page, "phone-view-ru")
    assert phone.outside == [] and phone.errors == []
    phone.close()


def test_calibration_from_the_phone(tmp_path, browser):
    from vision.calibration import Calibration
    from vision.simulator import simulate_throw
    from web.calibrate import Calibrator

    clip = simulate_throw(seed=5, scenario="both_hit")
    image, truth = clip.frames[len(clip.frames) - 1][1], clip.calibration
    config = tmp_path / "table.toml"
    config.write_text("[camera]\nsource = \"simulator\"\n")
    table = Table(Journal.open(tmp_path / "evening.sqlite"))
    write_pin(tmp_path / "state", PIN)
    server = serve.start(table, host="127.0.0.1", port=0, state_dir=tmp_path / "state",
                         calibrator=Calibrator(lambda: image, config))
    try:
        phone = Phone(browser, server.url)
        phone.log_in()
        page = phone.open("/operator/calibrate")
        page.wait_for_function("() => document.getElementById('frame').naturalWidth > 0")
        box = page.locator("#frame").bounding_box()
        scale = box["width"] / image.shape[1]

        def tap(x, y):
            page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)

        for x, y in truth.area:
            tap(x, y)
        page.click('[data-step="wall"]')
        for x, y in truth.back_wall:
            tap(x, y)
        page.click('[data-step="die"]')
        cx, cy = truth.area[0][0] + 100, truth.area[0][1] + 100
        half = truth.die_px / 2
        page.mouse.move(box["x"] + (cx - half) * scale, box["y"] + (cy - half) * scale)
        page.mouse.down()
        page.mouse.move(box["x"] + (cx + half) * scale, box["y"] + (cy + half) * scale, steps=5)
        page.mouse.up()
        page.click("#write")
        page.wait_for_selector("#calib-result.done, #calib-result.error, #calib-result.refused")
        assert "Written to" in page.inner_text("#calib-result"), page.inner_text("#calib-result")
        page.wait_for_function("() => document.getElementById('drawn').naturalWidth > 0")
        written = Calibration.load(config)
        # taps land within a pixel or two of the true points (one CSS pixel is ~1.6 image px)
        for (x, y), (tx, ty) in zip(written.area, truth.area, strict=True):
            assert abs(x - tx) < 3 and abs(y - ty) < 3
        assert abs(written.die_px - truth.die_px) < 4
        shot(page, "calibration")
        assert phone.outside == [] and phone.errors == []
        phone.close()
    finally:
        server.stop()
        table.close()
