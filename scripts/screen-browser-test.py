#!/usr/bin/env python3
"""Browser test of a virtual device's TV screen (run by scripts/screen-browser-test.sh).

Runs inside a loopback-only network namespace. Starts `cast-emulator` on 127.0.0.2, serves an
ffmpeg-made clip, its artwork and captions from a file server in this process, opens the
device's screen (http://127.0.0.2:8008/) in headless Chromium driven over the DevTools
protocol (--remote-debugging-pipe), drives the device over the Cast channel (TLS, framed
CastMessages) and checks what the page shows. Saves a PNG screenshot of each state in the
artifacts directory. Exits 1 when a check fails. Python standard library only.

With --castvideos, then does the same for castvideos' built-in device playing the built-in
catalog's media: castvideos runs in tmux (its media made into --cache first), a video is cast
with the keys a person types, and the built-in device's screen (http://127.0.0.77:8008/) must
play it in its <video>: two pictures of the video alone, taken a second and a half apart,
differ (the frame moved).
"""

import argparse
import base64
import http.server
import json
import os
import socket
import ssl
import struct
import subprocess
import sys
import threading
import time
import urllib.request

DEVICE = "127.0.0.2"
SCREEN = f"http://{DEVICE}:8008/"
NAME = "Living Room TV"
TITLE = "Big Test Pattern"
DEADLINE = 30.0
REBOUND = "attacker.example"
CONTROL = f"http://{DEVICE}:8008/control/faults"

failures = []


def log(text):
    print(f"screen-test: {text}", flush=True)


def check(condition, what):
    log(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)
    return condition


# MARK: media


def ffmpeg(arguments):
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y"] + arguments, check=True, timeout=180)


def make_media(directory):
    clip = os.path.join(directory, "clip.mp4")
    ffmpeg([
        "-f", "lavfi", "-i", "testsrc2=duration=40:size=640x360:rate=25", "-f", "lavfi", "-i",
        "sine=frequency=440:duration=40", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
        "-c:a", "aac", "-shortest", "-movflags", "+faststart", clip,
    ])
    ffmpeg(["-f", "lavfi", "-i", "mandelbrot=size=400x400", "-frames:v", "1", os.path.join(directory, "art.png")])
    with open(os.path.join(directory, "captions.vtt"), "w") as handle:
        handle.write("WEBVTT\n\n00:00.000 --> 00:40.000\nHello from the <i>screen</i> test\n")
    with open(os.path.join(directory, "attacker.html"), "w") as handle:
        handle.write(ATTACKER_PAGE)


# A page of another origin (the test's file server) that tries what a web page can do against
# the device's control and screen endpoints: a simple no-cors POST (no preflight), a POST with
# the control header (needs a preflight), and reading the screen's state.
ATTACKER_PAGE = """<!doctype html><meta charset="utf-8"><title>attacker</title><script>
window.attack = {};
function attempt(name, promise) {
  return promise.then(function (r) { window.attack[name] = "sent:" + r.type + ":" + r.status; },
                      function (e) { window.attack[name] = "blocked:" + e.name; });
}
var body = JSON.stringify({ignorePings: true, refuseLaunch: true, replyDelayMs: 600000});
window.attackDone = attempt("simplePost", fetch("%s", {method: "POST", mode: "no-cors",
    headers: {"Content-Type": "text/plain"}, body: body}))
  .then(function () { return attempt("headerPost", fetch("%s", {method: "POST",
    headers: {"Content-Type": "text/plain", "X-Cast-Control": "1"}, body: body})); })
  .then(function () { return attempt("readState", fetch("http://%s:8008/screen/state")); })
  .then(function () { return true; });
</script>""" % (CONTROL, CONTROL, DEVICE)


