import { createHash, randomBytes } from "node:crypto";
import type { ExpressionBuilder, Kysely, Selectable } from "kysely";
import { recordAudit } from "../audit/audit-log.ts";
import type { Config } from "../config.ts";
import type { AccountInvitationsTable, Database, INVITATION_KINDS } from "../db/schema.ts";
import { Invalid, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { enqueueInvitationEmail } from "./emails.ts";
import { INVALID_LINK_MESSAGE } from "./link-messages.ts";
import type { Role } from "./roles.ts";
import {
  type AccountServices,
  adminExists,
  checkPassword,
  createUser,
  EMAIL_TAKEN_MESSAGE,
  normalizeEmail,
  normalizeName,
  parseRole,
  type UserSummary,
} from "./users.ts";

/**
 * The account_invitations table (the only writer of it): invitations an admin sends
 * from /admin/users, and the one-time owner-setup link logged at the first start.
 * Only the SHA-256 of a link's token is stored; a link expires and works once.
 */

export type InvitationKind = (typeof INVITATION_KINDS)[number];

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const OWNER_SETUP_LIFETIME_MS = 24 * 60 * 60 * 1000;

export { INVALID_LINK_MESSAGE };

/** Tokens are 43 characters; anything much longer is not worth a lookup. */
const MAX_LINK_TOKEN_LENGTH = 200;

/** Whether a link's token is worth looking up: false for an empty or over-long one, which opens nothing. */
export function couldBeLinkToken(token: string | null | undefined): token is string {
  return Boolean(token) && (token as string).length <= MAX_LINK_TOKEN_LENGTH;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

type InvitationRow = Selectable<AccountInvitationsTable>;

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

function toPending(row: InvitationRow): PendingInvitation {
  return {
    id: row.id,
    email: row.email ?? "",
    role: row.role,
    invitedBy: row.invited_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export function invitationUrl(config: Pick<Config, "publicOrigin">, token: string): string {
  return `${config.publicOrigin}/auth/invite?${new URLSearchParams({ token })}`;
}

function ownerSetupUrl(config: Pick<Config, "publicOrigin">, token: string): string {
  return `${config.publicOrigin}/auth/setup?${new URLSearchParams({ token })}`;
}

/**
 * Invites a person by email: the row and its email are written in one transaction,
 * so an invitation exists exactly when its email is in the outbox. A new invitation
 * to the same address replaces a pending one.
 */
export async function createInvitation(
  services: AccountServices & { config: Config },
  input: { email: string; role: string; invitedBy: { id: string; name: string; email: string } },
): Promise<{ invitation: PendingInvitation; token: string; url: string }> {
  const email = normalizeEmail(input.email);
  const role = parseRole(input.role);
  const context = await services.auth.$context;
  if (await context.internalAdapter.findUserByEmail(email)) throw new Invalid({ email: EMAIL_TAKEN_MESSAGE });
  const token = newToken();
  const now = new Date();
  const row: InvitationRow = {
    id: newId("invitation"),
    kind: "invitation",
    email,
    role,
    token_hash: hashToken(token),
    invited_by: input.invitedBy.id,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + INVITATION_LIFETIME_MS).toISOString(),
    accepted_at: null,
  };
  await services.db.transaction().execute(async (trx) => {
    const replaced = await trx
      .deleteFrom("account_invitations")
      .where("kind", "=", "invitation")
      .where("email", "=", email)
      .where("accepted_at", "is", null)
      .returning("id")
      .execute();
    await trx.insertInto("account_invitations").values(row).execute();
    await enqueueInvitationEmail(trx, services.config, {
      id: row.id,
      email,
      token,
      invitedBy: input.invitedBy.name || input.invitedBy.email,
      role,
    });
    await recordAudit(trx, {
      userId: input.invitedBy.id,
      action: "user.invited",
      entity: "invitation",
      entityId: row.id,
      details: { email, role, replaced: replaced.map((invitation) => invitation.id) },
    });
  });
  return { invitation: toPending(row), token, url: invitationUrl(services.config, token) };
}

/**
 * An invitation stands while whoever sent it is an administrator: one sent by an admin
 * since demoted or deleted (invited_by then null) is not listed and opens nothing.
 */
function sentByAnAdmin(eb: ExpressionBuilder<Database, "account_invitations">) {
  return eb.exists(
    eb
      .selectFrom("user_roles")
      .select("user_roles.user_id")
      .whereRef("user_roles.user_id", "=", "account_invitations.invited_by")
      .where("user_roles.role", "=", "admin"),
  );
}

/** Invitations not yet used nor expired, newest first. */
export async function listPendingInvitations(db: Kysely<Database>): Promise<PendingInvitation[]> {
  const rows = await db
    .selectFrom("account_invitations")
    .selectAll()
    .where("kind", "=", "invitation")
    .where(sentByAnAdmin)
    .where("accepted_at", "is", null)
    .where("expires_at", ">", new Date().toISOString())
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toPending);
}

/** Withdraws a pending invitation: its link stops working at once. */
export async function revokeInvitation(
  db: Kysely<Database>,
  input: { id: string; actorId: string | null },
): Promise<PendingInvitation> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom("account_invitations")
      .where("id", "=", input.id)
      .where("kind", "=", "invitation")
      .where("accepted_at", "is", null)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFound("This invitation no longer exists.");
    await recordAudit(trx, {
      userId: input.actorId,
      action: "user.invitation-revoked",
      entity: "invitation",
      entityId: row.id,
      details: { email: row.email, role: row.role },
    });
    return toPending(row);
  });
}

