-- wrk script for PureRank benchmarks (see bench/README.md).
--
-- Environment:
--   BENCH_KEYS         file with one API key per line (required); requests rotate over them round-robin
--   BENCH_PATHS        optional file with one request path per line; requests rotate over them too
--                      (without it every request uses the path of the URL given to wrk)
--   BENCH_AUTH_HEADER  header that carries the key (default "Authorization")
--   BENCH_AUTH_PREFIX  text before the key (default "Bearer ")
--
-- Every request string is built once in init(): request() only indexes a table, so the client spends
-- the same (tiny) time per request whether it loads the service or the bare server. With -t1 there is
-- one Lua state, so the rotation is exact: after R requests each key was used floor(R / #keys) or one
-- more time. done() prints one line "BENCH_JSON {...}" that bench/run.ts parses.

local requests = {}
local count = 0
local index = 0

local function read_lines(path)
  local file = io.open(path, "r")
  if not file then
    error("rotate.lua: cannot open " .. tostring(path))
  end
  local lines = {}
  for line in file:lines() do
    line = line:gsub("%s+$", "")
    if line ~= "" then
      lines[#lines + 1] = line
    end
  end
  file:close()
  if #lines == 0 then
    error("rotate.lua: " .. path .. " is empty")
  end
  return lines
end

function init(args)
  local keys_path = os.getenv("BENCH_KEYS")
  if not keys_path or keys_path == "" then
    error("rotate.lua: set BENCH_KEYS to a file of API keys")
  end
  local keys = read_lines(keys_path)
  local paths_path = os.getenv("BENCH_PATHS")
  local paths
  if paths_path and paths_path ~= "" then
    paths = read_lines(paths_path)
  else
    paths = { wrk.path }
  end
  local header = os.getenv("BENCH_AUTH_HEADER") or "Authorization"
  local prefix = os.getenv("BENCH_AUTH_PREFIX") or "Bearer "
  -- A whole number of key cycles that covers every path at least once: key use stays exactly even.
  local nk, np = #keys, #paths
  count = nk * math.ceil(np / nk)
  for j = 0, count - 1 do
    local key = keys[(j % nk) + 1]
    local path = paths[(j % np) + 1]
    requests[j + 1] = wrk.format("GET", path, { [header] = prefix .. key })
  end
end

function request()
  index = index + 1
  if index > count then
    index = 1
  end
  return requests[index]
end

function done(summary, latency, _requests)
  local e = summary.errors
  local parts = {
    string.format('"duration_us":%d', summary.duration),
    string.format('"requests":%d', summary.requests),
    string.format('"bytes":%d', summary.bytes),
    string.format(
      '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}',
      e.connect,
      e.read,
      e.write,
      e.status,
      e.timeout
    ),
    string.format(
      '"latency_us":{"min":%d,"mean":%.1f,"stdev":%.1f,"max":%d,"p50":%d,"p90":%d,"p99":%d,"p999":%d}',
      latency.min,
      latency.mean,
      latency.stdev,
      latency.max,
      latency:percentile(50),
      latency:percentile(90),
      latency:percentile(99),
      latency:percentile(99.9)
    ),
  }
  io.write("BENCH_JSON {" .. table.concat(parts, ",") .. "}\n")
end
