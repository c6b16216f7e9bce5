import type { SlotLender } from './transcription-chunks.js';

/**
 * The worker slots of one process. A slot runs one task; a task in
 * recognition borrows idle slots for its chunks, but only while the queue
 * had nothing to claim, so waiting tasks keep priority.
 */
export class SlotPool implements SlotLender {
  private busy = 0;
  private lent = 0;
  private reserved = 0;
  private waiters: (() => void)[] = [];
  /** Set when the last claim found nothing; cleared when work is announced. */
  queueEmpty = false;

  constructor(readonly capacity: number) {}

  free(): number {
    return this.capacity - this.busy - this.lent - this.reserved;
  }

  /** Holds a slot while a claim is in flight, so it cannot be lent meanwhile. */
  reserve(): void {
    this.reserved += 1;
  }

  unreserve(): void {
    this.reserved -= 1;
    this.notify();
  }

  /** A claimed task takes the slot. */
  take(): void {
    this.busy += 1;
  }

  finish(): void {
    this.busy -= 1;
    this.notify();
  }

  tryBorrow(): boolean {
    if (!this.queueEmpty || this.free() <= 0) return false;
    this.lent += 1;
    return true;
  }

  giveBack(): void {
    this.lent -= 1;
    this.notify();
  }

  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Slots in use right now (own tasks and lent ones). */
  inUse(): number {
    return this.busy + this.lent;
  }
}
