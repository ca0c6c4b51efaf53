interface Waiter {
  grant: () => void;
  refuse: (error: unknown) => void;
  timer: Timer;
}

/**
 * The instances a process may have open at once. A slot is taken before an instance opens and given
 * back once it has closed (not when it starts closing: its memory is held until then). Takers wait in
 * turn, each within its own deadline; while they wait, `makeRoom` is asked to close idle instances.
 */
export class InstanceSlots {
  private used = 0;
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly capacity: number,
    /** Close up to this many idle instances (their slots come back through give()). */
    private readonly makeRoom: (wanted: number) => void,
  ) {}

  get inUse(): number {
    return this.used;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** A slot, at once or when one is given back; refused with `timedOut()` at the deadline. */
  take(deadline: number, timedOut: () => unknown): Promise<void> {
    if (this.used < this.capacity && this.waiters.length === 0) {
      this.used += 1;
      return Promise.resolve();
    }
    const waiting = new Promise<void>((grant, refuse) => {
      const waiter: Waiter = {
        grant,
        refuse,
        timer: setTimeout(
          () => {
            const index = this.waiters.indexOf(waiter);
            if (index < 0) return;
            this.waiters.splice(index, 1);
            refuse(timedOut());
          },
          Math.max(0, deadline - performance.now()),
        ),
      };
      this.waiters.push(waiter);
    });
    this.makeRoom(this.waiters.length);
    return waiting;
  }

  /** An instance closed (or failed to open): its slot goes to the first taker waiting, if any. */
  give(): void {
    const next = this.waiters.shift();
    if (!next) {
      this.used -= 1;
      return;
    }
    clearTimeout(next.timer);
    next.grant();
  }

  /** Instances became idle: takers still waiting get room made for them. */
  idle(): void {
    if (this.waiters.length > 0) this.makeRoom(this.waiters.length);
  }
}
