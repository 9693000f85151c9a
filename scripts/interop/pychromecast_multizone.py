"""Drives the multizone namespace of a virtual speaker with PyChromecast's MultizoneController.

Usage: pychromecast_multizone.py ADDRESS UUID NAME
       pychromecast_multizone.py group ADDRESS PORT UUID NAME CONTROL_URL

The second form drives a virtual speaker group (served at ADDRESS:PORT, its leader's
address) with PyChromecast's MultizoneManager: the members are added as the group connects,
SET_DEVICE_VOLUME for one member brings its DEVICE_UPDATED, media control on the group plays
and pauses, and the second member leaving the group (POST CONTROL_URL, the member's
/control/group endpoint) brings DEVICE_REMOVED and its removal from the manager.

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

# How long one step may take: a hang guard, not a timing claim. The devices answer from a test
# process that shares two cores with about a thousand other tests, as the Swift suite's patience.
PATIENCE = 60.0 * max(1.0, float(os.environ.get("CAST_TEST_SLOWDOWN") or 1))

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
        (address, 8009, uuid.UUID(device_uuid), "Google Home", name), tries=1, retry_wait=1, timeout=PATIENCE
    )
    controller = RecordingController(uuid.UUID(device_uuid))
    recorder = Recorder()
    controller.register_listener(recorder)
    cast.register_handler(controller)
    cast.wait(timeout=PATIENCE)
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


class GroupMemberListener:
    """A MultiZoneManagerListener for one member: records the groups it is added to."""

    def __init__(self):
        self.added = []
        self.removed = []

    def added_to_multizone(self, group_uuid):
        self.added.append(group_uuid)

    def removed_from_multizone(self, group_uuid):
        self.removed.append(group_uuid)

    def multizone_new_media_status(self, group_uuid, media_status):
        pass

    def multizone_new_cast_status(self, group_uuid, cast_status):
        pass


def run_group(address, port, group_uuid, name, control_url):
    import urllib.request

    from pychromecast.controllers.multizone import MultizoneManager

    cast = pychromecast.get_chromecast_from_host(
        (address, int(port), uuid.UUID(group_uuid), "Google Cast Group", name), tries=1, retry_wait=1, timeout=PATIENCE
    )
    step("group cast type", cast.cast_type == "group", cast.cast_type)
    manager = MultizoneManager()
    manager.add_multizone(cast)
    # The manager's listener registers its own controller; a recorder sees the raw messages.
    recorder = RecordingController(uuid.UUID(group_uuid))
    cast.register_handler(recorder)
    cast.wait(timeout=PATIENCE)
    step("connect", cast.status is not None, cast.status)
    controller = manager._groups[str(uuid.UUID(group_uuid))]["listener"]._mz  # noqa: SLF001
    step("members added", wait_for(lambda: len(controller.members) == 2), controller.members)
    members = list(controller.members)
    listeners = {}
    for member in members:
        listeners[member] = GroupMemberListener()
        manager.register_listener(member, listeners[member])
    status = next(m for m in recorder.received if m.get("type") == "MULTIZONE_STATUS")
    names = [d.get("name") for d in status["status"]["devices"]]
    step("member names", len(names) == 2 and all(names), names)
    first, second = status["status"]["devices"][0]["deviceId"], status["status"]["devices"][1]["deviceId"]

    recorder.send_message({"type": "SET_DEVICE_VOLUME", "deviceId": first, "volume": {"level": 0.35}})
    step(
        "member volume updated",
        wait_for(
            lambda: any(
                m.get("type") == "DEVICE_UPDATED"
                and m["device"]["deviceId"] == first
                and abs(m["device"]["volume"]["level"] - 0.35) < 1e-6
                for m in recorder.received
            )
        ),
        [m for m in recorder.received if m.get("type") == "DEVICE_UPDATED"],
    )

    media = cast.media_controller
    media.play_media("http://127.0.0.1:9/group.mp3", "audio/mpeg", title="Group song", stream_type="BUFFERED")
    media.block_until_active(timeout=PATIENCE)
    step("group plays", wait_for(lambda: media.status.player_state == "PLAYING"), media.status)
    media.pause()
    step("group pauses", wait_for(lambda: media.status.player_state == "PAUSED"), media.status)
    step(
        "playback session",
        any(m.get("type") == "PLAYBACK_SESSION_UPDATED" for m in recorder.received),
        [m.get("type") for m in recorder.received],
    )

    body = json.dumps({"group": name, "member": False}).encode()
    request = urllib.request.Request(control_url, data=body, method="POST", headers={"X-Cast-Control": "1"})
    with urllib.request.urlopen(request, timeout=PATIENCE) as response:
        step("member leaves", response.status == 200, response.status)
    step("device removed", wait_for(lambda: second not in controller.members), controller.members)
    step(
        "manager forgets membership",
        wait_for(lambda: listeners.get(second) is not None and listeners[second].removed),
        {k: v.removed for k, v in listeners.items()},
    )
    cast.quit_app()
    cast.disconnect(timeout=5)


def main():
    if len(sys.argv) == 7 and sys.argv[1] == "group":
        try:
            run_group(*sys.argv[2:])
            error = None
        except StepFailed:
            error = None
        except Exception:  # report any client exception as a failed run
            error = traceback.format_exc()
        ok = error is None and steps and all(s["ok"] for s in steps)
        print(json.dumps({"ok": bool(ok), "steps": steps, "error": error}))
        sys.stdout.flush()
        return 0 if ok else 1
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