class RangeHandler(http.server.BaseHTTPRequestHandler):
    """Serves the files of one directory, with single byte ranges (as media players ask)."""

    directory = "."
    types = {".mp4": "video/mp4", ".png": "image/png", ".vtt": "text/vtt", ".html": "text/html; charset=utf-8"}

    def log_message(self, *arguments):
        pass

    def do_HEAD(self):
        self.serve(head=True)

    def do_GET(self):
        self.serve(head=False)

    def serve(self, head):
        name = os.path.basename(self.path.split("?")[0])
        path = os.path.join(self.directory, name)
        if not name or not os.path.isfile(path):
            self.send_error(404)
            return
        size = os.path.getsize(path)
        start, end, status = 0, size - 1, 200
        ranges = self.headers.get("Range", "")
        if ranges.startswith("bytes=") and "," not in ranges:
            first, _, last = ranges[6:].partition("-")
            if first:
                start = int(first)
                end = min(int(last), size - 1) if last else size - 1
            elif last:
                start = max(0, size - int(last))
            if start > end or start >= size:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.end_headers()
                return
            status = 206
        self.send_response(status)
        self.send_header("Content-Type", self.types.get(os.path.splitext(name)[1], "application/octet-stream"))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(end - start + 1))
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()
        if head:
            return
        with open(path, "rb") as handle:
            handle.seek(start)
            left = end - start + 1
            try:
                while left > 0:
                    chunk = handle.read(min(65536, left))
                    if not chunk:
                        break
                    self.wfile.write(chunk)
                    left -= len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass


# MARK: Cast channel


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def cast_message(source, destination, namespace, payload):
    def text(number, value):
        data = value.encode()
        return varint(number << 3 | 2) + varint(len(data)) + data

    return (varint(1 << 3) + varint(0) + text(2, source) + text(3, destination) + text(4, namespace)
            + varint(5 << 3) + varint(0) + text(6, payload))


def parse_message(data):
    fields, index = {}, 0
    while index < len(data):
        key, shift = 0, 0
        while True:
            byte = data[index]
            index += 1
            key |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        number, kind = key >> 3, key & 7
        if kind == 0:
            value, shift = 0, 0
            while True:
                byte = data[index]
                index += 1
                value |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
            fields[number] = value
        elif kind == 2:
            length, shift = 0, 0
            while True:
                byte = data[index]
                index += 1
                length |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
            fields[number] = data[index:index + length]
            index += length
        else:
            raise ValueError("unexpected wire type")
    return fields


class CastSender:
    """A minimal sender: TLS, framed CastMessages, PONG to every PING."""

    def __init__(self, host, port=8009):
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        self.socket = context.wrap_socket(socket.create_connection((host, port), timeout=DEADLINE))
        self.messages = []
        self.condition = threading.Condition()
        self.lock = threading.Lock()
        self.request_id = 100
        threading.Thread(target=self.read, daemon=True).start()

    def send(self, namespace, payload, destination="receiver-0"):
        frame = cast_message("sender-0", destination, namespace, json.dumps(payload))
        with self.lock:
            self.socket.sendall(struct.pack(">I", len(frame)) + frame)

    def read(self):
        buffer = b""
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    return
                buffer += chunk
                while len(buffer) >= 4 and len(buffer) >= 4 + struct.unpack(">I", buffer[:4])[0]:
                    length = struct.unpack(">I", buffer[:4])[0]
                    fields = parse_message(buffer[4:4 + length])
                    buffer = buffer[4 + length:]
                    namespace = fields.get(4, b"").decode()
                    payload = json.loads(fields.get(6, b"{}").decode() or "{}")
                    if namespace.endswith("heartbeat") and payload.get("type") == "PING":
                        self.send(namespace, {"type": "PONG"}, fields.get(2, b"receiver-0").decode())
                        continue
                    with self.condition:
                        self.messages.append(payload)
                        self.condition.notify_all()
        except (OSError, ValueError):
            return

    def wait(self, predicate, what):
        end = time.monotonic() + DEADLINE
        with self.condition:
            while True:
                for message in self.messages:
                    if predicate(message):
                        return message
                left = end - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no Cast message: {what}")
                self.condition.wait(left)

    def request(self, payload, destination):
        self.request_id += 1
        payload = dict(payload, requestId=self.request_id)
        namespace = "urn:x-cast:com.google.cast.media"
        if payload["type"] in ("SET_VOLUME", "LAUNCH", "GET_STATUS") and "mediaSessionId" not in payload:
            namespace = "urn:x-cast:com.google.cast.receiver"
        self.send(namespace, payload, destination)
        request_id = self.request_id
        return self.wait(lambda message: message.get("requestId") == request_id, payload["type"])


