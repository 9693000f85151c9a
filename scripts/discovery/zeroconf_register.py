"""Registers one _googlecast._tcp service with python-zeroconf, for discovery interop tests.

Prints "registered" once the service is announced, then waits for a line "quit" on
standard input (or the --seconds deadline; with --ignore-stdin only the deadline),
unregisters (sending goodbyes), prints "unregistered" and exits. Multicast stays on the
interface address given by --interface.
"""

import argparse
import socket
import sys
import threading

from zeroconf import IPVersion, ServiceInfo, Zeroconf


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--interface", default="127.0.0.1")
    parser.add_argument("--name", required=True, help="service instance label")
    parser.add_argument("--address", required=True, help="IPv4 address for the A record")
    parser.add_argument("--port", type=int, default=8009)
    parser.add_argument("--txt", action="append", default=[], help="key=value, repeatable")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--ignore-stdin", action="store_true", help="run until the deadline only")
    args = parser.parse_args()

    properties = {}
    for item in args.txt:
        key, _, value = item.partition("=")
        properties[key] = value
    service_type = "_googlecast._tcp.local."
    info = ServiceInfo(
        service_type,
        f"{args.name}.{service_type}",
        addresses=[socket.inet_aton(args.address)],
        port=args.port,
        properties=properties,
        server=f"{args.name.replace(' ', '-')}.local.",
    )
    zc = Zeroconf(interfaces=[args.interface], ip_version=IPVersion.V4Only)
    try:
        zc.register_service(info)
        print("registered", flush=True)
        done = threading.Event()

        def wait_for_quit() -> None:
            for line in sys.stdin:
                if line.strip() == "quit":
                    break
            done.set()

        if not args.ignore_stdin:
            threading.Thread(target=wait_for_quit, daemon=True).start()
        done.wait(args.seconds)
        zc.unregister_service(info)
        print("unregistered", flush=True)
    finally:
        zc.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
