import os from 'node:os';
import type { NewAuditEvent, Store } from '../store/types.js';

/**
 * Who made a change, as the audit log records it: `cli:<operating-system user>` for the CLI,
 * `admin-api:<client address>` for the admin API. The surface decides; the operations record.
 */
export interface Actor {
  /** Stored as the event's actor. */
  name: string;
  /**
   * Added to every event this actor records (the admin API's request id, to find the request's
   * log line), after the event's own details so it never replaces one.
   */
  details?: Record<string, unknown>;
}

/** Who runs the CLI: the operating-system user, which is what an operator can be held to. */
export function cliActor(): Actor {
  try {
    return { name: `cli:${os.userInfo().username}` };
  } catch {
    // No passwd entry for the uid (some containers).
    return { name: `cli:uid-${process.getuid?.() ?? 'unknown'}` };
  }
}

/** The admin API's caller: the token names no one, so the client address is what is known. */
export function adminActor(address: string, requestId: string): Actor {
  return { name: `admin-api:${address}`, details: { requestId } };
}

export type AuditInput = Omit<NewAuditEvent, 'actor' | 'details'> & {
  details?: Record<string, unknown>;
};

/**
 * Records what an operator just did. Called after the change succeeded, on the same store:
 * a failed change leaves no event, and the event never carries a secret or a hash.
 */
export async function recordAudit(store: Store, actor: Actor, event: AuditInput): Promise<void> {
  const details: Record<string, unknown> = { ...event.details };
  for (const [name, value] of Object.entries(actor.details ?? {})) {
    if (!(name in details)) details[name] = value;
  }
  await store.appendAuditEvent({ ...event, details, actor: actor.name });
}
