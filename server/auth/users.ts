import type { InternalAdapter } from "@better-auth/core";
import type { Kysely } from "kysely";
import { z } from "zod";
import { recordAudit } from "../audit/audit-log.ts";
import { type Database, ROLES } from "../db/schema.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../errors.ts";
import { passwordProblem } from "./password-policy.ts";
import { forgetPasswordResetLinks } from "./password-reset-links.ts";
import { countOtherAdmins, type Role, roleOf, setUserRole, withAdminRowsLocked } from "./roles.ts";

/**
 * Accounts: created by the CLI, ADMIN_* at start-up, invitations and the owner-setup
 * link (public sign-up is off). Users, their credential accounts and sessions are
 * written through Better Auth's own password hasher and adapter; roles through
 * roles.ts. Every change leaves an audit row.
 */

/** The parts of Better Auth's context (`auth.$context`) used here: its password hasher and adapter. */
export interface AuthInternals {
  password: { hash(password: string): Promise<string> };
  internalAdapter: Pick<
    InternalAdapter,
    | "createUser"
    | "linkAccount"
    | "findUserByEmail"
    | "findUserById"
    | "listUsers"
    | "countTotalUsers"
    | "deleteUser"
    | "updatePassword"
    | "findCredentialAccount"
    | "deleteUserSessions"
  >;
}

export interface AccountServices {
  auth: { $context: Promise<AuthInternals> };
  db: Kysely<Database>;
}

export interface UserSummary {
  id: string;
  name: string;
  email: string;
  role: Role | null;
  twoFactorEnabled: boolean;
  createdAt: string;
}

const MAX_NAME_LENGTH = 100;
/** The longest address SMTP can carry (RFC 5321's path limit, less its angle brackets). */
const MAX_EMAIL_LENGTH = 254;

export const EMAIL_TAKEN_MESSAGE = "An account with this email address already exists.";
export const LAST_ADMIN_MESSAGE = "This is the only administrator: make another user an administrator first.";
export const LAST_ADMIN_DELETE_MESSAGE = "This is the only administrator: it cannot be deleted.";

/** The address as it is stored (trimmed, lower-cased); Invalid (field `email`) otherwise. */
export function normalizeEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH) {
    throw new Invalid({ email: `The email address must be at most ${MAX_EMAIL_LENGTH} characters long.` });
  }
  if (!email || !z.email().safeParse(email).success) {
    throw new Invalid({ email: "Please enter a valid email address." });
  }
  return email;
}

/** Why this address cannot be an account's, or null: normalizeEmail's rule, for a form's own check. */
export function emailProblem(value: string): string | null {
  try {
    normalizeEmail(value);
    return null;
  } catch (error) {
    if (error instanceof Invalid) return error.message;
    throw error;
  }
}

export function normalizeName(value: string, options: { required: boolean }): string {
  const name = value.trim().replace(/\s+/g, " ");
  if (options.required && !name) throw new Invalid({ name: "Please enter your full name." });
  if (name.length > MAX_NAME_LENGTH) {
    throw new Invalid({ name: `The name must be at most ${MAX_NAME_LENGTH} characters long.` });
  }
  return name;
}

/**
 * Why a name sent straight to Better Auth (POST /api/auth/update-user) cannot be stored,
 * or null: the same rule as account creation and the account form, where Better Auth
 * itself takes any length and answers a null name with a database error.
 */
export function userNameProblem(value: unknown): string | null {
  if (typeof value !== "string") return "The name must be text.";
  try {
    normalizeName(value, { required: true });
    return null;
  } catch (error) {
    if (error instanceof Invalid) return error.message;
    throw error;
  }
}

export function parseRole(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) {
    throw new Invalid({ role: `The role must be ${ROLES.join(" or ")}.` });
  }
  return value as Role;
}

export function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw new Invalid({ password: problem });
}

function isUniqueViolation(error: unknown): boolean {
  const text = `${(error as { code?: string })?.code ?? ""} ${(error as Error)?.message ?? ""}`;
  return /23505|UNIQUE constraint failed|unique/i.test(text);
}

export interface NewUser {
  email: string;
  password: string;
  name?: string;
  role: Role;
  /** Who created the account (null: the CLI, start-up or an invitation link). */
  actorId?: string | null;
  /** How it came to be, for the audit log: cli, env, invitation, owner-setup, … */
  via: string;
  /** True when the person proved they read this mailbox (an emailed invitation). */
  emailVerified?: boolean;
}

/** Creates a user with a password and a role. */
export async function createUser(services: AccountServices, input: NewUser): Promise<UserSummary> {
  const email = normalizeEmail(input.email);
  const name = normalizeName(input.name ?? "", { required: false });
  const role = parseRole(input.role);
  checkPassword(input.password);

  const context = await services.auth.$context;
  // The address is the person's input: refused beside its field, like a malformed one.
  if (await context.internalAdapter.findUserByEmail(email)) throw new Invalid({ email: EMAIL_TAKEN_MESSAGE });
  const hash = await context.password.hash(input.password);

  let user: Awaited<ReturnType<InternalAdapter["createUser"]>>;
  try {
    user = await context.internalAdapter.createUser(
      { email, name, emailVerified: input.emailVerified ?? false, twoFactorEnabled: false },
      { method: "admin" },
    );
  } catch (error) {
    // Two requests for the same address at once: the unique index decides.
    if (isUniqueViolation(error)) throw new Invalid({ email: EMAIL_TAKEN_MESSAGE });
    throw error;
  }
  try {
    await context.internalAdapter.linkAccount({
      providerId: "credential",
      accountId: user.id,
      userId: user.id,
      password: hash,
    });
    await setUserRole(services.db, user.id, role);
    await recordAudit(services.db, {
      userId: input.actorId ?? null,
      action: "user.created",
      entity: "user",
      entityId: user.id,
      details: { email, role, via: input.via },
    });
  } catch (error) {
    // Better Auth's adapter and our tables do not share a transaction (PostgreSQL uses
    // two pools): undo the half-made account rather than leave one without a password or role.
    try {
      await context.internalAdapter.deleteUser(user.id);
    } catch (cleanupError) {
      // Both failed: the half-made account stays, and whoever handles the error must hear of it.
      throw new AggregateError(
        [error, cleanupError],
        `Creating the account ${email} failed, and removing its half-made user failed too`,
      );
    }
    throw error;
  }
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role,
    twoFactorEnabled: false,
    createdAt: new Date(user.createdAt).toISOString(),
  };
}

