/**
 * An error answered in the envelope both hosts share (docs/architecture.md#errors): a code from a closed set,
 * the status that code answers with, a message saying what was wrong and how to fix it, and
 * the parameter at fault. The API's and the admin API's errors differ only in their codes and
 * the page their `docUrl` points at, so the envelope's key order is written once, here.
 */
export interface CodedErrorOptions {
  /** The parameter (or body field, or path segment) at fault. */
  param?: string;
  headers?: Record<string, string>;
}

export class CodedError<Code extends string> extends Error {
  readonly code: Code;
  readonly status: number;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;
  /** Fastify reads (and its validation step writes) this to pick the reply status. */
  statusCode: number;

  constructor(
    statusOf: Readonly<Record<Code, number>>,
    code: Code,
    message: string,
    options: CodedErrorOptions = {},
  ) {
    super(message);
    this.code = code;
    this.status = statusOf[code];
    this.param = options.param;
    this.headers = options.headers ?? {};
    this.statusCode = this.status;
  }
}

export interface ErrorEnvelope<Code extends string> {
  error: {
    code: Code;
    message: string;
    status: number;
    requestId: string;
    param?: string;
    docUrl: string;
  };
}

/** The envelope of an error, `param` before `docUrl` (the documented key order). */
export function errorEnvelope<Code extends string>(
  error: CodedError<Code>,
  requestId: string,
  docUrl: string,
): ErrorEnvelope<Code> {
  return {
    error: {
      code: error.code,
      message: error.message,
      status: error.status,
      requestId,
      ...(error.param === undefined ? {} : { param: error.param }),
      docUrl,
    },
  };
}
