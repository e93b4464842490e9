/**
 * FurthestBehindFirst (src/server/memory/furthest-behind-first.ts): the total bound on bytes
 * held for slow clients, the one furthest behind dropped first, each asked
 * how far behind it is only when the total as last known passes the bound.
 */
import { describe, expect, it } from 'vitest';
import {
  type BehindMember,
  FurthestBehindFirst,
} from '../../src/server/memory/furthest-behind-first.js';

/** A client holding `bytes`, which may drain on its own, and records whether it was dropped. */
function client(bytes: number) {
  const member = {
    bytes,
    dropped: undefined as number | undefined,
    behind: () => member.bytes,
    drop(at: number) {
      member.dropped = at;
    },
  };
  return member satisfies BehindMember;
}

describe('FurthestBehindFirst', () => {
  it('within the bound, nobody is dropped', () => {
    const total = new FurthestBehindFirst(100);
    const [a, b] = [client(40), client(60)];
    total.holds(a, 40);
    total.holds(b, 60);
    expect([a.dropped, b.dropped]).toEqual([undefined, undefined]);
    expect(total.totalBytes).toBe(100);
  });

  it('past the bound, the furthest behind goes first, then the next, until the rest fit', () => {
    const total = new FurthestBehindFirst(100);
    const [a, b, c] = [client(50), client(30), client(20)];
    total.holds(a, 50);
    total.holds(b, 30);
    total.holds(c, 20);
    c.bytes = 45;
    total.holds(c, 45);
    // 125 held: dropping a (50) leaves 75.
    expect([a.dropped, b.dropped, c.dropped]).toEqual([50, undefined, undefined]);
    expect(total.totalBytes).toBe(75);

    b.bytes = 90;
    total.holds(b, 90);
    // 135: b (90) goes; c's 45 fit.
    expect([b.dropped, c.dropped]).toEqual([90, undefined]);
    expect(total.totalBytes).toBe(45);
  });

  it('asks again before dropping: bytes a socket sent meanwhile are not held against anyone', () => {
    const total = new FurthestBehindFirst(100);
    const [a, b] = [client(80), client(10)];
    total.holds(a, 80);
    total.holds(b, 10);
    a.bytes = 5; // its socket drained since it last said
    b.bytes = 30;
    total.holds(b, 30);
    expect([a.dropped, b.dropped]).toEqual([undefined, undefined]);
    expect(total.totalBytes).toBe(35);
  });

  it('a member that leaves holds nothing more', () => {
    const total = new FurthestBehindFirst(100);
    const [a, b] = [client(90), client(20)];
    total.holds(a, 90);
    total.leave(a);
    total.holds(b, 20);
    expect([a.dropped, b.dropped]).toEqual([undefined, undefined]);
    expect(total.totalBytes).toBe(20);
  });
});
