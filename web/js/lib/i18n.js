// Translations: every visible string comes from web/i18n/{lang}.json through
// t(). The language is the remembered choice, else the first of the browser's
// languages we speak, else English. Plurals use Intl.PluralRules (Russian has
// one/few/many, Korean only other) and numbers Intl.NumberFormat, so "7.5"
// reads "7,5" in Russian. Static markup carries data-i18n keys and is filled
// by translateTree(); a language switch re-translates in place and tells the
// listeners (pages re-render what they built from t()).

import { getPref, setPref } from './storage.js';

export const LANGUAGES = ['en', 'ru', 'ko'];
const FALLBACK = 'en';

let language = FALLBACK;
let dictionary = {};
let fallbackDictionary = {};
const listeners = new Set();
// The language's number format and plural rules, each made once per
// language and only when first needed: building an Intl object costs far
// more than using one (the first number format of a fresh page, some tens
// of milliseconds), and a game page formats dozens of numbers.
let intl = { lang: null, numbers: null, plurals: null };

function intlFor(lang) {
  if (intl.lang !== lang) intl = { lang, numbers: null, plurals: null };
  return intl;
}

function numberFormat() {
  const cache = intlFor(language);
  cache.numbers ??= new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  return cache.numbers;
}

// Makes the number format now: a page that will show numbers calls it at
// a moment it would otherwise be idle (game-early.js, while modules load),
// so the cost is not paid when it draws.
export function prepareNumbers() {
  numberFormat();
}

async function fetchDictionary(lang) {
  const response = await fetch(`/web/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`cannot load translations for ${lang}: HTTP ${response.status}`);
  return response.json();
}

export function chooseLanguage() {
  const remembered = getPref('lang', null);
  if (LANGUAGES.includes(remembered)) return remembered;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return FALLBACK;
}

async function load(lang) {
  const [main, fallback] = await Promise.all([
    fetchDictionary(lang),
    lang === FALLBACK || fallbackDictionary.site ? Promise.resolve(null) : fetchDictionary(FALLBACK),
  ]);
  if (fallback) fallbackDictionary = fallback;
  if (lang === FALLBACK) fallbackDictionary = main;
  dictionary = main;
  language = lang;
  document.documentElement.lang = lang;
}

let starting = null;

// Starts loading the words of the chosen language, once; initI18n() waits
// for the same load. A page may call it from a small first script, so the
// words arrive while its other modules still load (game-early.js).
export function startI18n() {
  starting ??= load(chooseLanguage());
  return starting;
}

export async function initI18n() {
  await startI18n();
  translateTree(document);
}

export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang) || lang === language) return;
  await load(lang);
  setPref('lang', lang);
  translateTree(document);
  for (const listener of listeners) listener(lang);
}

export function currentLanguage() {
  return language;
}

export function onLanguageChange(listener) {
  listeners.add(listener);
}

function lookup(table, key) {
  let node = table;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return undefined;
    node = node[part];
  }
  return node;
}

export function formatNumber(value) {
  return numberFormat().format(value);
}

function pluralForm(entry, count) {
  const cache = intlFor(language);
  cache.plurals ??= new Intl.PluralRules(language);
  const category = cache.plurals.select(count);
  return entry[category] ?? entry.other;
}

// t('log.capturedCount', {count: 3, color: 'Black'}) -> the string in the current
// language with {placeholders} filled; numbers are formatted for the language.
export function t(key, params = {}) {
  let entry = lookup(dictionary, key) ?? lookup(fallbackDictionary, key);
  if (entry === undefined) return key;
  if (typeof entry === 'object') entry = pluralForm(entry, Number(params.count ?? 0));
  return String(entry).replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === 'number' ? formatNumber(value) : String(value);
  });
}

// Fills [data-i18n] elements' text and [data-i18n-attr="attr:key;attr:key"]
// attributes under root.
export function translateTree(root) {
  for (const element of root.querySelectorAll('[data-i18n]')) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of element.dataset.i18nAttr.split(';')) {
      const [attribute, key] = pair.split(':').map((part) => part.trim());
      if (attribute && key) element.setAttribute(attribute, t(key));
    }
  }
  const titleKey = document.documentElement.dataset.titleKey;
  if (titleKey) document.title = t(titleKey);
}
