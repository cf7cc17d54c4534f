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
 * Rolling window over a sorted set of hits (score = time in ms, member = unique hit id).
 * KEYS[1] the set. ARGV: now, windowMs, limit, member ('' = peek: count without adding or removing),
 * cutoff (now - windowMs: hits at or before it have left), exclusive lower bound '(' .. cutoff.
 * Bounds come from the caller as strings because Lua's number formatting is not exact for big numbers.
 * Returns {allowed, count in window, oldest score, score of the hit whose leaving makes room ('' if none)}.
 */
export const rollingScript = new LuaScript(`
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local member = ARGV[4]
local lower = ARGV[6]
local count
if member ~= '' then
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[5])
  count = redis.call('ZCARD', key)
else
  count = redis.call('ZCOUNT', key, lower, '+inf')
end
local allowed = 0
if member ~= '' and count < limit then
  redis.call('ZADD', key, ARGV[1], member)
  count = count + 1
  allowed = 1
  -- keep the set until its newest hit leaves the window (the newest may be ahead of now on clock skew)
  local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  local ttl = math.max(window, tonumber(newest[2]) + window - now)
  redis.call('PEXPIRE', key, math.floor(ttl))
end
local oldest = redis.call('ZRANGEBYSCORE', key, lower, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
local room = ''
if allowed == 0 and count >= limit and count > 0 and limit > 0 then
  local r = redis.call('ZRANGEBYSCORE', key, lower, '+inf', 'WITHSCORES', 'LIMIT', count - limit, 1)
  room = r[2] or ''
end
return {allowed, count, oldest[2] or '', room}
`);

/**
 * Fixed window counter. KEYS[1] the window's counter. ARGV: limit, ttlMs, mode ('1' consume, '0' peek).
 * Checks before incrementing, so the counter never exceeds the limit and nothing needs undoing.
 * Returns {allowed, count}.
 */
export const fixedScript = new LuaScript(`
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if ARGV[3] == '1' and count < tonumber(ARGV[1]) then
  count = redis.call('INCR', KEYS[1])
  if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
  return {1, count}
end
return {0, count}
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
