"""A small Chrome DevTools Protocol client for the browser tests (standard library only).

``Browser`` starts the system ``chromium`` headless with ``--remote-debugging-port=0`` (flags from
DESIGN.md), reads the port from ``DevToolsActivePort`` and opens a page target over a WebSocket
(RFC 6455 client: masked text frames out, unmasked frames in, fragments joined).  ``Page.call``
sends one command and returns its result; every event received meanwhile is kept in ``events``.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import time
import urllib.request
from pathlib import Path

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
]


class CDPError(RuntimeError):
    """The browser did not start, a command failed, or an expected event did not come in time."""


class _WebSocket:
    def __init__(self, url: str, timeout: float):
        assert url.startswith("ws://"), url
        host_port, path = url[5:].split("/", 1)
        host, port = host_port.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise CDPError("websocket handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise CDPError(f"websocket handshake refused: {head[:200]!r}")

    def send(self, text: str) -> None:
        data = text.encode()
        n = len(data)
        header = bytes([0x81]) + (
            bytes([0x80 | n])
            if n < 126
            else bytes([0x80 | 126]) + struct.pack(">H", n)
            if n < 65536
            else bytes([0x80 | 127]) + struct.pack(">Q", n)
        )
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _exact(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise CDPError("websocket closed")
            buf += chunk
        return buf

    def recv(self) -> str:
        parts = []
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._exact(8))[0]
            payload = self._exact(n)
            if b0 & 0x0F == 0x8:
                raise CDPError("websocket closed by the browser")
            if b0 & 0x0F in (0x9, 0xA):  # ping/pong: not used by Chromium's DevTools server
                continue
            parts.append(payload)
            if b0 & 0x80:
                return b"".join(parts).decode()


class Page:
    """One page target: ``call(method, **params)`` and the ``events`` seen so far."""

    def __init__(self, ws_url: str, timeout: float = 30):
        self.ws = _WebSocket(ws_url, timeout)
        self.timeout = timeout
        self.next_id = 0
        self.events: list[dict] = []

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise CDPError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression (promises awaited)."""
        res = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in res:
            raise CDPError(f"{expression[:80]}: {res['exceptionDetails']}")
        return res["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 15) -> None:
        """Poll ``expression`` until it is truthy."""
        end = time.monotonic() + timeout
        while not self.evaluate(expression):
            if time.monotonic() > end:
                raise CDPError(f"timed out waiting for {expression}")
            time.sleep(0.1)

    def goto(self, url: str) -> None:
        """Navigate and wait for the load event."""
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete' && location.href !== 'about:blank'")


class Browser:
    """Headless ``chromium`` with DevTools on 127.0.0.1; use as a context manager."""

    def __init__(self, chromium: str, profile: Path):
        self.profile = Path(profile)
        self.proc = subprocess.Popen(
            [chromium, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = Path(profile) / "DevToolsActivePort"
        end = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
            if time.monotonic() > end or self.proc.poll() is not None:
                self.close()
                raise CDPError(f"chromium did not start (no {port_file})")
            time.sleep(0.1)
        self.port = int(port_file.read_text().split("\n")[0])

    def page(self) -> Page:
        """A fresh page target with Page, Runtime, Network and Log events enabled."""
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/json/new?about:blank", method="PUT")
        with urllib.request.urlopen(req, timeout=30) as resp:
            target = json.loads(resp.read())
        page = Page(target["webSocketDebuggerUrl"])
        for domain in ("Page", "Runtime", "Network", "Log"):
            page.call(f"{domain}.enable")
        return page

    def close(self) -> None:
        """Stop chromium and remove the singleton directory it leaves in the temp directory when
        terminated (``org.chromium.Chromium.*``, named by the profile's ``SingletonSocket`` link)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        try:
            leftover = Path(os.readlink(self.profile / "SingletonSocket")).parent
        except OSError:
            return
        if leftover.name.startswith("org.chromium.Chromium."):
            shutil.rmtree(leftover, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
