"""Runs the mkchromecast command line with PyChromecast's socket writes serialized.

Usage: /usr/bin/python3 mkchromecast_serialized.py [mkchromecast arguments...]

mkchromecast (Debian) runs on Debian's own PyChromecast, which has the same unlocked
writes from two threads as the PyPI one (see serialized_sends.py); against a device that
answers within a millisecond the interleaved TLS records fail with a bad record MAC. Run
with the system Python, whose packages mkchromecast and that PyChromecast are.
"""

import os
import runpy
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import serialized_sends  # noqa: E402,F401  (patches PyChromecast on import)

if __name__ == "__main__":
    program = "/usr/bin/mkchromecast"
    sys.argv[0] = program
    runpy.run_path(program, run_name="__main__")
