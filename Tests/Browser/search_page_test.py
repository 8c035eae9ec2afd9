#!/usr/bin/env python3
"""The demo search page of `suggest serve --demo-page`, in a real headless Chromium (selenium + chromedriver).

Starts the built `suggest serve --demo-page` on a free port with the demo configuration and a temporary users folder,
opens http://127.0.0.1:PORT/?user=browser-test, and checks what a person does with a search field: typing shows
grouped suggestions with the matched part marked; Down and Enter submit the active one; clearing the field shows it
under "Recent", also after a reload; Tab completes; Esc closes, then clears; text being composed by an input method is
not sent until it is committed; typed text turns into token chips that
Backspace removes; an answer to an older keystroke never replaces a newer one's; the ARIA combobox attributes; no
Content-Security-Policy violation; and stopping the server shows a clear message, then the page reconnects when the
server is back. The server believes `user=` there (--insecure-user-parameter); a second server verifies bearer tokens
(--jwt-secret-file), and the page opened with /#token=JWT keeps that user's recent searches across a reload, while a
page without a token is told why it cannot connect.

Usage: python3 Tests/Browser/search_page_test.py [--suggest .build-server/debug/suggest]
                                                 [--artefacts .build-server/browser-artefacts]
                                                 [--docs-screenshot PATH]
Needs Debian's chromium and chromium-driver and `pip install selenium` (`make test-browser` installs them). Exits 0
when every check passes; otherwise prints the failed check and saves a screenshot and the page's HTML in the
artefacts folder. Every wait has a timeout, and the whole run is stopped after --deadline seconds (default 300).
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    sys.exit("search_page_test: the Python package selenium is missing (pip install selenium)")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO_CONFIG = os.path.join(ROOT, "Sources/SuggestDemo/Resources/demo/demo.suggest.json")
USER = "browser-test"
WAIT = 10  # seconds for any one thing to appear in the page

# Injected before the page's own script (DevTools protocol; not subject to the page's policy). It wraps WebSocket so
# that the test can hold back chosen answers, to check that an answer to an older keystroke never replaces a newer
# one's: `window.__holdBack(message)` returns milliseconds to delay the message by (0: deliver now). And it records
# every text the connection banner shows in `window.__banners` (a message may last less than a poll), and every
# line the page sends in `window.__sent`.
INSTRUMENT = r"""
(() => {
  window.__banners = [];
  document.addEventListener("DOMContentLoaded", () => {
    const text = document.getElementById("banner-text");
    if (!text) return;
    new MutationObserver(() => window.__banners.push(text.textContent))
      .observe(text, { childList: true, characterData: true, subtree: true });
  });
  const Native = window.WebSocket;
  window.__heldBack = 0;
  window.__sent = [];
  window.__holdBack = () => 0;
  function Wrapped(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    const send = socket.send.bind(socket);
    socket.send = (data) => { window.__sent.push(data); send(data); };
    let handler = null;
    Object.defineProperty(socket, "onmessage", { get: () => handler, set: (h) => { handler = h; } });
    socket.addEventListener("message", (event) => {
      let delay = 0;
      try { delay = window.__holdBack(JSON.parse(event.data)) || 0; } catch (e) { delay = 0; }
      if (delay > 0) window.__heldBack += 1;
      setTimeout(() => { if (handler) handler.call(socket, { data: event.data }); }, delay);
    });
    return socket;
  }
  Wrapped.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Wrapped[name] = Native[name];
  window.WebSocket = Wrapped;
})();
"""


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def hs256_token(secret, subject, lifetime=3600):
    """A JWT signed HS256 with `secret` (bytes) for `subject`, valid for `lifetime` seconds."""
    def part(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    header = part(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = part(json.dumps({"sub": subject, "exp": int(time.time()) + lifetime}).encode())
    signature = hmac.new(secret, f"{header}.{claims}".encode(), hashlib.sha256).digest()
    return f"{header}.{claims}.{part(signature)}"


class Server:
    """`suggest serve --demo-page` as a child process; `port=0` picks a free port."""

    def __init__(self, suggest, users_folder, port=0, identity=("--insecure-user-parameter",)):
        self.process = subprocess.Popen(
            [suggest, "serve", "--config", DEMO_CONFIG, "--demo-page", "--port", str(port),
             "--users-folder", users_folder, "--log-level", "error", *identity],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        line = self._first_line(timeout=120)
        prefix = "listening on http://127.0.0.1:"
        if not line.startswith(prefix):
            self.stop()
            error = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
            raise CheckFailed(f"suggest serve did not start (first line {line!r}; standard error: {error.strip()!r})")
        self.port = int(line[len(prefix):])
        self.base = f"http://127.0.0.1:{self.port}"

    def _first_line(self, timeout):
        deadline = time.monotonic() + timeout
        data = b""
        fd = self.process.stdout.fileno()
        while b"\n" not in data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return data.decode(errors="replace")
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(fd, 512)
            if not chunk:
                break
            data += chunk
        return data.decode(errors="replace").split("\n")[0].strip()

    def stop(self):
        """SIGTERM (graceful shutdown), then SIGKILL if it has not exited within 15 s."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


