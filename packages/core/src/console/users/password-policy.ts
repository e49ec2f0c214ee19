import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { z } from "zod";

/**
 * One password rule for the console's user form and `cyclium user create` (issue 29: the CLI took
 * `password1234` for an admin and twelve spaces). NIST SP 800-63B asks for length over
 * composition and for a check against commonly used and compromised values: 12 characters at
 * least, and a zxcvbn-ts strength score of at least 3 of 4 with the account's own email and name
 * counted as guessable. zxcvbn-ts's common dictionaries (1.9 MB) catch `password1234` and
 * keyboard rows; its English messages (5.4 MB) are left out, hence the short texts below.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;
export const MIN_PASSWORD_SCORE = 3;

let factory: ZxcvbnFactory | undefined;

// zxcvbn-ts's warning keys (its Feedback), as one line each.
const WARNINGS: Readonly<Record<string, string>> = {
  straightRow: "it is a row of keys",
  keyPattern: "it is a keyboard pattern",
  simpleRepeat: "it repeats characters",
  extendedRepeat: "it repeats a pattern",
  sequences: "it is a common sequence",
  recentYears: "it contains a recent year",
  dates: "it contains a date",
  topTen: "it is one of the ten most used passwords",
  topHundred: "it is one of the hundred most used passwords",
  common: "it is a commonly used password",
  similarToCommon: "it is close to a commonly used password",
  wordByItself: "it is a single word",
  namesByThemselves: "it is a name",
  commonNames: "it is a common name",
  userInputs: "it contains the account's own email or name",
  pwned: "it appeared in a data breach",
};

/**
 * Why `password` may not be used for the account with these email and name, as one sentence
 * naming the rule; null when it may.
 */
export function passwordProblem(password: string, account: readonly string[] = []): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters (this one has ${password.length}).`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  factory ??= new ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs });
  const inputs = account.flatMap((value) => [value, ...value.split(/[@.\s_-]+/)]).filter(Boolean);
  const result = factory.check(password, inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const warning = result.feedback.warning === null ? undefined : WARNINGS[result.feedback.warning];
  return `Too easy to guess (strength ${result.score} of 4, at least ${MIN_PASSWORD_SCORE} needed${
    warning === undefined ? "" : `: ${warning}`
  }); a few unrelated words make a strong one.`;
}

/** An account's email, as the console's form and the CLI both take it: trimmed, lower case. */
export const ZUserEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(255, "Use at most 255 characters.")
  .pipe(z.email("Enter a valid email address."));
