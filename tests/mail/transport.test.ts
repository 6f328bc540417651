import { describe, expect, it } from "vitest";
import { classifySendError, createMailTransport, fromAddress } from "../../server/mail/transport.ts";
import { mailConfig } from "./helpers.ts";

describe("the mail transport", () => {
  it("exists only when SMTP_URL is set", () => {
    expect(createMailTransport(mailConfig())).toBeUndefined();
    const transport = createMailTransport(mailConfig("smtp://127.0.0.1:2525"));
    expect(transport).toBeDefined();
    transport?.close();
  });

  it("puts the site name in From when MAIL_FROM is a bare address, and keeps a display name it has", () => {
    expect(fromAddress("no-reply@bastion.test", "Bastion")).toEqual({
      name: "Bastion",
      address: "no-reply@bastion.test",
    });
    expect(fromAddress("Security Notes <news@bastion.test>", "Bastion")).toBe("Security Notes <news@bastion.test>");
    expect(mailConfig().mail.from).toBe("Bastion <no-reply@bastion.test>");
  });

  it("tells permanent recipient and message rejections from temporary failures", () => {
    const smtpError = (responseCode: number, command: string, response: string) =>
      Object.assign(new Error(`failed: ${response}`), { responseCode, command, response });
    expect(classifySendError(smtpError(550, "RCPT TO", "550 5.1.1 No such user"))).toEqual({
      kind: "recipient-rejected",
      reply: "550 5.1.1 No such user",
    });
    expect(classifySendError(smtpError(554, "DATA", "554 5.7.1 Spam"))).toEqual({
      kind: "message-rejected",
      reply: "554 5.7.1 Spam",
    });
    // Our own configuration is at fault, not the recipient: retried, then failed.
    expect(classifySendError(smtpError(535, "AUTH PLAIN", "535 Bad credentials")).kind).toBe("temporary");
    expect(classifySendError(smtpError(553, "MAIL FROM", "553 Sender not allowed")).kind).toBe("temporary");
    expect(classifySendError(smtpError(451, "RCPT TO", "451 Greylisted")).kind).toBe("temporary");
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ESOCKET" });
    expect(classifySendError(refused)).toEqual({ kind: "temporary", reply: "connect ECONNREFUSED 127.0.0.1:1" });
  });
});
