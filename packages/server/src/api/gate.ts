/**
 * A first-come, first-served limit on how many tasks run at once. Large item pages go through
 * one: each holds a few MB while it is built, so building a bounded number at a time keeps the
 * process's memory flat however many clients ask at once (they wait their turn instead).
 */
export class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next task in line.
      if (next) next();
      else this.active--;
    }
  }
}
