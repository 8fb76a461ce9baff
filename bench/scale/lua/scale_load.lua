-- scale_load.lua: wrk script that loads the harness's table with every item of the key space
-- exactly once, 25 sequential items per BatchWriteItem (bench/scale/scale.sh drives it via scale_load.py).
--
-- Environment:
--   SCALE_ITEMS    items to load, a multiple of 100 (the harness's partition size)
--   SCALE_THREADS  wrk threads (-t); thread t of T sends batches t-1, t-1+T, t-1+2T, ...
--   SCALE_TABLE    table name (default bench)
--
-- Item layout: the same as bench/harness/lua/ddb.lua and ddb.py (keep in sync): item i is
-- partition p = i / 100, SK index j = i % 100; PK "p#%06d", SK "o#%03d" (j < 80) or "x#%03d",
-- GSI1PK "g#%03d" (p % 100), GSI1SK SK.."#"..PK, name (32 chars), qty, price, payload (94 chars):
-- ~200 bytes by DynamoDB's size accounting. Batch b holds items 25b .. 25b+24, so after the load
-- the harness's get/query workloads run against it with --no-load --items SCALE_ITEMS.
--
-- A request is built only when a connection is free, so a batch is never sent twice; once a
-- thread has sent all its batches, delay() parks its connections. The rare connection that asks
-- for a request after the last batch was taken by another connection sends a ListTables instead
-- ("filler", recognised by its answer and not counted as a batch).
--
-- Output lines (stdout, parsed by scale_load.py; times are CLOCK_REALTIME seconds):
--   SCALE_PROGRESS tid=T answered=A ok=O total=N t=S     about every 2 s per thread
--   SCALE_DONE tid=T ... first=S last=S                  when every batch of the thread was answered
--   SCALE_JSON {...}                                     from done(): wrk's counters summed over threads

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } scale_timespec;
  int clock_gettime(int clk_id, scale_timespec *tp);
]]
local CLOCK_REALTIME = 0
local ts = ffi.new("scale_timespec")
local function now_s()
  ffi.C.clock_gettime(CLOCK_REALTIME, ts)
  return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) / 1e9
end

local ITEMS = tonumber(os.getenv("SCALE_ITEMS") or "0")
local THREADS = tonumber(os.getenv("SCALE_THREADS") or "1")
local TABLE = os.getenv("SCALE_TABLE") or "bench"
local PER, ORD, BATCH = 100, 80, 25
local PROGRESS_EVERY_S = 2
-- How long a parked connection waits; wrk is stopped (SIGINT) long before it elapses.
local PARK_MS = 24 * 3600 * 1000
assert(ITEMS > 0 and ITEMS % PER == 0, "SCALE_ITEMS must be a positive multiple of " .. PER)
assert(THREADS >= 1, "SCALE_THREADS must be >= 1")
local BATCHES = ITEMS / BATCH

local format, concat, sub, find = string.format, table.concat, string.sub, string.find
local random = math.random

-- ---------------------------------------------------------------- setup/done (main Lua state)
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

-- ---------------------------------------------------------------- per-thread state (globals for thread:get)
issued = 0        -- batches sent by this thread
answered = 0      -- batch responses (any status)
ok = 0            -- 200 with empty UnprocessedItems
unprocessed = 0   -- 200 with non-empty UnprocessedItems
non200 = 0        -- batch responses with another status
fillers = 0       -- ListTables sent because no batch was left
err_sample = ""
first_at = 0
last_at = 0

local total = 0   -- batches this thread owns
local host, auth, filler_text, amzdate
local last_progress_s = 0
local verified = false

local function pkey(p) return format("p#%06d", p) end
local function skey(j)
  if j < ORD then return format("o#%03d", j) end
  return format("x#%03d", j)
end

local function item_json(i)
  local p, j = math.floor(i / PER), i % PER
  local pk, sk = pkey(p), skey(j)
  local o1, o2 = random(0, 900), random(0, 900)
  return format('{"PK":{"S":"%s"},"SK":{"S":"%s"},"GSI1PK":{"S":"g#%03d"},"GSI1SK":{"S":"%s#%s"},' ..
    '"name":{"S":"%s"},"qty":{"N":"%d"},"price":{"N":"%d.%02d"},"payload":{"S":"%s"}}',
    pk, sk, p % 100, sk, pk, sub(filler_text, o1 + 1, o1 + 32), random(1, 999), random(1, 9999), random(0, 99),
    sub(filler_text, o2 + 1, o2 + 94))
end

