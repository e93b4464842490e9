/** Injected faults: matched against the raw request path in injection order, each used `times` times. */

export type Fault =
  | { kind: 'status'; status: number; body?: unknown; retryAfterSeconds?: number }
  | { kind: 'delay'; ms: number }
  | { kind: 'hang' }
  /** The normal answer, once `until` settles: a test holds a call in flight while it looks at what else happens. */
  | { kind: 'hold'; until: Promise<unknown> }
  | { kind: 'reset' }
  | { kind: 'raw'; status?: number; contentType?: string; body: string }
  | { kind: 'stream'; bytes: number }
  /** The normal 200 answer, rewritten: how a real upstream's bodies may differ from the assumed ones. */
  | { kind: 'rewrite'; rewrite: (body: unknown) => unknown };

export interface FaultOptions {
  /** A string matches as a prefix of the raw path; a RegExp is tested against it. Default: every path. */
  path?: string | RegExp;
  /** Default: unlimited. */
  times?: number;
}

interface Armed {
  readonly fault: Fault;
  readonly path: string | RegExp | undefined;
  remaining: number;
}

export class FaultBook {
  private armed: Armed[] = [];

  inject(fault: Fault, options: FaultOptions = {}): void {
    const times = options.times ?? Number.POSITIVE_INFINITY;
    if (!(times > 0)) throw new Error(`times must be a positive number: ${times}`);
    this.armed.push({ fault, path: options.path, remaining: times });
  }

  clear(): void {
    this.armed = [];
  }

  /** The fault for this request, if any, using up one of its times. */
  take(rawPath: string): Fault | null {
    const found = this.armed.find(
      ({ path }) =>
        path === undefined ||
        (typeof path === 'string' ? rawPath.startsWith(path) : matches(path, rawPath)),
    );
    if (found === undefined) return null;
    found.remaining -= 1;
    if (found.remaining <= 0) this.armed = this.armed.filter((entry) => entry !== found);
    return found.fault;
  }
}

/** A global or sticky RegExp keeps state between test() calls; reset it so every request matches alike. */
function matches(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(text);
}
