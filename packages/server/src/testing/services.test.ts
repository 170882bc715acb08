import { describe, expect, it } from 'vitest';
import { announceSkip, servicesRequired } from './services.js';

/** The skip policy of the legs that need PostgreSQL or Redis: skipped locally, failed in CI. */
describe('announceSkip', () => {
  it('runs a leg whose services are there, in CI or not', () => {
    expect(announceSkip('a leg', null, {})).toBe(false);
    expect(announceSkip('a leg', null, { CI: 'true' })).toBe(false);
  });

  it('skips a leg without its service outside CI, and says why', () => {
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      expect(announceSkip('a leg', 'PostgreSQL is unreachable', {})).toBe(true);
      expect(announceSkip('a leg', 'PostgreSQL is unreachable', { CI: 'false' })).toBe(true);
    } finally {
      console.warn = warn;
    }
    expect(warnings).toEqual([
      '[skipped] a leg: PostgreSQL is unreachable',
      '[skipped] a leg: PostgreSQL is unreachable',
    ]);
  });

  it('fails a leg without its service under CI=true, naming the leg and the reason', () => {
    expect(servicesRequired({ CI: 'true' })).toBe(true);
    expect(servicesRequired({ CI: '1' })).toBe(true);
    expect(servicesRequired({})).toBe(false);
    expect(() =>
      announceSkip('db copy to PostgreSQL', 'connection refused', { CI: 'true' }),
    ).toThrow(
      /^db copy to PostgreSQL cannot run: connection refused \(CI=true: .* fail instead of being skipped\)$/,
    );
  });
});
