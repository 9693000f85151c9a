"""Casts real media with catt on a virtual Cast device that reads it, and reports what catt said.

Usage: catt_media.py ADDRESS MP4_URL MP4_SECONDS LIVE_HLS_URL UNPLAYABLE_URL

The device (in fetch mode) reads each URL as a receiver does; catt casts with
`--stream-type buffered` and no duration, so what `catt info -j` shows (PyChromecast's
MediaStatus underneath) comes from the media: the MP4's duration from its own `moov`, LIVE
for an HLS playlist without #EXT-X-ENDLIST. The unplayable file (served as video/mp4, so
yt-dlp hands it on) gives LOAD_FAILED, which `catt cast --block` reports as a failed load
with the detailed error code. catt runs through catt_serialized.py (see serialized_sends.py).

Prints one JSON object on stdout: {"ok": bool, "steps": [{"name", "ok", "detail"}]}.
Exits 0 when every step passed, 1 otherwise.
"""

import json
import os
import subprocess
import sys
import traceback

MEDIA_SRC_NOT_SUPPORTED = 104

steps = []


class StepFailed(Exception):
    pass


def step(name, ok, detail=""):
    steps.append({"name": name, "ok": bool(ok), "detail": str(detail)[-2000:]})
    if not ok:
        raise StepFailed(name)


def catt(address, *arguments, timeout=60):
    launcher = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catt_serialized.py")
    command = [sys.executable, launcher, "-d", address, *arguments]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    note = ""
    if completed.returncode < 0 and not (completed.stdout + completed.stderr):
        # The Python process died of a signal with nothing printed (CPython can crash while
        # exiting with PyChromecast's socket thread still running): no answer from the device,
        # so the command runs once more, and the output says so.
        note = f"[catt {arguments[0]} was killed by signal {-completed.returncode}; ran again]\n"
        completed = subprocess.run(command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    output = note + completed.stdout + completed.stderr
    if completed.returncode != 0:
        output = f"[exit {completed.returncode}]\n" + output
    return completed.returncode, output


def info(address):
    code, out = catt(address, "info", "-j")
    try:
        return json.loads(out[out.index("{"):out.rindex("}") + 1]) if code == 0 else {}
    except ValueError:
        return {"unparsed": out}


def run(address, mp4_url, mp4_seconds, live_url, bad_url):
    code, out = catt(address, "cast", "--stream-type", "buffered", mp4_url)
    step("mp4 cast", code == 0 and "Playing" in out, out)
    status = info(address)
    duration = status.get("duration")
    step("mp4 duration from the file",
         isinstance(duration, (int, float)) and abs(duration - float(mp4_seconds)) < 1e-3, status)
    step("mp4 buffered", status.get("stream_type") == "BUFFERED", status.get("stream_type"))

    code, out = catt(address, "cast", "--stream-type", "buffered", live_url)
    step("live cast", code == 0, out)
    status = info(address)
    step("live stream type", status.get("stream_type") == "LIVE" and status.get("content_id") == live_url, status)

    # Stopped first: catt's --block wait starts from the state it last saw, and a PLAYING
    # left from the live item would end it before the LOAD is answered.
    code, out = catt(address, "stop")
    step("stop", code == 0, out)
    code, out = catt(address, "cast", "--block", "--stream-type", "buffered", bad_url)
    # catt registers its listener only after the session is active: a LOAD_FAILED that came
    # sooner (a loaded machine) leaves it waiting its 30 s for PLAYING, then failing without
    # the code. Either way catt's cast fails; the code shows when catt heard the failure.
    heard = f"error code {MEDIA_SRC_NOT_SUPPORTED}" in out
    step("unplayable load failed", code != 0 and (heard or "Playback of remote file has failed" in out), out)


def main():
    if len(sys.argv) != 6:
        print(json.dumps({"ok": False, "steps": [], "error": "usage: ADDRESS MP4 SECONDS LIVE UNPLAYABLE"}))
        return 2
    try:
        run(*sys.argv[1:])
        error = None
    except StepFailed:
        error = None
    except Exception:  # report any failure of the run itself
        error = traceback.format_exc()
    ok = error is None and steps and all(s["ok"] for s in steps)
    print(json.dumps({"ok": bool(ok), "steps": steps, "error": error}))
    sys.stdout.flush()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
