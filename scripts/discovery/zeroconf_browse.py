"""Browses _googlecast._tcp with python-zeroconf, for discovery interop tests.

Prints one JSON line per resolved service: instance name, the TXT keys fn, md and id, the
id parsed as a UUID the way pychromecast does, the port and the IPv4 addresses. Exits after
--count services or the --seconds deadline, or once every --expect-fn friendly name was seen. Multicast stays on
--interface.
"""

import argparse
import json
import sys
import threading
import uuid

from zeroconf import IPVersion, ServiceBrowser, ServiceListener, Zeroconf


class Listener(ServiceListener):
    def __init__(self, count: int, expected: set) -> None:
        self.count = count
        self.expected = expected
        self.names = set()
        self.seen = set()
        self.done = threading.Event()

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        if name.endswith("._sub._googlecast._tcp.local."):
            return
        info = zc.get_service_info(type_, name, timeout=3000)
        if info is None or name in self.seen:
            return
        props = {k.decode(): (v.decode() if v is not None else None) for k, v in info.properties.items()}
        try:
            parsed = str(uuid.UUID(props.get("id") or ""))
        except ValueError:
            parsed = None
        self.seen.add(name)
        self.names.add(props.get("fn"))
        print(
            json.dumps(
                {
                    "name": name,
                    "fn": props.get("fn"),
                    "md": props.get("md"),
                    "id": props.get("id"),
                    "uuid": parsed,
                    "port": info.port,
                    "addresses": info.parsed_addresses(IPVersion.V4Only),
                    "server": info.server,
                }
            ),
            flush=True,
        )
        if self.expected.issubset(self.names) if self.expected else len(self.seen) >= self.count:
            self.done.set()

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        pass

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        pass


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--interface", default="127.0.0.1")
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--expect-fn", action="append", default=[], help="friendly name to wait for")
    args = parser.parse_args()
    zc = Zeroconf(interfaces=[args.interface], ip_version=IPVersion.V4Only)
    listener = Listener(args.count, set(args.expect_fn))
    try:
        ServiceBrowser(zc, "_googlecast._tcp.local.", listener)
        found = listener.done.wait(args.seconds)
    finally:
        zc.close()
    return 0 if found else 3


if __name__ == "__main__":
    sys.exit(main())
