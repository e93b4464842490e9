/** Every request the simulator receives, in arrival order: the tests' view of upstream traffic. */

export interface CallRecord {
  method: string;
  rawPath: string;
  segments: string[];
  query: Record<string, string>;
  key: string | null;
  /** The W3C trace context the caller sent, if any (tracing tests). */
  traceparent?: string;
  /** The status answered; 0 while pending, and for hung or reset connections. */
  status: number;
  /** Arrival time, epoch milliseconds (wall clock, not the budget clock). */
  at: number;
}

export class CallLog {
  private records: CallRecord[] = [];

  get all(): readonly CallRecord[] {
    return this.records;
  }

  /** Records the request at arrival; the returned record is updated once the status is known. */
  open(record: Omit<CallRecord, 'status' | 'at'>): CallRecord {
    const entry: CallRecord = { ...record, status: 0, at: Date.now() };
    this.records.push(entry);
    return entry;
  }

  /** Starts a new list, so arrays read before the reset keep their contents. */
  reset(): void {
    this.records = [];
  }
}
