import type { ResponseInfo } from './response.js';

export interface WithResponse<T> {
  data: T;
  response: ResponseInfo;
}

/**
 * What every method returns: a promise of the result that can also be asked for the response
 * metadata (request id, rate limit) with `.withResponse()`, as openai-node and anthropic-sdk do.
 * Keeping the metadata out of the result keeps results plain data whose types narrow exactly.
 */
export class ApiPromise<T> extends Promise<T> {
  readonly #response: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(response: Promise<WithResponse<T>>) {
    // The base promise is never observed: then/catch/finally are redirected below.
    super((resolve) => resolve(undefined as T));
    this.#response = response;
  }

  /** The result together with the response it came from. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#response;
  }

  // Derived promises are plain Promises; without this, `then` would try to build ApiPromises.
  static override get [Symbol.species]() {
    return Promise;
  }

  #result(): Promise<T> {
    this.#data ??= this.#response.then((r) => r.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass must override then to be one
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#result().then(onfulfilled, onrejected);
  }

  override catch<R = never>(
    onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null,
  ): Promise<T | R> {
    return this.#result().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#result().finally(onfinally);
  }
}
