-- ddb.lua: the wrk script of Kumiko's load harness. It builds DynamoDB JSON 1.0 requests for one
-- workload, checks every answer, and prints one summary line (DDB_JSON {...}) that harness.py reads.
--
-- Environment (set by bench/harness/wrkrun.py):
--   DDB_WORKLOAD  put | get | query | query_gsi | update | batch | mixed
--   DDB_ITEMS     items preloaded by ddb.py (a multiple of 100); keys are drawn over all of them
--   DDB_TABLE     table name (default bench)
--
-- Item layout (ddb.py and bench/scale/lua/scale_load.lua use the same; keep them in sync): item i is
-- partition p = i / 100 and sort index j = i % 100; PK "p#%06d", SK "o#%03d" (j < 80) or "x#%03d",
-- GSI1PK "g#%03d" (p % 100), GSI1SK SK.."#"..PK, then name (32 chars), qty, price, payload (94 chars):
-- about 200 bytes by DynamoDB's size accounting.
--
-- An answer counts as good only if its status is 200 and its body has the shape the workload
-- expects (see CHECKS); everything else is counted and one sample body is kept.

local PER, ORD, BATCH, QUERY_LIMIT = 100, 80, 25, 50
local GSI_PARTITIONS = 100
local SAMPLE_BYTES_MAX = 300

local WORKLOAD = os.getenv("DDB_WORKLOAD") or "get"
local ITEMS = tonumber(os.getenv("DDB_ITEMS") or "100000")
local TABLE = os.getenv("DDB_TABLE") or "bench"
assert(ITEMS >= PER and ITEMS % PER == 0, "DDB_ITEMS must be a positive multiple of " .. PER)
local PARTITIONS = ITEMS / PER

local format, find, sub, concat = string.format, string.find, string.sub, table.concat
local random = math.random

-- ---------------------------------------------------------------- request bodies
local filler -- random text that names and payloads are cut from (cheaper than random chars per item)

local function pkey(p) return format("p#%06d", p) end
local function skey(j)
  if j < ORD then return format("o#%03d", j) end
  return format("x#%03d", j)
end

local function item_json(p, j)
  local pk, sk = pkey(p), skey(j)
  local o1, o2 = random(0, 900), random(0, 900)
  return format('{"PK":{"S":"%s"},"SK":{"S":"%s"},"GSI1PK":{"S":"g#%03d"},"GSI1SK":{"S":"%s#%s"},' ..
    '"name":{"S":"%s"},"qty":{"N":"%d"},"price":{"N":"%d.%02d"},"payload":{"S":"%s"}}',
    pk, sk, p % GSI_PARTITIONS, sk, pk, sub(filler, o1 + 1, o1 + 32), random(1, 999), random(1, 9999),
    random(0, 99), sub(filler, o2 + 1, o2 + 94))
end

local function random_key()
  return random(0, PARTITIONS - 1), random(0, PER - 1)
end

local function key_json(p, j)
  return format('{"PK":{"S":"%s"},"SK":{"S":"%s"}}', pkey(p), skey(j))
end

local BODIES = {}

function BODIES.put()
  return "PutItem", format('{"TableName":"%s","Item":%s}', TABLE, item_json(random_key()))
end

function BODIES.put_old()
  return "PutItem", format('{"TableName":"%s","Item":%s,"ReturnValues":"ALL_OLD"}', TABLE, item_json(random_key()))
end

function BODIES.get()
  return "GetItem", format('{"TableName":"%s","Key":%s,"ConsistentRead":true}', TABLE, key_json(random_key()))
end

function BODIES.query()
  return "Query", format('{"TableName":"%s","KeyConditionExpression":"PK = :p AND begins_with(SK, :s)",' ..
    '"ExpressionAttributeValues":{":p":{"S":"%s"},":s":{"S":"o#"}},"Limit":%d}',
    TABLE, pkey(random(0, PARTITIONS - 1)), QUERY_LIMIT)
end

function BODIES.query_gsi()
  return "Query", format('{"TableName":"%s","IndexName":"GSI1","KeyConditionExpression":' ..
    '"GSI1PK = :g AND begins_with(GSI1SK, :s)","ExpressionAttributeValues":{":g":{"S":"g#%03d"},' ..
    '":s":{"S":"o#0"}},"Limit":%d}', TABLE, random(0, math.min(GSI_PARTITIONS, PARTITIONS) - 1), QUERY_LIMIT)
end

function BODIES.update()
  return "UpdateItem", format('{"TableName":"%s","Key":%s,"UpdateExpression":"ADD cnt :one SET updatedAt = :t",' ..
    '"ConditionExpression":"attribute_exists(PK)","ExpressionAttributeValues":{":one":{"N":"1"},' ..
    '":t":{"N":"%d"}},"ReturnValues":"UPDATED_NEW"}', TABLE, key_json(random_key()), random(1, 999999999))
end

function BODIES.batch()
  -- 25 distinct partitions: a window of consecutive partitions starting at a random one
  local first, puts = random(0, PARTITIONS - 1), {}
  for k = 0, BATCH - 1 do
    puts[k + 1] = '{"PutRequest":{"Item":' .. item_json((first + k) % PARTITIONS, random(0, PER - 1)) .. '}}'
  end
  return "BatchWriteItem", format('{"RequestItems":{"%s":[%s]}}', TABLE, concat(puts, ","))
