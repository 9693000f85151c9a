#!/usr/bin/env python3
"""Turns a terminal capture with colours (tmux capture-pane -e) into an HTML page that
shows it as the terminal did: each character in its cell, SGR colours (16, 256 and 24-bit),
bold, dim, italic, underline and reverse. Used to render the castvideos captures to images
(scripts/render-captures.sh).

    ansi-to-html.py CAPTURE.ans [TITLE] > CAPTURE.html
"""
import html
import re
import sys

BASIC = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
    (255, 255, 255),
]
LEVELS = [0, 95, 135, 175, 215, 255]
DEFAULT_FG = (220, 220, 220)
DEFAULT_BG = (24, 24, 28)


def palette(index):
    if index < 16:
        return BASIC[index]
    if index < 232:
        index -= 16
        return (LEVELS[index // 36], LEVELS[(index // 6) % 6], LEVELS[index % 6])
    grey = 8 + (index - 232) * 10
    return (grey, grey, grey)


class Pen:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None
        self.bg = None
        self.bold = self.dim = self.italic = self.underline = self.reverse = False

    def apply(self, params):
        values = [int(p) if p else 0 for p in params.split(";")] if params else [0]
        i = 0
        while i < len(values):
            v = values[i]
            if v == 0:
                self.reset()
            elif v == 1:
                self.bold = True
            elif v == 2:
                self.dim = True
            elif v == 3:
                self.italic = True
            elif v == 4:
                self.underline = True
            elif v == 7:
                self.reverse = True
            elif v == 22:
                self.bold = self.dim = False
            elif v == 23:
                self.italic = False
            elif v == 24:
                self.underline = False
            elif v == 27:
                self.reverse = False
            elif 30 <= v <= 37:
                self.fg = palette(v - 30)
            elif 90 <= v <= 97:
                self.fg = palette(v - 90 + 8)
            elif 40 <= v <= 47:
                self.bg = palette(v - 40)
            elif 100 <= v <= 107:
                self.bg = palette(v - 100 + 8)
            elif v == 39:
                self.fg = None
            elif v == 49:
                self.bg = None
            elif v in (38, 48) and i + 1 < len(values):
                if values[i + 1] == 5 and i + 2 < len(values):
                    color = palette(values[i + 2])
                    i += 2
                elif values[i + 1] == 2 and i + 4 < len(values):
                    color = tuple(values[i + 2:i + 5])
                    i += 4
                else:
                    color = None
                if v == 38:
                    self.fg = color
                else:
                    self.bg = color
            i += 1

    def style(self):
        fg = self.fg or DEFAULT_FG
        bg = self.bg or DEFAULT_BG
        if self.reverse:
            fg, bg = bg, fg
        if self.dim:
            fg = tuple((c + b) // 2 for c, b in zip(fg, bg))
        parts = ["color:rgb%s" % (fg,), "background:rgb%s" % (bg,)]
        if self.bold:
            parts.append("font-weight:bold")
        if self.italic:
            parts.append("font-style:italic")
        if self.underline:
            parts.append("text-decoration:underline")
        return ";".join(parts)


def convert(text):
    pen = Pen()
    rows = []
    for line in text.split("\n"):
        spans = []
        for part in re.split(r"(\x1b\[[0-9;]*m)", line):
            match = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
            if match:
                pen.apply(match.group(1))
            elif part:
                spans.append('<span style="%s">%s</span>' % (pen.style(), html.escape(part)))
        rows.append("".join(spans))
    return rows


def main():
    text = open(sys.argv[1], encoding="utf-8", errors="replace").read().rstrip("\n")
    title = sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]
    rows = convert(text)
    print(
        "<!doctype html><meta charset=utf-8><title>%s</title><style>"
        "body{margin:0;background:rgb%s}"
        "pre{margin:0;padding:8px;font:15px/1.0 'DejaVu Sans Mono',monospace;white-space:pre}"
        "pre div{height:18px;line-height:18px}"
        "</style><pre>%s</pre>"
        % (html.escape(title), DEFAULT_BG, "".join("<div>%s</div>" % row for row in rows))
    )


if __name__ == "__main__":
    main()
