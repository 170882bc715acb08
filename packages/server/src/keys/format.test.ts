import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checksum, displayPrefix, generateKey, hashKey, isWellFormedKey } from './format.js';

describe('key format', () => {
  it('generates organization and user keys of the documented shape', () => {
    const org = generateKey('organization');
    const user = generateKey('user');
    expect(org.key).toMatch(/^sr_org_[0-9A-Za-z]{38}$/);
    expect(user.key).toMatch(/^sr_usr_[0-9A-Za-z]{38}$/);
    expect(org.prefix).toBe(org.key.slice(0, 11));
    expect(org.hash).toBe(createHash('sha256').update(org.key).digest('hex'));
  });

  it('uses CRC-32 of the body in base62, left-padded to 6 characters', () => {
    const body = `sr_org_${'a'.repeat(32)}`;
    const value = crc32(body);
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    let decoded = 0;
    for (const ch of checksum(body)) decoded = decoded * 62 + alphabet.indexOf(ch);
    expect(decoded).toBe(value);
    expect(checksum(body)).toHaveLength(6);
    expect(checksum('')).toBe('000000'); // crc32('') is 0
  });

  it('accepts generated keys and rejects a changed character or checksum', () => {
    const { key } = generateKey('organization');
    expect(isWellFormedKey(key)).toBe(true);
    const flipped = key.slice(0, 10) + (key[10] === 'A' ? 'B' : 'A') + key.slice(11);
    expect(isWellFormedKey(flipped)).toBe(false);
    expect(isWellFormedKey(`${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`)).toBe(false);
    expect(isWellFormedKey(key.replace('sr_org_', 'sr_xyz_'))).toBe(false);
    expect(isWellFormedKey(`${key}x`)).toBe(false);
    expect(isWellFormedKey('')).toBe(false);
  });

  it('derives the display prefix and hash from the key alone', () => {
    const { key, prefix, hash } = generateKey('user');
    expect(displayPrefix(key)).toBe(prefix);
    expect(hashKey(key)).toBe(hash);
  });
});
