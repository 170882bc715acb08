import { hash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { KeyType } from '../store/types.js';

/**
 * Key format (docs/architecture.md#keys): `sr_org_` or `sr_usr_`, 32 random base62 characters, then a
 * 6-character base62 CRC-32 of everything before it. The checksum lets us reject typos and
 * garbage without touching the database.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIXES: Record<KeyType, string> = { organization: 'sr_org_', user: 'sr_usr_' };
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^sr_(org|usr)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

export function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

export interface GeneratedKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateKey(type: KeyType): GeneratedKey {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(62)];
  const body = PREFIXES[type] + random;
  const key = body + checksum(body);
  return { key, prefix: displayPrefix(key), hash: hashKey(key) };
}

/** The part of a key that is safe to show: type prefix and the first 4 random characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, PREFIXES.organization.length + 4);
}

export function hashKey(key: string): string {
  // One-shot hashing (Node ≥ 20.12) is about twice as fast as a Hash object on every request.
  return hash('sha256', key);
}

/** Format and checksum only; says nothing about whether the key exists. */
export function isWellFormedKey(key: string): boolean {
  const match = KEY_PATTERN.exec(key);
  if (!match) return false;
  return checksum(key.slice(0, key.length - CHECKSUM_LENGTH)) === match[3];
}

const KEY_LIKE = /(sr_(?:org|usr)_[0-9A-Za-z]{4})[0-9A-Za-z]+/gi;

/**
 * Cuts anything shaped like a key down to its display prefix, for text that echoes what a
 * client sent (error messages quoting a parameter or a path): a key pasted into the wrong
 * place is never sent back, nor written anywhere else, whole.
 */
export function maskKeys(text: string): string {
  return text.includes('_') ? text.replace(KEY_LIKE, '$1…') : text;
}

const KEY_PREFIX = /sr_(?:org|usr)_/i;

/**
 * Whether text holds anything that starts like an API key (`sr_org_`, `sr_usr_`, any case):
 * such text is never kept where it would be logged or sent back (a request id).
 */
export function looksLikeKey(text: string): boolean {
  return KEY_PREFIX.test(text);
}