/** Every user with their role, oldest first. */
export async function listUsers(services: AccountServices): Promise<UserSummary[]> {
  const context = await services.auth.$context;
  // Better Auth's adapter returns its first 100 rows unless told how many to return.
  const total = await context.internalAdapter.countTotalUsers();
  const [users, roles] = await Promise.all([
    context.internalAdapter.listUsers(total, undefined, { field: "createdAt", direction: "asc" }),
    services.db.selectFrom("user_roles").select(["user_id", "role"]).execute(),
  ]);
  const roleOf = new Map<string, Role>();
  for (const row of roles) {
    // Admin wins when a user somehow holds both rows.
    if (row.role === "admin" || !roleOf.has(row.user_id)) roleOf.set(row.user_id, row.role);
  }
  return users.map((user) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    role: roleOf.get(user.id) ?? null,
    twoFactorEnabled: Boolean((user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled),
    createdAt: new Date(user.createdAt).toISOString(),
  }));
}

/** The user with this id or email address; NotFound otherwise. */
export async function findUser(services: AccountServices, ref: { id?: string; email?: string }): Promise<UserSummary> {
  const context = await services.auth.$context;
  const user = ref.id
    ? await context.internalAdapter.findUserById(ref.id)
    : ref.email
      ? ((await context.internalAdapter.findUserByEmail(ref.email.trim().toLowerCase()))?.user ?? null)
      : null;
  if (!user) throw new NotFound("No such user.");
  const role = await roleOf(services.db, user.id);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role,
    twoFactorEnabled: Boolean((user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled),
    createdAt: new Date(user.createdAt).toISOString(),
  };
}

/** Gives the user this role; refuses to take admin away from the last administrator. */
export async function setRole(
  services: AccountServices,
  input: { userId: string; role: string; actorId?: string | null },
): Promise<UserSummary> {
  const role = parseRole(input.role);
  const user = await findUser(services, { id: input.userId });
  await withAdminRowsLocked(services.db, async (trx) => {
    // The role read by findUser may have changed since (the user made an admin, the
    // other admins demoted): only the one read under the lock may decide.
    const current = await roleOf(trx, user.id);
    if (current === role) return;
    if (current === "admin" && (await countOtherAdmins(trx, user.id)) === 0) {
      throw new Conflict(LAST_ADMIN_MESSAGE);
    }
    await setUserRole(trx, user.id, role);
    await recordAudit(trx, {
      userId: input.actorId ?? null,
      action: "user.role-changed",
      entity: "user",
      entityId: user.id,
      details: { email: user.email, from: current, to: role },
    });
  });
  return { ...user, role };
}

/** Deletes the user, their sessions, passkeys and two-factor secrets; never the last admin. */
export async function deleteUser(
  services: AccountServices,
  input: { userId: string; actorId?: string | null },
): Promise<UserSummary> {
  const user = await findUser(services, { id: input.userId });
  if (input.actorId && input.actorId === user.id) {
    throw new Forbidden("You cannot delete your own account.");
  }
  // First, in our transaction: the last-admin check and the end of every right the
  // user had; then the user itself through Better Auth (its rows cascade).
  let role = user.role;
  await withAdminRowsLocked(services.db, async (trx) => {
    // The role read by findUser may have changed since (the user made an admin, the
    // other admins demoted): only the one read under the lock may decide.
    role = await roleOf(trx, user.id);
    if (role === "admin" && (await countOtherAdmins(trx, user.id)) === 0) {
      throw new Conflict(LAST_ADMIN_DELETE_MESSAGE);
    }
    await setUserRole(trx, user.id, null);
    await recordAudit(trx, {
      userId: input.actorId ?? null,
      action: "user.deleted",
      entity: "user",
      entityId: user.id,
      details: { email: user.email, role },
    });
  });
  const context = await services.auth.$context;
  await context.internalAdapter.deleteUser(user.id);
  return { ...user, role };
}

/** Sets a new password and signs the user out everywhere. */
export async function resetPassword(
  services: AccountServices,
  input: { userId: string; password: string; actorId?: string | null },
): Promise<UserSummary> {
  checkPassword(input.password);
  const user = await findUser(services, { id: input.userId });
  const context = await services.auth.$context;
  const hash = await context.password.hash(input.password);
  if (await context.internalAdapter.findCredentialAccount(user.id)) {
    await context.internalAdapter.updatePassword(user.id, hash);
  } else {
    await context.internalAdapter.linkAccount({
      providerId: "credential",
      accountId: user.id,
      userId: user.id,
      password: hash,
    });
  }
  await context.internalAdapter.deleteUserSessions(user.id);
  // A link emailed before the reset must not undo it.
  await forgetPasswordResetLinks(services.db, user.id);
  await recordAudit(services.db, {
    userId: input.actorId ?? null,
    action: "user.password-reset",
    entity: "user",
    entityId: user.id,
    details: { email: user.email, sessionsRevoked: true },
  });
  return user;
}

export async function adminExists(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom("user_roles")
    .select("user_id")
    .where("role", "=", "admin")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
