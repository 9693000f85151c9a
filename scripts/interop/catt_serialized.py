"""Runs the catt command line with PyChromecast's socket writes serialized.

Usage: catt_serialized.py [catt arguments...]   (see serialized_sends.py for why)
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import serialized_sends  # noqa: E402,F401  (patches PyChromecast on import)
from catt.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.argv[0] = "catt"
    sys.exit(main())
