"""Drives the viewer's page in headless Chromium as a user would, through
the DevTools protocol over a pipe (--remote-debugging-pipe: JSON messages
ended by NUL on file descriptors 3 and 4; the standard library only).

    python3 view_click.py CHROMIUM URL PROFILE_DIR SCREENSHOT.png

Loads URL, then clicks the first call's link, clicks the rtype stage
button, presses "/" and types a search, presses Enter; after each step
prints one line, `STEP {json}`, of what the page shows (the function and
stage, the fragment, the operations drawn, the functions listed).  It
writes a screenshot after the click.  cli/tests/view.rs runs it and
checks the lines.
"""

import base64
import fcntl
import json
import os
import subprocess
import sys
import time


class Browser:
    def __init__(self, chromium, profile):
        to_read, to_write = os.pipe()
        from_read, from_write = os.pipe()

        def child():
            # out of the way of 3 and 4 first, then onto them
            a = fcntl.fcntl(to_read, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_write, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [
                chromium,
                "--headless",
                "--disable-gpu",
                "--no-sandbox",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
                "--user-data-dir=" + profile,
                "--window-size=1280,900",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,
            preexec_fn=child,
        )
        os.close(to_read)
        os.close(from_write)
        self.out = os.fdopen(to_write, "wb")
        self.inp = os.fdopen(from_read, "rb")
        self.buf = b""
        self.last_id = 0
        self.session = None

    def call(self, method, **params):
        self.last_id += 1
        msg = {"id": self.last_id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        self.out.write(json.dumps(msg).encode() + b"\0")
        self.out.flush()
        while True:
            reply = self.receive()
            if reply.get("id") == self.last_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})

    def receive(self):
        while b"\0" not in self.buf:
            chunk = self.inp.read1(1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its end of the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def attach(self):
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call(
            "Target.attachToTarget", targetId=page["targetId"], flatten=True
        )["sessionId"]

    def evaluate(self, expression):
        result = self.call(
            "Runtime.evaluate",
            expression=expression,
            returnByValue=True,
            awaitPromise=True,
        )
        if "exceptionDetails" in result:
            raise RuntimeError("%s: %s" % (expression, result["exceptionDetails"]))
        return result["result"].get("value")

    def wait_for(self, expression, what):
        deadline = time.time() + 15
        while time.time() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.05)
        raise RuntimeError("timed out waiting for " + what)

    def click(self, selector):
        x, y = self.evaluate(
            "(() => { const e = document.querySelector(%s);"
            " e.scrollIntoView({block: 'center', inline: 'center'});"
            " const r = e.getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()" % json.dumps(selector)
        )
        self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        for kind in ("mousePressed", "mouseReleased"):
            self.call(
                "Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1
            )

    def key(self, key, code, keycode, text=None):
        down = dict(type="keyDown", key=key, code=code, windowsVirtualKeyCode=keycode)
        if text is not None:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", **down)
        self.call(
            "Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=keycode
        )

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


STATE = """(() => ({
  fn: document.body.dataset.fn,
  stage: document.body.dataset.stage,
  shown: document.getElementById("fn-name").textContent,
  hash: decodeURIComponent(location.hash),
  ops: Array.from(document.querySelectorAll("#graph .op")).map(e => e.textContent),
  listed: Array.from(document.querySelectorAll("#fnlist li:not([hidden])")).map(e => e.textContent),
  focused: document.activeElement ? document.activeElement.id : null,
}))()"""


def step(browser, name):
    state = browser.evaluate(STATE)
    print("STEP " + json.dumps(dict(state, step=name), sort_keys=True), flush=True)
    return state


def main():
    chromium, url, profile, screenshot = sys.argv[1:5]
    browser = Browser(chromium, profile)
    try:
        browser.attach()
        browser.call("Page.enable")
        browser.call("Page.navigate", url=url)
        browser.wait_for(
            "document.readyState === 'complete' && !!document.body.dataset.stage", "the page"
        )
        before = step(browser, "load")
        browser.click("#graph a.call")
        browser.wait_for("document.body.dataset.fn !== %s" % json.dumps(before["fn"]), "the click")
        step(browser, "click-call")
        shot = browser.call("Page.captureScreenshot", format="png")
        with open(screenshot, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        browser.click("#stage-rtype")
        browser.wait_for("document.body.dataset.stage === 'rtype'", "the stage switch")
        step(browser, "click-rtype")
        browser.key("/", "Slash", 191, text="/")
        browser.call("Input.insertText", text="call")
        step(browser, "search")
        before = browser.evaluate("document.body.dataset.fn")
        browser.key("Enter", "Enter", 13, text="\r")
        browser.wait_for("document.body.dataset.fn !== %s" % json.dumps(before), "Enter")
        step(browser, "enter")
    finally:
        browser.close()


if __name__ == "__main__":
    main()
