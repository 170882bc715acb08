/**
 * The one stylesheet of the docs host, written by the build beside the pages (assets/docs.css)
 * and served from memory with an ETag like them.
 */
export const STYLESHEET = `:root {
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --subtle: #f6f8fa;
  --accent: #0b6bcb; --accent-fg: #ffffff; --code-bg: #f6f8fa;
  --note: #0b6bcb; --tip: #1a7f37; --warning: #9a6700;
  --tok-keyword: #cf222e; --tok-string: #0a3069; --tok-number: #0550ae; --tok-comment: #59636e;
  --tok-title: #8250df; --tok-attr: #953800;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #30363d; --subtle: #151b23;
    --accent: #4493f8; --accent-fg: #0d1117; --code-bg: #151b23;
    --note: #4493f8; --tip: #3fb950; --warning: #d29922;
    --tok-keyword: #ff7b72; --tok-string: #a5d6ff; --tok-number: #79c0ff; --tok-comment: #9198a1;
    --tok-title: #d2a8ff; --tok-attr: #ffa657;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; scroll-padding-top: 4.5rem; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.65 var(--sans); }
a { color: var(--accent); text-underline-offset: 0.15em; }
.skip { position: absolute; left: -999px; top: 0; padding: 0.5rem 1rem; background: var(--accent); color: var(--accent-fg); z-index: 10; }
.skip:focus { left: 0.5rem; top: 0.5rem; }

.topbar { position: sticky; top: 0; z-index: 5; display: flex; align-items: center; justify-content: space-between;
  gap: 1rem; padding: 0.75rem 1.5rem; background: var(--bg); border-bottom: 1px solid var(--border); }
.brand { font-weight: 700; font-size: 1.1rem; color: var(--fg); text-decoration: none; white-space: nowrap; }
.brand span { color: var(--muted); font-weight: 500; }
.lang { display: flex; gap: 0.25rem; }
.lang a, .lang span { padding: 0.2rem 0.6rem; border: 1px solid var(--border); border-radius: 999px; font-size: 0.875rem; text-decoration: none; }
.lang [aria-current] { background: var(--accent); border-color: var(--accent); color: var(--accent-fg); }

.layout { display: grid; grid-template-columns: 15rem minmax(0, 1fr) 13rem; gap: 2.5rem; max-width: 84rem; margin: 0 auto; padding: 0 1.5rem; }
.sidebar, .toc { position: sticky; top: 4.5rem; align-self: start; max-height: calc(100vh - 5rem); overflow-y: auto; padding: 1.5rem 0; }
.sidebar ul, .toc ul { list-style: none; margin: 0; padding: 0; }
.sidebar section + section { margin-top: 1rem; }
.sidebar h2 { margin: 0 0 0.25rem; padding: 0 0.75rem; border: 0; font-size: 0.75rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); }
.sidebar a { display: block; padding: 0.3rem 0.75rem; border-radius: 6px; color: var(--fg); text-decoration: none; font-size: 0.95rem; }
.sidebar a:hover { background: var(--subtle); }
.sidebar a[aria-current="page"] { background: var(--subtle); color: var(--accent); font-weight: 600; }
.toc p { margin: 0 0 0.5rem; font-size: 0.8rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); }
.toc a { display: block; padding: 0.15rem 0; color: var(--muted); text-decoration: none; font-size: 0.875rem; }
.toc a:hover { color: var(--accent); }

main { min-width: 0; padding: 1.5rem 0 4rem; }
article { max-width: 48rem; }
h1 { font-size: 2.1rem; line-height: 1.2; margin: 0.5rem 0 0.5rem; }
.lead { font-size: 1.15rem; color: var(--muted); margin-top: 0; }
h2 { font-size: 1.45rem; margin: 2.5rem 0 0.75rem; padding-bottom: 0.3rem; border-bottom: 1px solid var(--border); }
h3 { font-size: 1.15rem; margin: 1.75rem 0 0.5rem; }
/* Headings such as \`ORGANIZATION_NOT_FOUND\` or a long path must wrap on a narrow phone. */
h1, h2, h3 { overflow-wrap: anywhere; }
h2 code, h3 code { font-size: 0.9em; background: none; border: 0; padding: 0; }
h2 .anchor, h3 .anchor { margin-left: 0.4rem; color: var(--muted); text-decoration: none; opacity: 0; }
h2:hover .anchor, h3:hover .anchor, .anchor:focus { opacity: 1; }
code { font-family: var(--mono); font-size: 0.875em; background: var(--code-bg); border: 1px solid var(--border); border-radius: 4px; padding: 0.1em 0.3em; }
/* Long lines scroll inside the block, never past the page (nor cut off by a tab box). */
pre { background: var(--code-bg); border: 1px solid var(--border); border-radius: 8px; padding: 0.9rem 1rem; overflow-x: auto; max-width: 100%; line-height: 1.5; }
.code-block { position: relative; min-width: 0; }
.code-block pre { padding-right: 4.5rem; }
.copy { position: absolute; top: 0.45rem; right: 0.45rem; padding: 0.15rem 0.55rem; font: 0.75rem/1.5 var(--sans); color: var(--muted); background: var(--bg); border: 1px solid var(--border); border-radius: 6px; cursor: pointer; }
.copy:hover, .copy:focus-visible { color: var(--accent); border-color: var(--accent); }
pre code { background: none; border: 0; padding: 0; font-size: 0.85rem; }
/* A long path in running text (\`PATCH /admin/v1/organizations/{org}/keys/{keyId}\`) wraps on a phone. */
p code, li code { overflow-wrap: anywhere; }
blockquote { margin: 1rem 0; padding: 0.25rem 1rem; border-left: 4px solid var(--border); color: var(--muted); }
.table-wrap { overflow-x: auto; margin: 1rem 0; }
table { border-collapse: collapse; width: 100%; font-size: 0.925rem; }
th, td { border: 1px solid var(--border); padding: 0.4rem 0.65rem; text-align: left; vertical-align: top; }
th { background: var(--subtle); }
td code { white-space: nowrap; }
hr { border: 0; border-top: 1px solid var(--border); margin: 2rem 0; }
img { max-width: 100%; }

.callout { margin: 1.25rem 0; padding: 0.75rem 1rem; border: 1px solid var(--border); border-left: 4px solid var(--note); border-radius: 6px; background: var(--subtle); }
.callout > :last-child { margin-bottom: 0; }
.callout-title { margin: 0 0 0.25rem; font-weight: 700; color: var(--note); }
.callout-title + * { margin-top: 0; }
.callout-tip { border-left-color: var(--tip); } .callout-tip .callout-title { color: var(--tip); }
.callout-warning { border-left-color: var(--warning); } .callout-warning .callout-title { color: var(--warning); }

/* Tabs without script: a radio group; the checked input's label and panel are shown. */
.tabs { display: flex; flex-wrap: wrap; margin: 1rem 0; border: 1px solid var(--border); border-radius: 8px; overflow: hidden; }
.tab-input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.tab-label { order: 0; padding: 0.45rem 1rem; cursor: pointer; font-size: 0.9rem; color: var(--muted); border-bottom: 2px solid transparent; background: var(--subtle); }
.tab-panel { order: 1; display: none; width: 100%; min-width: 0; padding: 0 1rem; border-top: 1px solid var(--border); }
.tab-input:checked + .tab-label { color: var(--fg); font-weight: 600; border-bottom-color: var(--accent); background: var(--bg); }
.tab-input:focus-visible + .tab-label { outline: 2px solid var(--accent); outline-offset: -2px; }
.tab-input:checked + .tab-label + .tab-panel { display: block; }
.tab-panel pre { margin: 0.75rem 0; }

.pager { display: flex; gap: 1rem; justify-content: space-between; max-width: 48rem; margin-top: 3rem; }
.pager a { flex: 1 1 0; min-width: 0; padding: 0.6rem 0.9rem; border: 1px solid var(--border); border-radius: 8px; text-decoration: none; overflow-wrap: anywhere; }
.pager a:hover { border-color: var(--accent); }
.pager span { display: block; font-size: 0.8rem; color: var(--muted); }
.pager .next { text-align: right; margin-left: auto; }

.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.search { position: relative; flex: 0 1 18rem; min-width: 0; margin-left: auto; }
.search input { width: 100%; padding: 0.3rem 0.7rem; font: inherit; font-size: 0.9rem; color: var(--fg); background: var(--subtle); border: 1px solid var(--border); border-radius: 6px; }
.search input:focus { outline: 2px solid var(--accent); outline-offset: 0; }
.search p { margin: 0; }
.search p:not(:empty), .search ul:not(:empty) { position: absolute; top: calc(100% + 0.3rem); right: 0; width: min(28rem, calc(100vw - 2rem)); max-height: 70vh; overflow-y: auto; background: var(--bg); border: 1px solid var(--border); border-radius: 8px; box-shadow: 0 8px 24px rgb(0 0 0 / 0.2); }
.search p:not(:empty) { padding: 0.6rem 0.9rem; color: var(--muted); font-size: 0.9rem; }
.search ul { list-style: none; margin: 0; padding: 0; }
.search li a { display: block; padding: 0.5rem 0.9rem; text-decoration: none; color: var(--fg); border-bottom: 1px solid var(--border); }
.search li a:hover, .search li a:focus { background: var(--subtle); }
.search li strong { display: block; color: var(--accent); font-size: 0.9rem; overflow-wrap: anywhere; }
.search li span { display: block; color: var(--muted); font-size: 0.8rem; overflow-wrap: anywhere; }

.page-footer { max-width: 48rem; margin-top: 3rem; padding-top: 1rem; border-top: 1px solid var(--border); font-size: 0.875rem; color: var(--muted); }

.hljs-keyword, .hljs-built_in, .hljs-selector-tag, .hljs-literal { color: var(--tok-keyword); }
.hljs-string, .hljs-regexp, .hljs-template-variable { color: var(--tok-string); }
.hljs-number, .hljs-symbol, .hljs-variable, .hljs-subst { color: var(--tok-number); }
.hljs-comment, .hljs-quote, .hljs-meta { color: var(--tok-comment); font-style: italic; }
.hljs-title, .hljs-section, .hljs-function .hljs-title { color: var(--tok-title); }
.hljs-attr, .hljs-attribute, .hljs-params, .hljs-property, .hljs-type { color: var(--tok-attr); }

@media (max-width: 70rem) {
  .layout { grid-template-columns: 13rem minmax(0, 1fr); }
  .toc { display: none; }
}
@media (max-width: 48rem) {
  /* Two rows: the brand, then the search box beside the language switch. */
  html { scroll-padding-top: 6.5rem; }
  .topbar { padding: 0.5rem 1rem; flex-wrap: wrap; gap: 0.4rem 0.5rem; }
  .brand { flex: 1 0 100%; }
  .search { flex: 1 1 0; margin-left: 0; }
  .lang { margin-left: auto; }
  .search p:not(:empty), .search ul:not(:empty) { position: fixed; top: 5.5rem; left: 0.5rem; right: 0.5rem; width: auto; }
  .brand { font-size: 1rem; white-space: normal; line-height: 1.25; }
  .layout { display: block; padding: 0 1rem; }
  .sidebar { position: static; max-height: none; padding: 0.75rem 0; border-bottom: 1px solid var(--border); }
  /* One scrollable row of pills keeps the content near the top of a phone screen. */
  .sidebar section + section { margin-top: 0.5rem; }
  .sidebar h2 { padding: 0; }
  .sidebar ul { display: flex; gap: 0.35rem; overflow-x: auto; padding-bottom: 0.25rem; }
  .sidebar a { padding: 0.2rem 0.7rem; border: 1px solid var(--border); border-radius: 999px; font-size: 0.85rem; white-space: nowrap; }
  h1 { font-size: 1.7rem; }
  /* Section links only show on hover, which phones lack; hidden, they cannot wrap onto a line of their own. */
  h2 .anchor, h3 .anchor { display: none; }
}
`;
