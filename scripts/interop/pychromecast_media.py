"""Loads real media on a virtual Cast device that reads it, and reports what PyChromecast saw.

Usage: pychromecast_media.py ADDRESS UUID NAME MP4_URL MP4_SECONDS LIVE_HLS_URL DEAD_URL

The device (in fetch mode) reads each URL as a receiver does. Every LOAD says
stream_type BUFFERED and no duration, so what PyChromecast's MediaStatus shows comes from the
media: first LIVE and no duration for an HLS playlist without #EXT-X-ENDLIST, then the MP4's
duration from its own `moov`, then LOAD_FAILED (reaching MediaStatusListener.load_media_failed with the
detailed error code) plus an IDLE/ERROR status for a link that answers 404.

Prints one JSON object on stdout: {"ok": bool, "steps": [{"name", "ok", "detail"}]}.
Exits 0 when every step passed, 1 otherwise.
"""

import json
import os
import sys
import threading
import time
import traceback
import uuid

import pychromecast
from pychromecast.controllers.media import MediaStatusListener

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serialized_sends  # noqa: E402,F401  (patches PyChromecast on import; see there why)

# How long one step may take: a hang guard, not a timing claim. The devices answer from a test
# process that shares two cores with about a thousand other tests, as the Swift suite's patience.
PATIENCE = 60.0 * max(1.0, float(os.environ.get("CAST_TEST_SLOWDOWN") or 1))

DMR = "CC1AD845"
MEDIA_NETWORK = 103

steps = []


def step(name, ok, detail=""):
    steps.append({"name": name, "ok": bool(ok), "detail": str(detail)})
    if not ok:
        raise StepFailed(name)


class StepFailed(Exception):
    pass


def wait_for(predicate, timeout=PATIENCE):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


class Failures(MediaStatusListener):
    """Collects the load failures PyChromecast reports to its listeners."""

    def __init__(self):
        self.failed = []
        self.event = threading.Event()

    def new_media_status(self, status):
        pass

    def load_media_failed(self, queue_item_id, error_code):
        self.failed.append((queue_item_id, error_code))
        self.event.set()


def run(address, device_uuid, name, mp4_url, mp4_seconds, live_url, dead_url):
    cast = pychromecast.get_chromecast_from_host(
        (address, 8009, uuid.UUID(device_uuid), "Chromecast", name), tries=1, retry_wait=1, timeout=PATIENCE
    )
    cast.wait(timeout=PATIENCE)
    step("connect", cast.status is not None, cast.status)
    cast.start_app(DMR, timeout=PATIENCE)
    step("launch", wait_for(lambda: cast.app_id == DMR), cast.status)
    mc = cast.media_controller
    failures = Failures()
    mc.register_status_listener(failures)

    mc.play_media(live_url, "application/x-mpegurl", title="Live HLS", stream_type="BUFFERED")
    mc.block_until_active(timeout=PATIENCE)
    step("live playing", wait_for(lambda: mc.status.content_id == live_url and mc.status.player_state == "PLAYING"),
         mc.status)
    step("live stream type", mc.status.stream_type == "LIVE" and mc.status.stream_type_is_live, mc.status.stream_type)
    # First, on a fresh MediaStatus: PyChromecast keeps the previous item's duration when a
    # status carries none, so only here does "no duration" show.
    step("live has no duration", mc.status.duration is None, mc.status.duration)

    mc.play_media(mp4_url, "video/mp4", title="Served MP4", stream_type="BUFFERED")
    step("mp4 playing", wait_for(lambda: mc.status.content_id == mp4_url and mc.status.player_state == "PLAYING"),
         mc.status)
    expected = float(mp4_seconds)
    step("mp4 duration from the file", mc.status.duration is not None and abs(mc.status.duration - expected) < 1e-3,
         mc.status.duration)
    step("mp4 buffered", mc.status.stream_type == "BUFFERED" and mc.status.stream_type_is_buffered,
         mc.status.stream_type)

    mc.play_media(dead_url, "video/mp4", title="Dead link", stream_type="BUFFERED")
    step("dead link load failed", failures.event.wait(30), failures.failed)
    item_id, code = failures.failed[-1]
    step("dead link error code", code == MEDIA_NETWORK and isinstance(item_id, int), failures.failed)
    step("dead link idle error",
         wait_for(lambda: mc.status.player_state == "IDLE" and mc.status.idle_reason == "ERROR"),
         f"{mc.status.player_state} {mc.status.idle_reason}")
    cast.quit_app()
    cast.disconnect(timeout=5)


def main():
    if len(sys.argv) != 8:
        print(json.dumps({"ok": False, "steps": [], "error": "usage: ADDRESS UUID NAME MP4 SECONDS LIVE DEAD"}))
        return 2
    try:
        run(*sys.argv[1:])
        error = None
    except StepFailed:
        error = None
    except Exception:  # report any client exception as a failed run
        error = traceback.format_exc()
    ok = error is None and steps and all(s["ok"] for s in steps)
    print(json.dumps({"ok": bool(ok), "steps": steps, "error": error}))
    sys.stdout.flush()
    return 0 if ok else 1


if __name__ == "__main__":
    code = main()
    # PyChromecast leaves socket threads behind; do not wait for them.
    os._exit(code)
