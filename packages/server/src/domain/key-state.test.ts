import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../store/types.js';
import { describeKey, keyState, rateLimitText } from './key-state.js';

const NOW = Date.UTC(2026, 10, 28);

function key(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: '6740a1f2c3d4e5f6a7b8c9d0',
    organizationId: '6740a1f2c3d4e5f6a7b8c9d1',
    userId: null,
    type: 'organization',
    name: 'shop',
    prefix: 'sr_org_a1B2',
    hash: 'f'.repeat(64),
    permissions: ['items:read'],
    expiresAt: null,
    remaining: null,
    rateLimit: { max: 600, windowSeconds: 60 },
    enabled: true,
    revokedAt: null,
    createdAt: NOW - 1000,
    lastUsedAt: null,
    previousHash: null,
    previousHashExpiresAt: null,
    view: null,
    viewUpdatedAt: null,
    ...overrides,
  };
}

describe('key state', () => {
  it('gives one state, in the order the API checks them', () => {
    expect(keyState(key(), NOW)).toBe('active');
    expect(keyState(key({ remaining: 0 }), NOW)).toBe('exhausted');
    expect(keyState(key({ remaining: 0, expiresAt: NOW }), NOW)).toBe('expired');
    expect(keyState(key({ expiresAt: NOW, enabled: false }), NOW)).toBe('disabled');
    expect(keyState(key({ enabled: false, revokedAt: NOW - 1 }), NOW)).toBe('revoked');
  });

  it('shows everything but the hashes, with times in ISO form', () => {
    const view = describeKey(key({ previousHash: 'e'.repeat(64) }), 'ana@example.com');
    expect(view).toEqual({
      id: '6740a1f2c3d4e5f6a7b8c9d0',
      prefix: 'sr_org_a1B2',
      name: 'shop',
      type: 'organization',
      organizationId: '6740a1f2c3d4e5f6a7b8c9d1',
      userId: null,
      userEmail: 'ana@example.com',
      permissions: ['items:read'],
      state: 'active',
      expiresAt: null,
      remaining: null,
      rateLimit: { max: 600, windowSeconds: 60 },
      createdAt: '2026-11-27T23:59:59.000Z',
      lastUsedAt: null,
      revokedAt: null,
      previousSecretValidUntil: null,
      view: null,
      viewUpdatedAt: null,
    });
    expect(JSON.stringify(view)).not.toContain('eeee');
    expect(JSON.stringify(view)).not.toContain('ffff');
  });

  it('shows the view as stored, with when it was set', () => {
    const view = { where: ['status=Active'], hideFields: ['barcode'], quantityCap: 5 };
    expect(describeKey(key({ view, viewUpdatedAt: NOW }))).toMatchObject({
      view,
      viewUpdatedAt: '2026-11-28T00:00:00.000Z',
    });
  });

  it('says until when a previous secret still works, only while it does', () => {
    const later = Date.now() + 60_000;
    expect(describeKey(key({ previousHashExpiresAt: later })).previousSecretValidUntil).toBe(
      new Date(later).toISOString(),
    );
    expect(describeKey(key({ previousHashExpiresAt: NOW })).previousSecretValidUntil).toBeNull();
  });

  it('writes the rate limit as MAX/DURATION', () => {
    expect(rateLimitText(key())).toBe('600/1m');
    expect(rateLimitText(key({ rateLimit: null }))).toBe('none');
  });
});
