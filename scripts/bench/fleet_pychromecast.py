#!/usr/bin/env python3
"""Fleet load of pychromecast: one process holding connections to N virtual devices.

Connects one pychromecast ``Chromecast`` per device (``get_chromecast_from_host``, which
starts one worker thread per device), launches the Default Media Receiver and loads a clip
on each, lets them play for a steady window while the devices send MEDIA_STATUS, and prints
one JSON object with this process's figures:

    {"count", "connected", "connectSeconds", "playing", "baselineRSSKiB", "rssKiB",
     "threads", "fds", "cpuPercent", "statusesPerSecond", "playRetries", "playErrors", "error"}

``playRetries`` counts devices whose first ``play_media`` did not reach PLAYING within a
third of the connect timeout and were asked once more; ``playErrors`` counts the
``play_media`` calls that raised.

``error`` is null when every device connected and played; otherwise it says what failed
(the other members hold what was measured until then). Only loopback addresses are
accepted. The exit status is 0 when the figures were measured, 3 when pychromecast is
missing, 2 on bad arguments.

    fleet_pychromecast.py --first-address 127.0.100.1 --count 100 --seconds 20
"""

import argparse
import ipaddress
import json
import os
import resource
import sys
import threading
import time
import uuid


def consecutive_addresses(first, count):
    """``count`` IPv4 addresses from ``first``, skipping last octets 0 and 255 (as the emulator does)."""
    value = int(ipaddress.IPv4Address(first))
    addresses = []
    while len(addresses) < count:
        if value & 0xFF not in (0, 255):
            addresses.append(str(ipaddress.IPv4Address(value)))
        value += 1
    return addresses


def sample():
    """RSS in KiB, thread count and descriptor count of this process."""
    rss = 0
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    return rss, len(os.listdir("/proc/self/task")), len(os.listdir("/proc/self/fd"))


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class StatusCounter:
    """Counts MEDIA_STATUS updates of every device; remembers which devices play."""

    def __init__(self):
        self.lock = threading.Lock()
        self.count = 0
        self.playing = set()

    def listener(self, index):
        counter = self

        class Listener:
            def new_media_status(self, status):
                with counter.lock:
                    counter.count += 1
                    if status.player_state == "PLAYING":
                        counter.playing.add(index)

            def load_media_failed(self, queue_item_id, error_code):
                pass

        return Listener()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first-address", default="127.0.100.1")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=20.0, help="steady window")
    parser.add_argument("--connect-timeout", type=float, default=60.0)
    parser.add_argument("--media-url", default="http://127.0.0.1:1/fleet.mp4")
    args = parser.parse_args()
    if not 1 <= args.count <= 5000 or not 1 <= args.seconds <= 600:
        parser.error("--count must be 1 to 5000 and --seconds 1 to 600")
    addresses = consecutive_addresses(args.first_address, args.count)
    if not all(ipaddress.IPv4Address(address).is_loopback for address in addresses):
        parser.error("every device address must be a loopback address")

    try:
        import pychromecast
    except ImportError as error:
        print(json.dumps({"count": args.count, "error": f"pychromecast unavailable: {error}"}))
        return 3

    result = {
        "count": args.count,
        "connected": 0,
        "connectSeconds": None,
        "playing": 0,
        "baselineRSSKiB": None,
        "rssKiB": None,
        "threads": None,
        "fds": None,
        "cpuPercent": None,
        "statusesPerSecond": None,
        "playRetries": 0,
        "playErrors": 0,
        "error": None,
    }
    result["baselineRSSKiB"] = sample()[0]
    counter = StatusCounter()
    casts = []
    begin = time.monotonic()
    deadline = begin + args.connect_timeout
    try:
        for index, address in enumerate(addresses):
            host = (address, 8009, uuid.uuid4(), "Chromecast", f"Fleet {index + 1}")
            cast = pychromecast.get_chromecast_from_host(host, tries=1, timeout=10)
            cast.start()
            casts.append(cast)
            if time.monotonic() > deadline:
                break
        for cast in casts:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            try:
                cast.wait(timeout=remaining)
            except Exception:  # noqa: BLE001 - a device that never answered counts as not connected
                break
        result["connected"] = sum(1 for cast in casts if cast.status_event.is_set())
        result["connectSeconds"] = round(time.monotonic() - begin, 2)
        if result["connected"] < args.count:
            result["error"] = (
                f"{result['connected']} of {args.count} connected within {args.connect_timeout:.0f} s"
            )
            return finish(result, casts)

        for index, cast in enumerate(casts):
            cast.media_controller.register_status_listener(counter.listener(index))
            play(cast, args.media_url, result)
        play_start = time.monotonic()
        play_deadline = play_start + args.connect_timeout
        retried = False
        while time.monotonic() < play_deadline:
            with counter.lock:
                if len(counter.playing) == args.count:
                    break
                waiting = [index for index in range(args.count) if index not in counter.playing]
            if not retried and time.monotonic() - play_start > args.connect_timeout / 3:
                # A launch that raced the connection's first status is asked for once more.
                retried = True
                result["playRetries"] = len(waiting)
                for index in waiting:
                    play(casts[index], args.media_url, result)
            time.sleep(0.2)
        with counter.lock:
            result["playing"] = len(counter.playing)
        if result["playing"] < args.count:
            result["error"] = f"{result['playing']} of {args.count} played within {args.connect_timeout:.0f} s"

        time.sleep(2)
        with counter.lock:
            statuses_before = counter.count
        cpu_before, wall_before = cpu_seconds(), time.monotonic()
        time.sleep(args.seconds)
        cpu_after, wall_after = cpu_seconds(), time.monotonic()
        with counter.lock:
            statuses_after = counter.count
        rss, threads, fds = sample()
        result.update(
            rssKiB=rss,
            threads=threads,
            fds=fds,
            cpuPercent=round(100 * (cpu_after - cpu_before) / (wall_after - wall_before), 2),
            statusesPerSecond=round((statuses_after - statuses_before) / (wall_after - wall_before), 1),
        )
    except Exception as error:  # noqa: BLE001 - any failure is reported in the row
        result["error"] = f"{type(error).__name__}: {error}"
    return finish(result, casts)


def play(cast, url, result):
    """Asks ``cast`` to launch the Default Media Receiver and load ``url``; a refusal
    (pychromecast raises while the app is still launching) is counted, not fatal."""
    try:
        cast.media_controller.play_media(url, "video/mp4")
    except Exception:  # noqa: BLE001 - counted; the retry or the play deadline decides
        result["playErrors"] += 1


def finish(result, casts):
    """Prints the result, asks every connection to stop, and exits without waiting for them."""
    if result["rssKiB"] is None:
        result["rssKiB"], result["threads"], result["fds"] = sample()
    print(json.dumps(result), flush=True)
    for cast in casts:
        try:
            cast.socket_client.disconnect()
        except Exception:  # noqa: BLE001 - exiting anyway
            pass
    sys.stdout.flush()
    # Worker threads may block on sockets; the process ends without joining them.
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
