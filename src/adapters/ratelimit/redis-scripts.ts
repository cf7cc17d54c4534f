import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run by EVALSHA, falling back to EVAL when the server does not know it yet (first use,
 * restart, SCRIPT FLUSH). One round trip in the common case, and the script runs atomically, which is
 * what makes concurrent consumes from many instances exact. Unlike ioredis' defineCommand this does not
 * add methods to a client the limiter may not own.
 */
export class LuaScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: Redis, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

/**
 * Leases of a key (decision 0022), in the hash `key:leases`: lease id (`<instance>.<n>`) ->
 * `<tokens>:<until>`, where `until` is when its holder is presumed dead. Returns the tokens reserved
 * by live leases (the rolling window counts them; a fixed counter already holds them) and the latest
 * `until` among other instances' live leases (0 when none). A refusal (`recall` true) asks each of
 * those holders, on its channel `<recallPrefix><instance>`, to settle its lease of this key now:
 * until they have, the refusal is not final. A dead lease of a rolling window becomes hits dated at
 * its `until` (it may have used all its tokens; they then leave the window no earlier than real
 * ones would); of a fixed window, its tokens simply stay in the counter.
 */
const LEASES_FUNCTION = `
local function leases(key, now, own, rolling, recall, recallPrefix)
  local lk = key .. ':leases'
  local all = redis.call('HGETALL', lk)
  local reserved = 0
  local latest = 0
  for j = 1, #all, 2 do
    local id = all[j]
    local sep = string.find(all[j + 1], ':', 1, true)
    local k = tonumber(string.sub(all[j + 1], 1, sep - 1))
    local untilMs = tonumber(string.sub(all[j + 1], sep + 1))
    if untilMs <= now then
      redis.call('HDEL', lk, id)
      if rolling then
        for i = 1, k do redis.call('ZADD', key, untilMs, 'dead:' .. id .. ':' .. i) end
      end
    else
      if rolling then reserved = reserved + k end
      local dot = string.find(id, '.', 1, true)
      local holder = string.sub(id, 1, dot - 1)
      if holder ~= own then
        if untilMs > latest then latest = untilMs end
        if recall then redis.call('PUBLISH', recallPrefix .. holder, key) end
      end
    end
  end
  return reserved, latest
end

local function grant(want, room)
  -- at most 1/16 of the room left, so leases never hold much of what is left; under 2, no lease
  local k = math.min(want, math.floor(room / 16))
  if k < 2 then return 1 end
  return k
end
`;

/**
 * Rolling window over a sorted set of hits (score = time in ms, member = unique hit id), as a Lua
 * function of one key. Arguments: now, windowMs, limit, cutoff (now - windowMs: hits at or before
 * it have left), exclusive lower bound '(' .. cutoff, want (0 = peek: count without adding or
 * removing; 1 = one hit; more = a lease of up to that many), the hit's member, the lease id, the
 * time its holder is presumed dead, the asking instance's id, and the recall channels' prefix.
 * Bounds come from the caller as strings because Lua's number formatting is not exact for big
 * numbers. Returns allowed (1, 0, or 2 = refused while another instance's lease is live: ask
 * again once it has settled), the count in the window (hits and live leases' tokens), the oldest
 * hit's score, the score of the hit whose leaving makes room ('' if none), and the tokens granted
 * (allowed 1: 1 is a hit added now; more, a lease whose hits its holder adds when it settles) or the
 * live leases' latest end (allowed 2).
 */
const ROLLING_FUNCTION = `
local function rolling(key, nowText, windowText, limitText, cutoff, lower, wantText, member, leaseId,
                       leaseUntil, own, recallPrefix)
  local window = tonumber(windowText)
  local limit = tonumber(limitText)
  local want = tonumber(wantText)
  local now = tonumber(nowText)
  -- leases first: a dead one becomes hits, which the count below must see
  local reserved, latest = leases(key, now, own, true, false, recallPrefix)
  local hits
  if want > 0 then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff)
    hits = redis.call('ZCARD', key)
  else
    hits = redis.call('ZCOUNT', key, lower, '+inf')
  end
  local count = hits + reserved
  local allowed = 0
  local extra = 0
  if want > 0 and count < limit then
    local k = grant(want, limit - count)
    if k == 1 then
      redis.call('ZADD', key, nowText, member)
    else
      redis.call('HSET', key .. ':leases', leaseId, k .. ':' .. leaseUntil)
      redis.call('PEXPIRE', key .. ':leases', window + 60000)
    end
    count = count + k
    allowed = 1
    extra = k
    -- keep the set until its newest hit leaves the window; the minute of slack covers a hit that an
    -- instance with a clock ahead of this one added (reading the newest hit back cost a command)
    redis.call('PEXPIRE', key, window + 60000)
  elseif want > 0 and latest > 0 then
    leases(key, now, own, true, true, recallPrefix)
    allowed = 2
    extra = latest
  end
  local oldest = redis.call('ZRANGEBYSCORE', key, lower, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  local room = ''
  if allowed ~= 1 and count >= limit and count - limit < hits and limit > 0 then
    local r = redis.call('ZRANGEBYSCORE', key, lower, '+inf', 'WITHSCORES', 'LIMIT', count - limit, 1)
    room = r[2] or ''
  end
  return allowed, count, oldest[2] or '', room, extra
end
`;

