// @ts-check
// Flat JSON catalogs per language, as the server serves them at /i18n/{en,fr,it}.json: the
// shell's (web/i18n/) with each registered game's own (web/js/<game>/i18n/) merged in.
// `t(key, params)` fills `{name}` placeholders; a key with `.one` / `.other` (…) variants is chosen by
// Intl.PluralRules on `params.count`. Every visible string goes through here.
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'fr', name: 'Français' },
  { code: 'it', name: 'Italiano' },
];

let lang = 'en';
/** @typedef {Record<string, string>} Catalog a language's messages by key */

/** @type {Catalog} */
let catalog = {};
/** @type {Catalog} */
let fallback = {};
let plural = new Intl.PluralRules('en');
/** @type {((code: string) => void)[]} */
const listeners = [];

/**
 * @param {string} code
 * @returns {Promise<Catalog>}
 */
async function fetchCatalog(code) {
  const res = await fetch(`/i18n/${code}.json`);
  if (!res.ok) throw new Error(`catalog ${code}: ${res.status}`);
  return res.json();
}

/** @returns {string} */
function preferred() {
  const saved = localStorage.getItem('pyr.lang');
  if (saved && LANGUAGES.some((l) => l.code === saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const code = l.slice(0, 2).toLowerCase();
    if (LANGUAGES.some((x) => x.code === code)) return code;
  }
  return 'en';
}

export async function initI18n() {
  fallback = await fetchCatalog('en');
  await setLanguage(preferred(), false);
}

/**
 * @param {string} code
 * @param {boolean} [notify] tell the listeners (the pages redraw in the new language)
 */
export async function setLanguage(code, notify = true) {
  catalog = code === 'en' ? fallback : await fetchCatalog(code);
  lang = code;
  plural = new Intl.PluralRules(code);
  localStorage.setItem('pyr.lang', code);
  document.documentElement.lang = code;
  if (notify) listeners.forEach((f) => f(code));
}

/** @returns {string} */
export function language() {
  return lang;
}

/** @param {(code: string) => void} f */
export function onLanguageChange(f) {
  listeners.push(f);
}

/**
 * @param {string} key
 * @returns {boolean}
 */
export function has(key) {
  return key in catalog || key in fallback;
}

/**
 * @param {string} key
 * @param {Record<string, any>} [params] `{name}` placeholders' values; a number `count` picks the plural form
 * @returns {string}
 */
export function t(key, params = {}) {
  let text;
  if (typeof params.count === 'number') {
    const form = `${key}.${plural.select(params.count)}`;
    text = catalog[form] ?? catalog[`${key}.other`] ?? fallback[form] ?? fallback[`${key}.other`];
  }
  text = text ?? catalog[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/**
 * Says again, in the current language, every label under `root` drawn with `data-i18n` (its
 * text) or `data-i18n-label` (its `aria-label`): for the parts a page keeps across its redraws
 * (the chat, the notes), which a change of language would otherwise leave in the old one.
 * @param {Element} root
 */
export function relabel(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n ?? '');
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(/** @type {HTMLElement} */ (el).dataset.i18nLabel ?? ''));
}
