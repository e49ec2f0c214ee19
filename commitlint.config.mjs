// Commit messages a reader can scan (`git log --oneline`, blame, changelog tools): a subject of
// at most 72 characters, then a blank line, then a wrapped body with the why and the figures.
// No type prefixes: subjects are plain imperative sentences ("Fit the user menu on a phone").
// Checked by `pnpm commits:check` (scripts/check-commits.mjs) in the README's test command.
export default {
  rules: {
    "header-max-length": [2, "always", 72],
    "header-full-stop": [2, "never", "."],
    "header-min-length": [2, "always", 8],
    "body-leading-blank": [2, "always"],
    "body-max-line-length": [2, "always", 80],
  },
};
