import { InvalidArgumentError } from 'commander';
import { DomainError } from '../domain/errors.js';
import * as keyLimits from '../domain/key-limits.js';
import * as rateLimit from '../domain/rate-limit-spec.js';
import * as sku from '../domain/sku.js';
import * as slug from '../domain/slug.js';
import * as text from '../domain/text.js';
import * as view from '../domain/view.js';
import { isId } from '../ids.js';
import { isWellFormedKey } from '../keys/format.js';

/**
 * Parsers for option values, used as commander argParsers: a bad value throws
 * InvalidArgumentError, which commander reports as a usage error (exit 2) naming the option.
 * The rules shared with the admin API and the importer live in ../domain/; here they are only
 * adapted, with the option shapes only the CLI has (ports, lists of names, …).
 */

function fail(message: string): never {
  throw new InvalidArgumentError(message);
}

/** A domain rule as an argParser: its DomainError becomes commander's InvalidArgumentError. */
export function optionParser<A extends unknown[], T>(parse: (...args: A) => T): (...args: A) => T {
  return (...args) => {
    try {
      return parse(...args);
    } catch (error) {
      if (error instanceof DomainError) fail(error.message);
      throw error;
    }
  };
}

export const parseExpiresIn = optionParser(keyLimits.parseExpiresIn);
export const parseFutureDate = optionParser(keyLimits.parseFutureDate);
export const parseGrace = optionParser(keyLimits.parseGrace);
export const parseQuota = optionParser(keyLimits.parseQuota);
export const parseRateLimit = optionParser(rateLimit.parseRateLimit);
export const parseSlug = optionParser(slug.parseSlug);
export const parseSku = optionParser(sku.parseSku);

/**
 * A repeatable part of a key view (`--where`, `--hide-fields`): every value given, parsed and
 * canonical, and whether `none` (no filter, nothing hidden) was given, which `key update` uses
 * to drop that part and which the command refuses next to other values.
 */
export interface ViewPart {
  values: string[];
  none: boolean;
}

function viewPartCollector(
  parse: (raw: string) => string[],
): (raw: string, previous: ViewPart | undefined) => ViewPart {
  const checked = optionParser(parse);
  return (raw, previous = { values: [], none: false }) =>
    raw.trim() === 'none'
      ? { ...previous, none: true }
      : { values: [...previous.values, ...checked(raw)], none: previous.none };
}

/** `--where EXPR` (repeatable): one filter each, canonical. */
export const collectWhere = viewPartCollector((raw) => [view.parseWhere(raw)]);
/** `--hide-fields LIST` (repeatable, comma-separated). */
export const collectHideFields = viewPartCollector(view.parseHideFields);

/** `--quantity-cap N`, or `none` for no cap (not null: commander turns null into ''). */
export function parseQuantityCap(raw: string): number | 'none' {
  return raw.trim() === 'none' ? 'none' : optionParser(view.parseQuantityCap)(raw);
}

/** Trimmed text of 1..max characters (names of organizations, users, keys). */
export function textParser(max: number): (raw: string) => string {
  return optionParser(text.textParser(max));
}

/** A comma-separated list of known names, or `none` for the empty list. */
export function listParser(allowed: readonly string[], what: string): (raw: string) => string[] {
  return (raw) => {
    if (raw === 'none') return [];
    const names = raw.split(',').map((name) => name.trim());
    for (const name of names) {
      if (!allowed.includes(name)) {
        fail(
          `unknown ${what} ${JSON.stringify(name)}; known: ${allowed.join(', ')} (or "none" for no ${what}s)`,
        );
      }
    }
    return [...new Set(names)];
  };
}

/** One known name (e.g. a feature to enable); repeated flags accumulate. */
export function nameCollector(
  allowed: readonly string[],
  what: string,
): (raw: string, previous: string[] | undefined) => string[] {
  return (raw, previous = []) => {
    if (!allowed.includes(raw)) {
      fail(`unknown ${what} ${JSON.stringify(raw)}; known: ${allowed.join(', ')}`);
    }
    return [...previous, raw];
  };
}

export function parseEmail(raw: string): string {
  const value = raw.trim();
  if (value.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
    fail('must be an email address such as ana@example.com');
  }
  return value;
}

export function parseId(raw: string): string {
  if (!isId(raw)) fail('must be an id: 24 lowercase hex characters');
  return raw;
}

/** KEY: a key id, a key's display prefix (sr_org_AbC1) or the key itself (lookup.ts). */
export function parseKeyRef(raw: string): string {
  if (!isId(raw) && !/^sr_(?:org|usr)_[0-9A-Za-z]{4}$/.test(raw) && !isWellFormedKey(raw)) {
    fail(
      'must be a key id (24 lowercase hex characters) or a key prefix such as sr_org_AbC1, as `key list` shows them',
    );
  }
  return raw;
}

export function parsePort(raw: string): string {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) fail('must be a port number from 0 to 65535');
  return raw;
}

export function parseWorkers(raw: string): string {
  if (raw !== 'auto' && (!/^[1-9]\d*$/.test(raw) || Number(raw) > 256)) {
    fail('must be a number of processes from 1 to 256, or "auto"');
  }
  return raw;
}