def make_driver():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=800,640", "--force-device-scale-factor=1", "--lang=en-US",
                     "--force-prefers-reduced-motion", "--hide-scrollbars"]:
        options.add_argument(argument)
    binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if binary:
        options.binary_location = binary
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = shutil.which("chromedriver")
    service = Service(executable_path=driver_path) if driver_path else Service()
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": INSTRUMENT})
    return driver


class Page:
    """The search page in the browser, read through the DOM and its ARIA attributes."""

    def __init__(self, driver):
        self.driver = driver

    def wait(self, condition, what, timeout=WAIT):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda _: condition())
        except TimeoutException:
            raise CheckFailed(f"after {timeout} s: {what}") from None

    @property
    def input(self):
        return self.driver.find_element(By.ID, "q")

    def attribute(self, name):
        return self.input.get_attribute(name)

    def is_open(self):
        return self.attribute("aria-expanded") == "true"

    def options(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "#listbox [role=option]")

    # The list is rebuilt on every answer: these read it in one script, never from elements found earlier.
    def option_texts(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#listbox [role=option] .label')].map((e) => e.textContent)")

    def first_option_marks(self):
        return self.driver.execute_script(
            "const o = document.querySelector('#listbox [role=option]');"
            "return o ? [...o.querySelectorAll('mark')].map((m) => m.textContent) : []")

    def groups(self):
        """{section title: [option labels]}, each title found through the group's aria-labelledby."""
        return self.driver.execute_script("""
            const result = {};
            for (const group of document.querySelectorAll('#listbox [role=group]')) {
              const header = document.getElementById(group.getAttribute('aria-labelledby'));
              const labels = [...group.querySelectorAll('[role=option] .label')].map((e) => e.textContent);
              result[header ? header.textContent.trim().toLowerCase() : '(no header)'] = labels;
            }
            return result;""")

    def chips(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#chips .chip > span')].map((e) => e.textContent)")

    def value(self):
        return self.input.get_attribute("value")

    def text_of(self, element_id):
        return self.driver.find_element(By.ID, element_id).text

    def banner(self):
        banner = self.driver.find_element(By.ID, "banner")
        return banner.text if banner.is_displayed() else ""

    def connected(self):
        meta = self.text_of("meta")
        return meta.startswith("Connected") or "suggestion" in meta or meta.startswith("engine")

    def type(self, text):
        self.input.send_keys(text)

    def press(self, *keys):
        self.input.send_keys(*keys)

    def clear(self):
        self.input.send_keys(Keys.CONTROL, "a")
        self.input.send_keys(Keys.BACKSPACE)

    def shown_answer(self):
        """The text whose answer the list shows (the listbox's data-text)."""
        return self.driver.find_element(By.ID, "listbox").get_attribute("data-text")

    def wait_for_answer_to(self, text):
        """Until the open list shows the answer to `text`."""
        self.wait(lambda: self.value() == text and self.shown_answer() == text and self.is_open() and self.options(),
                  f"no list for {text!r} (field {self.value()!r}, list for {self.shown_answer()!r})")


def screenshot(driver, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    driver.save_screenshot(path)
    return path


def cropped_screenshot(driver, path):
    """The page down to the bottom of its content (the open list included), for the documentation."""
    bottom = driver.execute_script(
        "return Math.max(...['main', '#popup'].map((s) => document.querySelector(s).getBoundingClientRect().bottom))")
    width = driver.execute_script("return document.documentElement.clientWidth")
    picture = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "clip": {"x": 0, "y": 0, "width": width, "height": int(bottom) + 8, "scale": 1}})
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as out:
        out.write(base64.b64decode(picture["data"]))


def run(arguments):
    artefacts = arguments.artefacts
    os.makedirs(artefacts, exist_ok=True)
    users_folder = tempfile.mkdtemp(prefix="suggest-browser-users-")
    server = Server(arguments.suggest, users_folder)
    driver = None
    steps = None
    try:
        driver = make_driver()
        page = Page(driver)
        steps = Steps(driver, page, server, arguments, users_folder)
        try:
            steps.all()
        except (CheckFailed, WebDriverException) as failure:
            picture = screenshot(driver, os.path.join(artefacts, "search-page-failure.png"))
            with open(os.path.join(artefacts, "search-page-failure.html"), "w", encoding="utf-8") as out:
                out.write(driver.page_source)
            print(f"FAIL: {steps.current}: {failure}", file=sys.stderr)
            print(f"  screenshot: {picture}; page: {os.path.join(artefacts, 'search-page-failure.html')}",
                  file=sys.stderr)
            for entry in driver.get_log("browser"):
                print(f"  browser console: {entry.get('level')}: {entry.get('message')}", file=sys.stderr)
            if isinstance(failure, WebDriverException):
                traceback.print_exc()
            return 1
        print(f"PASS: {len(steps.passed)} checks ({', '.join(steps.passed)})")
        print(f"  screenshot: {os.path.join(artefacts, 'search-page.png')}")
        return 0
    finally:
        if driver is not None:
            driver.quit()
        server.stop()
        if steps is not None and steps.server is not server:
            steps.server.stop()  # the one started again after the stop
        shutil.rmtree(users_folder, ignore_errors=True)


class Steps:
    def __init__(self, driver, page, server, arguments, users_folder):
        self.driver, self.page, self.server = driver, page, server
        self.arguments, self.users_folder = arguments, users_folder
        self.current = "start"
        self.passed = []

    def step(self, name):
        if self.current != "start":
            self.passed.append(self.current)
        self.current = name
        print(f"  {name}", flush=True)

    def open(self):
        self.driver.get(f"{self.server.base}/?user={USER}")
        self.page.wait(self.page.connected, "the page did not connect to /ws (meta line: "
                       f"{self.page.text_of('meta')!r}, banner: {self.page.banner()!r})")
        self.page.input.click()

    def all(self):
        page, driver = self.page, self.driver
        self.step("the page loads and connects")
        self.open()

        self.step("ARIA combobox attributes")
        check(page.attribute("role") == "combobox", "the input's role is not combobox")
        listbox = driver.find_element(By.ID, page.attribute("aria-controls") or "missing")
        check(listbox.get_attribute("role") == "listbox", "aria-controls does not name a role=listbox element")
        check(page.attribute("aria-expanded") == "false", "aria-expanded is not false before typing")
        check(page.attribute("aria-activedescendant") is None, "aria-activedescendant is set before any choice")

        self.step("typing shows grouped suggestions with the matched part marked")
        page.type("pyt")
        page.wait_for_answer_to("pyt")
        check("python" in page.option_texts(), f"'python' is not suggested for 'pyt': {page.option_texts()}")
        groups = page.groups()
        check("suggestions" in groups, f"no group labelled Suggestions (aria-labelledby): {groups}")
        marks = page.first_option_marks()
        check(marks and "".join(marks).lower() == "pyt", f"the first option's marked part is {marks}, not 'pyt'")
        meta = page.text_of("meta")
        check("engine" in meta and ("\u00b5s" in meta or " ms" in meta), f"no keystroke time shown: {meta!r}")
        for option in page.options():
            check(option.get_attribute("id"), "an option has no id (aria-activedescendant needs one)")
            check(option.get_attribute("aria-selected") == "false", "an option is selected before any arrow key")

        self.step("Down makes the first option active (aria-activedescendant, aria-selected)")
        page.press(Keys.ARROW_DOWN)
        first = page.options()[0]
        chosen = page.option_texts()[0]
        check(page.attribute("aria-activedescendant") == first.get_attribute("id"),
              "after Down, aria-activedescendant does not name the first option")
        check(first.get_attribute("aria-selected") == "true", "after Down, the first option is not aria-selected")
        page.press(Keys.ARROW_DOWN)
        second = page.options()[1]
        check(page.attribute("aria-activedescendant") == second.get_attribute("id"), "a second Down does not move on")
        page.press(Keys.ARROW_UP)
        check(page.attribute("aria-activedescendant") == first.get_attribute("id"), "Up does not move back")

        self.step("Enter submits the active option")
        page.press(Keys.ENTER)
        page.wait(lambda: not page.is_open(), "the list stayed open after Enter")
        page.wait(lambda: f"\u201c{chosen}\u201d" in page.text_of("outcome"),
                  f"no acknowledgement of the search for {chosen!r}: {page.text_of('outcome')!r}")
        check(page.value() == chosen, f"the field holds {page.value()!r}, not the submitted {chosen!r}")
        check("kept in memory only" not in page.text_of("outcome").lower(),
              f"a search written to --users-folder is said to be kept in memory: {page.text_of('outcome')!r}")
        check(not re.search(r"\d+ suggestions?\b", page.text_of("meta")),
              f"the line under the field counts the suggestions of a closed list: {page.text_of('meta')!r}")

        self.step("clearing the field shows the search under Recent")
        page.clear()
        page.wait(lambda: chosen in page.groups().get("recent", []),
                  f"{chosen!r} is not under Recent on an empty field: {page.groups()}")
        check(os.path.exists(os.path.join(self.users_folder, "history", f"{USER}.json")),
              "the server did not save the user's recent searches in --users-folder")

        self.step("the recent search is still there after a reload")
        driver.refresh()
        self.open()
        page.wait(lambda: chosen in page.groups().get("recent", []),
                  f"after a reload, {chosen!r} is not under Recent: {page.groups()}")

        self.step("Esc closes the list, then clears the field")
        page.type("pyt")
        page.wait_for_answer_to("pyt")
        page.press(Keys.ESCAPE)
        page.wait(lambda: not page.is_open(), "Esc did not close the list")
        check(page.value() == "pyt", f"the first Esc changed the text to {page.value()!r}")
        check(page.attribute("aria-activedescendant") is None, "aria-activedescendant is set on a closed list")
        page.press(Keys.ESCAPE)
        page.wait(lambda: page.value() == "", "the second Esc did not clear the field")
        time.sleep(0.3)
        check(not page.is_open(), "the list reopened after Esc cleared the field")
        check(not re.search(r"\d+ suggestions?\b", page.text_of("meta")),
              f"after Esc, the line under the field counts suggestions nobody sees: {page.text_of('meta')!r}")

        self.step("Tab completes the common completion, then the active option")
        page.type("pyt")
        page.wait_for_answer_to("pyt")
        page.press(Keys.TAB)
        page.wait(lambda: page.value() == "python", f"Tab did not complete 'pyt' to 'python': {page.value()!r}")
        check(driver.switch_to.active_element == page.input, "Tab moved the focus away from the field")
        page.clear()
        page.type("new y")
        page.wait_for_answer_to("new y")
        page.press(Keys.ARROW_DOWN, Keys.TAB)
        page.wait(lambda: page.value() == "New York", f"Down Tab did not complete 'New York': {page.value()!r}")

        self.step("no keystroke is sent while an input method composes text; the committed text is sent once")
        page.clear()
        page.wait(lambda: page.value() == "", "the field was not cleared")
        # The events an input method makes while "pyt" is composed, then committed; the last input event after
        # compositionend is what some browsers (Safari) add.
        driver.execute_script("""
            window.__sent = [];
            const input = document.getElementById('q');
            input.dispatchEvent(new CompositionEvent('compositionstart', { data: '' }));
            for (const value of ['p', 'py', 'pyt']) {
              input.value = value;
              input.dispatchEvent(new InputEvent('input', { data: value, isComposing: true, inputType: 'insertCompositionText' }));
            }
            input.dispatchEvent(new CompositionEvent('compositionend', { data: 'pyt' }));
            input.dispatchEvent(new InputEvent('input', { data: 'pyt', inputType: 'insertText' }));""")
        page.wait_for_answer_to("pyt")
        sent = [json.loads(line) for line in driver.execute_script("return window.__sent")]
        texts = [line["text"] for line in sent if "text" in line]
        check(texts == ["pyt"], f"while composing, the page sent {texts}, not one keystroke for 'pyt'")

        self.step("typed text turns into token chips; Backspace on an empty field removes the last")
        page.clear()
        page.type("chicken ")
        page.wait(lambda: page.chips() == ["Chicken"], f"'chicken ' did not become a chip: {page.chips()}")
        check(page.value() == "", f"the field still holds {page.value()!r} after the token")
        page.type("from:al")
        page.wait_for_answer_to("from:al")
        labels = page.option_texts()
        check("From: alice" in labels, f"no token suggestion 'From: alice' for 'from:al': {labels}")
        index = labels.index("From: alice")
        page.press(*([Keys.ARROW_DOWN] * (index + 1)), Keys.ENTER)
        page.wait(lambda: page.chips() == ["Chicken", "From: alice"], f"choosing a token: chips {page.chips()}")
        check(page.value() == "", f"the token's text stayed in the field: {page.value()!r}")
        screenshot(driver, os.path.join(self.arguments.artefacts, "search-page-tokens.png"))
        page.press(Keys.BACKSPACE)
        page.wait(lambda: page.chips() == ["Chicken"], f"Backspace did not remove the last chip: {page.chips()}")
        driver.find_element(By.CSS_SELECTOR, "#chips .chip button").click()
        page.wait(lambda: page.chips() == [], f"the chip's remove button did not remove it: {page.chips()}")
        check(driver.switch_to.active_element == page.input, "removing a chip left the focus off the field")

        self.step("an answer to an older keystroke never replaces a newer one's")
        driver.execute_script("window.__heldBack = 0;"
                              "window.__holdBack = (m) => m.text === 'py' && m.generation ? 1500 : 0;")
        page.type("py")
        page.wait(lambda: driver.execute_script("return window.__heldBack") >= 1,
                  "the answer to 'py' never reached the page")
        page.type("t")
        page.wait_for_answer_to("pyt")
        time.sleep(2.0)  # the held-back answer to 'py' has now been delivered
        marks = page.first_option_marks()
        check("".join(marks).lower() == "pyt",
              f"the late answer to 'py' replaced the answer to 'pyt' (first option marks {marks})")
        driver.execute_script("window.__holdBack = () => 0;")

        self.step("the screenshot")
        page.clear()
        page.type("pyt")
        page.wait_for_answer_to("pyt")
        page.press(Keys.ARROW_DOWN)
        time.sleep(0.3)
        screenshot(driver, os.path.join(self.arguments.artefacts, "search-page.png"))
        if self.arguments.docs_screenshot:
            cropped_screenshot(driver, self.arguments.docs_screenshot)

        self.step("no Content-Security-Policy violation")
        problems = [e["message"] for e in driver.get_log("browser")
                    if "Content Security Policy" in e.get("message", "") or "TrustedHTML" in e.get("message", "")]
        check(not problems, f"the browser reported: {problems}")

        self.step("a stopped server shows a clear message, and the page reconnects when it is back")
        port = self.server.port
        self.server.stop()
        banners = lambda: driver.execute_script("return window.__banners") or []
        page.wait(lambda: any("connection to the server was lost" in b.lower() for b in banners()),
                  f"no message after the server stopped (banner {page.banner()!r})")
        check(driver.find_element(By.ID, "banner").get_attribute("role") == "alert", "the message is not role=alert")
        page.wait(lambda: "cannot connect" in page.banner().lower(),
                  f"no 'cannot connect' message while the server is down (banner {page.banner()!r})")
        check(not page.is_open(), "the list stayed open without a connection")
        screenshot(driver, os.path.join(self.arguments.artefacts, "search-page-disconnected.png"))
        page.clear()
        page.type("pyt")
        check(not page.is_open(), "a list opened while disconnected")
        self.server = Server(self.arguments.suggest, self.users_folder, port=port)
        page.wait(lambda: "connected again" in page.banner().lower(), "the page did not reconnect", timeout=20)
        page.wait_for_answer_to("pyt")
        check(chosen in page.groups().get("recent", []) or chosen in page.option_texts(),
              f"after reconnecting, the recent search {chosen!r} is missing: {page.groups()}")

        self.step("an anonymous search, not stored, says it is kept in memory only and why")
        driver.get(f"{self.server.base}/")
        page.wait(page.connected, f"the page did not connect anonymously (banner {page.banner()!r})")
        page.input.click()
        page.type("pyt")
        page.wait_for_answer_to("pyt")
        page.press(Keys.ENTER)
        page.wait(lambda: "Kept in memory only: an anonymous connection" in page.text_of("outcome"),
                  f"the outcome does not say the search is kept in memory only: {page.text_of('outcome')!r}")

        self.step("a user id the server refuses is named in the message")
        driver.get(f"{self.server.base}/?user={'x' * 101}")
        page.wait(lambda: "refused the connection: user: invalid user id" in page.banner(),
                  f"no message naming the refused user (banner {page.banner()!r})")

        self.step("with bearer tokens, /#token=JWT keeps the token's user across a reload")
        secret = b"browser-test-secret-of-at-least-32-bytes"
        secret_file = os.path.join(self.users_folder, "jwt-secret")
        with open(secret_file, "wb") as out:
            out.write(secret)
        tokens_folder = os.path.join(self.users_folder, "bearer")
        os.makedirs(tokens_folder, exist_ok=True)
        self.server.stop()
        self.server = Server(self.arguments.suggest, tokens_folder, identity=("--jwt-secret-file", secret_file))
        driver.get(f"{self.server.base}/#token={hs256_token(secret, 'carol')}")
        page.wait(page.connected, f"the page did not connect with a token (banner {page.banner()!r})")
        check("carol" in page.text_of("lead"), f"the page does not say it is carol's: {page.text_of('lead')!r}")
        page.input.click()
        page.type("pyt")
        page.wait_for_answer_to("pyt")
        page.press(Keys.ENTER)
        page.wait(lambda: "\u201cpyt\u201d" in page.text_of("outcome"),
                  f"no acknowledgement of the search: {page.text_of('outcome')!r}")
        driver.refresh()
        page.wait(page.connected, "the page did not reconnect with its token after a reload")
        page.input.click()
        page.clear()
        page.wait(lambda: "pyt" in page.groups().get("recent", []),
                  f"after a reload with the token, 'pyt' is not under Recent: {page.groups()}")
        # One folder per "recent" provider, one file per user in it: FOLDER/PROVIDER/USER.json.
        saved = [name for name in os.listdir(tokens_folder)
                 if os.path.exists(os.path.join(tokens_folder, name, "carol.json"))]
        check(saved, f"carol's recent searches were not saved (in {sorted(os.listdir(tokens_folder))})")

        self.step("without a token, the page says the server wants one")
        driver.get(f"{self.server.base}/")
        page.wait(lambda: "bearer token" in page.banner().lower(),
                  f"no message saying a bearer token is missing (banner {page.banner()!r})")
        self.step("done")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suggest", default=os.path.join(ROOT, ".build-server/debug/suggest"))
    parser.add_argument("--artefacts", default=os.path.join(ROOT, ".build-server/browser-artefacts"))
    parser.add_argument("--docs-screenshot", help="also save the screenshot here (for the documentation)")
    parser.add_argument("--deadline", type=int, default=300, help="stop the whole run after this many seconds")
    arguments = parser.parse_args()
    if not os.access(arguments.suggest, os.X_OK):
        sys.exit(f"search_page_test: {arguments.suggest} is not an executable "
                 "(build it: swift build --traits PCRE2,Server --scratch-path .build-server)")

    def out_of_time(signum, frame):
        raise CheckFailed(f"the whole test took longer than {arguments.deadline} s")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(arguments.deadline)
    sys.exit(run(arguments))


if __name__ == "__main__":
    main()