end

function BODIES.mixed()
  local r = random(1, 10)
  if r <= 8 then return BODIES.get() end
  if r == 9 then return BODIES.put_old() end
  return BODIES.update()
end

-- ---------------------------------------------------------------- answer checks (status 200 only)
local function has(text) return function(body) return find(body, text, 1, true) ~= nil end end
-- A page's "Count" follows its Items, about 15 KB in. An unanchored pattern search tries the
-- pattern at every byte before it (about 150 µs an answer in wrk's Lua, which held the client to
-- about 6k pages/s, below the servers' speed), and a plain search for '"Count"' stops at every
-- quote. So the plain search looks for 'Count"', whose 'C' is rare in the items, checks the quote
-- before it, and anchors the pattern after it.
local COUNT_NAME, COUNT_FULL = 'Count"', '^%s*:%s*' .. QUERY_LIMIT .. '[^%d]'
local function full_page(body)
  local at = find(body, COUNT_NAME, 2, true)
  while at do
    local after = at + #COUNT_NAME
    if sub(body, at - 1, at - 1) == '"' and find(body, COUNT_FULL, after) then return true end
    at = find(body, COUNT_NAME, after, true)
  end
  return false
end

local CHECKS = {
  put = function(body) return sub(body, 1, 1) == "{" end,
  get = has('"Item"'),
  query = full_page,
  query_gsi = full_page,
  update = has('"Attributes"'),
  -- a non-empty UnprocessedItems is a failed batch, not throughput
  batch = function(body)
    return find(body, '"UnprocessedItems"%s*:%s*{%s*}') ~= nil or not find(body, '"UnprocessedItems"', 1, true)
  end,
  -- get answers Item, put (ALL_OLD over a preloaded key) and update answer Attributes
  mixed = function(body) return find(body, '"Item"', 1, true) ~= nil or find(body, '"Attributes"', 1, true) ~= nil end,
}
assert(BODIES[WORKLOAD] and CHECKS[WORKLOAD], "unknown DDB_WORKLOAD " .. WORKLOAD)

-- ---------------------------------------------------------------- wrk hooks
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

-- per-thread counters, read by done() with thread:get
good, bad, non200, sample = 0, 0, 0, ""

local host, auth, date

-- Runs in init(), or earlier: wrk calls request() once before init() to see whether requests
-- can be pipelined.
local function prepare()
  if filler then return end
  math.randomseed((tid or 1) * 7919 + os.time())
  local alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
  local chars = {}
  for i = 1, 1100 do
    local k = random(1, #alphabet)
    chars[i] = sub(alphabet, k, k)
  end
  filler = concat(chars)
  host = wrk.headers["Host"] or (wrk.host .. ":" .. (wrk.port or "80"))
  date = os.date("!%Y%m%dT%H%M%SZ")
  -- A SigV4-shaped header with a zero signature: servers without signature checks (Kumiko without
  -- --auth, DynamoDB Local, dynalite) accept it; DynamoDB Local requires the shape. Access key and
  -- region are fixed because DynamoDB Local keeps one database per key and region.
  auth = "AWS4-HMAC-SHA256 Credential=bench/" .. sub(date, 1, 8) ..
    "/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" ..
    string.rep("0", 64)
end

function init(args)
  prepare()
end

function request()
  prepare()
  local op, body = BODIES[WORKLOAD]()
  return format("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n" ..
    "X-Amz-Target: DynamoDB_20120810.%s\r\nX-Amz-Date: %s\r\nAuthorization: %s\r\nContent-Length: %d\r\n\r\n%s",
    host, op, date, auth, #body, body)
end

local check = CHECKS[WORKLOAD]

function response(status, headers, body)
  if status == 200 and check(body or "") then
    good = good + 1
    return
  end
  if status == 200 then bad = bad + 1 else non200 = non200 + 1 end
  if sample == "" then sample = format("HTTP %d %s", status, sub(body or "", 1, SAMPLE_BYTES_MAX)) end
end

local function json_string(s)
  s = (s or ""):gsub('[%c"\\]', function(c) return format("\\u%04x", string.byte(c)) end)
  return '"' .. s .. '"'
end

function done(summary, latency, requests)
  local sum, first_sample = { good = 0, bad = 0, non200 = 0 }, ""
  for _, t in ipairs(threads) do
    for k in pairs(sum) do sum[k] = sum[k] + (t:get(k) or 0) end
    if first_sample == "" then first_sample = t:get("sample") or "" end
  end
  local e = summary.errors
  io.write(format('DDB_JSON {"workload":"%s","duration_us":%d,"requests":%d,"good":%d,"bad":%d,"non200":%d,' ..
    '"err_connect":%d,"err_read":%d,"err_write":%d,"err_timeout":%d,"lat_p50_us":%d,"lat_p90_us":%d,' ..
    '"lat_p99_us":%d,"lat_p999_us":%d,"lat_max_us":%d,"sample":%s}\n',
    WORKLOAD, summary.duration, summary.requests, sum.good, sum.bad, sum.non200, e.connect, e.read, e.write,
    e.timeout, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.max, json_string(first_sample)))
end
