import { describe, expect, it } from "vitest";
import { type EmailContent, renderEmail, UnsafeLinkError } from "../../server/mail/templates.ts";

const CONTENT: EmailContent = {
  siteName: "Bastion",
  publicOrigin: "https://bastion.test",
  preheader: "One click to confirm",
  heading: "Confirm your subscription",
  paragraphs: ["Thanks for subscribing.", "This link is valid for 7 days.\nIt works once."],
  action: { label: "Confirm subscription", url: "https://bastion.test/newsletter/confirm?token=abc" },
  reason: "You receive this email because this address was entered in the newsletter form.",
  unsubscribeUrl: "https://bastion.test/newsletter/unsubscribe?token=xyz",
};

const HOSTILE = `Tom "O'Neil" <script>alert('x')</script> & <img src=x onerror=alert(1)>`;
const HOSTILE_ESCAPED =
  "Tom &quot;O&#39;Neil&quot; &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;";

const ATTRIBUTES = [
  "lang",
  "charset",
  "name",
  "content",
  "style",
  "role",
  "width",
  "cellpadding",
  "cellspacing",
  "border",
  "align",
  "aria-hidden",
  "href",
];

describe("email templates", () => {
  it("renders the heading, paragraphs, action, reason and unsubscribe link in both parts", () => {
    const { html, text } = renderEmail(CONTENT);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain("<title>Confirm your subscription</title>");
    expect(html).toContain("One click to confirm");
    expect(html).toContain("This link is valid for 7 days.<br>It works once.");
    expect(html).toContain('href="https://bastion.test/newsletter/confirm?token=abc"');
    expect(html).toContain(">Confirm subscription</a>");
    expect(html).toContain(CONTENT.reason);
    expect(html).toContain('href="https://bastion.test/newsletter/unsubscribe?token=xyz"');
    expect(html).toContain('role="presentation"');

    expect(text).toContain("Confirm your subscription\n\nThanks for subscribing.");
    expect(text).toContain("Confirm subscription:\nhttps://bastion.test/newsletter/confirm?token=abc");
    expect(text).toContain(
      `-- \n${CONTENT.reason}\nUnsubscribe: https://bastion.test/newsletter/unsubscribe?token=xyz`,
    );
    expect(text).not.toContain("<");
  });

  it("has no unsubscribe link when none is given, and no button without an action", () => {
    const { html, text } = renderEmail({ ...CONTENT, unsubscribeUrl: undefined, action: undefined });
    expect(html).not.toContain("Unsubscribe");
    expect(text).not.toContain("Unsubscribe");
    expect(html).not.toContain("newsletter/confirm");
  });

  it("escapes <script> and quotes in every inserted field", () => {
    const { html, text } = renderEmail({
      siteName: HOSTILE,
      publicOrigin: "https://bastion.test",
      preheader: HOSTILE,
      heading: HOSTILE,
      paragraphs: [HOSTILE, HOSTILE],
      action: { label: HOSTILE, url: `https://bastion.test/x?q="><script>alert(1)</script>&a='b'` },
      reason: HOSTILE,
      unsubscribeUrl: `https://bastion.test/u?t="onmouseover="alert(1)`,
    });
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    // Only the layout's own tags and attributes: no field broke out of its text or attribute.
    for (const [tag] of html.matchAll(/<[^>]*>/g)) {
      expect(tag).toMatch(/^<\/?(!doctype|html|head|meta|title|body|div|table|tr|td|h1|p|a|br|span)[\s>]/i);
      const names: string[] = [];
      const bare = tag.replace(/\s([a-z-]+)="[^"]*"/gi, (_attribute, name: string) => {
        names.push(name);
        return "";
      });
      expect(bare).toMatch(/^<\/?[!a-z0-9]+( html)?>$/i);
      for (const name of names) expect(ATTRIBUTES).toContain(name);
    }
    // siteName (twice), preheader, heading (title and h1), two paragraphs, label, reason.
    expect(html.split(HOSTILE_ESCAPED).length - 1).toBe(9);
    for (const [, value] of html.matchAll(/href="([^"]*)"/g)) expect(value).toMatch(/^https:\/\/bastion\.test\//);
    // The plain-text part is not HTML: it carries the text as written.
    expect(text).toContain(HOSTILE);
  });

  it("rejects javascript: and other non-http(s) links, and resolves relative ones against the origin", () => {
    const unsafe = [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "mailto:someone@example.test",
    ];
    for (const url of unsafe) {
      expect(() => renderEmail({ ...CONTENT, action: { label: "Go", url } })).toThrow(UnsafeLinkError);
      expect(() => renderEmail({ ...CONTENT, unsubscribeUrl: url })).toThrow(UnsafeLinkError);
    }
    expect(() => renderEmail({ ...CONTENT, publicOrigin: "javascript:alert(1)" })).toThrow(UnsafeLinkError);
    expect(() => renderEmail({ ...CONTENT, publicOrigin: "not a url" })).toThrow(UnsafeLinkError);

    const { html, text } = renderEmail({ ...CONTENT, action: { label: "Read", url: "/chapters/intro" } });
    expect(html).toContain('href="https://bastion.test/chapters/intro"');
    expect(text).toContain("https://bastion.test/chapters/intro");
  });
});
