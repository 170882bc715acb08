import { createHash } from 'node:crypto';

/**
 * The one script of the docs pages, written inline in every HTML page by the layout and allowed
 * by its hash in the Content-Security-Policy (app.ts): no other script, inline or loaded, can
 * run. Pages work without it; it adds what needs a script:
 *
 * - a copy button on every code block (`navigator.clipboard`);
 * - the search box: on first use it fetches `/{locale}/search-index.json` (built with the site,
 *   one entry per section of each page) and from then on searches in the page, with no further
 *   request. Every word of the query must occur in the section (the last one as a prefix);
 *   title and heading matches rank first. Accents and case are ignored.
 *
 * The words it shows come from data attributes the layout writes in the page's language.
 */
export const PAGE_SCRIPT = `(function () {
  'use strict';
  var root = document.documentElement;
  var data = document.body.dataset;
  root.classList.add('js');
  function norm(s) {
    return s.normalize('NFD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase();
  }
  document.querySelectorAll('article pre').forEach(function (pre) {
    var wrap = document.createElement('div');
    wrap.className = 'code-block';
    pre.parentNode.insertBefore(wrap, pre);
    wrap.appendChild(pre);
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = data.copy;
    button.addEventListener('click', function () {
      var text = pre.textContent.replace(/\\n$/, '');
      var done = function (label) {
        button.textContent = label;
        setTimeout(function () { button.textContent = data.copy; }, 2000);
      };
      if (!navigator.clipboard) return done(data.copyFailed);
      navigator.clipboard.writeText(text).then(
        function () { done(data.copied); },
        function () { done(data.copyFailed); }
      );
    });
    wrap.appendChild(button);
  });
  var box = document.getElementById('search');
  if (!box) return;
  var input = box.querySelector('input');
  var list = box.querySelector('ul');
  var status = box.querySelector('[role="status"]');
  var index = null;
  var loading = null;
  box.hidden = false;
  function load() {
    if (!loading) {
      loading = fetch(box.dataset.index, { headers: { accept: 'application/json' } })
        .then(function (r) { return r.json(); })
        .then(function (entries) {
          index = entries.map(function (e) {
            return { e: e, t: norm(e.t), h: norm(e.h), x: norm(e.x) };
          });
        });
    }
    return loading;
  }
  function count(text, term, prefix) {
    var n = 0;
    var at = text.indexOf(term);
    while (at !== -1 && n < 20) {
      var before = at === 0 ? ' ' : text.charAt(at - 1);
      var after = text.charAt(at + term.length) || ' ';
      if (!/[a-z0-9]/.test(before) && (prefix || !/[a-z0-9]/.test(after))) n++;
      at = text.indexOf(term, at + 1);
    }
    return n;
  }
  function search(query) {
    var terms = norm(query).split(/[^a-z0-9_]+/).filter(Boolean);
    if (!terms.length) return [];
    var found = [];
    index.forEach(function (item) {
      var score = 0;
      for (var i = 0; i < terms.length; i++) {
        var prefix = i === terms.length - 1;
        var t = count(item.t, terms[i], prefix);
        var h = count(item.h, terms[i], prefix);
        var x = count(item.x, terms[i], prefix);
        if (!t && !h && !x) return;
        score += t * 10 + h * 5 + Math.min(x, 10);
      }
      found.push({ item: item, score: score, term: terms[0] });
    });
    found.sort(function (a, b) { return b.score - a.score; });
    return found.slice(0, 10);
  }
  function snippet(entry, term) {
    var text = entry.e.x;
    var at = entry.x.indexOf(term);
    if (at < 0) return text.slice(0, 120);
    var start = Math.max(0, at - 50);
    return (start > 0 ? '…' : '') + text.slice(start, start + 140) + '…';
  }
  function show() {
    var query = input.value.trim();
    list.textContent = '';
    if (!query) { status.textContent = ''; return; }
    var results = search(query);
    status.textContent = results.length ? '' : data.noResults;
    results.forEach(function (result) {
      var e = result.item.e;
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = e.u;
      var title = document.createElement('strong');
      title.textContent = e.h ? e.t + ' › ' + e.h : e.t;
      var text = document.createElement('span');
      text.textContent = snippet(result.item, result.term);
      a.appendChild(title);
      a.appendChild(text);
      li.appendChild(a);
      list.appendChild(li);
    });
  }
  input.addEventListener('focus', load);
  input.addEventListener('input', function () { load().then(show); });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'Enter') {
      var first = list.querySelector('a');
      if (first) first.click();
    } else if (event.key === 'Escape') {
      input.value = '';
      show();
    }
  });
})();
`;

/** The script's CSP source: its SHA-256, base64 (CSP Level 2 hash source). */
export const PAGE_SCRIPT_HASH = `'sha256-${createHash('sha256').update(PAGE_SCRIPT, 'utf8').digest('base64')}'`;

/** Where the search index of a locale is served; built with the site (build/site.ts). */
export function searchIndexPath(locale: string): string {
  return `/${locale}/search-index.json`;
}
