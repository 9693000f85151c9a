"""Drives the multizone namespace of a virtual speaker with PyChromecast's MultizoneController.

Usage: pychromecast_multizone.py ADDRESS UUID NAME

Connects by address (no mDNS), registers a MultizoneController, asks for the members
(GET_STATUS -> MULTIZONE_STATUS: an ungrouped speaker lists itself), for the casting groups
(GET_CASTING_GROUPS -> CASTING_GROUPS), then sets the speaker's own volume with
SET_DEVICE_VOLUME and waits for DEVICE_UPDATED and for the receiver volume to follow.

Prints one JSON object on stdout: {"ok": bool, "steps": [{"name", "ok", "detail"}]}.
Exits 0 when every step passed, 1 otherwise.
"""

import json
import os
import sys
import time
import traceback
import uuid

import pychromecast
from pychromecast.controllers.multizone import MultizoneController, MultiZoneControllerListener

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serialized_sends  # noqa: E402,F401  (patches PyChromecast on import; see there why)

steps = []


def step(name, ok, detail=""):
    steps.append({"name": name, "ok": bool(ok), "detail": str(detail)})
    if not ok:
        raise StepFailed(name)


class StepFailed(Exception):
    pass


def wait_for(predicate, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


class Recorder(MultiZoneControllerListener):
    def __init__(self):
        self.added = []
        self.removed = []
        self.statuses = 0

    def multizone_member_added(self, group_uuid):
        self.added.append(group_uuid)

    def multizone_member_removed(self, group_uuid):
        self.removed.append(group_uuid)

    def multizone_status_received(self):
        self.statuses += 1


class RecordingController(MultizoneController):
    """Keeps every multizone message type it receives, then handles it as PyChromecast does."""

    def __init__(self, device_uuid):
        super().__init__(device_uuid)
        self.received = []

    def receive_message(self, message, data):
        self.received.append(data)
        return super().receive_message(message, data)


def run(address, device_uuid, name):
    dashed = str(uuid.UUID(device_uuid))
    cast = pychromecast.get_chromecast_from_host(
        (address, 8009, uuid.UUID(device_uuid), "Google Home", name), tries=1, retry_wait=1, timeout=10
    )
    controller = RecordingController(uuid.UUID(device_uuid))
    recorder = Recorder()
    controller.register_listener(recorder)
    cast.register_handler(controller)
    cast.wait(timeout=10)
    step("connect", cast.status is not None, cast.status)

    controller.update_members()
    step("multizone status", wait_for(lambda: recorder.statuses >= 1), controller.received)
    step("lists itself", controller.members == [dashed] and recorder.added == [dashed], controller.members)
    status = next(m for m in controller.received if m.get("type") == "MULTIZONE_STATUS")
    member = status["status"]["devices"][0]
    step("member name", member.get("name") == name, member)
    step("member keys", {"deviceId", "name", "capabilities", "volume"} <= set(member), sorted(member))

    controller.get_casting_groups()
    step(
        "casting groups",
        wait_for(lambda: any(m.get("type") == "CASTING_GROUPS" for m in controller.received)),
        controller.received,
    )

    controller.send_message({"type": "SET_DEVICE_VOLUME", "deviceId": dashed, "volume": {"level": 0.4}})
    step(
        "device updated",
        wait_for(lambda: any(m.get("type") == "DEVICE_UPDATED" for m in controller.received)),
        controller.received,
    )
    step("receiver volume follows", wait_for(lambda: abs(cast.status.volume_level - 0.4) < 1e-6), cast.status)
    step("still one member", controller.members == [dashed] and not recorder.removed, controller.members)
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
