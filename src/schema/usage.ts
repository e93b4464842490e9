import type { BudgetUsage } from '../economy/ledger.js';
import { builder } from './builder.js';
import { READS_NOTHING } from './field-reads.js';

const ApiUsageRef = builder.objectRef<BudgetUsage>('ApiUsage').implement({
  description:
    "Today's upstream budget of the API key in use (the gateway's own key, or the client's in pass-through mode).",
  fields: (t) => ({
    dailyLimit: t.exposeInt('dailyLimit', {
      description: 'Upstream requests allowed per UTC day.',
    }),
    used: t.exposeInt('used', {
      description: 'Upstream requests made with this key since midnight UTC.',
    }),
    remaining: t.exposeInt('remaining', {
      description: 'Upstream requests left today (0 once the upstream has answered 429).',
    }),
    resetsAt: t.exposeString('resetsAt', {
      description: 'ISO 8601 instant of the next reset: midnight UTC.',
    }),
  }),
});

builder.queryField('apiUsage', (t) =>
  t.field({
    type: ApiUsageRef,
    description:
      "The caller's upstream budget, counted by the gateway: answering it costs no upstream call.",
    upstream: READS_NOTHING,
    resolve: (_, __, c) => c.budget.usage(c.caller.keyId),
  }),
);
