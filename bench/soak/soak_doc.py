#!/usr/bin/env python3
"""Replaces the "## Last result" section of docs/soak.md: soak_doc.py DOC HEADER REPORT."""
import sys

MARKER = "## Last result"


def main():
    path, header, report = sys.argv[1:4]
    with open(path) as f:
        head = f.read().split(MARKER)[0]
    with open(path, "w") as f:
        f.write(head + MARKER + "\n\n" + header + "\n\n" + report + "\n")


if __name__ == "__main__":
    main()
