/**
 * Reusable buffers for large response bodies.
 *
 * A limit=1000 page is 1.36 MB of bytes that live only until the socket has taken them. Made
 * as fresh buffers, 70 pages a second were 100 MB/s of memory outside the JavaScript heap that
 * only the collector gives back: V8 counts it, starts full collections to reclaim it (a pause
 * of 4-12 ms each, several a second), and malloc's arenas grow with the swings (BENCHMARKS.md).
 * Chunks taken from here go back when the response has been handed to the operating system,
 * so a steady load reuses the same memory instead. Measured on the 1M-item bench while 4
 * connections fetched limit=1000 pages: full collections of over 3 ms fell from about 50 to 3
 * in 40 s, and the pages served from 72 to 100 a second.
 */
export const CHUNK_BYTES = 64 * 1024;

export class ChunkPool {
  private readonly idle: Buffer[] = [];

  /** `maxIdleBytes` bounds what the pool keeps between bursts; beyond it chunks are dropped. */
  constructor(private readonly maxIdleBytes: number) {}

  take(): Buffer {
    // allocUnsafeSlow: a buffer of its own, never a slice of Node's shared 8 KiB pool.
    return this.idle.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
  }

  /** Gives chunks back. Only once nothing will read them again: they are written over. */
  give(chunks: readonly Buffer[]): void {
    for (const chunk of chunks) {
      if ((this.idle.length + 1) * CHUNK_BYTES > this.maxIdleBytes) return;
      this.idle.push(chunk);
    }
  }

  get idleBytes(): number {
    return this.idle.length * CHUNK_BYTES;
  }
}

/**
 * The process's pool for response bodies: 16 MiB kept at most, the pages of a dozen
 * limit=1000 responses in flight (large pages are built two at a time, api/routes).
 */
export const bodyChunks = new ChunkPool(16 * 1024 * 1024);
