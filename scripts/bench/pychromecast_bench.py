"""PyChromecast side of `cast-bench --rows pychromecast`.

Usage:
  pychromecast_bench.py e2e HOST PORT UUID
      Connect by address (no mDNS), launch the Default Media Receiver, LOAD, return at PLAYING.
  pychromecast_bench.py roundtrip HOST PORT UUID COUNT
      The same start, then COUNT commands alternating PAUSE and PLAY, each timed from the
      call until the media status listener sees the new player state.
  pychromecast_bench.py decode FRAME_FILE SAMPLES BATCH
      Decodes a framed CastMessage carrying MEDIA_STATUS (4-byte length, protobuf body) with
      PyChromecast's generated protobuf module and json.loads, SAMPLES batches of BATCH,
      timing each batch by thread CPU time and by time.perf_counter_ns.

Prints one JSON object on stdout. Timestamps are CLOCK_MONOTONIC nanoseconds
(time.monotonic_ns), so the caller can place them against its own clock. Exits 0 on
success, 1 on failure (with {"error": ...}).
"""

import time

STARTED_NS = time.monotonic_ns()  # before any other import

import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import traceback  # noqa: E402

sys.dont_write_bytecode = True

DMR = "CC1AD845"
MEDIA_URL = "http://127.0.0.1:9/bench.mp4"


def import_pychromecast():
    """Imports PyChromecast with its socket writes serialized (see scripts/interop)."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "interop"))
    import pychromecast  # noqa: F401
    import serialized_sends  # noqa: F401  (patches PyChromecast on import)

    return pychromecast


class StateWatcher:
    """A media status listener that wakes a waiter when the player reaches a state."""

    def __init__(self):
        self.condition = threading.Condition()
        self.state = None

    def new_media_status(self, status):
        with self.condition:
            self.state = status.player_state
            self.condition.notify_all()

    def load_media_failed(self, queue_item_id, error_code):
        with self.condition:
            self.state = f"LOAD_FAILED {error_code}"
            self.condition.notify_all()

    def wait_for(self, state, timeout=10.0):
        with self.condition:
            if not self.condition.wait_for(lambda: self.state == state, timeout):
                raise RuntimeError(f"player state {self.state!r}, expected {state!r} within {timeout} s")


def start_playing(host, port, device_uuid, marks):
    """Connects, launches the Default Media Receiver, loads and waits for PLAYING."""
    import uuid

    pychromecast = import_pychromecast()
    marks["imported"] = time.monotonic_ns()
    cast = pychromecast.get_chromecast_from_host(
        (host, int(port), uuid.UUID(device_uuid), "Chromecast", "Bench"), tries=1, retry_wait=1, timeout=10
    )
    cast.wait(timeout=10)
    if cast.status is None:
        raise RuntimeError("no receiver status after connecting")
    marks["connected"] = time.monotonic_ns()
    cast.start_app(DMR, timeout=10)
    marks["launched"] = time.monotonic_ns()
    controller = cast.media_controller
    watcher = StateWatcher()
    controller.register_status_listener(watcher)
    controller.play_media(MEDIA_URL, "video/mp4", title="Bench", stream_type="BUFFERED")
    watcher.wait_for("PLAYING")
    marks["playing"] = time.monotonic_ns()
    return cast, controller, watcher


def e2e(host, port, device_uuid):
    marks = {"started": STARTED_NS}
    start_playing(host, port, device_uuid, marks)
    return {"marks": marks}


def roundtrip(host, port, device_uuid, count):
    _, controller, watcher = start_playing(host, port, device_uuid, {})
    samples = []
    for index in range(int(count)):
        pause = index % 2 == 0
        begin = time.perf_counter_ns()
        if pause:
            controller.pause()
        else:
            controller.play()
        watcher.wait_for("PAUSED" if pause else "PLAYING")
        samples.append(time.perf_counter_ns() - begin)
    return {"samples_ns": samples}


def decode(frame_file, samples, batch):
    from google.protobuf.internal import api_implementation
    from pychromecast.controllers.media import MediaStatus
    from pychromecast.generated import cast_channel_pb2

    with open(frame_file, "rb") as handle:
        frame = handle.read()
    length = int.from_bytes(frame[:4], "big")
    if length != len(frame) - 4:
        raise RuntimeError(f"frame length {length} does not match {len(frame) - 4} body bytes")

    def plain():
        message = cast_channel_pb2.CastMessage()
        message.ParseFromString(frame[4:])
        return json.loads(message.payload_utf8)

    def typed():
        data = plain()
        status = MediaStatus()
        status.update(data)
        return status

    if plain()["type"] != "MEDIA_STATUS" or typed().player_state != "PLAYING":
        raise RuntimeError("the frame is not a PLAYING MEDIA_STATUS")

    def per_op(body):
        """Nanoseconds per call of each batch: thread CPU time and wall time, sorted."""
        count = int(batch)
        for _ in range(count):
            body()
        cpu, wall = [], []
        for _ in range(int(samples)):
            cpu_begin, wall_begin = time.thread_time_ns(), time.perf_counter_ns()
            for _ in range(count):
                body()
            wall.append((time.perf_counter_ns() - wall_begin) / count)
            cpu.append((time.thread_time_ns() - cpu_begin) / count)
        return sorted(cpu), sorted(wall)

    plain_cpu, plain_wall = per_op(plain)
    typed_cpu, typed_wall = per_op(typed)
    return {
        "protobuf": api_implementation.Type(),
        "plain_cpu_ns": plain_cpu,
        "plain_wall_ns": plain_wall,
        "typed_cpu_ns": typed_cpu,
        "typed_wall_ns": typed_wall,
    }


def main():
    modes = {"e2e": (e2e, 3), "roundtrip": (roundtrip, 4), "decode": (decode, 3)}
    if len(sys.argv) < 2 or sys.argv[1] not in modes or len(sys.argv) - 2 != modes[sys.argv[1]][1]:
        print(json.dumps({"error": "usage: e2e HOST PORT UUID | roundtrip HOST PORT UUID COUNT | decode FILE N B"}))
        return 2
    function, _ = modes[sys.argv[1]]
    try:
        result = function(*sys.argv[2:])
        code = 0
    except Exception:  # any failure becomes a report, not a traceback on stderr only
        result = {"error": traceback.format_exc()}
        code = 1
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    # PyChromecast leaves socket threads behind; exit without waiting for them.
    os._exit(main())
