import { isId } from '../ids.js';
import { DomainError } from './errors.js';

/** An organization's slug: lowercase letters, digits and single dashes, at most 63 long. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG = 63;

/**
 * Why `slug` is not a valid slug, or null. Slugs share the ORG argument with ids, so a slug
 * that looks like an id (24 hex characters) is refused: a lookup must never have to guess
 * which one was meant.
 */
export function slugProblem(slug: string): string | null {
  if (!SLUG.test(slug) || slug.length > MAX_SLUG) {
    return `slug must be 1-${MAX_SLUG} lowercase letters, digits and single dashes (e.g. acme-outdoor), got ${JSON.stringify(slug)}`;
  }
  if (isId(slug)) return 'slug must not look like an id (24 hex characters)';
  return null;
}

export function parseSlug(raw: string): string {
  const problem = slugProblem(raw);
  if (problem) throw new DomainError('slug', problem);
  return raw;
}

/** Lowercase ASCII with dashes: "Café Déjà Vu!" → "cafe-deja-vu". */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
}
