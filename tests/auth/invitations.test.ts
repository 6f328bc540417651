import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ACCEPT_INVITATION_PATH } from "../../server/auth/account-endpoints.ts";
import { callAuth } from "../../server/auth/handler-calls.ts";
import {
  acceptInvitation,
  createInvitation,
  findUsableLink,
  hashToken,
  INVALID_LINK_MESSAGE,
  INVITATION_LIFETIME_MS,
  listPendingInvitations,
  revokeInvitation,
} from "../../server/auth/invitations.ts";
import {
  createUser,
  deleteUser,
  EMAIL_TAKEN_MESSAGE,
  findUser,
  setRole,
  type UserSummary,
} from "../../server/auth/users.ts";
import { NotFound } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import {
  type Accounts,
  incomingRequest,
  OTHER_STRONG_PASSWORD,
  openAccounts,
  refusal,
  STRONG_PASSWORD,
  signIn,
} from "./accounts-fixture.ts";

/** Invitations from /admin/users: by email and role, 7 days, once, stored hashed. */

describe.each(TEST_DIALECTS)("invitations on %s", (dialect) => {
  let accounts: Accounts;
  let admin: UserSummary;
  const services = () => accounts.services;
  const invite = (email: string, role = "editor") =>
    createInvitation(services(), { email, role, invitedBy: { id: admin.id, name: admin.name, email: admin.email } });

  beforeAll(async () => {
    accounts = await openAccounts(dialect);
    admin = await createUser(services(), {
      email: "owner@example.test",
      password: STRONG_PASSWORD,
      name: "Olive Owner",
      role: "admin",
      via: "test",
    });
  });
  afterAll(async () => {
    await accounts?.close();
  });
  beforeEach(async () => {
    await services().db.deleteFrom("account_invitations").execute();
  });

  it("stores only the token's hash and writes the email with the link to the outbox, with an audit row", async () => {
    const before = Date.now();
    const { invitation, token, url } = await invite("New.Person@Example.TEST", "admin");
    expect(url).toBe(`http://bastion.test/auth/invite?token=${token}`);
    expect(invitation).toMatchObject({ email: "new.person@example.test", role: "admin", invitedBy: admin.id });
    const expiresIn = new Date(invitation.expiresAt).getTime() - before;
    expect(Math.abs(expiresIn - INVITATION_LIFETIME_MS)).toBeLessThan(60_000);

    const row = await services().db.selectFrom("account_invitations").selectAll().executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const email = await services()
      .db.selectFrom("email_outbox")
      .selectAll()
      .where("idempotency_key", "=", `invitation:${invitation.id}`)
      .executeTakeFirstOrThrow();
    expect(email).toMatchObject({ kind: "invitation", to_address: "new.person@example.test" });
    expect(email.text_body).toContain(url);
    expect(email.text_body).toContain("Olive Owner invited you");

    const audit = await services()
      .db.selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "user.invited")
      .where("entity_id", "=", invitation.id)
      .executeTakeFirstOrThrow();
    expect(audit.user_id).toBe(admin.id);
    expect(await listPendingInvitations(services().db)).toEqual([invitation]);
  });

  it("creates the invited account with the invitation's email and role, once", async () => {
    const { token } = await invite("grace@example.test", "editor");
    expect(await findUsableLink(services().db, "invitation", token)).toMatchObject({ email: "grace@example.test" });

    const user = await acceptInvitation(services(), { token, name: "Grace Hopper", password: STRONG_PASSWORD });
    expect(user).toMatchObject({ email: "grace@example.test", name: "Grace Hopper", role: "editor" });
    expect((await signIn(accounts, "grace@example.test", STRONG_PASSWORD)).status).toBe(200);

    const again = await refusal(
      acceptInvitation(services(), { token, name: "Someone Else", password: STRONG_PASSWORD }),
    );
    expect(again).toMatchObject({ name: "NotFound", message: INVALID_LINK_MESSAGE });
    expect(await findUsableLink(services().db, "invitation", token)).toBeNull();
    expect(await listPendingInvitations(services().db)).toEqual([]);
    const accepted = await services()
      .db.selectFrom("audit_log")
      .select("user_id")
      .where("action", "=", "user.invitation-accepted")
      .executeTakeFirstOrThrow();
    expect(accepted.user_id).toBe(user.id);
  });

  it("refuses a wrong or empty token", async () => {
    await invite("someone@example.test");
    for (const token of ["", "not-the-token", "x".repeat(500)]) {
      expect(await findUsableLink(services().db, "invitation", token)).toBeNull();
      const error = await refusal(acceptInvitation(services(), { token, name: "Mallory", password: STRONG_PASSWORD }));
      expect(error.name).toBe("NotFound");
    }
  });

  it("refuses an expired invitation", async () => {
    const { invitation, token } = await invite("late@example.test");
    await services()
      .db.updateTable("account_invitations")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", invitation.id)
      .execute();
    expect(await findUsableLink(services().db, "invitation", token)).toBeNull();
    expect(await listPendingInvitations(services().db)).toEqual([]);
    const error = await refusal(acceptInvitation(services(), { token, name: "Late Comer", password: STRONG_PASSWORD }));
    expect(error.name).toBe("NotFound");
    await expect(findUser(services(), { email: "late@example.test" })).rejects.toThrow(NotFound);
  });

  it("keeps the link usable after a refused password or a missing name", async () => {
    const { token } = await invite("careful@example.test");
    const common = await refusal(acceptInvitation(services(), { token, name: "Carl", password: "password1234" }));
    expect(Object.keys(common.fields ?? {})).toEqual(["password"]);
    const nameless = await refusal(acceptInvitation(services(), { token, name: "  ", password: STRONG_PASSWORD }));
    expect(nameless.fields).toEqual({ name: "Please enter your full name." });
    const user = await acceptInvitation(services(), { token, name: "Carl Careful", password: OTHER_STRONG_PASSWORD });
    expect(user.email).toBe("careful@example.test");
  });

  it("stops a revoked invitation from working, with an audit row", async () => {
    const { invitation, token } = await invite("revoked@example.test");
    await revokeInvitation(services().db, { id: invitation.id, actorId: admin.id });
    expect(await findUsableLink(services().db, "invitation", token)).toBeNull();
    expect(await refusal(revokeInvitation(services().db, { id: invitation.id, actorId: admin.id }))).toMatchObject({
      name: "NotFound",
      message: "This invitation no longer exists.",
    });
    const audit = await services()
      .db.selectFrom("audit_log")
      .select("entity_id")
      .where("action", "=", "user.invitation-revoked")
      .executeTakeFirstOrThrow();
    expect(audit.entity_id).toBe(invitation.id);
  });

  it("lapses when its sender stops being an administrator, demoted or deleted", async () => {
    const sender = await createUser(services(), {
      email: `sender-${Date.now()}@example.test`,
      password: STRONG_PASSWORD,
      name: "Sam Sender",
      role: "admin",
      via: "test",
    });
    const from = (user: UserSummary) => ({ id: user.id, name: user.name, email: user.email });
    const demotedLink = await createInvitation(services(), {
      email: "sleeper@example.test",
      role: "admin",
      invitedBy: from(sender),
    });
    const kept = await invite("kept@example.test");
    expect((await listPendingInvitations(services().db)).map((item) => item.email).sort()).toEqual([
      "kept@example.test",
      "sleeper@example.test",
    ]);

    await setRole(services(), { userId: sender.id, role: "editor" });
    expect(await findUsableLink(services().db, "invitation", demotedLink.token)).toBeNull();
    expect(
      await refusal(
        acceptInvitation(services(), { token: demotedLink.token, name: "Sleeper", password: STRONG_PASSWORD }),
      ),
    ).toMatchObject({ name: "NotFound", message: INVALID_LINK_MESSAGE });
    expect((await listPendingInvitations(services().db)).map((item) => item.email)).toEqual(["kept@example.test"]);

    // Made admin again, then deleted: its invitation has no sender any more.
    await setRole(services(), { userId: sender.id, role: "admin" });
    const deletedLink = await createInvitation(services(), {
      email: "another@example.test",
      role: "admin",
      invitedBy: from(sender),
    });
    await deleteUser(services(), { userId: sender.id });
    expect(await findUsableLink(services().db, "invitation", deletedLink.token)).toBeNull();
    expect(await findUsableLink(services().db, "invitation", kept.token)).not.toBeNull();
  });

  it("replaces a pending invitation to the same address; refuses an address that has an account", async () => {
    const first = await invite("twice@example.test");
    const second = await invite("TWICE@example.test", "admin");
    expect(await findUsableLink(services().db, "invitation", first.token)).toBeNull();
    expect(await findUsableLink(services().db, "invitation", second.token)).toMatchObject({ role: "admin" });

    const taken = await refusal(invite("owner@example.test"));
    expect(taken.fields).toEqual({ email: EMAIL_TAKEN_MESSAGE });
    expect((await refusal(invite("not an email"))).fields).toEqual({ email: "Please enter a valid email address." });
    expect((await refusal(invite("x@example.test", "owner"))).fields).toEqual({
      role: "The role must be admin or editor.",
    });
  });

  it("accepts through Better Auth's handler, whose stored rate limit answers 429 with a retry time", async () => {
    const { token } = await invite("limited@example.test");
    const request = incomingRequest({ ip: "192.0.2.77" });
    const wrong = await callAuth(services(), request, ACCEPT_INVITATION_PATH, {
      token: "wrong",
      name: "Limited",
      password: STRONG_PASSWORD,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: "NOT_FOUND", message: INVALID_LINK_MESSAGE });

    const ok = await callAuth(services(), request, ACCEPT_INVITATION_PATH, {
      token,
      name: "Lim Ited",
      password: STRONG_PASSWORD,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ user: { email: "limited@example.test" } });

    let last = ok;
    for (let attempt = 0; attempt < 9; attempt++) {
      last = await callAuth(services(), request, ACCEPT_INVITATION_PATH, { token: "x", name: "x", password: "x" });
    }
    expect(last.status).toBe(429);
    expect(last.retryAfterSeconds).toBeGreaterThan(0);
    // Another client is not affected.
    const other = await callAuth(services(), incomingRequest({ ip: "192.0.2.78" }), ACCEPT_INVITATION_PATH, {
      token: "x",
      name: "x",
      password: "x",
    });
    expect(other.status).toBe(400);
  });
});
