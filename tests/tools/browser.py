#!/usr/bin/env python3
"""browser.py BROWSER PROFILE [PAGE [dom=FILE] [shot=FILE] [size=W,H]]...

Several pages in one headless browser, where --dump-dom and --screenshot
start a browser per page, seconds each.  BROWSER (chromium) runs
headless, sandbox off (root in CI), without GPU or network, its profile
in the directory PROFILE, driven through --remote-debugging-pipe.  Each
PAGE (a file) is loaded in a tab of its own, W x H pixels (default 800 x
600); once it has loaded, its DOM goes to the dom FILE as --dump-dom
prints it (the doctype, then the outerHTML of the document), and a PNG
of the tab to the shot FILE, as --screenshot takes it.  The browser's
output, the pages' console among it (CONSOLE), goes to stderr.  Exit
status 1, and a message, when the browser fails a command or ends
before the last page is done.
"""
import base64
import fcntl
import json
import os
import sys

DUMP_DOM = ("(document.doctype ? new XMLSerializer()"
            ".serializeToString(document.doctype) + '\\n' : '')"
            " + document.documentElement.outerHTML")


def high(fd):
    """fd moved to a descriptor above 9, out of the way of 3 and 4"""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class Browser:
    """The browser, and its end of the pipes: it reads commands on its
    descriptor 3 and writes answers and events on 4, each a JSON text
    ended by a NUL byte."""

    def __init__(self, cmd):
        cmd_r, self.cmd_w = map(high, os.pipe())
        self.out_r, out_w = map(high, os.pipe())
        # its standard output on stderr too: nothing of it in a test's TAP
        self.pid = os.posix_spawnp(
            cmd[0], cmd + ["--remote-debugging-pipe", "about:blank"],
            os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, cmd_r, 3),
                                      (os.POSIX_SPAWN_DUP2, out_w, 4),
                                      (os.POSIX_SPAWN_DUP2, 2, 1)])
        os.close(cmd_r)
        os.close(out_w)
        self.buf, self.events, self.last_id = b"", [], 0

    def wait(self):
        """the browser's exit status"""
        return os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])

    def receive(self):
        while b"\0" not in self.buf:
            got = os.read(self.out_r, 1 << 16)
            if not got:
                sys.exit("browser.py: the browser ended (exit status %s)"
                         % self.wait())
            self.buf += got
        text, self.buf = self.buf.split(b"\0", 1)
        return json.loads(text)

    def send(self, method, params=None, session=None):
        self.last_id += 1
        msg = {"id": self.last_id, "method": method, "params": params or {}}
        if session is not None:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")

    def call(self, method, params=None, session=None):
        self.send(method, params, session)
        while True:
            m = self.receive()
            if m.get("id") == self.last_id:
                if "error" in m:
                    sys.exit("browser.py: %s: %s" % (method, m["error"]))
                return m["result"]
            if "method" in m:
                self.events.append(m)

    def event(self, method, session):
        while True:
            for m in self.events:
                if m["method"] == method and m.get("sessionId") == session:
                    self.events.remove(m)
                    return m
            m = self.receive()
            if "method" in m:
                self.events.append(m)

    def close(self):
        """ends the browser: whatever it still says, until it is gone"""
        self.send("Browser.close")
        while os.read(self.out_r, 1 << 16):
            pass
        self.wait()


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: " + __doc__.split("\n")[0])
    browser, profile = sys.argv[1:3]
    pages = []
    for a in sys.argv[3:]:
        key, eq, value = a.partition("=")
        if eq and key in ("dom", "shot", "size") and pages:
            pages[-1][key] = value
        else:
            pages.append({"url": "file://" + os.path.abspath(a)})
    b = Browser([browser, "--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--no-first-run",
                 "--user-data-dir=" + profile, "--enable-logging=stderr",
                 "--v=0"])
    for p in pages:
        target = b.call("Target.createTarget", {"url": "about:blank"})
        tid = target["targetId"]
        sid = b.call("Target.attachToTarget",
                     {"targetId": tid, "flatten": True})["sessionId"]
        w, h = map(int, p.get("size", "800,600").split(","))
        b.call("Emulation.setDeviceMetricsOverride",
               {"width": w, "height": h, "deviceScaleFactor": 1,
                "mobile": False}, sid)
        b.call("Page.enable", None, sid)
        nav = b.call("Page.navigate", {"url": p["url"]}, sid)
        if "errorText" in nav:
            sys.exit("browser.py: %s: %s" % (p["url"], nav["errorText"]))
        b.event("Page.loadEventFired", sid)
        if "dom" in p:
            r = b.call("Runtime.evaluate",
                       {"expression": DUMP_DOM, "returnByValue": True}, sid)
            with open(p["dom"], "w") as f:
                f.write(r["result"]["value"] + "\n")
        if "shot" in p:
            r = b.call("Page.captureScreenshot", {"format": "png"}, sid)
            with open(p["shot"], "wb") as f:
                f.write(base64.b64decode(r["data"]))
        b.call("Target.closeTarget", {"targetId": tid})
    b.close()


if __name__ == "__main__":
    main()
