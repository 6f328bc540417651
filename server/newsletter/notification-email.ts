import { escapeHtml, safeLink, UnsafeLinkError } from "../mail/templates.ts";

/**
 * The email a subscriber gets when something is published (and the admin's test
 * email): title, summary, image when there is one, the link, and a footer saying why
 * the reader gets it with an unsubscribe link. Everything inserted is HTML-escaped;
 * links must be http(s) (a relative one is resolved against publicOrigin).
 */

export interface NotificationEmailInput {
  siteName: string;
  /** scheme://host[:port] of the site. */
  publicOrigin: string;
  /** What was published, as the subject says it: "chapter", "tip", "resource", "Blog Post"… */
  postType: string;
  title: string;
  summary: string;
  /** The item's page: absolute, or a path resolved against publicOrigin. */
  url: string;
  imageUrl?: string | null;
  /** The subscriber's unsubscribe page, linked from the footer. */
  unsubscribeUrl: string;
  /** The RFC 8058 one-click target for List-Unsubscribe (POST unsubscribes at once). Default: unsubscribeUrl. */
  oneClickUnsubscribeUrl?: string;
  /** Prepended to the subject, e.g. "[TEST]". */
  subjectPrefix?: string;
}

export interface NotificationEmail {
  subject: string;
  html: string;
  text: string;
  /** List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058, one-click). */
  headers: Record<string, string>;
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const MUTED = "color:#52525b;";
const LINK = "color:#1d4ed8;text-decoration:underline;";

/** One line, no control characters: a subject or header must never carry a line break. */
const oneLine = (value: string) => value.replace(/[\s\p{Cc}]+/gu, " ").trim();

const link = (url: string, label: string, style = LINK) =>
  `<a href="${escapeHtml(url)}" style="${style}">${escapeHtml(label)}</a>`;

/** An image that is not a safe http(s) link is left out rather than failing the whole send. */
function optionalImage(imageUrl: string | null | undefined, base: string): string | undefined {
  if (!imageUrl) return undefined;
  try {
    return safeLink(imageUrl, base);
  } catch (error) {
    if (error instanceof UnsafeLinkError) return undefined;
    throw error;
  }
}

export function renderNotificationEmail(input: NotificationEmailInput): NotificationEmail {
  const home = safeLink(input.publicOrigin);
  const url = safeLink(input.url, home);
  const unsubscribe = safeLink(input.unsubscribeUrl, home);
  const oneClick = safeLink(input.oneClickUnsubscribeUrl ?? input.unsubscribeUrl, home);
  const image = optionalImage(input.imageUrl, home);
  const title = oneLine(input.title);
  const postType = oneLine(input.postType);
  const heading = `New ${postType}: ${title}`;
  const subject = oneLine(`${input.subjectPrefix ? `${input.subjectPrefix} ` : ""}${heading}`).slice(0, 998);
  const summary = input.summary.trim();
  const reason = `You are receiving this email because you subscribed to updates from ${input.siteName}.`;

  const rows = [
    `<tr><td style="padding:24px 32px 0;${FONT}font-size:14px;font-weight:600;">${link(home, input.siteName, "color:#18181b;text-decoration:none;")}</td></tr>`,
  ];
  if (image) {
    rows.push(
      `<tr><td style="padding:16px 32px 0;"><img src="${escapeHtml(image)}" alt="${escapeHtml(title)}" width="496" style="display:block;width:100%;max-width:496px;height:auto;border:0;border-radius:6px;"></td></tr>`,
    );
  }
  rows.push(
    `<tr><td style="padding:16px 32px 8px;${FONT}"><p style="margin:0 0 4px;font-size:13px;text-transform:uppercase;letter-spacing:0.05em;${MUTED}">New ${escapeHtml(postType)}</p><h1 style="margin:0;font-size:22px;line-height:1.3;color:#18181b;">${escapeHtml(title)}</h1></td></tr>`,
  );
  if (summary) {
    rows.push(
      `<tr><td style="padding:8px 32px 0;${FONT}font-size:16px;line-height:1.6;color:#27272a;"><p style="margin:0 0 16px;">${escapeHtml(summary).replace(/\r?\n/g, "<br>")}</p></td></tr>`,
    );
  }
  const button =
    "display:inline-block;padding:12px 20px;border-radius:6px;background:#18181b;color:#ffffff;font-weight:600;text-decoration:none;";
  rows.push(
    `<tr><td style="padding:8px 32px 24px;${FONT}font-size:16px;">${link(url, "Read it now", button)}` +
      `<p style="margin:16px 0 0;font-size:13px;line-height:1.5;${MUTED}">If the button does not work, copy this link into your browser:<br>` +
      `<span style="word-break:break-all;">${link(url, url)}</span></p></td></tr>`,
    `<tr><td style="padding:16px 32px 24px;border-top:1px solid #e4e4e7;${FONT}font-size:13px;line-height:1.5;${MUTED}">` +
      `<p style="margin:0 0 8px;">${escapeHtml(reason)}</p>` +
      `<p style="margin:0 0 8px;">${link(unsubscribe, "Unsubscribe")}</p>` +
      `<p style="margin:0;">${link(home, input.siteName)}</p></td></tr>`,
  );

  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(heading)}</title>
</head>
<body style="margin:0;padding:0;background:#f4f4f5;">
${summary ? `<div style="display:none;max-height:0;overflow:hidden;opacity:0;" aria-hidden="true">${escapeHtml(oneLine(summary))}</div>` : ""}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f4f4f5;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:8px;">
${rows.join("\n")}
</table>
</td></tr>
</table>
</body>
</html>
`;

  const text = [
    input.siteName,
    "",
    heading,
    "",
    ...(summary ? [summary, ""] : []),
    `Read it now: ${url}`,
    ...(image ? [`Image: ${image}`] : []),
    "",
    "--",
    reason,
    `Unsubscribe: ${unsubscribe}`,
    home,
    "",
  ].join("\n");

  return {
    subject,
    html,
    text,
    headers: {
      "List-Unsubscribe": `<${oneClick}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
