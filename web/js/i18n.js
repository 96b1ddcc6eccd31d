// @ts-check
// Flat JSON catalogs per language (web/i18n/{en,fr,it}.json). `t(key, params)` fills
// `{name}` placeholders; a key with `.one` / `.other` (…) variants is chosen by
// Intl.PluralRules on `params.count`. Every visible string goes through here.
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'fr', name: 'Français' },
  { code: 'it', name: 'Italiano' },
];

let lang = 'en';
let catalog = {};
let fallback = {};
let plural = new Intl.PluralRules('en');
const listeners = [];

async function fetchCatalog(code) {
  const res = await fetch(`/i18n/${code}.json`);
  if (!res.ok) throw new Error(`catalog ${code}: ${res.status}`);
  return res.json();
}

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

export async function setLanguage(code, notify = true) {
  catalog = code === 'en' ? fallback : await fetchCatalog(code);
  lang = code;
  plural = new Intl.PluralRules(code);
  localStorage.setItem('pyr.lang', code);
  document.documentElement.lang = code;
  if (notify) listeners.forEach((f) => f(code));
}

export function language() {
  return lang;
}

export function onLanguageChange(f) {
  listeners.push(f);
}

export function has(key) {
  return key in catalog || key in fallback;
}

export function t(key, params = {}) {
  let text;
  if (typeof params.count === 'number') {
    const form = `${key}.${plural.select(params.count)}`;
    text = catalog[form] ?? catalog[`${key}.other`] ?? fallback[form] ?? fallback[`${key}.other`];
  }
  text = text ?? catalog[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}
