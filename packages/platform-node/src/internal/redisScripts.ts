import type { Redis } from "ioredis"

// KEYS[1] the bucket, KEYS[2] the time its next grant is spaced from; ARGV: limit, window ms, spacing ms, unique
// member, in-flight limit ms. The bucket holds a slot in flight with its grant time negated, a settled one with the
// arrival of its answer. Answers 0 when the send is granted (and recorded), else the ms to wait before asking again.
const acquireScript = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local spacing = tonumber(ARGV[3])
local bound = tonumber(ARGV[5])
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local flying = redis.call("ZRANGEBYSCORE", key, "-inf", "(0", "WITHSCORES")
local inflight = 0
for i = 1, #flying, 2 do
  local granted = -tonumber(flying[i + 1])
  if granted + bound <= now then
    redis.call("ZADD", key, granted + bound, flying[i])
  else
    inflight = inflight + 1
  end
end
redis.call("ZREMRANGEBYSCORE", key, 0, now - window)
local count = redis.call("ZCARD", key)
local last = tonumber(redis.call("GET", KEYS[2]))
local due = -math.huge
if last then due = last + spacing end
if count >= limit then
  local edge = now + window
  if inflight < limit then
    local rank = count - (limit - inflight)
    edge = tonumber(redis.call("ZRANGE", key, rank, rank, "WITHSCORES")[2]) + window
  end
  due = math.max(due, edge)
end
if due > now then
  return math.ceil(due - now)
end
redis.call("ZADD", key, -now, ARGV[4])
local from = now
if now - due < spacing then from = due end
local ttl = math.ceil(window + bound + 60000)
redis.call("SET", KEYS[2], string.format("%.3f", from), "PX", ttl)
redis.call("PEXPIRE", key, ttl)
return 0
`

// KEYS[1] the bucket; ARGV[1] the member. Records the answer's arrival (Redis's clock) for a slot in flight, or
// moves a settled one to it when that is later.
const settleScript = `
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call("ZADD", KEYS[1], "XX", "GT", now, ARGV[1])
return 0
`

/**
 * A Redis client with the store's scripts as commands (`defineScripts`).
 *
 * @internal
 */
export interface ScriptedRedis extends Redis {
  bitgetSettle(key: string, member: string): Promise<number>
  bitgetAcquire(
    key: string,
    spacedFrom: string,
    limit: number,
    window: number,
    spacing: number,
    member: string,
    inFlight: number
  ): Promise<number>
}

/**
 * Adds the store's scripts to a client as the commands `ScriptedRedis` names.
 *
 * @internal
 */
export const defineScripts = (client: Redis): ScriptedRedis => {
  client.defineCommand("bitgetAcquire", { numberOfKeys: 2, lua: acquireScript })
  client.defineCommand("bitgetSettle", { numberOfKeys: 1, lua: settleScript })
  return client as ScriptedRedis
}
