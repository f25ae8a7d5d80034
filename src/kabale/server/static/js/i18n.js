// Every string a player reads comes from one message table per language (en, da, nb), keyed
// by name. The language is the player's choice if made, else the browser's first language
// that kabale speaks (Norwegian Nynorsk and plain "no" read Bokmål), else English.

// Only the language in use is loaded (with its rule pages): a page in Danish never fetches
// the English and Norwegian tables. loadLanguage() before setLanguage().

/** The tables loaded so far, by language. */
export const TABLES = {};
export const LANGUAGES = ["da", "nb", "en"];
/** Each language's name in itself, for choosing one before its table is loaded. */
const NAMES = { da: "Dansk", nb: "Norsk bokmål", en: "English" };
let current = "en";

/** Fetch the table of `lang` (once); resolves when t() can speak it. */
export async function loadLanguage(lang) {
  if (!TABLES[lang]) TABLES[lang] = (await import(`./messages/${lang}.js`)).default;
  return TABLES[lang];
}

/** The language to use: `choice` if it is one of ours, else the browser's, else "en". */
export function pickLanguage(choice, browser = navigator.languages || [navigator.language]) {
  if (LANGUAGES.includes(choice)) return choice;
  for (const tag of browser) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (code === "da") return "da";
    if (code === "nb" || code === "no" || code === "nn") return "nb";
    if (code === "en") return "en";
  }
  return "en";
}

export function language() { return current; }

/** A language's name in that language ("Dansk", "Norsk bokmål", "English"). */
export function languageName(lang) { return NAMES[lang]; }

/** Switch the page's language (its lang attribute and every data-i18n text); its table must
 *  have been loaded (loadLanguage). */
export function setLanguage(lang, root = document) {
  current = TABLES[lang] ? lang : "en";
  document.documentElement.lang = current;
  localize(root);
}

function lookup(key, n) {
  const table = TABLES[current];
  if (n !== undefined) {
    const form = `${key}.${n === 1 ? "one" : "other"}`;
    if (form in table) return table[form];
  }
  return key in table ? table[key] : null;
}

/** The message `key` with {name} placeholders filled from `vars` ({n} also picks a plural). */
export function t(key, vars = {}) {
  const text = lookup(key, vars.n);
  if (text === null) throw new Error(`no message ${key} in ${current}`);
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/** A list of text blocks (the rules pages), as the table holds them. */
export function blocks(key) {
  const value = lookup(key);
  if (!Array.isArray(value)) throw new Error(`no text blocks ${key} in ${current}`);
  return value;
}

/** True when the table has `key` (for optional labels such as unknown options). */
export function has(key) { return lookup(key) !== null; }

/** First letter upper case (sentences that start with a card or pile name). */
export function cap(text) { return text ? text[0].toLocaleUpperCase(current) + text.slice(1) : text; }

/** Fill the static page: data-i18n (text), data-i18n-title, -label (aria-label), -placeholder. */
export function localize(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
}

/** A whole number in the page's language. */
export function number(value) { return new Intl.NumberFormat(current).format(value); }

/** Vegas points as money (one point, one dollar), in the page's language. */
export function money(value) {
  return new Intl.NumberFormat(current, { style: "currency", currency: "USD",
    currencyDisplay: "narrowSymbol", maximumFractionDigits: 0 }).format(value);
}

/** A share 0..1 as a whole percentage in the page's language ("64 %" in Danish). */
export function percent(share) {
  return new Intl.NumberFormat(current, { style: "percent", maximumFractionDigits: 0 }).format(share);
}

/** An ordinal number in the page's language: "2nd" in English, "2." in Danish. */
export function ordinal(n) {
  const form = new Intl.PluralRules(current, { type: "ordinal" }).select(n);
  return t(`ordinal.${form in { one: 1, two: 1, few: 1 } ? form : "other"}`, { n: number(n) });
}
