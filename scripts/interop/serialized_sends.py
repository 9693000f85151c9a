"""Serializes PyChromecast's socket writes; import before using PyChromecast (or catt).

PyChromecast writes to its TLS socket from its socket thread (heartbeats, and CONNECT plus
GET_STATUS after a status change) and from the caller's thread (commands) without a lock.
Two writes at once interleave TLS records; the device then sees a record with a bad MAC and
drops the connection, as a real device would. A device that answers within a millisecond,
like the virtual one on loopback, makes the race frequent. The interop runs serialize the
writes so they exercise the protocol rather than that race.
"""

import threading

import pychromecast.socket_client

_lock = threading.RLock()
_original_send_message = pychromecast.socket_client.SocketClient.send_message


def _locked_send_message(self, *args, **kwargs):
    with _lock:
        return _original_send_message(self, *args, **kwargs)


pychromecast.socket_client.SocketClient.send_message = _locked_send_message
