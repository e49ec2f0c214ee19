// The episode list's search syntax (docs/console-search.md): `qualifier:value` terms and at most
// one free-text term, separated by spaces, values with spaces in double quotes. Parsing it is the
// console's concern; what it produces is the filter core's episode list takes. Pure (no server
// imports), so the browser can show the same message the server answers with.
import { EPISODE_STATUSES, TRIGGER_TYPES } from "@cyclium/core/console/browser";
import { z } from "zod";

/** The filter fields a search can set (those of core's EpisodeListFilters, env aside). */
export interface TEpisodeSearch {
  actorId?: string;
  expectationId?: string;
  status?: (typeof EPISODE_STATUSES)[number];
  triggerType?: (typeof TRIGGER_TYPES)[number];
  stack?: string;
  dedupeKey?: string;
  /** `signal:<name>`: waiting for that signal now (durable waits). */
  signal?: string;
  /** Hex digits of the id's start, dashes left out, lower case. */
  idPrefix?: string;
  /** `env:` given: the env to look in (`default`: the unset env, null). */
  env?: string | null;
  input: { path: string[]; value: string }[];
}

export type TEpisodeSearchParse =
  { kind: "parsed"; search: TEpisodeSearch } | { kind: "invalid"; message: string };

/** A query longer than this is not typed by a person. */
export const MAX_SEARCH_LENGTH = 1_000;
const MAX_INPUT_TERMS = 8;

const ZName = z.string().min(1).max(255);
const ZIdPrefix = z
  .string()
  .transform((value) => value.replaceAll("-", "").toLowerCase())
  .pipe(z.string().regex(/^[0-9a-f]{1,32}$/, "an id is hex digits (dashes allowed), at most 32"));
const ZInputPath = z
  .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "path segments are letters, digits, _ or -"))
  .min(1, "say which field: input.<field>:value")
  .max(8, "at most 8 levels");

/** Each qualifier with its value's schema and the field it sets. */
const QUALIFIERS = {
  actor: { field: "actorId", schema: ZName },
  expectation: { field: "expectationId", schema: ZName },
  status: { field: "status", schema: z.enum(EPISODE_STATUSES) },
  trigger: { field: "triggerType", schema: z.enum(TRIGGER_TYPES) },
  stack: { field: "stack", schema: ZName },
  key: { field: "dedupeKey", schema: z.string().min(1).max(512) },
  signal: { field: "signal", schema: ZName },
  id: { field: "idPrefix", schema: ZIdPrefix },
  env: { field: "env", schema: ZName.transform((env) => (env === "default" ? null : env)) },
} as const;
type TQualifier = keyof typeof QUALIFIERS;
export const SEARCH_QUALIFIERS = [...Object.keys(QUALIFIERS), "input.<path>"] as const;

const isQualifier = (name: string): name is TQualifier => Object.hasOwn(QUALIFIERS, name);

/** Free text this long and all hex (dashes allowed) is an id prefix; anything else a dedupe key. */
const ID_LIKE = /^[0-9a-f-]+$/i;
const MIN_ID_DIGITS = 4;

interface TTerm {
  /** Null for free text. */
  qualifier: string | null;
  value: string;
}

/** Splits on spaces outside double quotes; `\"` and `\\` escape inside them. */
function tokenize(query: string): TTerm[] | string {
  const terms: TTerm[] = [];
  let i = 0;
  while (i < query.length) {
    if (/\s/.test(query[i] ?? "")) {
      i += 1;
      continue;
    }
    let qualifier: string | null = null;
    const bare = /^([A-Za-z][A-Za-z0-9_.-]*):/.exec(query.slice(i));
    if (bare?.[1] !== undefined) {
      qualifier = bare[1];
      i += bare[0].length;
    }
    let value = "";
    if (query[i] === '"') {
      i += 1;
      let closed = false;
      while (i < query.length) {
        const char = query[i] ?? "";
        if (char === "\\" && i + 1 < query.length) {
          value += query[i + 1];
          i += 2;
        } else if (char === '"') {
          closed = true;
          i += 1;
          break;
        } else {
          value += char;
          i += 1;
        }
      }
      if (!closed) return "A quote is not closed.";
    } else {
      while (i < query.length && !/\s/.test(query[i] ?? "")) value += query[i++];
    }
    terms.push({ qualifier, value });
  }
  return terms;
}

