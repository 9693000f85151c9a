"""Finds a virtual Cast device with PyChromecast's mDNS discovery, then connects to it.

Usage: pychromecast_discovery.py UUID NAME MODEL ADDRESS [--interface 127.0.0.1] [--timeout 30]
                                 [--port 8009] [--cast-type cast]

A speaker group is found with --port (the group's own port on its leader) and
--cast-type group.

Browses _googlecast._tcp with PyChromecast's CastBrowser on a Zeroconf instance whose
multicast stays on --interface, waits until the device with UUID is discovered, checks the
friendly name, model, address and port PyChromecast read from the advertisement, then builds
a Chromecast from that discovery record (PyChromecast resolves the service over mDNS again
to connect), waits for the receiver status and launches the Default Media Receiver.

Prints one JSON object on stdout: {"ok": bool, "steps": [{"name", "ok", "detail"}]}.
Exits 0 when every step passed, 1 otherwise.
"""

import argparse
import json
import os
import sys
import threading
import time
import traceback
import uuid

import pychromecast
from pychromecast.discovery import CastBrowser, SimpleCastListener
from zeroconf import IPVersion, Zeroconf

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serialized_sends  # noqa: E402,F401  (patches PyChromecast on import; see there why)

# How long one step may take: a hang guard, not a timing claim. The devices answer from a test
# process that shares two cores with about a thousand other tests, as the Swift suite's patience.
PATIENCE = 60.0 * max(1.0, float(os.environ.get("CAST_TEST_SLOWDOWN") or 1))

DMR = "CC1AD845"
steps = []


class StepFailed(Exception):
    pass


def step(name, ok, detail=""):
    steps.append({"name": name, "ok": bool(ok), "detail": str(detail)})
    if not ok:
        raise StepFailed(name)


def wait_for(predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def run(args, zconf):
    wanted = uuid.UUID(args.uuid)
    found = threading.Event()
    listener = SimpleCastListener(add_callback=lambda u, _name: found.set() if u == wanted else None)
    browser = CastBrowser(listener, zconf)
    browser.start_discovery()
    try:
        step("discovered", found.wait(args.timeout), sorted(str(u) for u in browser.devices))
        info = browser.devices[wanted]
        step("friendly name", info.friendly_name == args.name, info.friendly_name)
        step("model", info.model_name == args.model, info.model_name)
        step("port", info.port == args.port, info.port)
        step("cast type", info.cast_type == args.cast_type, info.cast_type)
        step("mdns service", any(type(s).__name__ == "MDNSServiceInfo" for s in info.services), info.services)

        cast = pychromecast.get_chromecast_from_cast_info(info, zconf, tries=3, retry_wait=1, timeout=PATIENCE)
        try:
            cast.wait(timeout=args.timeout)
            step("connected", cast.status is not None, cast.status)
            step("address", cast.socket_client.host == args.address, cast.socket_client.host)
            step("uuid", cast.uuid == wanted, cast.uuid)
            cast.start_app(DMR, timeout=PATIENCE)
            step("launch", wait_for(lambda: cast.app_id == DMR, 10), cast.status)
            cast.quit_app(timeout=PATIENCE)
            step("quit app", wait_for(lambda: cast.app_id != DMR, 10), cast.status)
        finally:
            cast.disconnect(timeout=5)
    finally:
        browser.stop_discovery()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("uuid")
    parser.add_argument("name")
    parser.add_argument("model")
    parser.add_argument("address")
    parser.add_argument("--interface", default="127.0.0.1")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--port", type=int, default=8009)
    parser.add_argument("--cast-type", default="cast")
    args = parser.parse_args()
    zconf = Zeroconf(interfaces=[args.interface], ip_version=IPVersion.V4Only)
    error = None
    try:
        run(args, zconf)
    except StepFailed:
        pass
    except Exception:
        error = traceback.format_exc()
    finally:
        zconf.close()
    ok = error is None and bool(steps) and all(s["ok"] for s in steps)
    report = {"ok": ok, "steps": steps}
    if error:
        report["error"] = error
    print(json.dumps(report), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
