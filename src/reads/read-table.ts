/**
 * What one read does, as a table: the whole decision, written once. The read
 * policies (read-policy.ts) look their row up and the read path
 * (cached-upstream.ts) does what it says; docs/economy.md shows the same
 * table, and a test holds the two equal and every row's behaviour.
 *
 * Inputs:
 * - the entry's state (entry-state.ts);
 * - the record's place in the day's plan: `head` (refreshed every
 *   generation), `kept` (refreshed every other one), `tail` (served as held
 *   until it climbs), or `unplanned` (no plan: a client's key, or the
 *   gateway's key without BUDGET_PLAN);
 * - the upstream's condition (upstream-condition.ts);
 * - without the plan, the day's allowance: `open`, or `reserve` once only the
 *   share kept for reads nothing cached can answer is left.
 *
 * Actions:
 * - `answer`: the entry is current;
 * - `answer-held`: the held entry answers, with no call;
 * - `answer-held-refresh-behind`: the held entry answers and one refresh
 *   starts behind it, in the background lane;
 * - `refresh-first`: the refresh goes ahead of background calls and is
 *   waited for at most the stale grace; past it, or should it fail or be
 *   refused, the held entry answers;
 * - `call`: nothing can answer but the call, waited for to the read's
 *   deadline; refused by the day, it is RATE_LIMITED with `resetsAt`.
 *
 * A held entry that answers while `outdated` is reported in
 * `extensions.stale`; one `behind` only in `extensions.freshness`.
 */
import type { EntryKind } from './entry-state.js';
import type { Condition } from './upstream-condition.js';

export type Place = 'head' | 'kept' | 'tail' | 'unplanned';
export type Allowance = 'open' | 'reserve';
export type Action =
  | 'answer'
  | 'answer-held'
  | 'answer-held-refresh-behind'
  | 'refresh-first'
  | 'call';

export const PLACES: readonly Place[] = ['head', 'kept', 'tail', 'unplanned'];
export const ALLOWANCES: readonly Allowance[] = ['open', 'reserve'];

/** One row: each input names the values it matches (`*`: any). */
export interface Row {
  readonly state: readonly EntryKind[] | '*';
  readonly place: readonly Place[] | '*';
  readonly condition: readonly Condition[] | '*';
  readonly allowance: readonly Allowance[] | '*';
  readonly action: Action;
  /** Why this row answers as it does. */
  readonly why: string;
}

export interface Cell {
  readonly state: EntryKind;
  readonly place: Place;
  readonly condition: Condition;
  readonly allowance: Allowance;
}

const ANY = '*';
const TROUBLE: readonly Condition[] = ['slow', 'failing'];

/** The gateway's own key under the day's plan. */
// biome-ignore format: a row a line, the table as docs/economy.md shows it
export const PLAN_TABLE: readonly Row[] = [
  { state: ['current'], place: ANY, condition: ANY, allowance: ANY, action: 'answer', why: 'nothing to refresh' },
  { state: ['behind'], place: ['head'], condition: ANY, allowance: ANY, action: 'answer-held-refresh-behind', why: 'the head is refreshed every generation; a reader never waits for it' },
  { state: ['behind'], place: ['kept', 'tail'], condition: ANY, allowance: ANY, action: 'answer-held', why: 'one refresh old is what the plan affords them' },
  { state: ['outdated'], place: ['head', 'kept'], condition: ['answering'], allowance: ANY, action: 'refresh-first', why: 'never shown two refreshes old while the upstream answers' },
  { state: ['outdated'], place: ['head', 'kept'], condition: TROUBLE, allowance: ANY, action: 'answer-held-refresh-behind', why: 'nobody waits on an upstream in trouble; the refresh is its probe' },
  { state: ['outdated'], place: ['tail'], condition: ANY, allowance: ANY, action: 'answer-held', why: 'the plan spends nothing on the tail' },
  { state: ['none'], place: ANY, condition: ANY, allowance: ANY, action: 'call', why: 'nothing else can answer' },
];

/** Without the plan: a client's key, or the gateway's key spending as long as the day lasts. */
// biome-ignore format: a row a line, the table as docs/economy.md shows it
export const DAILY_LIMIT_TABLE: readonly Row[] = [
  { state: ['current'], place: ANY, condition: ANY, allowance: ANY, action: 'answer', why: 'nothing to refresh' },
  { state: ['behind'], place: ANY, condition: ANY, allowance: ['open'], action: 'answer-held-refresh-behind', why: 'stale-while-revalidate' },
  { state: ['behind'], place: ANY, condition: ANY, allowance: ['reserve'], action: 'answer-held', why: "the day's last share is kept for reads nothing cached answers" },
  { state: ['outdated'], place: ANY, condition: ['answering'], allowance: ANY, action: 'refresh-first', why: 'past its freshness: asked again, with the held entry to fall back on' },
  { state: ['outdated'], place: ANY, condition: TROUBLE, allowance: ANY, action: 'answer-held-refresh-behind', why: 'nobody waits on an upstream in trouble; the refresh is its probe' },
  { state: ['none'], place: ANY, condition: ANY, allowance: ANY, action: 'call', why: 'nothing else can answer' },
];

/** Whether `row` answers the read whose inputs are `cell`. */
export function matches(row: Row, cell: Cell): boolean {
  return fits(row, cell);
}

/** Inputs read only when the rows that match the others disagree on them: each costs a store read. */
export interface LazyInputs {
  place(): Promise<Place>;
  allowance(): Promise<Allowance>;
}

/** The action of `table` for a read in `state` while the upstream is in `condition`. */
export async function lookUp(
  table: readonly Row[],
  state: EntryKind,
  condition: Condition,
  lazy: LazyInputs,
): Promise<Action> {
  const known: { -readonly [input in keyof Cell]?: Cell[input] } = { state, condition };
  let action = agreedAction(table, known);
  if (action === undefined) {
    known.place = await lazy.place();
    action = agreedAction(table, known);
  }
  if (action === undefined) {
    known.allowance = await lazy.allowance();
    action = agreedAction(table, known);
  }
  if (action === undefined)
    throw new Error(`the read table's rows disagree on ${JSON.stringify(known)}`);
  return action;
}

/** The action every row fitting `known` gives; undefined while they disagree. */
function agreedAction(table: readonly Row[], known: Partial<Cell>): Action | undefined {
  const candidates = table.filter((row) => fits(row, known));
  const first = candidates[0];
  if (first === undefined)
    throw new Error(`no row of the read table fits ${JSON.stringify(known)}`);
  return candidates.every((row) => row.action === first.action) ? first.action : undefined;
}

/**
 * The action of `table` for a read in `state` while the upstream is in `condition` when every row
 * those match agrees on it (no lazy input would change it); undefined when they disagree.
 */
export function settledAction(
  table: readonly Row[],
  state: EntryKind,
  condition: Condition,
): Action | undefined {
  return agreedAction(table, { state, condition });
}

/** Whether `row` matches every input known so far. */
function fits(row: Row, known: Partial<Cell>): boolean {
  const has = <T>(values: readonly T[] | '*', value: T | undefined) =>
    value === undefined || values === ANY || values.includes(value);
  return (
    has(row.state, known.state) &&
    has(row.place, known.place) &&
    has(row.condition, known.condition) &&
    has(row.allowance, known.allowance)
  );
}
