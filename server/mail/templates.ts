/**
 * The one layout of every email: HTML (inline styles, tables for old clients) and a
 * plain-text part with the same content. Everything inserted is HTML-escaped, and
 * links must be http(s): a template never carries markup or a script URL from data.
 */

export interface EmailContent {
  siteName: string;
  /** scheme://host[:port] of the site; relative links are resolved against it. */
  publicOrigin: string;
  /** The summary line mail clients show after the subject; hidden in the body. */
  preheader?: string;
  /** A short label above the heading, e.g. "New chapter". */
  kicker?: string;
  heading: string;
  /** An illustration above the heading; left out when its link is not http(s). */
  image?: { url: string; alt: string };
  /** Plain text; a line break inside a paragraph is kept. */
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Why the reader gets this email, shown in the footer. */
  reason: string;
  unsubscribeUrl?: string;
}

export interface RenderedEmail {
  html: string;
  text: string;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] as string);
}

export class UnsafeLinkError extends Error {
  override name = "UnsafeLinkError";
}

/** An absolute http(s) URL, resolved against `base` when relative; anything else throws. */
export function safeLink(url: string, base?: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    throw new UnsafeLinkError(`Not a valid link for an email: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UnsafeLinkError(`Only http(s) links are allowed in emails, not ${parsed.protocol}`);
  }
  return parsed.href;
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const MUTED = "color:#52525b;";
const LINK = "color:#1d4ed8;text-decoration:underline;";

/** Links checked and resolved against the site's origin. */
interface EmailLinks {
  home: string;
  action: { label: string; url: string } | undefined;
  unsubscribe: string | undefined;
  image: string | undefined;
}

export function renderEmail(content: EmailContent): RenderedEmail {
  const home = safeLink(content.publicOrigin);
  const links: EmailLinks = {
    home,
    action: content.action ? { label: content.action.label, url: safeLink(content.action.url, home) } : undefined,
    unsubscribe: content.unsubscribeUrl === undefined ? undefined : safeLink(content.unsubscribeUrl, home),
    image: optionalImage(content.image?.url, home),
  };
  return { html: renderHtml(content, links), text: renderText(content, links) };
}

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

/** The heading as one line: "New chapter: Title" when there is a kicker. */
const fullHeading = (content: EmailContent) =>
  content.kicker ? `${content.kicker}: ${content.heading}` : content.heading;

const paragraphHtml = (text: string) => escapeHtml(text).replace(/\r?\n/g, "<br>");
const link = (url: string, label: string, style = LINK) =>
  `<a href="${escapeHtml(url)}" style="${style}">${escapeHtml(label)}</a>`;

function renderHtml(content: EmailContent, { home, action, unsubscribe, image }: EmailLinks): string {
  const rows = [
    `<tr><td style="padding:24px 32px 0;${FONT}font-size:14px;font-weight:600;">${link(home, content.siteName, "color:#18181b;text-decoration:none;")}</td></tr>`,
  ];
  if (image) {
    rows.push(
      `<tr><td style="padding:16px 32px 0;"><img src="${escapeHtml(image)}" alt="${escapeHtml(content.image?.alt ?? "")}" width="496" style="display:block;width:100%;max-width:496px;height:auto;border:0;border-radius:6px;"></td></tr>`,
    );
  }
  const kicker = content.kicker
    ? `<p style="margin:0 0 4px;font-size:13px;text-transform:uppercase;letter-spacing:0.05em;${MUTED}">${escapeHtml(content.kicker)}</p>`
    : "";
  rows.push(
    `<tr><td style="padding:16px 32px 8px;${FONT}">${kicker}<h1 style="margin:0;font-size:22px;line-height:1.3;color:#18181b;">${escapeHtml(content.heading)}</h1></td></tr>`,
  );
  if (content.paragraphs.length > 0) {
    rows.push(
      `<tr><td style="padding:8px 32px 0;${FONT}font-size:16px;line-height:1.6;color:#27272a;">${content.paragraphs
        .map((paragraph) => `<p style="margin:0 0 16px;">${paragraphHtml(paragraph)}</p>`)
        .join("")}</td></tr>`,
    );
  }
  if (action) {
    const button =
      "display:inline-block;padding:12px 20px;border-radius:6px;background:#18181b;color:#ffffff;font-weight:600;text-decoration:none;";
    rows.push(
      `<tr><td style="padding:8px 32px 24px;${FONT}font-size:16px;">${link(action.url, action.label, button)}` +
        `<p style="margin:16px 0 0;font-size:13px;line-height:1.5;${MUTED}">If the button does not work, copy this link into your browser:<br>` +
        `<span style="word-break:break-all;">${link(action.url, action.url)}</span></p></td></tr>`,
    );
  }
  const footer = [`<p style="margin:0 0 8px;">${paragraphHtml(content.reason)}</p>`];
  if (unsubscribe) footer.push(`<p style="margin:0 0 8px;">${link(unsubscribe, "Unsubscribe")}</p>`);
  footer.push(`<p style="margin:0;">${link(home, content.siteName)}</p>`);
  rows.push(
    `<tr><td style="padding:16px 32px 24px;border-top:1px solid #e4e4e7;${FONT}font-size:13px;line-height:1.5;${MUTED}">${footer.join("")}</td></tr>`,
  );

  const preheader = content.preheader
    ? `<div style="display:none;max-height:0;overflow:hidden;opacity:0;" aria-hidden="true">${escapeHtml(content.preheader)}</div>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(fullHeading(content))}</title>
</head>
<body style="margin:0;padding:0;background:#f4f4f5;">
${preheader}
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
}

function renderText(content: EmailContent, { home, action, unsubscribe, image }: EmailLinks): string {
  const blocks = [content.siteName, fullHeading(content), ...content.paragraphs];
  if (action) blocks.push(`${action.label}:\n${action.url}`);
  if (image) blocks.push(`Image:\n${image}`);
  const footer = [content.reason];
  if (unsubscribe) footer.push(`Unsubscribe: ${unsubscribe}`);
  footer.push(`${content.siteName}: ${home}`);
  // "-- " (with the space) is the standard signature separator.
  blocks.push(`-- \n${footer.join("\n")}`);
  return `${blocks.join("\n\n")}\n`;
}
