import { describe, expect, test } from 'vitest';
import { SITE_FILES } from '../built-site.js';
import { type Locale, STRINGS } from '../i18n.js';
import { REPO_DOCS_DIR } from '../testing.js';
import { apiDocument } from './api-document.js';
import { loadPages } from './content.js';
import { OpenApiView } from './openapi.js';
import { OPENAPI_TEXTS } from './openapi-texts.js';
import { renderPages } from './site.js';

/**
 * The API writes its OpenAPI document in English; the Spanish reference page renders every
 * summary and description of it from the table in openapi-texts.ts. A text the API adds or
 * rewords without a Spanish rendering fails here, naming it.
 */

const doc = await apiDocument();

/** Every text of the document the reference renders (both renderings: HTML and Markdown). */
function textsRendered(): Set<string> {
  const used = new Set<string>();
  for (const repeatNamedBodies of [true, false]) {
    new OpenApiView(doc, {
      strings: STRINGS.es,
      apiUrl: 'http://127.0.0.1:3000',
      repeatNamedBodies,
      translate: (english) => {
        used.add(english);
        return english;
      },
    }).render();
  }
  return used;
}

describe('the Spanish texts of the OpenAPI document', () => {
  const used = textsRendered();
  const spanish = OPENAPI_TEXTS.es;

  test('every summary and description the reference renders has one', () => {
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter((english) => !Object.hasOwn(spanish, english));
    expect(missing, 'add their Spanish to OPENAPI_TEXTS in build/openapi-texts.ts').toEqual([]);
  });

  test('every one is used, translated and keeps the code spans of the English', () => {
    const stale = Object.keys(spanish).filter((english) => !used.has(english));
    expect(stale, 'texts the API no longer gives: remove them from build/openapi-texts.ts').toEqual(
      [],
    );
    const codeSpans = (text: string) => (text.match(/`[^`]*`/g) ?? []).length;
    for (const [english, translated] of Object.entries(spanish)) {
      expect(translated.trim(), english).not.toBe('');
      // The same number of `code` spans: names of parameters and fields are not translated away.
      expect(codeSpans(translated), english).toBe(codeSpans(english));
    }
  });

  test('the Spanish reference page holds none of the English texts, the English one all of them', async () => {
    // Only the reference and the errors page its codes link to are rendered.
    const all = await loadPages(REPO_DOCS_DIR);
    const only = (locale: Locale) =>
      new Map([...all[locale]].filter(([slug]) => slug === 'api-reference' || slug === 'errors'));
    const site = renderPages({ en: only('en'), es: only('es') }, doc);
    const page = (locale: 'en' | 'es', format: 'markdown' | 'html') =>
      site.files.get(SITE_FILES.page(locale, 'api-reference', format))?.body ?? '';
    const es = page('es', 'markdown');
    expect(es).toContain('**Listar artículos de inventario**');
    // Texts as the Markdown writes them: long enough not to be a word of some other sentence.
    const plain = (text: string) => text.replace(/[`\\]/g, '');
    const strip = (markdown: string) => plain(markdown.replace(/\\([_%\\*])/g, '$1'));
    for (const english of used) {
      if (english === spanish[english] || english.length < 16) continue;
      expect(strip(es).includes(plain(english)), english).toBe(false);
      expect(strip(page('en', 'markdown')).includes(plain(english)), english).toBe(true);
    }
    expect(page('es', 'html')).toContain('Listar artículos de inventario');
    expect(page('es', 'html')).not.toContain('List inventory items');
  });
});