const known = `Known: ${SEARCH_QUALIFIERS.map((q) => `${q}:`).join(" ")}`;

/**
 * Parses a search into filter fields. Expected failures (an unknown qualifier, a bad value, a
 * qualifier twice) are `invalid` with a message for the person who typed it.
 */
export function parseEpisodeSearch(query: string): TEpisodeSearchParse {
  const invalid = (message: string): TEpisodeSearchParse => ({ kind: "invalid", message });
  if (query.length > MAX_SEARCH_LENGTH) {
    return invalid(`A search is at most ${MAX_SEARCH_LENGTH} characters.`);
  }
  const terms = tokenize(query);
  if (typeof terms === "string") return invalid(terms);
  const search: TEpisodeSearch = { input: [] };
  const seen = new Set<string>();
  let freeText: string | null = null;
  for (const { qualifier, value } of terms) {
    if (qualifier === null) {
      if (freeText !== null) {
        return invalid(
          `Free text is one term (an id or a dedupe key); "${freeText}" and "${value}" are two. ` +
            `Quote a value with spaces, or use qualifiers. ${known}`,
        );
      }
      if (value === "") return invalid('Empty quotes ("") search nothing.');
      freeText = value;
      continue;
    }
    if (value === "") return invalid(`${qualifier}: needs a value, e.g. ${qualifier}:"…".`);
    if (qualifier.startsWith("input.") || qualifier === "input") {
      const path = ZInputPath.safeParse(qualifier.split(".").slice(1));
      if (!path.success) return invalid(`${qualifier}: ${path.error.issues[0]?.message ?? ""}.`);
      if (value.length > 500) return invalid(`${qualifier}: a value is at most 500 characters.`);
      if (search.input.length >= MAX_INPUT_TERMS) {
        return invalid(`At most ${MAX_INPUT_TERMS} input.<path>: terms.`);
      }
      search.input.push({ path: path.data, value });
      continue;
    }
    if (!isQualifier(qualifier)) {
      return invalid(
        `Unknown qualifier ${qualifier}:. ${known} (a dedupe key with ":" goes in quotes: "a:b").`,
      );
    }
    if (seen.has(qualifier)) return invalid(`${qualifier}: is given twice.`);
    seen.add(qualifier);
    const spec = QUALIFIERS[qualifier];
    const parsed = spec.schema.safeParse(value);
    if (!parsed.success) {
      const options =
        qualifier === "status"
          ? ` (one of ${EPISODE_STATUSES.join(", ")})`
          : qualifier === "trigger"
            ? ` (one of ${TRIGGER_TYPES.join(", ")})`
            : "";
      return invalid(`${qualifier}:${value} is not valid${options}.`);
    }
    Object.assign(search, { [spec.field]: parsed.data });
  }
  if (freeText !== null) {
    const digits = freeText.replaceAll("-", "");
    const idLike = ID_LIKE.test(freeText) && digits.length >= MIN_ID_DIGITS && digits.length <= 32;
    const field = idLike ? "id" : "key";
    if (seen.has(field)) {
      return invalid(
        `"${freeText}" searches the ${field === "id" ? "id" : "dedupe key"}, and ${field}: is given too.`,
      );
    }
    if (idLike) search.idPrefix = digits.toLowerCase();
    else if (freeText.length > 512) return invalid("A dedupe key is at most 512 characters.");
    else search.dedupeKey = freeText;
  }
  return { kind: "parsed", search };
}