local function req(op, body)
  return format("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n" ..
    "X-Amz-Target: DynamoDB_20120810.%s\r\nX-Amz-Date: %s\r\nAuthorization: %s\r\nContent-Length: %d\r\n\r\n%s",
    host, op, amzdate, auth, #body, body)
end

local function batch_req(b)
  local items = {}
  for k = 0, BATCH - 1 do
    items[k + 1] = '{"PutRequest":{"Item":' .. item_json(b * BATCH + k) .. '}}'
  end
  return req("BatchWriteItem", format('{"RequestItems":{"%s":[%s]}}', TABLE, concat(items, ",")))
end

-- ---------------------------------------------------------------- wrk hooks
function init(args)
  local t = tid or 1
  assert(t <= THREADS, "more wrk threads than SCALE_THREADS")
  -- batches b with b % THREADS == t - 1
  total = math.floor((BATCHES - t + THREADS) / THREADS)
  math.randomseed(t * 7919 + os.time())
  host = wrk.headers["Host"] or (wrk.host .. (wrk.port and (":" .. wrk.port) or ""))
  local alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
  local chars = {}
  for i = 1, 1100 do local k = random(1, #alphabet); chars[i] = sub(alphabet, k, k) end
  filler_text = concat(chars)
  amzdate = os.date("!%Y%m%dT%H%M%SZ")
  -- The harness's dummy signature: Kumiko without --auth and DynamoDB Local accept it.
  auth = "AWS4-HMAC-SHA256 Credential=bench/" .. sub(amzdate, 1, 8) ..
    "/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" ..
    string.rep("0", 64)
end

function delay()
  if issued >= total then return PARK_MS end
  return 0
end

function request()
  if not verified then
    -- wrk calls request() once in the first thread's state before starting it, only to count the
    -- requests in the string (pipelining); that call must not consume a batch.
    verified = true
    if (tid or 1) == 1 then return req("ListTables", '{"Limit":1}') end
  end
  if issued >= total then
    fillers = fillers + 1
    return req("ListTables", '{"Limit":1}')
  end
  local b = (tid or 1) - 1 + issued * THREADS
  issued = issued + 1
  if first_at == 0 then first_at = now_s() end
  return batch_req(b)
end

local function progress_line(kind)
  return format("%s tid=%d answered=%d ok=%d unprocessed=%d non200=%d total=%d t=%.3f first=%.3f last=%.3f\n",
    kind, tid or 1, answered, ok, unprocessed, non200, total, now_s(), first_at, last_at)
end

function response(status, headers, body)
  if status == 200 and find(body, '"TableNames"', 1, true) then return end -- a filler's answer
  answered = answered + 1
  if status ~= 200 then
    non200 = non200 + 1
    if err_sample == "" then err_sample = sub(body or "", 1, 300) end
  elseif find(body, '"UnprocessedItems"%s*:%s*{%s*}') or not find(body, '"UnprocessedItems"', 1, true) then
    ok = ok + 1
  else
    unprocessed = unprocessed + 1
    if err_sample == "" then err_sample = sub(body, 1, 300) end
  end
  if answered == total then
    last_at = now_s()
    io.write(progress_line("SCALE_DONE"))
    io.flush()
    wrk.thread:stop()
    return
  end
  local s = os.time()
  if s - last_progress_s >= PROGRESS_EVERY_S then
    last_progress_s = s
    io.write(progress_line("SCALE_PROGRESS"))
    io.flush()
  end
end

local function jstr(s)
  s = (s or ""):gsub('[%c"\\]', function(c) return format("\\u%04x", string.byte(c)) end)
  return '"' .. s .. '"'
end

function done(summary, latency, requests)
  local sum = { issued = 0, answered = 0, ok = 0, unprocessed = 0, non200 = 0, fillers = 0 }
  local first, last, sample = nil, 0, ""
  for _, t in ipairs(threads) do
    for k in pairs(sum) do sum[k] = sum[k] + (t:get(k) or 0) end
    local f = t:get("first_at") or 0
    if f > 0 and (first == nil or f < first) then first = f end
    last = math.max(last, t:get("last_at") or 0)
    if sample == "" then sample = t:get("err_sample") or "" end
  end
  local e = summary.errors
  io.write(format('SCALE_JSON {"threads":%d,"batches_expected":%d,"issued":%d,"answered":%d,"ok":%d,' ..
    '"unprocessed":%d,"non200":%d,"fillers":%d,"first_at":%.3f,"last_at":%.3f,"wrk_duration_us":%d,' ..
    '"requests":%d,"err_connect":%d,"err_read":%d,"err_write":%d,"err_status":%d,"err_timeout":%d,' ..
    '"lat_p50_us":%d,"lat_p99_us":%d,"lat_max_us":%d,"err_sample":%s}\n',
    #threads, BATCHES, sum.issued, sum.answered, sum.ok, sum.unprocessed, sum.non200, sum.fillers, first or 0, last,
    summary.duration, summary.requests, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max, jstr(sample)))
end
