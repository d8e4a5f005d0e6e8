"""The Lua scripts ``RedisStore`` runs, each atomically inside Redis.

Kept apart from the store's Python so each reads as one piece: what a
script touches (KEYS) and takes (ARGV) is said at its top.  ``_NOW`` puts
Redis' own clock in ``now`` (milliseconds), so every process agrees on
expiry times whatever its own clock says.

A room is a hash: ``state`` (the ``RoomState`` JSON but the record),
``moves``, ``movers`` and ``plies`` (the record's growing lists, as JSON
arrays, which a move extends in place rather than the relay sending them
whole), ``rev`` (how many changes it has had), ``epoch`` (a token drawn
when the room was made, or made again by a restore) and ``ttl``
(milliseconds it lives after its last change: short while the second
player has not come).  A change is one
``COMMIT``: it writes only if the room is still at the ``epoch`` and ``rev``
the process last saw, else it hands back the room as it is now.
"""

_NOW = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
"""

ADD = _NOW + """
-- KEYS: rooms index, room key, owner set.
-- ARGV: limit, room id, state JSON, ttl ms, epoch, owner limit ('' for none), room key prefix, owner set ttl ms,
--       moves, movers, plies (JSON arrays)
-- Returns 1 added, 0 full, 2 exists, 3 the owner holds its share
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 2
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
if ARGV[6] ~= '' then
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    if redis.call('EXISTS', ARGV[7] .. id) == 0 then
      redis.call('SREM', KEYS[3], id)
    end
  end
  if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[6]) then
    return 3
  end
  redis.call('SADD', KEYS[3], ARGV[2])
  redis.call('PEXPIRE', KEYS[3], ARGV[8])
end
redis.call('HSET', KEYS[2], 'state', ARGV[3], 'rev', 0, 'epoch', ARGV[5], 'ttl', ARGV[4],
           'moves', ARGV[9], 'movers', ARGV[10], 'plies', ARGV[11])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[2])
return 1
"""

COMMIT = _NOW + """
-- KEYS: room key, rooms index, clocks.
-- ARGV: epoch, rev (the process's), state JSON ('' writes nothing: a check), ttl ms, clock deadline
--       ('' for none), room id, channel, message ('' for none), '1' to remove the room,
--       'a' (append to the record) or 'w' (write it whole), then moves, movers, plies: the items to
--       append (JSON array items, '' for none) or the whole arrays
-- Returns {1} done, {-1} no such room, {0, state, rev, epoch, moves, movers, plies} the room moved on
local seen = redis.call('HMGET', KEYS[1], 'epoch', 'rev')
if not seen[1] then
  return {-1}
end
if seen[1] ~= ARGV[1] or seen[2] ~= ARGV[2] then
  local now_is = redis.call('HMGET', KEYS[1], 'state', 'rev', 'epoch', 'moves', 'movers', 'plies')
  return {0, now_is[1], now_is[2], now_is[3], now_is[4], now_is[5], now_is[6]}
end
local function grow(field, items)
  if ARGV[10] == 'w' then
    redis.call('HSET', KEYS[1], field, items)
  elseif items ~= '' then
    local old = redis.call('HGET', KEYS[1], field) or '[]'
    if old == '[]' then
      redis.call('HSET', KEYS[1], field, '[' .. items .. ']')
    else
      redis.call('HSET', KEYS[1], field, string.sub(old, 1, -2) .. ',' .. items .. ']')
    end
  end
end
if ARGV[9] == '1' then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[6])
  redis.call('ZREM', KEYS[3], ARGV[6])
  return {1}
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], 'state', ARGV[3], 'rev', tonumber(ARGV[2]) + 1, 'ttl', ARGV[4])
  grow('moves', ARGV[11])
  grow('movers', ARGV[12])
  grow('plies', ARGV[13])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[6])
  if ARGV[5] == '' then
    redis.call('ZREM', KEYS[3], ARGV[6])
  else
    redis.call('ZADD', KEYS[3], ARGV[5], ARGV[6])
  end
end
if ARGV[8] ~= '' then
  redis.call('PUBLISH', ARGV[7], ARGV[8])
end
return {1}
"""

REFRESH = _NOW + """
-- KEYS: rooms index, then room keys. ARGV: the room ids (ARGV[i] is KEYS[i + 1]'s)
-- Each room lives its own ttl (its hash's 'ttl') from now; returns how many were renewed
local kept = 0
for i = 2, #KEYS do
  local ttl = redis.pcall('HGET', KEYS[i], 'ttl')
  if type(ttl) == 'string' and tonumber(ttl) then
    redis.call('PEXPIRE', KEYS[i], ttl)
    redis.call('ZADD', KEYS[1], now + tonumber(ttl), ARGV[i - 1])
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
