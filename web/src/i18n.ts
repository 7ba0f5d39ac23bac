// The app's own words in the reader's language. A sentence is looked up by its English text, with
// {name} placeholders; a catalog entry is the translation, or for a sentence that counts, one
// translation per plural category ({"one": …, "other": …}) chosen by the number in {n}. The
// language is the first of the browser's languages the app speaks; the API's own sentences follow
// the same browser setting through Accept-Language, which the browser sends with every call.
import childDe from "./locales/child/de.json";
import childEn from "./locales/child/en.json";
import childEs from "./locales/child/es.json";
import childFr from "./locales/child/fr.json";
import childPtBR from "./locales/child/pt-BR.json";
import teacherDe from "./locales/teacher/de.json";
import teacherEn from "./locales/teacher/en.json";
import teacherEs from "./locales/teacher/es.json";
import teacherFr from "./locales/teacher/fr.json";
import teacherPtBR from "./locales/teacher/pt-BR.json";

type Entry = string | Partial<Record<Intl.LDMLPluralRule, string>>;
type Catalog = Record<string, Entry>;

const catalogs: Record<string, Catalog> = {
  en: { ...childEn, ...teacherEn },
  es: { ...childEs, ...teacherEs },
  fr: { ...childFr, ...teacherFr },
  de: { ...childDe, ...teacherDe },
  "pt-BR": { ...childPtBR, ...teacherPtBR },
};

/** pick is the first of the wanted languages (BCP 47 tags, best first) that the app speaks. */
export function pick(wanted: readonly string[]): string {
  for (const tag of wanted) {
    const lower = tag.toLowerCase();
    for (const have of Object.keys(catalogs)) {
      if (have.toLowerCase() === lower) return have;
    }
    const base = lower.split("-")[0];
    for (const have of Object.keys(catalogs)) {
      if (have.toLowerCase().split("-")[0] === base) return have;
    }
  }
  return "en";
}

/** lang is the language the app speaks to this reader. */
export const lang = pick(navigator.languages?.length ? navigator.languages : [navigator.language ?? "en"]);
const catalog = catalogs[lang] ?? {};
const plurals = new Intl.PluralRules(lang);

export type Args = Record<string, string | number>;

/** t is the sentence in the reader's language, its placeholders filled from args. */
export function t(english: string, args: Args = {}): string {
  const entry = catalog[english] ?? catalogs.en?.[english] ?? english;
  let text: string;
  if (typeof entry === "string") {
    text = entry;
  } else {
    const n = typeof args.n === "number" ? args.n : Number(args.n ?? 0);
    text = entry[plurals.select(n)] ?? entry.other ?? english;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = args[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? value.toLocaleString(lang) : value;
  });
}

const conjunction = new Intl.ListFormat(lang, { type: "conjunction" });

/** and joins names as the reader's language does: "Ada and Bo", "Ada, Bo y Cy". */
export function and(names: readonly string[]): string {
  return conjunction.format(names);
}
