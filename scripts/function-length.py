#!/usr/bin/env python3
"""make lint: no function in the racekit command target is longer than MAX body lines.

The commands parse arguments, call one workflow (Sources/RaceKitWorkflows) and
print; a long function there is a workflow that has not moved yet. Every
`func` and `init` with a body counts: its body is the lines strictly between
the line of its opening brace and the line of its closing brace. Braces inside
string literals (plain, multi-line, raw, with interpolations) and comments are
skipped. Exits 1 naming each function that is too long, with its length.

  python3 scripts/function-length.py [--max N] [FOLDER...]   (default: 40, Sources/racekit)
"""

import os
import re
import sys

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def scan(text):
    """Yields (kind, value, line) for the code tokens that matter: words,
    braces and parentheses, with strings and comments skipped."""
    i, line, n = 0, 1, len(text)
    # A stack of modes: ("code", paren depth) for code, including inside an
    # interpolation; ("string", delimiter, raw hashes) for a string literal.
    stack = [("code", 0)]
    while i < n:
        c = text[i]
        mode = stack[-1]
        if c == "\n":
            line += 1
        if mode[0] == "string":
            _, delim, hashes = mode
            if text.startswith(delim + "#" * hashes, i):
                stack.pop()
                i += len(delim) + hashes
                continue
            if c == "\\" and text.startswith("#" * hashes, i + 1):
                j = i + 1 + hashes
                if j < n and text[j] == "(":
                    stack.append(("code", 0))
                    i = j + 1
                    continue
                if j < n and text[j] == "\n":
                    line += 1
                i = j + 1
                continue
            i += 1
            continue
        # Code.
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
            continue
        if c == "#" or c == '"':
            j = i
            while j < n and text[j] == "#":
                j += 1
            if j < n and text[j] == '"':
                hashes = j - i
                delim = '"""' if text.startswith('"""', j) else '"'
                stack.append(("string", delim, hashes))
                i = j + len(delim)
                continue
            i = j if j > i else i + 1
            continue
        if c == "(":
            stack[-1] = ("code", mode[1] + 1)
        elif c == ")":
            if mode[1] == 0 and len(stack) > 1:
                stack.pop()  # the end of an interpolation
                i += 1
                continue
            stack[-1] = ("code", mode[1] - 1)
        if c in "{}()":
            yield (c, c, line)
            i += 1
            continue
        m = WORD.match(text, i)
        if m:
            if i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.$@"):
                yield ("word", m.group(0), line)
            i = m.end()
            continue
        i += 1


def functions(text):
    """(name, first line, body lines) of every func and init with a body."""
    found = []
    pending = None  # (name, line, paren depth) of a func waiting for its body
    depth = 0  # brace depth
    parens = 0
    open_bodies = []  # (name, line, brace depth, line of the opening brace)
    for kind, value, line in scan(text):
        if kind == "word":
            if value == "func":
                pending = (None, line, parens)  # named by the next word
            elif value == "init":
                pending = ("init", line, parens)
            elif pending and pending[0] is None:
                pending = (value, pending[1], pending[2])
            continue
        if value == "(":
            parens += 1
        elif value == ")":
            parens -= 1
        elif value == "{":
            depth += 1
            if pending and parens == pending[2]:
                open_bodies.append((pending[0] or "?", pending[1], depth, line))
                pending = None
        elif value == "}":
            if open_bodies and open_bodies[-1][2] == depth:
                name, start, _, open_line = open_bodies.pop()
                found.append((name, start, max(0, line - open_line - 1)))
            depth -= 1
            if pending and parens == pending[2]:
                pending = None  # a declaration without a body (a protocol's)
    return found


def main(argv):
    limit = 40
    folders = []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--max":
            limit = int(args.pop(0))
        else:
            folders.append(a)
    folders = folders or ["Sources/racekit"]
    too_long = []
    for folder in folders:
        for root, _, files in os.walk(folder):
            for f in sorted(files):
                if not f.endswith(".swift"):
                    continue
                path = os.path.join(root, f)
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                for name, start, body in functions(text):
                    if body > limit:
                        too_long.append(f"{path}:{start}: {name}: {body} body lines (at most {limit})")
    for t in too_long:
        print(t, file=sys.stderr)
    if too_long:
        print(f"function length: {len(too_long)} function(s) in {', '.join(folders)} over {limit} lines: "
              "move the work into a workflow (Sources/RaceKitWorkflows)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
