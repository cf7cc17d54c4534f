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
 * Rolling window over a sorted set of hits (score = time in ms, member = unique hit id), as a Lua
 * function of one key. Arguments: now, windowMs, limit, member ('' = peek: count without adding or
 * removing), cutoff (now - windowMs: hits at or before it have left), exclusive lower bound
 * '(' .. cutoff. Bounds come from the caller as strings because Lua's number formatting is not exact
 * for big numbers. Returns allowed, count in window, oldest score, and the score of the hit whose
 * leaving makes room ('' if none).
 */
const ROLLING_FUNCTION = `
local function rolling(key, nowText, windowText, limitText, member, cutoff, lower)
  local window = tonumber(windowText)
  local limit = tonumber(limitText)
  local count
  if member ~= '' then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff)
    count = redis.call('ZCARD', key)
  else
    count = redis.call('ZCOUNT', key, lower, '+inf')
  end
  local allowed = 0
  if member ~= '' and count < limit then
    redis.call('ZADD', key, nowText, member)
    count = count + 1
    allowed = 1
    -- keep the set until its newest hit leaves the window; the minute of slack covers a hit that an
    -- instance with a clock ahead of this one added (reading the newest hit back cost a command)
    redis.call('PEXPIRE', key, window + 60000)
  end
  local oldest = redis.call('ZRANGEBYSCORE', key, lower, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  local room = ''
  if allowed == 0 and count >= limit and count > 0 and limit > 0 then
    local r = redis.call('ZRANGEBYSCORE', key, lower, '+inf', 'WITHSCORES', 'LIMIT', count - limit, 1)
    room = r[2] or ''
  end
  return allowed, count, oldest[2] or '', room
end
`;

/**
 * Fixed window counter of one key, as a Lua function. Arguments: limit, ttlMs, mode ('1' consume,
 * '0' peek). Checks before incrementing, so the counter never exceeds the limit and nothing needs
 * undoing. Returns allowed, count.
 */
const FIXED_FUNCTION = `
local function fixed(key, limitText, ttlText, mode)
  local count = tonumber(redis.call('GET', key) or '0')
  if mode == '1' and count < tonumber(limitText) then
    count = redis.call('INCR', key)
    if count == 1 then redis.call('PEXPIRE', key, ttlText) end
    return 1, count
  end
  return 0, count
end
`;

/** Arguments per decision in a batch: a kind ('r' rolling, 'f' fixed) and six of its own. */
export const BATCH_STRIDE = 7;

/**
 * Several decisions in one script: KEYS[i] is the i-th decision's key, and its arguments are
 * ARGV[(i-1)*7+1 .. i*7]: 'r' and the rolling function's six, or 'f', the fixed function's three
 * and three blanks. Returns four values per decision, in order: allowed, count, oldest ('' for
 * fixed), room ('' for fixed). Decisions run one after another inside one atomic script, so each is
 * exactly what it would be alone, in that order; requests of many keys share one round trip
 * (decision 0022).
 */
export const batchScript = new LuaScript(`${ROLLING_FUNCTION}${FIXED_FUNCTION}
local out = {}
for i = 1, #KEYS do
  local b = (i - 1) * ${BATCH_STRIDE}
  local allowed, count, oldest, room
  if ARGV[b + 1] == 'r' then
    allowed, count, oldest, room =
      rolling(KEYS[i], ARGV[b + 2], ARGV[b + 3], ARGV[b + 4], ARGV[b + 5], ARGV[b + 6], ARGV[b + 7])
  else
    allowed, count = fixed(KEYS[i], ARGV[b + 2], ARGV[b + 3], ARGV[b + 4])
    oldest, room = '', ''
  end
  out[#out + 1] = allowed
  out[#out + 1] = count
  out[#out + 1] = oldest
  out[#out + 1] = room
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
