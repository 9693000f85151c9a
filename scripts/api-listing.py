#!/usr/bin/env python3
"""Turns the symbol graphs of one module into a sorted, one-line-per-symbol text listing.

    api-listing.py GRAPH_DIR MODULE > api/MODULE.txt

Each line is the symbol's path (Type.member) and its declaration as the compiler prints it;
conformances follow as `Type: Protocol`. Sorted, so a change of the public surface shows up
as a small diff of the committed listing.
"""
import json
import pathlib
import sys


def declaration(symbol):
    text = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
    return " ".join(text.split())


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: api-listing.py GRAPH_DIR MODULE")
    graph_dir, module = pathlib.Path(sys.argv[1]), sys.argv[2]
    files = sorted(graph_dir.glob(f"{module}.symbols.json")) + sorted(graph_dir.glob(f"{module}@*.symbols.json"))
    if not files:
        sys.exit(f"error: no symbol graph for {module} in {graph_dir}")
    lines = set()
    for path in files:
        graph = json.loads(path.read_text())
        names = {}
        for symbol in graph.get("symbols", []):
            path_name = ".".join(symbol.get("pathComponents", []))
            names[symbol["identifier"]["precise"]] = path_name
            lines.add(f"{path_name}  {declaration(symbol)}")
        for relation in graph.get("relationships", []):
            if relation.get("kind") != "conformsTo":
                continue
            source = names.get(relation["source"])
            if source is None:
                continue
            target = names.get(relation["target"]) or relation.get("targetFallback") or relation["target"]
            lines.add(f"{source}: {target}")
    sys.stdout.write("".join(line + "\n" for line in sorted(lines)))


if __name__ == "__main__":
    main()
