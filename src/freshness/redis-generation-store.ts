/**
 * The generation every replica shares: one Redis key holding the generation
 * and the ids seen, compared and advanced by one Lua script, so two polls
 * that overlap (a lease that ran out mid-poll) still report each new id once.
 * The key lives for GENERATION_TTL_MS and every poll renews it.
 */
import type { RedisClient } from '../redis/connection.js';
import { redisScript, type ScriptCall } from '../redis/script.js';
import {
  type Advance,
  type Generation,
  type GenerationStore,
  KNOWN_IDS_LIMIT,
} from './generation.js';

export const GENERATION_KEY = 'generation';
/** Far beyond any poll interval; bounded like every key the gateway writes. */
const GENERATION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const ADVANCE = `
local ids = cjson.decode(ARGV[1])
local raw = redis.call('GET', KEYS[1])
if not raw then
  redis.call('SET', KEYS[1], cjson.encode({ id = tonumber(ARGV[3]), seenAt = ARGV[2], ids = ids }), 'PX', ARGV[4])
  return cjson.encode({ id = tonumber(ARGV[3]), seenAt = ARGV[2], newIds = {} })
end
local state = cjson.decode(raw)
local known = {}
for _, id in ipairs(state.ids) do known[id] = true end
local newIds = {}
local inPage = {}
for _, id in ipairs(ids) do
  inPage[id] = true
  if not known[id] then table.insert(newIds, id) end
end
if #newIds > 0 then
  state.id = state.id + 1
  state.seenAt = ARGV[2]
end
local merged = {}
for _, id in ipairs(ids) do table.insert(merged, id) end
for _, id in ipairs(state.ids) do
  if #merged >= tonumber(ARGV[5]) then break end
  if not inPage[id] then table.insert(merged, id) end
end
state.ids = merged
redis.call('SET', KEYS[1], cjson.encode(state), 'PX', ARGV[4])
return cjson.encode({ id = state.id, seenAt = state.seenAt, newIds = newIds })
`;

export class RedisGenerationStore implements GenerationStore {
  readonly #advance: ScriptCall;

  constructor(private readonly redis: RedisClient) {
    this.#advance = redisScript(redis, 'generationAdvance', 1, ADVANCE);
  }

  async load(): Promise<Generation | undefined> {
    const text = await this.redis.get(GENERATION_KEY);
    if (text === null) return undefined;
    const parsed = parseGeneration(JSON.parse(text) as unknown);
    return parsed;
  }

  async advance(ids: readonly string[], seenAt: string, floorId: number): Promise<Advance> {
    const text = (await this.#advance(
      GENERATION_KEY,
      JSON.stringify(ids),
      seenAt,
      floorId,
      GENERATION_TTL_MS,
      KNOWN_IDS_LIMIT,
    )) as string;
    const value = JSON.parse(text) as { newIds?: unknown };
    const generation = parseGeneration(value);
    if (generation === undefined) throw new Error('redis: unreadable generation');
    // cjson writes an empty array as {}.
    const newIds = Array.isArray(value.newIds)
      ? value.newIds.filter((id): id is string => typeof id === 'string')
      : [];
    return { generation, newIds };
  }
}

function parseGeneration(value: unknown): Generation | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, seenAt } = value as { id?: unknown; seenAt?: unknown };
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof seenAt !== 'string')
    return undefined;
  return { id, seenAt };
}
