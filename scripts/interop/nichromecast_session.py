"""Drives a virtual Cast device with nichromecast's own Cast v2 implementation.

Usage: nichromecast_session.py ADDRESS

nichromecast (PyPI) speaks CASTV2 with its own TLS framing and protobuf code, not through
PyChromecast. This script uses its library by address (its command line finds devices only
by mDNS and SSDP; the namespace test runs that part): launch the Default Media Receiver,
load media served over HTTP on 127.0.0.1, read the status, pause, play, seek, set the
device volume, join the session from a second connection, stop. Each step is judged from
nichromecast's own Status values and the receiver status it keeps.

Prints one JSON object on stdout: {"ok": bool, "steps": [{"name", "ok", "detail"}]}.
Exits 0 when every step passed, 1 otherwise.
"""

import http.server
import json
import os
import sys
import threading
import time

from nichromecast.backends.base import State
from nichromecast.backends.cast import CastPlayer

# How long one step may take: a hang guard, not a timing claim. The devices answer from a test
# process that shares two cores with about a thousand other tests, as the Swift suite's patience.
PATIENCE = 60.0 * max(1.0, float(os.environ.get("CAST_TEST_SLOWDOWN") or 1))

VIDEO = bytes(range(256)) * 16

steps = []


class StepFailed(Exception):
    pass


def step(name, ok, detail=""):
    steps.append({"name": name, "ok": bool(ok), "detail": str(detail)[-2000:]})
    if not ok:
        raise StepFailed(name)


class VideoHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.split("?")[0] != "/movie.mp4":
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "video/mp4")
        self.send_header("Content-Length", str(len(VIDEO)))
        self.end_headers()
        self.wfile.write(VIDEO)

    def log_message(self, *args):
        pass


def wait_for(player, predicate, timeout=PATIENCE):
    """Polls nichromecast's status until predicate holds; returns the last status."""
    deadline = time.monotonic() + timeout
    status = player.status()
    while not predicate(status) and time.monotonic() < deadline:
        time.sleep(0.1)
        status = player.status()
    return status


def main():
    address = sys.argv[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), VideoHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/movie.mp4"
    player = None
    joined = None
    error = None
    try:
        player = CastPlayer(address)
        step("launch", player.app.get("appId") == "CC1AD845" and player.app.get("transportId"), player.app)

        player.load(url, title="Interop with nichromecast")
        status = wait_for(player, lambda s: s.state is State.PLAYING)
        step("load plays", status.state is State.PLAYING and status.title == "Interop with nichromecast", status)

        player.pause()
        status = wait_for(player, lambda s: s.state is State.PAUSED)
        step("pause", status.state is State.PAUSED, status)

        player.play()
        status = wait_for(player, lambda s: s.state is State.PLAYING)
        step("play", status.state is State.PLAYING, status)

        player.seek(42)
        status = wait_for(player, lambda s: (s.position or 0) >= 42)
        step("seek", (status.position or 0) >= 42, status)

        player.set_volume(0.25)
        receiver = player.session.get_status().get("status", {})
        level = receiver.get("volume", {}).get("level")
        step("device volume", level is not None and abs(level - 0.25) < 1e-6, receiver.get("volume"))

        joined = CastPlayer.attach(address)
        step("second sender joins", joined is not None and joined.app.get("sessionId") == player.app.get("sessionId"),
             joined.app if joined else None)
        status = joined.status()
        step("second sender sees the media", status.state is State.PLAYING and (status.position or 0) >= 42, status)

        player.stop()
        status = wait_for(player, lambda s: s.state is State.IDLE)
        step("stop", status.state is State.IDLE, status)
    except StepFailed:
        pass
    except Exception as exc:  # a failure of nichromecast itself
        error = f"{type(exc).__name__}: {exc}"
    finally:
        for p in (joined, player):
            if p is not None:
                try:
                    p.close()
                except Exception:
                    pass
        server.shutdown()
    ok = error is None and steps and all(s["ok"] for s in steps)
    report = {"ok": bool(ok), "steps": steps}
    if error:
        report["error"] = error
    print(json.dumps(report))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
