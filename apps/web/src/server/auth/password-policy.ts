/**
 * The form's quick check before it sends: the length of core's password rule
 * (console/users/password-policy.ts), which the server applies in full (strength included) to the
 * console's user form and `cyclium user create` alike. Core's module is not imported here: this
 * file reaches the browser, and the rule's dictionaries (1.9 MB) and password hashing must not.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;
