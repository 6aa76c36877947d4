"""A headless Chromium driven over the DevTools protocol, for tests that use a page as a person does.

The browser talks on a pipe (`--remote-debugging-pipe`: it reads commands on fd 3 and writes
replies and events on fd 4, each a JSON text ended by a NUL byte), so no port and no extra
package is needed. `Browser.open(url)` gives a `Page` that records every console message,
uncaught exception, log entry (CSP refusals among them) and network request the page makes.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import time
from typing import Any

BROWSERS = ("chromium", "chromium-browser")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--mute-audio")


def chromium() -> str | None:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


class BrowserError(RuntimeError):
    pass


class Browser:
    def __init__(self, width: int = 1400, height: int = 1000, timeout: float = 120.0) -> None:
        path = chromium()
        if path is None:
            raise BrowserError("no chromium")
        self.timeout = timeout
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire() -> None:  # in the child: the browser's fds 3 and 4 are our pipes
            # moved above 4 first, so that neither dup2 closes the other pipe's end
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser_r, from_browser_w)]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [path, *FLAGS, f"--window-size={width},{height}", "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,  # noqa: PLW1509 (a test fixture, single-threaded here)
            pass_fds=(3, 4, to_browser_r, from_browser_w),
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []

    # --- the wire ---------------------------------------------------------------------------

    def _read_message(self, deadline: float) -> dict[str, Any]:
        import select

        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("the browser did not answer in time")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise BrowserError("the browser closed its pipe")
                self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict[str, Any]:
        """A command's result; events that arrive meanwhile are kept in `events`."""
        self._next_id += 1
        ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == ident:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, method: str, session: str, since: int = 0) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while True:
            for event in self.events[since:]:
                if event["method"] == method and event.get("sessionId") == session:
                    return event
            since = len(self.events)
            self.events.append(self._read_message(deadline))

    # --- pages --------------------------------------------------------------------------------

    def open(self, url: str) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable", session=session)
        mark = len(self.events)
        self.send("Page.navigate", {"url": url}, session=session)
        self.wait_event("Page.loadEventFired", session, mark)
        return Page(self, session, url)

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Page:
    def __init__(self, browser: Browser, session: str, url: str) -> None:
        self.browser, self.session, self.url = browser, session, url

    def send(self, method: str, params: dict | None = None) -> dict[str, Any]:
        return self.browser.send(method, params, session=self.session)

    def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression (promises awaited)."""
        result = self.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 60.0) -> Any:
        """Poll until the expression is truthy; its value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.eval(expression)
            if value:
                return value
            time.sleep(0.05)
        raise BrowserError(f"still false after {timeout:.0f} s: {expression}")

    def key(self, key: str, code: int) -> None:
        """One key pressed and released, as the keyboard sends it."""
        for kind in ("keyDown", "keyUp"):
            self.send(
                "Input.dispatchKeyEvent",
                {"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code},
            )

    def click(self, selector: str) -> None:
        """A mouse click at the middle of the element."""
        box = self.eval(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        for kind in ("mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1},
            )

    def screenshot(self) -> bytes:
        return base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])

    def _events(self, *methods: str) -> list[dict[str, Any]]:
        return [
            e for e in self.browser.events if e.get("sessionId") == self.session and e["method"] in methods
        ]

    def console(self) -> list[str]:
        """Every console message, uncaught exception and browser log entry (a refused request too)."""
        out = []
        for e in self._events("Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Log.entryAdded"):
            p = e["params"]
            if e["method"] == "Runtime.consoleAPICalled":
                out.append(
                    f"console.{p['type']}: {[a.get('value', a.get('description')) for a in p['args']]}"
                )
            elif e["method"] == "Runtime.exceptionThrown":
                out.append(f"exception: {p['exceptionDetails'].get('text')}")
            else:
                out.append(f"log {p['entry']['level']}: {p['entry']['text']}")
        return out

    def requests(self) -> list[str]:
        """The URL of every request the page made (the page itself first)."""
        return [e["params"]["request"]["url"] for e in self._events("Network.requestWillBeSent")]
