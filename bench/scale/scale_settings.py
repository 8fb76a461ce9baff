#!/usr/bin/env python3
"""Writes bench/scale/scale.sh's settings as JSON: scale_settings.py FILE key=value...

Whole numbers are stored as numbers, everything else as text (labels and JVM options stay valid JSON
whatever characters they hold).
"""
import json
import sys


def value(text):
    return int(text) if text.isdigit() else text


def main():
    pairs = (arg.partition("=") for arg in sys.argv[2:])
    with open(sys.argv[1], "w") as f:
        json.dump({k: value(v) for k, _, v in pairs}, f)


if __name__ == "__main__":
    main()
