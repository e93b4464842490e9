/**
 * Where a miss's answer travels from Yoga back to the listener: the recorder
 * (recorder.ts) fills the slot the fast path (fast-path.ts) put in the
 * server context, and the fast path stores what it finds once the answer
 * is sent.
 */
import type { CompiledOperation } from '../plugins/use-compiled-execution.js';
import type { StoredResponse } from './stored-response.js';

/** Filled by the recorder during a miss, read by the fast path once the answer is sent. */
export interface ResponseCacheSlot {
  /**
   * Set by the fast path when the answer would be stored: its key was missed before (admission,
   * fast-path.ts). A key missed once only, so far, records nothing: most such answers are never
   * asked again, and recording cost every one-off miss a copy of its data and its headers.
   */
  admitted?: boolean;
  record?: {
    data: string;
    /** `data` as the bytes the miss wrote, once it has been written. */
    dataBytes?: Buffer;
    operationName: string | null;
    freshUntil: number;
    reads: readonly string[];
    estimated: number | undefined;
  };
  response?: StoredResponse;
  freshUntil?: number;
  /** Set when Yoga ran the operation compiled: the miss lane (miss-lane/) runs it next time. */
  compiled?: CompiledOperation;
}
