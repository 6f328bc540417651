import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { type SmtpPeer, startSmtpPeer } from "../mail/smtp-peer.ts";
import { request } from "./client.ts";

/**
 * What a person is told after an action that emails someone: "sent" only when SMTP is
 * configured and the email leaves; "kept in the outbox" when there is no SMTP, on the
 * built server, with a real SMTP server for the first case.
 */

const ADMIN = { email: "admin@example.test", name: "Admin", role: "admin" as const };

async function sendTestEmail(site: SiteWithAccounts, cookie: string, to: string) {
  const response = await fetch(`${site.server.url}/api/newsletter/test-email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: site.server.url, Cookie: cookie },
    body: JSON.stringify({ email: to, post_title: "Hello" }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { success: boolean; message: string };
}

/** The "Forgot password?" form posted without JavaScript: the page it answers with, as text. */
async function requestPasswordReset(site: SiteWithAccounts, email: string): Promise<string> {
  const response = await request(`${site.server.url}/auth/forgot-password`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.server.url },
    body: new URLSearchParams({ email }).toString(),
  });
  expect(response.status).toBe(200);
  const entities: Record<string, string> = { "&#x27;": "'", "&quot;": '"', "&lt;": "<", "&gt;": ">", "&amp;": "&" };
  return response
    .text()
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&quot;|&lt;|&gt;|&amp;/g, (entity) => entities[entity] as string)
    .replace(/\s+/g, " ");
}

describe("without SMTP", () => {
  let site: SiteWithAccounts;
  let cookie: string;

  beforeAll(async () => {
    site = await startSiteWithAccounts({ dialect: "sqlite", accounts: [ADMIN] });
    cookie = await signIn(site.server.url, ADMIN.email);
  });

  afterAll(async () => {
    await site?.stop();
  });

  it("says the test email is kept in the outbox, and logs it unsent", async () => {
    const logged = site.server.waitForLog(
      (line) => typeof line.msg === "string" && line.msg.startsWith('Email not sent (no SMTP configured): "[TEST]'),
    );
    expect(await sendTestEmail(site, cookie, "reader@example.test")).toEqual({
      success: true,
      message: "Test email kept in the outbox: no SMTP is configured.",
    });
    expect((await logged).msg).toContain("to reader@example.test");
  });

  it("says the password reset link is kept in the outbox, not that it was sent", async () => {
    const page = await requestPasswordReset(site, ADMIN.email);
    expect(page).toContain("Reset link kept in the outbox");
    expect(page).toContain(
      "No SMTP is configured, so no email was sent: for an address with an account, the reset link is in the server's log.",
    );
    expect(page).not.toContain("We've sent you a password reset link.");
  });
});

describe("with SMTP", () => {
  let peer: SmtpPeer;
  let site: SiteWithAccounts;
  let cookie: string;

  beforeAll(async () => {
    peer = await startSmtpPeer();
    site = await startSiteWithAccounts({
      dialect: "sqlite",
      accounts: [ADMIN],
      server: { env: { SMTP_URL: peer.url } },
    });
    cookie = await signIn(site.server.url, ADMIN.email);
  });

  afterAll(async () => {
    await site?.stop();
    await peer?.close();
  });

  it("says the test email was sent, and the SMTP server receives it", async () => {
    expect(await sendTestEmail(site, cookie, "reader@example.test")).toEqual({
      success: true,
      message: "Test email sent successfully!",
    });
    await peer.waitFor(1);
    expect(peer.received[0]?.envelopeTo).toEqual(["reader@example.test"]);
    expect(peer.received[0]?.parsed.subject).toBe("[TEST] New Blog Post: Hello");
  });

  it("says the password reset link was sent, and the SMTP server receives it", async () => {
    const page = await requestPasswordReset(site, ADMIN.email);
    expect(page).toContain("Check your email We've sent you a password reset link.");
    await peer.waitFor(2);
    expect(peer.received[1]?.envelopeTo).toEqual([ADMIN.email]);
  });
});
