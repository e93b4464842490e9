/**
 * A bound, in total, on the bytes a process holds for clients that do not
 * take them: each slow client has its own bound, but a thousand of them
 * would still hold a thousand times that. Past the total, the client
 * furthest behind is dropped first (it holds the most, and is the least
 * likely to catch up), then the next, until the rest fit.
 *
 * Members say how far behind they are when asked; they are asked only when
 * the total, as last known, has grown past the bound. Sockets drain
 * between two questions, so the known total is an upper bound: nobody is
 * dropped for bytes already sent.
 */
export interface BehindMember {
  /** Bytes held for this client right now. */
  behind(): number;
  /** It is dropped, `bytes` behind: what it holds must go with it. */
  drop(bytes: number): void;
}

export class FurthestBehindFirst {
  readonly #known = new Map<BehindMember, number>();
  #total = 0;

  constructor(readonly maxBytes: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
      throw new Error(`maxBytes must be a positive integer: ${maxBytes}`);
  }

  /** Bytes held by all members, as last known. */
  get totalBytes(): number {
    return this.#total;
  }

  /** `member` now holds `bytes` (it joins if it is new); past the bound, the furthest behind go. */
  holds(member: BehindMember, bytes: number): void {
    this.#total += bytes - (this.#known.get(member) ?? 0);
    this.#known.set(member, bytes);
    if (this.#total > this.maxBytes) this.#fit();
  }

  /** `member` holds nothing more here (it caught up, ended, or went away). */
  leave(member: BehindMember): void {
    this.#total -= this.#known.get(member) ?? 0;
    this.#known.delete(member);
  }

  #fit(): void {
    this.#total = 0;
    for (const member of this.#known.keys()) {
      const bytes = member.behind();
      this.#known.set(member, bytes);
      this.#total += bytes;
    }
    while (this.#total > this.maxBytes) {
      let furthest: BehindMember | undefined;
      let most = -1;
      for (const [member, bytes] of this.#known)
        if (bytes > most) {
          furthest = member;
          most = bytes;
        }
      if (furthest === undefined) return;
      this.leave(furthest);
      furthest.drop(most);
    }
  }
}
