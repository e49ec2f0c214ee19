import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../auth/password-policy";
import { ZRole } from "../../auth/principal";

const ZUserId = z.uuid("Unknown user id.");

export const ZUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: ZRole,
  disabledAt: z.iso.datetime().nullable(),
  insertedAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime().nullable(),
});

export const ZCreateUserInput = z.object({
  email: z.string().trim().toLowerCase().max(255).pipe(z.email("Enter a valid email address.")),
  name: z.string().trim().min(1, "Enter a name.").max(255),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`)
    .max(MAX_PASSWORD_LENGTH),
  role: ZRole,
});
export type TCreateUserInput = z.infer<typeof ZCreateUserInput>;

export const ZSetUserRoleInput = z.object({ userId: ZUserId, role: ZRole });
export const ZSetUserDisabledInput = z.object({ userId: ZUserId, disabled: z.boolean() });

export const ZApiToken = z.object({
  id: z.string(),
  name: z.string(),
  role: ZRole,
  /** REST tenants (envs) the token may address, `default` for the unset env; empty: all. */
  tenants: z.array(z.string()),
  createdBy: z.string().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  insertedAt: z.iso.datetime(),
});

export const ZCreateApiTokenInput = z.object({
  name: z.string().trim().min(1, "Name the token after what uses it, e.g. ci-deploy.").max(255),
  role: ZRole,
  /** Limits the token to these tenants (envs); left out or empty, it reaches every env. */
  tenants: z.array(z.string().trim().min(1).max(255)).max(100).optional(),
});

export const ZCreatedApiToken = z.object({
  /** Shown once; only its hash is stored. */
  token: z.string(),
  apiToken: ZApiToken,
});

export const ZRevokeApiTokenInput = z.object({ tokenId: z.uuid("Unknown token id.") });

export type TUserOutput = z.infer<typeof ZUser>;
export type TApiTokenOutput = z.infer<typeof ZApiToken>;
