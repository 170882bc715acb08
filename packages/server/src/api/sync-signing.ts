import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { InstallationStore } from '../store/types.js';

/**
 * The key that signs sync tokens (`nextSince`, api/sync.ts): HMAC-SHA256 with a random 32-byte
 * secret of the installation, kept in the database (installation_secrets, migration 11) so every
 * instance signs and checks alike, and made by the first process that needs it. Each process
 * reads it once and keeps it: a rotation (`stockroom sync-secret rotate`) takes effect on a
 * process when it restarts.
 */

/** The secret's name in installation_secrets. */
export const SYNC_TOKEN_SECRET = 'sync_tokens';

/** Characters of a signature: 32 bytes in unpadded base64url. */
export const SIGNATURE_CHARS = 43;

export interface SyncSigner {
  /** The signature of a token's text. */
  sign(text: string): string;
  /** Whether `signature` is the signature of `text` (in constant time). */
  verify(text: string, signature: string): boolean;
}

/** A new secret: 32 random bytes, as base64url text. */
export function newSyncSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function syncSigner(secret: string): SyncSigner {
  const key = Buffer.from(secret, 'base64url');
  const mac = (text: string) => createHmac('sha256', key).update(text).digest();
  return {
    sign: (text) => mac(text).toString('base64url'),
    verify(text, signature) {
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(text);
      // base64url decoding skips characters outside its alphabet: the length says it all.
      return (
        signature.length === SIGNATURE_CHARS &&
        given.length === expected.length &&
        timingSafeEqual(given, expected)
      );
    },
  };
}

const SIGNERS = new WeakMap<InstallationStore, SyncSigner | Promise<SyncSigner>>();

/**
 * The installation's signer, read from the store once per process (a value when it is known,
 * else a promise), so that a request with a known signer checks its token without waiting.
 */
export function installationSigner(store: InstallationStore): SyncSigner | Promise<SyncSigner> {
  const known = SIGNERS.get(store);
  if (known !== undefined) return known;
  const loading = store.installationSecret(SYNC_TOKEN_SECRET, newSyncSecret()).then(
    (secret) => {
      const signer = syncSigner(secret);
      SIGNERS.set(store, signer);
      return signer;
    },
    (error: unknown) => {
      // A failed read (say, the database was unreachable) is tried again by the next request.
      SIGNERS.delete(store);
      throw error;
    },
  );
  SIGNERS.set(store, loading);
  return loading;
}