# MARK: DevTools over a pipe


class Browser:
    """Headless Chromium on the DevTools protocol over --remote-debugging-pipe (fds 3 and 4)."""

    def __init__(self, profile, url):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        command = [
            "chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--no-default-browser-check", "--disable-dev-shm-usage", "--mute-audio",
            "--autoplay-policy=no-user-gesture-required", "--window-size=1280,720", "--hide-scrollbars",
            # A name an attacker controls, rebound to the device (DNS rebinding).
            f"--host-resolver-rules=MAP {REBOUND} {DEVICE}",
            f"--user-data-dir={profile}", "--remote-debugging-pipe", url,
        ]
        shell = 'exec "$@" 3<&%d 4>&%d' % (to_browser_read, from_browser_write)
        self.process = subprocess.Popen(
            ["sh", "-c", shell, "sh"] + command,
            pass_fds=(to_browser_read, from_browser_write),
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(profile, "..", "chromium.log"), "w"),
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.next_id = 0
        self.replies = {}
        self.condition = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()
        self.session = None
        end = time.monotonic() + DEADLINE
        while self.session is None:
            targets = self.call("Target.getTargets")["targetInfos"]
            pages = [target for target in targets if target["type"] == "page"]
            if pages:
                attached = self.call("Target.attachToTarget", {"targetId": pages[0]["targetId"], "flatten": True})
                self.session = attached["sessionId"]
            elif time.monotonic() > end:
                raise TimeoutError("Chromium opened no page")
            else:
                time.sleep(0.1)
        # A 1280x720 TV, whatever the headless window's frame takes.
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False}, self.session)

    def read(self):
        buffer = b""
        while True:
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                return
            buffer += chunk
            while b"\0" in buffer:
                message, buffer = buffer.split(b"\0", 1)
                reply = json.loads(message)
                if "id" in reply:
                    with self.condition:
                        self.replies[reply["id"]] = reply
                        self.condition.notify_all()

    def call(self, method, params=None, session=None):
        self.next_id += 1
        identifier = self.next_id
        message = {"id": identifier, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        end = time.monotonic() + DEADLINE
        with self.condition:
            while identifier not in self.replies:
                left = end - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no DevTools answer to {method}")
                self.condition.wait(left)
            reply = self.replies.pop(identifier)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]

    def evaluate(self, expression):
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            self.session,
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression, what, timeout=DEADLINE):
        end = time.monotonic() + timeout
        value = None
        while time.monotonic() < end:
            try:
                value = self.evaluate(expression)
            except RuntimeError as error:  # the page is not there yet
                value = str(error)[-200:]
                time.sleep(0.1)
                continue
            if value:
                return value
            time.sleep(0.1)
        check(False, f"{what} (last: {value!r})")
        return value

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"}, self.session)["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))
        log(f"screenshot {path}")

    def close(self):
        self.process.kill()
        self.process.wait(timeout=10)


# MARK: the test


