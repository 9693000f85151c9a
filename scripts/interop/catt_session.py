"""Drives a virtual Cast device with the catt command line and reports what catt said.

Usage: catt_session.py ADDRESS

Serves a small video file over HTTP on 127.0.0.1 (catt hands the URL to yt-dlp, which
fetches it to learn the content type), then runs `catt -d ADDRESS` with cast, status,
pause, play, seek, volume, info and stop, judging each from catt's exit code and output.
catt runs through catt_serialized.py (its PyChromecast writes serialized, see
serialized_sends.py). The cast uses `--stream-type buffered`: catt only seeks BUFFERED
streams, and for a plain URL it sends no stream type.

Prints one JSON object on stdout: {"ok": bool, "steps": [{"name", "ok", "detail"}]}.
Exits 0 when every step passed, 1 otherwise.
"""

import http.server
import json
import os
import subprocess
import sys
import threading

VIDEO = bytes(range(256)) * 16

steps = []


class StepFailed(Exception):
    pass


def step(name, ok, detail=""):
    steps.append({"name": name, "ok": bool(ok), "detail": str(detail)[-2000:]})
    if not ok:
        raise StepFailed(name)


class VideoHandler(http.server.BaseHTTPRequestHandler):
    def _head(self):
        if self.path.split("?")[0] != "/video.mp4":
            self.send_error(404)
            return False
        self.send_response(200)
        self.send_header("Content-Type", "video/mp4")
        self.send_header("Content-Length", str(len(VIDEO)))
        self.send_header("Accept-Ranges", "none")
        self.end_headers()
        return True

    def do_HEAD(self):
        self._head()

    def do_GET(self):
        if self._head():
            self.wfile.write(VIDEO)

    def log_message(self, *args):
        pass


def catt(address, *arguments, timeout=40):
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


def status_field(output, name):
    for line in output.splitlines():
        if line.startswith(name + ":"):
            return line.split(":", 1)[1].strip()
    return None


def run(address, url):
    code, out = catt(address, "cast", "--stream-type", "buffered", url)
    step("cast", code == 0 and "Playing" in out, out)
    code, out = catt(address, "status")
    step("status playing", code == 0 and status_field(out, "State") == "PLAYING" and status_field(out, "Title") == "video",
         out)
    code, out = catt(address, "pause")
    step("pause", code == 0, out)
    code, out = catt(address, "status")
    step("status paused", code == 0 and status_field(out, "State") == "PAUSED", out)
    code, out = catt(address, "play")
    step("play", code == 0, out)
    code, out = catt(address, "seek", "90")
    step("seek", code == 0, out)
    code, out = catt(address, "info")
    current = status_field(out, "current_time")
    step("position after seek", code == 0 and current is not None and 89 <= float(current) < 120, out)
    code, out = catt(address, "volume", "40")
    step("volume", code == 0, out)
    code, out = catt(address, "status")
    step("status volume", code == 0 and status_field(out, "Volume") == "40"
         and status_field(out, "State") == "PLAYING", out)
    code, out = catt(address, "stop")
    step("stop", code == 0, out)
    code, out = catt(address, "status")
    step("status after stop", code in (0, 1) and status_field(out, "State") in (None, "IDLE"), out)


def main():
    if len(sys.argv) != 2:
        print(json.dumps({"ok": False, "steps": [], "error": "usage: ADDRESS"}))
        return 2
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), VideoHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/video.mp4"
    error = None
    try:
        run(sys.argv[1], url)
    except StepFailed:
        pass
    except Exception as exception:  # report timeouts and the like as a failed run
        error = repr(exception)
    server.shutdown()
    ok = error is None and steps and all(s["ok"] for s in steps)
    print(json.dumps({"ok": bool(ok), "steps": steps, "error": error}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
