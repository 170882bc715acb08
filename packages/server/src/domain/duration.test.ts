import { describe, expect, it } from 'vitest';
import { formatDuration, isDuration, parseDuration, parseDurationMs } from './duration.js';
import { DomainError } from './errors.js';

describe('durations', () => {
  it('parses DURATION into seconds and formats it back', () => {
    expect(parseDuration('45s')).toBe(45);
    expect(parseDuration('90m')).toBe(5400);
    expect(parseDuration('12h')).toBe(43_200);
    expect(parseDuration('30d')).toBe(2_592_000);
    expect(formatDuration(60)).toBe('1m');
    expect(formatDuration(90)).toBe('90s');
    expect(formatDuration(86_400 * 2)).toBe('2d');
    for (const bad of ['0s', '10', '5x', '1.5h', '-1d', '01d', 'd', '5 d', '10S', '250ms']) {
      expect(() => parseDuration(bad), bad).toThrow(DomainError);
      expect(isDuration(bad), bad).toBe(false);
    }
  });

  it('says what a DURATION is, and refuses one too long to count', () => {
    expect(() => parseDuration('soon')).toThrow(
      new DomainError(
        'duration',
        'DURATION must be a positive integer followed by s, m, h or d, e.g. 90d',
      ),
    );
    expect(() => parseDuration(`${'9'.repeat(20)}d`)).toThrow('the duration is too long');
  });

  it('reads the durations of settings in milliseconds, with ms and zero', () => {
    expect(parseDurationMs('250ms')).toBe(250);
    expect(parseDurationMs('30s')).toBe(30_000);
    expect(parseDurationMs('2m')).toBe(120_000);
    expect(parseDurationMs('1h')).toBe(3_600_000);
    expect(parseDurationMs('1d')).toBe(86_400_000);
    expect(parseDurationMs('0s')).toBe(0);
    for (const bad of ['30', '-1s', '1.5s', 'soon', '', '5 s', '1w']) {
      expect(() => parseDurationMs(bad), bad).toThrow(DomainError);
    }
    expect(() => parseDurationMs(`${'9'.repeat(20)}ms`)).toThrow('the duration is too long');
  });
});
