/**
 * The generation every replica shares: one Redis key holding the generation
 * and the ids seen, compared and advanced by one Lua script, so two polls
 * that overlap (a lease that ran out mid-poll) still report each new id once.
 * The key lives for GENERATION_TTL_MS and every poll renews it. The same
 * script keeps which artists the latest generations' new milestones belong
 * to, decided as `artistsOfNewMilestones` and `withChange` decide them.
 */
import type { RedisClient } from '../redis/connection.js';
import { redisScript, type ScriptCall } from '../redis/script.js';
import {
  type Advance,
  CHANGES_KEPT,
  type Generation,
  type GenerationArtists,
  type GenerationStore,
  KNOWN_IDS_LIMIT,
  type PolledMilestone,
  type PollKind,
} from './generation.js';

export const GENERATION_KEY = 'generation';
/** Far beyond any poll interval; bounded like every key the gateway writes. */
const GENERATION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const ADVANCE = `
local ids = cjson.decode(ARGV[1])
local artistOf = cjson.decode(ARGV[6])
local raw = redis.call('GET', KEYS[1])
if not raw then
  redis.call('SET', KEYS[1], cjson.encode({ id = tonumber(ARGV[3]), seenAt = ARGV[2], polledAt = tonumber(ARGV[8]), ids = ids }), 'PX', ARGV[4])
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
  if state.polledAt then
    state.seenWithin = math.max(0, tonumber(ARGV[8]) - state.polledAt)
    state.seenBy = ARGV[9]
  else
    state.seenWithin = nil
    state.seenBy = nil
  end
  local changes = {}
  local told = #newIds < #ids
  local artists, named = {}, {}
  for _, id in ipairs(newIds) do
    local artist = artistOf[id]
    if type(artist) ~= 'string' or artist == '' then
      told = false
    elseif not named[artist] then
      named[artist] = true
      table.insert(artists, artist)
    end
  end
  if told then
    table.insert(changes, { id = state.id, artists = artists })
    for _, change in ipairs(state.changes or {}) do
      if #changes >= tonumber(ARGV[7]) then break end
      table.insert(changes, change)
    end
  end
  state.changes = changes
end
state.polledAt = tonumber(ARGV[8])
local merged = {}
for _, id in ipairs(ids) do table.insert(merged, id) end
for _, id in ipairs(state.ids) do
  if #merged >= tonumber(ARGV[5]) then break end
  if not inPage[id] then table.insert(merged, id) end
end
state.ids = merged
redis.call('SET', KEYS[1], cjson.encode(state), 'PX', ARGV[4])
return cjson.encode({ id = state.id, seenAt = state.seenAt, seenWithin = state.seenWithin, seenBy = state.seenBy, newIds = newIds, changes = state.changes })
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

  async advance(
    page: readonly PolledMilestone[],
    seenAt: string,
    floorId: number,
    kind: PollKind = 'steady',
  ): Promise<Advance> {
    const artistOf: Record<string, string> = {};
    for (const { id, artist } of page) if (artist) artistOf[id] = artist.toLowerCase();
    const text = (await this.#advance(
      GENERATION_KEY,
      JSON.stringify(page.map((milestone) => milestone.id)),
      seenAt,
      floorId,
      GENERATION_TTL_MS,
      KNOWN_IDS_LIMIT,
      JSON.stringify(artistOf),
      CHANGES_KEPT,
      Date.parse(seenAt),
      kind,
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
  const { id, seenAt, seenWithin, seenBy, changes } = value as {
    id?: unknown;
    seenAt?: unknown;
    seenWithin?: unknown;
    seenBy?: unknown;
    changes?: unknown;
  };
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof seenAt !== 'string')
    return undefined;
  const milestoneArtists = parseChanges(changes);
  return {
    id,
    seenAt,
    ...(typeof seenWithin === 'number' && seenWithin >= 0 ? { seenWithinMs: seenWithin } : {}),
    ...(seenBy === 'steady' || seenBy === 'dense' ? { seenBy } : {}),
    ...(milestoneArtists.length > 0 ? { milestoneArtists } : {}),
  };
}

/** The change history as the script keeps it (cjson writes an empty array as {}); anything odd ends it. */
function parseChanges(value: unknown): GenerationArtists[] {
  if (!Array.isArray(value)) return [];
  const changes: GenerationArtists[] = [];
  for (const change of value as unknown[]) {
    const { id, artists } = (change ?? {}) as { id?: unknown; artists?: unknown };
    if (typeof id !== 'number' || !Array.isArray(artists)) break;
    if (!artists.every((artist): artist is string => typeof artist === 'string')) break;
    changes.push({ id, artists });
  }
  return changes;
}
