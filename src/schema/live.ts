/**
 * `Subscription.milestoneCrossed`, fed by the deployment's one
 * refresh poll (src/freshness/). The milestone arrives whole, at no upstream
 * call; its links (`artist`, `song`) resolve through the same cache as in
 * queries, with a fresh loader per event, within MAX_UPSTREAM_COST per event
 * (src/server/plugins/use-upstream-cost-limit.ts).
 */
import type { MilestoneRecord } from '../upstream/records.js';
import { builder } from './builder.js';
import { READS_NOTHING } from './field-reads.js';
import { MilestoneRef } from './object-refs.js';

builder.subscriptionType({
  description:
    'Live data: what the gateway learns when the upstream refreshes, pushed over GraphQL over SSE.',
});

builder.subscriptionField('milestoneCrossed', (t) =>
  t.field({
    type: MilestoneRef,
    description:
      'Each milestone the upstream publishes from now on, once, as soon as the refresh poll (every ' +
      '`REFRESH_POLL_SECONDS`) sees it.',
    // The milestone arrives whole; its links' reads are theirs.
    upstream: READS_NOTHING,
    args: {
      isAfrobeats: t.arg.boolean({
        description: 'Only Afrobeats artists (true) or only others (false).',
      }),
    },
    subscribe: (_, args, context) =>
      onlyMatching(
        context.boundedBacklog(context.live.milestones()),
        args.isAfrobeats ?? undefined,
      ),
    resolve: (milestone: MilestoneRecord, _, context) => {
      context.renewForEvent();
      return milestone;
    },
  }),
);

async function* onlyMatching(
  milestones: AsyncIterableIterator<MilestoneRecord>,
  isAfrobeats: boolean | undefined,
): AsyncGenerator<MilestoneRecord> {
  try {
    for await (const milestone of milestones) {
      if (isAfrobeats === undefined || milestone.isAfrobeats === isAfrobeats) yield milestone;
    }
  } finally {
    await milestones.return?.();
  }
}
