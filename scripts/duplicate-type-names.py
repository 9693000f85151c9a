#!/usr/bin/env python3
"""Lists the type names declared at the top level of more than one module under Sources/.

    scripts/duplicate-type-names.py [--root DIR]

Two modules that each declare a `DeviceConnection` (or a `MediaQueue`) for different things
make a reader, a search or a stack trace ambiguous; the SDK's public names stay and the other
module's type is renamed. Every access level counts: an internal type still shows in stack
traces and searches. Nested types are not listed (their full names differ). Exits 1 and prints
`Name: Module (file), Module (file)` per duplicate, 0 when there is none.
"""
import argparse
import os
import re
import sys
from collections import defaultdict

DECLARATION = re.compile(
    r"^(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private|open|final|indirect)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)"
)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    root = os.path.abspath(parser.parse_args().root)
    sources = os.path.join(root, "Sources")
    declared = defaultdict(set)  # name -> {(module, file)}
    for module in sorted(os.listdir(sources)):
        for directory, _, files in os.walk(os.path.join(sources, module)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as file:
                    for line in file:
                        match = DECLARATION.match(line)  # top level only: no indentation
                        if match:
                            declared[match.group(1)].add((module, os.path.relpath(path, root)))
    duplicates = {
        name: places for name, places in declared.items() if len({module for module, _ in places}) > 1
    }
    for name in sorted(duplicates):
        places = ", ".join(f"{module} ({path})" for module, path in sorted(duplicates[name]))
        print(f"{name}: {places}")
    return 1 if duplicates else 0


if __name__ == "__main__":
    sys.exit(main())