/** The invitation or owner-setup link this token opens, while it can still be used. */
export async function findUsableLink(
  db: Kysely<Database>,
  kind: InvitationKind,
  token: string | null | undefined,
): Promise<PendingInvitation | null> {
  if (!couldBeLinkToken(token)) return null;
  const row = await db
    .selectFrom("account_invitations")
    .selectAll()
    .where("token_hash", "=", hashToken(token))
    .where("kind", "=", kind)
    .where("accepted_at", "is", null)
    .where("expires_at", ">", new Date().toISOString())
    .$if(kind === "invitation", (query) => query.where(sentByAnAdmin))
    .executeTakeFirst();
  if (!row) return null;
  if (kind === "owner-setup" && (await adminExists(db))) return null;
  return toPending(row);
}

/**
 * Marks the link used, atomically (of two uses at once, one wins), runs `create`,
 * and gives the link back if `create` fails, so a refused password does not burn it.
 * Once `create` has made the account, the link stays used.
 */
async function consumeLink(
  db: Kysely<Database>,
  kind: InvitationKind,
  token: string,
  create: (link: InvitationRow) => Promise<UserSummary>,
): Promise<{ user: UserSummary; link: InvitationRow }> {
  if (!couldBeLinkToken(token)) throw new NotFound(INVALID_LINK_MESSAGE);
  const now = new Date().toISOString();
  const link = await db
    .updateTable("account_invitations")
    .set({ accepted_at: now })
    .where("token_hash", "=", hashToken(token))
    .where("kind", "=", kind)
    .where("accepted_at", "is", null)
    .where("expires_at", ">", now)
    .$if(kind === "invitation", (query) => query.where(sentByAnAdmin))
    .returningAll()
    .executeTakeFirst();
  if (!link) throw new NotFound(INVALID_LINK_MESSAGE);
  try {
    return { user: await create(link), link };
  } catch (error) {
    await db.updateTable("account_invitations").set({ accepted_at: null }).where("id", "=", link.id).execute();
    throw error;
  }
}

/** Creates the invited person's account: the email and role come from the invitation. */
export async function acceptInvitation(
  services: AccountServices,
  input: { token: string; name: string; password: string },
): Promise<UserSummary> {
  const name = normalizeName(input.name, { required: true });
  checkPassword(input.password);
  const { user, link } = await consumeLink(services.db, "invitation", input.token, (invitation) =>
    createUser(services, {
      email: invitation.email ?? "",
      password: input.password,
      name,
      role: invitation.role,
      via: "invitation",
      emailVerified: true,
    }),
  );
  await recordAudit(services.db, {
    userId: user.id,
    action: "user.invitation-accepted",
    entity: "invitation",
    entityId: link.id,
    details: { email: user.email, role: link.role, invitedBy: link.invited_by },
  });
  return user;
}

/**
 * Replaces the owner-setup link (at each start while no admin exists): the new one
 * is returned once, to be logged; only its hash is kept.
 */
export async function createOwnerSetupLink(
  db: Kysely<Database>,
  config: Pick<Config, "publicOrigin">,
): Promise<{ url: string; expiresAt: string }> {
  const token = newToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + OWNER_SETUP_LIFETIME_MS).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("account_invitations").where("kind", "=", "owner-setup").execute();
    await trx
      .insertInto("account_invitations")
      .values({
        id: newId("setup"),
        kind: "owner-setup",
        email: null,
        role: "admin",
        token_hash: hashToken(token),
        invited_by: null,
        created_at: now.toISOString(),
        expires_at: expiresAt,
        accepted_at: null,
      })
      .execute();
  });
  return { url: ownerSetupUrl(config, token), expiresAt };
}

/** Removes an unused owner-setup link (an admin exists now). */
export async function deleteOwnerSetupLinks(db: Kysely<Database>): Promise<void> {
  await db
    .deleteFrom("account_invitations")
    .where("kind", "=", "owner-setup")
    .where("accepted_at", "is", null)
    .execute();
}

/** Creates the owner (first admin) account through the one-time setup link. */
export async function completeOwnerSetup(
  services: AccountServices,
  input: { token: string; name: string; email: string; password: string },
): Promise<UserSummary> {
  const name = normalizeName(input.name, { required: true });
  const email = normalizeEmail(input.email);
  checkPassword(input.password);
  const { user } = await consumeLink(services.db, "owner-setup", input.token, async () => {
    if (await adminExists(services.db)) throw new NotFound(INVALID_LINK_MESSAGE);
    return createUser(services, { email, password: input.password, name, role: "admin", via: "owner-setup" });
  });
  return user;
}
