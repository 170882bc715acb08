import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { parseSlug, slugify, slugProblem } from './slug.js';

describe('slugs', () => {
  it('derives and checks slugs', () => {
    expect(slugify('Acme Outdoor Café')).toBe('acme-outdoor-cafe');
    expect(slugify('  --Déjà   Vu!! 2026 ')).toBe('deja-vu-2026');
    expect(slugify('東京')).toBe('');
    expect(slugify('x'.repeat(70))).toHaveLength(63);
    expect(slugProblem('acme-outdoor')).toBeNull();
    expect(slugProblem('Acme')).not.toBeNull();
    expect(slugProblem('acme--outdoor')).not.toBeNull();
    expect(slugProblem('-acme')).not.toBeNull();
    expect(slugProblem('0123456789abcdef01234567')).toMatch(/must not look like an id/);
  });

  it('parses a slug, or throws the problem as a DomainError of the field slug', () => {
    expect(parseSlug('acme')).toBe('acme');
    expect(() => parseSlug('Acme')).toThrow(
      new DomainError(
        'slug',
        'slug must be 1-63 lowercase letters, digits and single dashes (e.g. acme-outdoor), got "Acme"',
      ),
    );
  });
});