def device_faults():
    request = urllib.request.Request(CONTROL, headers={"X-Cast-Control": "1"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def device_state():
    with urllib.request.urlopen(SCREEN + "screen/state", timeout=10) as response:
        return json.load(response)


def text(browser, element):
    return browser.evaluate(f"document.getElementById({json.dumps(element)}).textContent")


def run(emulator, artifacts, work):
    media_dir = os.path.join(work, "media")
    os.makedirs(media_dir, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    make_media(media_dir)
    RangeHandler.directory = media_dir
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RangeHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    errors = open(os.path.join(work, "emulator.err"), "w+")
    device = subprocess.Popen(
        [emulator, "--name", NAME, "--model", "Google TV", "--address", DEVICE, "--media", "fetch", "--control"],
        stdout=subprocess.DEVNULL, stderr=errors,
    )
    browser = None
    try:
        end = time.monotonic() + DEADLINE
        while "ready" not in open(errors.name).read():
            if time.monotonic() > end or device.poll() is not None:
                raise RuntimeError("cast-emulator did not start: " + open(errors.name).read())
            time.sleep(0.1)
        check(f"screen={SCREEN}" in open(errors.name).read(), "cast-emulator prints the screen URL")

        profile = os.path.join(work, "profile")
        os.makedirs(profile, exist_ok=True)
        browser = Browser(profile, SCREEN)
        mp4 = browser.evaluate("document.createElement('video').canPlayType('video/mp4; codecs=\"avc1.42E01E, mp4a.40.2\"')")
        log(f"Chromium canPlayType(H.264/AAC MP4) = {mp4!r}")

        # Idle: the backdrop with the device's name and the time.
        browser.wait(
            f"document.getElementById('tv').dataset.view === 'idle' && "
            f"document.getElementById('device').textContent === {json.dumps(NAME)} && "
            f"/\\d/.test(document.getElementById('clock').textContent)",
            "the idle screen shows the device name and the clock",
        )
        time.sleep(1)
        browser.screenshot(os.path.join(artifacts, "1-idle.png"))

        sender = CastSender(DEVICE)
        sender.send("urn:x-cast:com.google.cast.tp.connection", {"type": "CONNECT"})
        sender.send("urn:x-cast:com.google.cast.receiver", {"type": "LAUNCH", "appId": "CC1AD845", "requestId": 1})
        status = sender.wait(
            lambda m: any(a.get("appId") == "CC1AD845" and a.get("transportId")
                          for a in (m.get("status", {}).get("applications") or [])),
            "the Default Media Receiver running",
        )
        transport = next(a["transportId"] for a in status["status"]["applications"] if a["appId"] == "CC1AD845")
        sender.send("urn:x-cast:com.google.cast.tp.connection", {"type": "CONNECT"}, transport)

        load = {
            "type": "LOAD",
            "autoplay": True,
            "activeTrackIds": [1],
            "media": {
                "contentId": f"{base}/clip.mp4",
                "contentType": "video/mp4",
                "streamType": "BUFFERED",
                "metadata": {"metadataType": 0, "title": TITLE, "subtitle": "testsrc2 · 40 s · H.264/AAC",
                             "images": [{"url": f"{base}/art.png"}]},
                "tracks": [{"trackId": 1, "type": "TEXT", "trackContentId": f"{base}/captions.vtt",
                            "trackContentType": "text/vtt", "subtype": "SUBTITLES", "name": "English",
                            "language": "en"}],
            },
        }
        reply = sender.request(load, transport)
        check(reply.get("type") == "MEDIA_STATUS", f"LOAD answered with MEDIA_STATUS ({reply.get('type')})")
        session = reply["status"][0]["mediaSessionId"]
        check(reply["status"][0]["media"].get("duration", 0) > 39, "the device read the clip's real duration")

        browser.wait(
            f"document.getElementById('title').textContent === {json.dumps(TITLE)} && "
            "document.getElementById('tv').dataset.state === 'PLAYING'",
            "the title appears and the player state is PLAYING",
        )
        first = browser.evaluate("castScreen.position()")
        first_bar = browser.evaluate("parseFloat(document.getElementById('progress-fill').style.width)")
        time.sleep(2)
        later = browser.evaluate("castScreen.position()")
        later_bar = browser.evaluate("parseFloat(document.getElementById('progress-fill').style.width)")
        check(later > first + 1, f"the progress advances ({first:.2f} s -> {later:.2f} s)")
        check(later_bar > first_bar, f"the progress bar grows ({first_bar}% -> {later_bar}%)")
        check(text(browser, "duration") == "0:40", f"the duration shows 0:40 ({text(browser, 'duration')!r})")
        browser.wait("document.getElementById('art').naturalWidth > 0", "the artwork from the metadata is shown")
        browser.wait(
            "document.getElementById('captions-text').textContent === 'Hello from the screen test'",
            "the active captions' text is shown",
        )
        playing = browser.wait(
            "(function(){var v=document.getElementById('player');"
            "return v.readyState >= 2 && !v.paused && v.currentTime > 0 ? v.currentTime : 0;})()",
            "the <video> element plays the clip",
        )
        if playing:
            before = device_state()["media"]["position"]
            video, page = browser.evaluate(
                "[document.getElementById('player').currentTime, castScreen.position()]")
            after = device_state()["media"]["position"]
            check(before - 1 <= video <= after + 1,
                  f"<video> currentTime {video:.2f} s follows the device ({before:.2f}..{after:.2f} s)")
            check(abs(video - page) < 1, f"<video> and the page's clock agree ({video:.2f} / {page:.2f})")
        time.sleep(0.5)
        browser.screenshot(os.path.join(artifacts, "2-playing.png"))

        sender.request({"type": "PAUSE", "mediaSessionId": session}, transport)
        browser.wait("document.getElementById('tv').dataset.state === 'PAUSED'", "PAUSE shows the paused state")
        frozen = browser.evaluate("castScreen.position()")
        frozen_text = text(browser, "elapsed")
        time.sleep(1.5)
        check(browser.evaluate("castScreen.position()") == frozen and text(browser, "elapsed") == frozen_text,
              f"pause freezes the progress at {frozen:.2f} s ({frozen_text})")
        if playing:
            check(browser.evaluate("document.getElementById('player').paused"), "pause pauses the <video> element")
        browser.screenshot(os.path.join(artifacts, "3-paused.png"))

        sender.request({"type": "SEEK", "mediaSessionId": session, "currentTime": 25}, transport)
        browser.wait("Math.abs(castScreen.position() - 25) < 0.01", "SEEK moves the page's position to 25 s")
        if playing:
            browser.wait("Math.abs(document.getElementById('player').currentTime - 25) < 1",
                         "the <video> element follows the seek within 1 s")
        sender.request({"type": "PLAY", "mediaSessionId": session}, transport)
        browser.wait("document.getElementById('tv').dataset.state === 'PLAYING'", "PLAY resumes")
        time.sleep(1.5)
        if playing:
            device_now = device_state()["media"]["position"]
            video = browser.evaluate("document.getElementById('player').currentTime")
            check(abs(video - device_now) < 1, f"after resuming, <video> {video:.2f} s ~ device {device_now:.2f} s")

        sender.request({"type": "SET_VOLUME", "volume": {"level": 0.35}}, "receiver-0")
        browser.wait("!document.getElementById('volume').classList.contains('hidden') && "
                     "document.getElementById('volume-text').textContent === '35'",
                     "a volume change shows the volume overlay")
        time.sleep(0.8)
        browser.screenshot(os.path.join(artifacts, "4-volume.png"))

        sender.request({"type": "STOP", "mediaSessionId": session}, transport)
        browser.wait("document.getElementById('tv').dataset.view === 'idle'", "STOP brings the idle screen back")
        time.sleep(1)
        browser.screenshot(os.path.join(artifacts, "5-stopped.png"))

        failed = sender.request({"type": "LOAD", "media": {"contentId": f"{base}/missing.mp4",
                                                            "contentType": "video/mp4",
                                                            "metadata": {"metadataType": 0, "title": "Missing"}}},
                                transport)
        check(failed.get("type") == "LOAD_FAILED", f"a dead link gives LOAD_FAILED ({failed.get('type')})")
        browser.wait("document.getElementById('tv').dataset.view === 'error' && "
                     "/MEDIA_\\w+ \\(\\d+\\)/.test(document.getElementById('error-name').textContent)",
                     "LOAD_FAILED shows the error and its detailed code")
        log(f"error shown: {text(browser, 'error-name')}: {text(browser, 'error-reason')}")
        time.sleep(1)
        browser.screenshot(os.path.join(artifacts, "6-load-failed.png"))

        hostile = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
        sender.request({"type": "LOAD", "media": {"contentId": "not-a-url", "contentType": "video/mp4",
                                                  "metadata": {"metadataType": 0, "title": hostile}}}, transport)
        browser.wait(f"document.getElementById('title').textContent === {json.dumps(hostile)}",
                     "a hostile title is shown as text")
        check(browser.evaluate("window.pwned === undefined && document.querySelectorAll('#title *').length === 0 "
                               "&& document.querySelectorAll('script').length === 1"),
              "the hostile title ran nothing and added no element")
        browser.screenshot(os.path.join(artifacts, "7-hostile-title.png"))

        # Another origin cannot drive the control endpoint nor read the screen.
        clean = device_faults()
        browser.call("Page.navigate", {"url": f"{base}/attacker.html"}, browser.session)
        browser.wait("window.attackDone && window.attackDone.then ? 'waiting' : false", "the attacker page loads")
        browser.evaluate("window.attackDone")
        attack = browser.evaluate("window.attack")
        log(f"cross-origin attempts: {attack}")
        check(attack.get("headerPost", "").startswith("blocked:"), "a POST with the control header needs a preflight, refused")
        check(attack.get("readState", "").startswith("blocked:"), "another origin cannot read the screen's state")
        check(device_faults() == clean, f"a no-cors POST from another origin changed no fault ({device_faults()})")

        # A name rebound to the device: same-origin for the browser, refused by Host.
        browser.call("Page.navigate", {"url": f"http://{REBOUND}:8008/"}, browser.session)
        browser.wait(f"location.host === '{REBOUND}:8008' && document.readyState === 'complete'",
                     "the rebound name opens")
        statuses = browser.evaluate(
            "Promise.all([fetch('/control/faults', {method: 'POST', headers: {'X-Cast-Control': '1'}, "
            "body: JSON.stringify({ignorePings: true})}).then(function (r) { return r.status; }), "
            "fetch('/screen/state').then(function (r) { return r.status; }), "
            "fetch('/').then(function (r) { return r.status; })])")
        check(statuses == [421, 421, 421], f"a rebound name gets 421 on /control, /screen and / ({statuses})")
        check(device_faults() == clean, "the rebound page changed no fault")
        reply = sender.request({"type": "GET_STATUS"}, "receiver-0")
        check(reply.get("type") == "RECEIVER_STATUS", "the device answers on the Cast channel afterwards")
    finally:
        if browser:
            browser.close()
        device.kill()
        device.wait(timeout=10)
        server.shutdown()


# MARK: castvideos' built-in device


class Tmux:
    """castvideos in a tmux session on a socket of its own, driven with keys."""

    def __init__(self, name, command, environment):
        self.name = name
        subprocess.run(["tmux", "-L", name, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40",
                        command], check=True, env=environment, timeout=30)

    def keys(self, *keys):
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-t", "0"] + list(keys), check=True, timeout=10)
        if keys and keys[-1] == "Escape":
            time.sleep(0.2)

    def screen(self):
        return subprocess.run(["tmux", "-L", self.name, "capture-pane", "-p", "-t", "0"], capture_output=True,
                              text=True, timeout=10).stdout

    def wait(self, text, timeout=60):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in self.screen():
                return True
            time.sleep(0.2)
        check(False, f"castvideos shows {text!r} (screen:\n{self.screen()})")
        raise TimeoutError(f"castvideos never showed {text!r}")

    def close(self):
        # The server is gone once the app quit; otherwise it is stopped here.
        subprocess.run(["tmux", "-L", self.name, "kill-server"], stderr=subprocess.DEVNULL, timeout=10)


def video_picture(browser):
    """A picture of the <video> element alone: everything drawn over it hidden, clipped to it."""
    browser.evaluate(
        "(function(){var s=document.getElementById('video-only');if(!s){s=document.createElement('style');"
        "s.id='video-only';s.textContent='#top,#bottom,#captions,#ad,#ad-skip{visibility:hidden}';"
        "document.head.appendChild(s);}return true;})()")
    box = browser.evaluate("(function(){var r=document.getElementById('player').getBoundingClientRect();"
                           "return [r.x, r.y, r.width, r.height];})()")
    data = browser.call("Page.captureScreenshot", {
        "format": "png", "clip": {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}},
        browser.session)["data"]
    browser.evaluate("(function(){var s=document.getElementById('video-only');if(s)s.remove();return true;})()")
    return base64.b64decode(data)


def run_castvideos(castvideos, cache, artifacts, work):
    environment = dict(os.environ, XDG_CACHE_HOME=cache, LANG="C.UTF-8", LC_ALL="C.UTF-8",
                       TERM="xterm-256color", COLORTERM="truecolor", CAST_DISCOVERY_INTERFACES="lo")
    environment.pop("NO_COLOR", None)
    made = subprocess.run([castvideos, "--make-media"], env=environment, capture_output=True, text=True,
                          timeout=600)
    check(made.returncode == 0, f"castvideos --make-media made the built-in media ({made.stdout.strip()[-200:]})")
    config = os.path.join(work, "castvideos-config")
    command = f"{castvideos} --config-dir {config} 2>{os.path.join(work, 'castvideos.err')}"
    app = Tmux(f"screen-test-castvideos-{os.getpid()}", command, environment)
    browser = None
    try:
        app.wait("Harbour Lights")
        app.wait("Touch to cast media")
        app.keys("Enter")
        app.keys("c")
        app.wait("Allow local network access")
        app.keys("Enter")
        app.wait("Living Room TV (virtual)")
        app.keys("Enter")
        app.wait("[▣ Casting on Living Room TV (virtual)]")
        app.keys("Enter")
        app.wait("Local player")
        app.keys("Enter")
        app.wait("[ Play Now ]")
        app.keys("Enter")
        app.wait("▶ Playing")
        screen = "http://127.0.0.77:8008/"
        profile = os.path.join(work, "castvideos-profile")
        os.makedirs(profile, exist_ok=True)
        browser = Browser(profile, screen)
        browser.wait("document.getElementById('title').textContent === 'Harbour Lights' && "
                     "document.getElementById('tv').dataset.state === 'PLAYING'",
                     "the built-in device's screen shows Harbour Lights playing")
        check(text(browser, "duration") == "10:12", f"the built-in video lasts 10:12 ({text(browser, 'duration')!r})")
        playing = browser.wait(
            "(function(){var v=document.getElementById('player');"
            "return v.readyState >= 2 && !v.paused && v.currentTime > 0 ? v.currentTime : 0;})()",
            "the built-in device's <video> plays the built-in video")
        browser.wait("document.getElementById('art').naturalWidth > 0", "the built-in artwork is shown")
        time.sleep(0.5)
        browser.screenshot(os.path.join(artifacts, "8-built-in-playing.png"))
        if playing:
            first = video_picture(browser)
            time.sleep(1.5)
            second = video_picture(browser)
            with open(os.path.join(artifacts, "9-built-in-frame-a.png"), "wb") as handle:
                handle.write(first)
            with open(os.path.join(artifacts, "10-built-in-frame-b.png"), "wb") as handle:
                handle.write(second)
            check(first != second, "the built-in video's frame moved between two pictures 1.5 s apart")
            frames = browser.evaluate("document.getElementById('player').getVideoPlaybackQuality().totalVideoFrames")
            check(frames > 5, f"the <video> element decoded frames ({frames})")
    finally:
        if browser:
            browser.close()
        app.keys("q")
        time.sleep(1)
        app.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--emulator", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--castvideos")
    parser.add_argument("--cache")
    options = parser.parse_args()
    try:
        run(options.emulator, options.artifacts, options.work)
    except Exception as error:  # a hang guard or a broken step: the run fails with its cause
        failures.append(f"{type(error).__name__}: {error}")
        log(f"FAIL {type(error).__name__}: {error}")
    if options.castvideos:
        try:
            run_castvideos(options.castvideos, options.cache or os.path.join(options.work, "cache"),
                           options.artifacts, options.work)
        except Exception as error:
            failures.append(f"castvideos: {type(error).__name__}: {error}")
            log(f"FAIL castvideos: {type(error).__name__}: {error}")
    if failures:
        log(f"{len(failures)} check(s) failed")
        return 1
    log("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