/**
 * Fixed window counter of one key, as a Lua function. Arguments: now, limit, ttlMs, want (0 peek,
 * 1 one hit, more a lease of up to that many: its tokens are added to the counter at once), the
 * lease id, the time its holder is presumed dead, the asking instance's id and the recall channels'
 * prefix. Checks before incrementing, so the counter never exceeds the limit. Returns allowed (as
 * rolling), count, and the tokens granted or the other leases' latest end.
 */
const FIXED_FUNCTION = `
local function fixed(key, nowText, limitText, ttlText, wantText, leaseId, leaseUntil, own, recallPrefix)
  local count = tonumber(redis.call('GET', key) or '0')
  local limit = tonumber(limitText)
  local want = tonumber(wantText)
  if want > 0 and count < limit then
    local k = grant(want, limit - count)
    count = redis.call('INCRBY', key, k)
    if count == k then redis.call('PEXPIRE', key, ttlText) end
    if k > 1 then
      redis.call('HSET', key .. ':leases', leaseId, k .. ':' .. leaseUntil)
      redis.call('PEXPIRE', key .. ':leases', ttlText)
    end
    return 1, count, k
  end
  if want > 0 then
    local _, latest = leases(key, tonumber(nowText), own, false, true, recallPrefix)
    if latest > 0 then return 2, count, latest end
  end
  return 0, count, 0
end
`;

/**
 * The end of a lease: rolling, the hits its holder admitted are added at the times they were
 * admitted; fixed, the tokens it did not use are taken off the counter. Either way it no longer
 * reserves anything. A lease already gone (presumed dead, and converted) is not settled twice.
 */
const SETTLE_FUNCTIONS = `
local function settleRolling(key, leaseId, memberPrefix, seqText, n, at)
  if redis.call('HDEL', key .. ':leases', leaseId) == 0 then return end
  local seq = tonumber(seqText)
  for i = 0, n - 1 do
    local t = ARGV[at + i]
    if t ~= '' then redis.call('ZADD', key, t, memberPrefix .. string.format('%d', seq + i)) end
  end
end

local function settleFixed(key, leaseId, unusedText)
  if redis.call('HDEL', key .. ':leases', leaseId) == 0 then return end
  local unused = tonumber(unusedText)
  if unused > 0 then
    local count = tonumber(redis.call('GET', key) or '0')
    if count > 0 then redis.call('DECRBY', key, math.min(unused, count)) end
  end
end
`;

/**
 * Several operations in one script. KEYS[i] is the i-th operation's key; ARGV holds the operations
 * one after another, each its kind and then its own arguments:
 * - 'r' a rolling decision (the rolling function's eleven arguments),
 * - 'f' a fixed decision (the fixed function's eight),
 * - 's' a rolling lease settled: lease id, members' prefix, first sequence number, n, then n times
 *   ('' = not used, or refunded),
 * - 'g' a fixed lease settled: lease id, unused tokens,
 * - 'x' a rolling hit refunded: its member.
 * Decisions return five values each, in order: allowed, count, oldest ('' for fixed), room ('' for
 * fixed), extra; settlements return nothing. Operations run one after another inside one atomic
 * script, so each is exactly what it would be alone, in that order; requests of many keys share one
 * round trip (decision 0022).
 */
export const batchScript =
  new LuaScript(`${LEASES_FUNCTION}${ROLLING_FUNCTION}${FIXED_FUNCTION}${SETTLE_FUNCTIONS}
local out = {}
local c = 1
for i = 1, #KEYS do
  local kind = ARGV[c]
  if kind == 'r' then
    local allowed, count, oldest, room, extra = rolling(KEYS[i], ARGV[c + 1], ARGV[c + 2], ARGV[c + 3],
      ARGV[c + 4], ARGV[c + 5], ARGV[c + 6], ARGV[c + 7], ARGV[c + 8], ARGV[c + 9], ARGV[c + 10], ARGV[c + 11])
    out[#out + 1] = allowed
    out[#out + 1] = count
    out[#out + 1] = oldest
    out[#out + 1] = room
    out[#out + 1] = extra
    c = c + 12
  elseif kind == 'f' then
    local allowed, count, extra = fixed(KEYS[i], ARGV[c + 1], ARGV[c + 2], ARGV[c + 3], ARGV[c + 4],
      ARGV[c + 5], ARGV[c + 6], ARGV[c + 7], ARGV[c + 8])
    out[#out + 1] = allowed
    out[#out + 1] = count
    out[#out + 1] = ''
    out[#out + 1] = ''
    out[#out + 1] = extra
    c = c + 9
  elseif kind == 's' then
    local n = tonumber(ARGV[c + 4])
    settleRolling(KEYS[i], ARGV[c + 1], ARGV[c + 2], ARGV[c + 3], n, c + 5)
    c = c + 5 + n
  elseif kind == 'x' then
    redis.call('ZREM', KEYS[i], ARGV[c + 1])
    c = c + 2
  else
    settleFixed(KEYS[i], ARGV[c + 1], ARGV[c + 2])
    c = c + 3
  end
end
return out
`);

/**
 * Refund of a fixed-window hit. KEYS[1] the window's counter, KEYS[2] the set of refunded hit ids of
 * that window. ARGV: hit id. The set makes the refund idempotent across instances; it expires with the
 * counter. Returns 1 if the counter was decremented.
 */
export const fixedRefundScript = new LuaScript(`
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
if tonumber(redis.call('GET', KEYS[1])) > 0 then redis.call('DECR', KEYS[1]) end
return 1
`);
