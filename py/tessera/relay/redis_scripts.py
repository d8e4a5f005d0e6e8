"""The Lua scripts ``RedisStore`` runs, each atomically inside Redis.

Kept apart from the store's Python so each reads as one piece: what a
script touches (KEYS) and takes (ARGV) is said at its top.  ``_NOW`` puts
Redis' own clock in ``now`` (milliseconds), so every process agrees on
expiry times whatever its own clock says.
"""

_NOW = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
"""

ADD = _NOW + """
-- KEYS: rooms index, room key. ARGV: limit, room id, state JSON, ttl ms
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) or redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('HSET', KEYS[2], 'state', ARGV[3], 'seq', 0)
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[2])
return 1
"""

SAVE = _NOW + """
-- KEYS: rooms index, room key, clocks. ARGV: room id, state JSON, ttl ms, clock deadline ('' for none)
if redis.call('EXISTS', KEYS[2]) == 0 then
  return 0
end
redis.call('HSET', KEYS[2], 'state', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[3], ARGV[1])
else
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
end
return 1
"""

REFRESH = _NOW + """
-- KEYS: rooms index, then room keys. ARGV: ttl ms, then the room ids (ARGV[i] is KEYS[i]'s)
local kept = 0
for i = 2, #KEYS do
  if redis.call('PEXPIRE', KEYS[i], ARGV[1]) == 1 then
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i])
    kept = kept + 1
  end
end
return kept
"""

LIST = _NOW + """
-- KEYS: rooms index. ARGV: 'count' or 'ids'
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[1] == 'count' then
  return redis.call('ZCARD', KEYS[1])
end
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

DUE = """
-- KEYS: clocks. ARGV: the relay's time now, the room key prefix
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local live = {}
for _, id in ipairs(due) do
  if redis.call('EXISTS', ARGV[2] .. id) == 1 then
    table.insert(live, id)
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return live
"""

PUBLISH = """
-- KEYS: room key. ARGV: channel, event JSON. Returns the event's seq (-1: the room is gone)
local seq = -1
if redis.call('EXISTS', KEYS[1]) == 1 then
  seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
end
redis.call('PUBLISH', ARGV[1], seq .. ' ' .. ARGV[2])
return seq
"""

LOCK = """
-- KEYS: lock key, room key. ARGV: token, lock ms. Returns {0} (taken), or {1, state, seq, wrong type}
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {0}
end
local kind = redis.call('TYPE', KEYS[2])['ok']
if kind == 'none' then
  return {1}
end
if kind ~= 'hash' then
  return {1, false, false, kind}
end
local got = redis.call('HMGET', KEYS[2], 'state', 'seq')
return {1, got[1], got[2]}
"""

COMMIT = _NOW + """
-- KEYS: lock key, rooms index, room key, clocks
-- ARGV: token, room id, channel, ttl ms, state JSON ('' to keep the stored one), clock deadline, events...
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local live = redis.call('TYPE', KEYS[3])['ok'] == 'hash'
if live and ARGV[5] ~= '' then
  redis.call('HSET', KEYS[3], 'state', ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[2])
  if ARGV[6] == '' then
    redis.call('ZREM', KEYS[4], ARGV[2])
  else
    redis.call('ZADD', KEYS[4], ARGV[6], ARGV[2])
  end
end
for i = 7, #ARGV do
  local seq = -1
  if live then
    seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
  end
  redis.call('PUBLISH', ARGV[3], seq .. ' ' .. ARGV[i])
end
redis.call('DEL', KEYS[1])
return 1
"""
