#!/usr/bin/env python3
"""Checks lua/ddb.lua's answer checks before a run: the floor's canned answers must count as good,
and answers of the wrong shape as bad, for every workload. A check that accepts anything would let
a failing server look fast; one that rejects the floor would make every ratio to it meaningless.

  check_answers.py        (exit 0 when every case holds; prints the failing cases otherwise)

Runs ddb.lua in the LuaJIT library that wrk itself links (libluajit-5.1.so.2, installed with wrk),
through ctypes: no Lua interpreter is needed. Standard library only.
"""
import ctypes
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "peers"))
import floor_conf  # noqa: E402  (the floor's answers are the good cases)

LUA_GLOBALSINDEX = -10002  # LuaJIT (Lua 5.1)
LUAJIT_LIBRARY = "libluajit-5.1.so.2"


class Lua:
    """One Lua state with ddb.lua loaded for one workload."""

    def __init__(self, workload):
        self.lib = ctypes.CDLL(LUAJIT_LIBRARY)
        self.lib.luaL_newstate.restype = ctypes.c_void_p
        self.lib.lua_tolstring.restype = ctypes.c_char_p
        self.lib.lua_toboolean.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.state = ctypes.c_void_p(self.lib.luaL_newstate())
        self.lib.luaL_openlibs(self.state)
        before = os.environ.get("DDB_WORKLOAD")
        os.environ["DDB_WORKLOAD"] = workload  # ddb.lua reads it once, when loaded
        try:
            with open(os.path.join(HERE, "lua", "ddb.lua")) as f:
                self.run(f.read())
        finally:
            if before is None:
                del os.environ["DDB_WORKLOAD"]
            else:
                os.environ["DDB_WORKLOAD"] = before

    def run(self, code):
        if self.lib.luaL_loadstring(self.state, code.encode()) or self.lib.lua_pcall(self.state, 0, 0, 0):
            raise RuntimeError(self.lib.lua_tolstring(self.state, -1, None).decode())

    def good(self, status, body):
        """True when ddb.lua's response() counts the answer as good."""
        self.run("good = 0; response(%d, {}, %s)" % (status, lua_string(body)))
        self.run("answer_was_good = good == 1")
        self.lib.lua_getfield(self.state, LUA_GLOBALSINDEX, b"answer_was_good")
        was_good = bool(self.lib.lua_toboolean(self.state, -1))
        self.lib.lua_settop(self.state, -2)
        return was_good

    def close(self):
        self.lib.lua_close(self.state)


def lua_string(text):
    """A Lua string literal: JSON's escapes are Lua's, except \\u, which no case here uses."""
    assert "\\u" not in json.dumps(text), "case bodies must be ASCII without control characters"
    return json.dumps(text)


def cases():
    """(workload, status, body, expected good) per case."""
    floor = floor_conf.bodies()
    page, limit = floor["Query"], floor_conf.QUERY_LIMIT
    short_page = page.replace('"Count":%d' % limit, '"Count":%d' % (limit - 1))
    assert short_page != page
    out = [
        ("put", 200, floor["PutItem"], True), ("put", 400, floor["PutItem"], False),
        ("get", 200, floor["GetItem"], True), ("get", 200, "{}", False),
        ("update", 200, floor["UpdateItem"], True), ("update", 200, "{}", False),
        ("batch", 200, floor["BatchWriteItem"], True),
        ("batch", 200, '{"UnprocessedItems":{"bench":[{"PutRequest":{}}]}}', False),
        ("mixed", 200, floor["GetItem"], True), ("mixed", 200, "{}", False),
    ]
    for workload in ("query", "query_gsi"):
        out += [
            (workload, 200, page, True),
            (workload, 200, short_page, False),
            (workload, 200, '{"Count" : %d ,"Items":[]}' % limit, True),  # whitespace, Count first
            (workload, 200, '{"Items":[{"Count":{"N":"%d"}}],"Count":3}' % limit, False),  # an attribute
            (workload, 200, '{"Items":[],"Count":%d0}' % limit, False),
            (workload, 200, '{"Items":[],"xCount":%d,"Count":1}' % limit, False),
            (workload, 200, '{"Items":[],"Count":%d' % limit, False),  # cut off
            (workload, 500, page, False),
        ]
    return out


def shown(body):
    """A body short enough for a line: a page's start and end (where Count is)."""
    return body if len(body) <= 150 else body[:40] + " ... " + body[-100:]


def failures():
    """Descriptions of the cases ddb.lua gets wrong; empty when it is sound."""
    out = []
    states = {}  # workload -> its Lua state, made once
    try:
        for workload, status, body, expected in cases():
            if workload not in states:
                states[workload] = Lua(workload)
            if states[workload].good(status, body) != expected:
                out.append("%s: HTTP %d %s counted as %s"
                           % (workload, status, shown(body), "bad" if expected else "good"))
    finally:
        for lua in states.values():
            lua.close()
    return out


def main():
    found = failures()
    for f in found:
        print("check_answers: " + f, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
