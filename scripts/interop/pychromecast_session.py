"""Drives a virtual Cast device with PyChromecast and reports what PyChromecast saw.

Usage: pychromecast_session.py ADDRESS UUID NAME

Connects by address (no mDNS), launches the Default Media Receiver, loads media with a
title, a subtitle track and a start time, then pauses, plays, seeks, changes the playback
rate, toggles subtitles, sets device volume and mute, enqueues a second item and moves
through the queue, lets a second PyChromecast instance join and pause, stops, and quits
the app. Every step is judged from PyChromecast's own status objects.

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

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serialized_sends  # noqa: E402,F401  (patches PyChromecast on import; see there why)

# How long one step may take: a hang guard, not a timing claim. The devices answer from a test
# process that shares two cores with about a thousand other tests, as the Swift suite's patience.
PATIENCE = 60.0 * max(1.0, float(os.environ.get("CAST_TEST_SLOWDOWN") or 1))

MEDIA_URL = "http://127.0.0.1:9/media/big-buck-bunny.mp4"
SECOND_URL = "http://127.0.0.1:9/media/elephants-dream.mp4"
SUBTITLES_URL = "http://127.0.0.1:9/media/big-buck-bunny.en.vtt"
DMR = "CC1AD845"

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


def connect(address, device_uuid, name):
    cast = pychromecast.get_chromecast_from_host(
        (address, 8009, uuid.UUID(device_uuid), "Chromecast", name), tries=1, retry_wait=1, timeout=PATIENCE
    )
    cast.wait(timeout=PATIENCE)
    return cast


def run(address, device_uuid, name):
    cast = connect(address, device_uuid, name)
    step("connect", cast.status is not None, cast.status)
    step("identity", cast.cast_info.friendly_name == name and str(cast.uuid) == str(uuid.UUID(device_uuid)),
         f"{cast.cast_info.friendly_name} {cast.uuid}")

    cast.start_app(DMR, timeout=PATIENCE)
    step("launch", wait_for(lambda: cast.app_id == DMR), cast.status)
    media_ns = "urn:x-cast:com.google.cast.media"
    step("media namespace", media_ns in (cast.status.namespaces or []), cast.status.namespaces)

    mc = cast.media_controller
    mc.play_media(
        MEDIA_URL, "video/mp4", title="Big Buck Bunny", current_time=10, stream_type="BUFFERED",
        subtitles=SUBTITLES_URL, subtitles_lang="en-US", subtitles_mime="text/vtt", subtitle_id=1,
    )
    mc.block_until_active(timeout=PATIENCE)
    step("playing", wait_for(lambda: mc.status.player_state == "PLAYING"), mc.status)
    status = mc.status
    step("loaded media", status.content_id == MEDIA_URL and status.title == "Big Buck Bunny",
         f"{status.content_id} {status.title}")
    step("start time", status.current_time >= 10, status.current_time)
    step("subtitle track", any(t.get("trackId") == 1 and t.get("language") == "en-US" and t.get("subtype") == "SUBTITLES"
                               for t in status.subtitle_tracks), status.subtitle_tracks)
    step("subtitle active", status.current_subtitle_tracks == [1], status.current_subtitle_tracks)

    mc.pause()
    step("pause", wait_for(lambda: mc.status.player_state == "PAUSED"), mc.status.player_state)
    mc.play()
    step("play", wait_for(lambda: mc.status.player_state == "PLAYING"), mc.status.player_state)
    mc.seek(120)
    step("seek", wait_for(lambda: 119 <= (mc.status.current_time or 0) <= 130), mc.status.current_time)
    mc.set_playback_rate(2.0)
    step("playback rate", wait_for(lambda: mc.status.playback_rate == 2.0), mc.status.playback_rate)
    mc.set_playback_rate(1.0)

    mc.disable_subtitle()
    step("subtitle off", wait_for(lambda: mc.status.current_subtitle_tracks == []), mc.status.current_subtitle_tracks)
    mc.enable_subtitle(1)
    step("subtitle on", wait_for(lambda: mc.status.current_subtitle_tracks == [1]), mc.status.current_subtitle_tracks)

    cast.set_volume(0.3)
    step("volume", wait_for(lambda: abs(cast.status.volume_level - 0.3) < 1e-6), cast.status.volume_level)
    cast.set_volume_muted(True)
    step("mute", wait_for(lambda: cast.status.volume_muted is True), cast.status.volume_muted)
    cast.set_volume_muted(False)
    step("unmute", wait_for(lambda: cast.status.volume_muted is False), cast.status.volume_muted)

    done = threading.Event()
    result = {}

    def enqueued(ok, response):
        result["ok"] = ok
        result["response"] = response
        done.set()

    mc.play_media(SECOND_URL, "video/mp4", title="Elephants Dream", stream_type="BUFFERED", enqueue=True,
                  callback_function=enqueued)
    step("enqueue", done.wait(10) and result.get("ok"), result)
    mc.queue_next()
    step("queue next", wait_for(lambda: mc.status.content_id == SECOND_URL), mc.status.content_id)
    mc.queue_prev()
    step("queue previous", wait_for(lambda: mc.status.content_id == MEDIA_URL), mc.status.content_id)
    step("playing after queue moves", wait_for(lambda: mc.status.player_state in ("PLAYING", "BUFFERING")),
         mc.status.player_state)
    step("playing again", wait_for(lambda: mc.status.player_state == "PLAYING"), mc.status.player_state)

    second = connect(address, device_uuid, name)
    mc2 = second.media_controller
    step("second joins app", wait_for(lambda: second.app_id == DMR), second.status)
    step("second sees media", wait_for(lambda: mc2.status.media_session_id == mc.status.media_session_id
                                       and mc2.status.player_state == "PLAYING"),
         f"{mc2.status.media_session_id} {mc2.status.player_state}")
    mc2.pause()
    step("first told of second's pause", wait_for(lambda: mc.status.player_state == "PAUSED"), mc.status.player_state)
    second.disconnect(timeout=5)

    mc.stop()
    step("stop", wait_for(lambda: mc.status.player_state == "IDLE"), mc.status.player_state)
    cast.quit_app()
    step("quit app", wait_for(lambda: cast.app_id != DMR), cast.app_id)
    cast.disconnect(timeout=5)


def main():
    if len(sys.argv) != 4:
        print(json.dumps({"ok": False, "steps": [], "error": "usage: ADDRESS UUID NAME"}))
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
