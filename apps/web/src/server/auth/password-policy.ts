/**
 * NIST SP 800-63B: length over composition rules. 12 characters for console accounts that can
 * pause production triggers; no upper bound beyond a sanity limit (argon2 hashes any length).
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;
