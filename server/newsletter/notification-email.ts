import { renderEmail, safeLink } from "../mail/templates.ts";

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

/** One line, no control characters: a subject or header must never carry a line break. */
const oneLine = (value: string) => value.replace(/[\s\p{Cc}]+/gu, " ").trim();

/** The layout of every email (server/mail/templates.ts), with the item's image, kicker and link. */
export function renderNotificationEmail(input: NotificationEmailInput): NotificationEmail {
  const home = safeLink(input.publicOrigin);
  const oneClick = safeLink(input.oneClickUnsubscribeUrl ?? input.unsubscribeUrl, home);
  const title = oneLine(input.title);
  const postType = oneLine(input.postType);
  const subject = oneLine(`${input.subjectPrefix ? `${input.subjectPrefix} ` : ""}New ${postType}: ${title}`).slice(
    0,
    998,
  );
  const summary = input.summary.trim();
  const { html, text } = renderEmail({
    siteName: input.siteName,
    publicOrigin: input.publicOrigin,
    preheader: summary ? oneLine(summary) : undefined,
    kicker: `New ${postType}`,
    heading: title,
    image: input.imageUrl ? { url: input.imageUrl, alt: title } : undefined,
    paragraphs: summary ? [summary] : [],
    action: { label: "Read it now", url: input.url },
    reason: `You are receiving this email because you subscribed to updates from ${input.siteName}.`,
    unsubscribeUrl: input.unsubscribeUrl,
  });
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
