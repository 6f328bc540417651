import type { ColumnType, Generated } from "kysely";

/**
 * Row types of every table, as both databases return them: booleans as booleans,
 * numbers as numbers, timestamps as ISO-8601 strings in UTC ("…T…Z"), JSON columns
 * as parsed values (see normalize.ts). Column names follow the spec (snake_case).
 */

export const SECTION_TYPES = ["heading", "text", "tip", "list", "code", "image"] as const;
export const TIP_CATEGORIES = ["Tenable", "AWS", "Security Tips", "Career"] as const;
export const TIP_TYPES = ["external", "coming-soon"] as const;
export const RESOURCE_CATEGORIES = ["Learning", "Tools", "News", "Certifications", "Services"] as const;
export const CERTIFICATION_STATUSES = ["completed", "in-progress", "planned"] as const;
export const TIMELINE_CATEGORIES = ["education", "project", "certification", "career"] as const;
export const ROLES = ["admin", "editor"] as const;
export const SUBSCRIBER_STATUSES = ["active", "pending", "unsubscribed", "bounced"] as const;
export const BOUNCE_TYPES = ["hard", "soft", "complaint"] as const;
export const CONSENT_SOURCES = ["form", "api"] as const;
export const NOTIFICATION_ITEM_TYPES = ["chapter", "tip", "resource"] as const;
export const NOTIFICATION_STATUSES = ["pending", "sent", "cancelled"] as const;
/** unsent: kept in the outbox because no SMTP server is configured (the embedded default). */
export const OUTBOX_STATUSES = ["pending", "sending", "sent", "failed", "unsent"] as const;
/** owner-setup: the one-time link logged at the first start, for the first admin account. */
export const INVITATION_KINDS = ["invitation", "owner-setup"] as const;

/** Columns that SQLite returns as 0/1 and that are turned into booleans. */
export const BOOLEAN_COLUMNS = new Set(["is_visible", "published", "featured"]);
/** Columns stored as JSON text on SQLite (jsonb on PostgreSQL) and parsed on read. */
export const JSON_COLUMNS = new Set(["metadata", "details", "headers", "variants"]);

type Timestamp = string;
type JsonObject = Record<string, unknown>;

declare const jsonOf: unique symbol;
/** The JSON text of a `T`, as a JSON column is written (toJson). */
export type JsonText<T> = string & { readonly [jsonOf]: T };
/** `value` as the JSON text its column is written with (jsonb on PostgreSQL casts it on insert). */
export const toJson = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;
/**
 * A JSON column: read as the parsed `T` (normalize.ts parses SQLite's text; pg parses
 * jsonb), written as the JSON text of a `T`, optional on insert (it has a default).
 */
type JsonColumn<T> = ColumnType<T, JsonText<T> | undefined, JsonText<T>>;

export interface HomePageContentTable {
  section_key: string;
  content_value: string;
  is_visible: Generated<boolean>;
  metadata: JsonColumn<JsonObject>;
  display_order: Generated<number>;
  updated_at: Generated<Timestamp>;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface ChaptersTable {
  id: string;
  slug: string;
  title: string;
  number: number;
  order_index: number;
  published: Generated<boolean>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  published_at: Timestamp | null;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface ChapterSlugRedirectsTable {
  /** A slug the chapter had before it was renamed. */
  slug: string;
  chapter_id: string;
  created_at: Generated<Timestamp>;
}

export interface ChapterSectionsTable {
  id: string;
  chapter_id: string;
  type: (typeof SECTION_TYPES)[number];
  content: string;
  caption: string | null;
  language: string | null;
  /** Image sections: the image's text alternative (the caption is shown, the alt is read). */
  alt: string | null;
  order_index: number;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface TipsResourcesTable {
  id: string;
  category: (typeof TIP_CATEGORIES)[number];
  title: string;
  description: Generated<string>;
  url: string | null;
  type: Generated<(typeof TIP_TYPES)[number]>;
  order_index: Generated<number>;
  created_at: Generated<Timestamp>;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface ResourcesTable {
  id: string;
  name: string;
  description: Generated<string>;
  url: string;
  category: Generated<(typeof RESOURCE_CATEGORIES)[number]>;
  featured: Generated<boolean>;
  order_index: Generated<number>;
  created_at: Generated<Timestamp>;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface CertificationsTable {
  id: string;
  name: string;
  organization: Generated<string>;
  description: Generated<string>;
  date: Generated<string>;
  status: Generated<(typeof CERTIFICATION_STATUSES)[number]>;
  order_index: number;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface SkillsTable {
  id: string;
  name: string;
  level: Generated<number>;
  category: string | null;
  order_index: number;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface TimelineEventsTable {
  id: string;
  date: string;
  title: string;
  description: Generated<string>;
  category: Generated<(typeof TIMELINE_CATEGORIES)[number]>;
  order_index: number;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface SiteContentTable {
  key: string;
  value: string;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface SiteSettingsTable {
  setting_key: string;
  setting_value: string;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface UserRolesTable {
  user_id: string;
  role: (typeof ROLES)[number];
  created_at: Generated<Timestamp>;
}

export interface NewsletterSubscribersTable {
  id: string;
  email: string;
  status: Generated<(typeof SUBSCRIBER_STATUSES)[number]>;
  subscribed_at: Generated<Timestamp>;
  confirmed_at: Timestamp | null;
  unsubscribed_at: Timestamp | null;
  /** SHA-256 of the confirmation token sent by email; the token itself is never stored. */
  confirmation_token_hash: string | null;
  confirmation_expires_at: Timestamp | null;
  /** When the last confirmation email was queued (at most one per 5 minutes). */
  last_confirmation_sent_at: Timestamp | null;
  /** Consent: when, through what, and a keyed hash of the IP (never the IP itself). */
  consent_at: Timestamp | null;
  consent_source: (typeof CONSENT_SOURCES)[number] | null;
  consent_ip_hash: string | null;
  /** When the address was last marked bounced; kept when a later bounce report or unsubscribe click comes. */
  bounced_at: Timestamp | null;
  updated_at: Generated<Timestamp>;
}

/**
 * A stretch of time a subscriber was active: from a confirmation to the unsubscribe,
 * bounce or new subscription that ended it (null: still active). Kept apart from the
 * subscriber's row, whose dates a new subscription overwrites, so the past stays put.
 */
export interface NewsletterActivePeriodsTable {
  id: string;
  subscriber_id: string;
  started_at: Timestamp;
  ended_at: Timestamp | null;
}

export interface NewsletterBouncesTable {
  id: string;
  email: string;
  type: (typeof BOUNCE_TYPES)[number];
  reason: Generated<string>;
  received_at: Generated<Timestamp>;
}

export interface RequestLimitsTable {
  key: string;
  count: number;
  window_started_at: Timestamp;
}

export interface NewsletterSuppressionsTable {
  id: string;
  email: string;
  reason: string;
  added_at: Generated<Timestamp>;
}

export interface NewsletterSettingsTable {
  setting_key: string;
  setting_value: string;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface NotificationsTable {
  id: string;
  item_type: (typeof NOTIFICATION_ITEM_TYPES)[number];
  item_id: string;
  title: string;
  summary: Generated<string>;
  url: string;
  image_url: string | null;
  status: Generated<(typeof NOTIFICATION_STATUSES)[number]>;
  created_at: Generated<Timestamp>;
  /** Created items wait a grace period (unpublishing within it cancels the email). */
  scheduled_for: Generated<Timestamp>;
  sent_at: Timestamp | null;
}

export interface EmailOutboxTable {
  id: string;
  /** Unique per email the product means to send, e.g. `reset:{verification-id}`: enqueueing twice sends once. */
  idempotency_key: string;
  /** What the email is (password-reset, invitation, confirmation, notification, …), for the admin's email log. */
  kind: string;
  /** The batch the email belongs to (a newsletter notification's id), for counting its progress. */
  batch_id: string | null;
  to_address: string;
  subject: string;
  html_body: string;
  text_body: string;
  headers: JsonColumn<Record<string, string>>;
  status: Generated<(typeof OUTBOX_STATUSES)[number]>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Timestamp>;
  /** While status is `sending`: the claim of one worker, taken over by another once expired. */
  lease_expires_at: Timestamp | null;
  last_error: string | null;
  message_id: string | null;
  created_at: Generated<Timestamp>;
  sent_at: Timestamp | null;
}

export interface AccountInvitationsTable {
  id: string;
  kind: (typeof INVITATION_KINDS)[number];
  /** The invited address; null for the owner-setup link, which anyone holding it may use once. */
  email: string | null;
  role: (typeof ROLES)[number];
  /** SHA-256 of the token in the link; the token itself is never stored. */
  token_hash: string;
  invited_by: string | null;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
}

/** An account's phone as a second factor: pending until a code sent to it is entered. */
export interface PhoneFactorsTable {
  user_id: string;
  /** E.164: "+" and the digits, e.g. "+447700900123". */
  phone_number: string;
  /** When a code sent to the number confirmed it; null while pending (not asked for at sign-in). */
  verified_at: Timestamp | null;
  created_at: Generated<Timestamp>;
}

/** A text message waiting to be sent, or the record of one (server/sms/outbox.ts). */
export interface SmsOutboxTable {
  id: string;
  /** What the message is (two-factor-code), for the log. */
  kind: string;
  /** The account it was sent for, counted by the per-account send limit. */
  user_id: string | null;
  to_number: string;
  /** The text, which holds a code: cleared once a provider has taken it or it has failed. */
  body: string | null;
  status: Generated<(typeof OUTBOX_STATUSES)[number]>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Timestamp>;
  /** While status is `sending`: the claim of one worker, taken over by another once expired. */
  lease_expires_at: Timestamp | null;
  /** When the code it carries expires: not sent after that. */
  expires_at: Timestamp;
  last_error: string | null;
  created_at: Generated<Timestamp>;
  sent_at: Timestamp | null;
}

export const MEDIA_FORMATS = ["jpeg", "png", "webp", "gif"] as const;

/** A smaller copy of a media image, made at upload for srcset. */
export interface MediaVariant {
  width: number;
  height: number;
  format: (typeof MEDIA_FORMATS)[number];
  /** Path in the same bucket as the original. */
  path: string;
  bytes: number;
}

export interface MediaTable {
  id: string;
  bucket: string;
  path: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  created_at: Generated<Timestamp>;
  created_by: string | null;
  /** The image's text alternative, used where a section gives none. */
  alt: string | null;
  /** The file name it was uploaded under, for people (never used as a path). */
  original_name: string | null;
  /** The address an imported image was fetched from. */
  source_url: string | null;
  /** Widest last; empty for an image too small to need any. */
  variants: JsonColumn<MediaVariant[]>;
  /** Raised by every change; a save naming an older one is refused (optimistic concurrency). */
  revision: Generated<number>;
}

export interface AuditLogTable {
  id: string;
  at: Generated<Timestamp>;
  /** Who acted, null for the system. Not a reference: it outlives the user's deletion. */
  user_id: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  details: JsonColumn<JsonObject>;
}

/** The revision of an ordered list's order, e.g. `chapter_sections:{chapter id}` or `skills`. */
export interface ListRevisionsTable {
  list_key: string;
  revision: Generated<number>;
}

export interface PageViewsTable {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  path: string;
  views: Generated<number>;
}

export interface AppTables {
  home_page_content: HomePageContentTable;
  chapters: ChaptersTable;
  chapter_sections: ChapterSectionsTable;
  chapter_slug_redirects: ChapterSlugRedirectsTable;
  tips_resources: TipsResourcesTable;
  resources: ResourcesTable;
  certifications: CertificationsTable;
  skills: SkillsTable;
  timeline_events: TimelineEventsTable;
  site_content: SiteContentTable;
  site_settings: SiteSettingsTable;
  user_roles: UserRolesTable;
  newsletter_subscribers: NewsletterSubscribersTable;
  newsletter_active_periods: NewsletterActivePeriodsTable;
  newsletter_suppressions: NewsletterSuppressionsTable;
  newsletter_bounces: NewsletterBouncesTable;
  request_limits: RequestLimitsTable;
  newsletter_settings: NewsletterSettingsTable;
  notifications: NotificationsTable;
  email_outbox: EmailOutboxTable;
  account_invitations: AccountInvitationsTable;
  phone_factors: PhoneFactorsTable;
  sms_outbox: SmsOutboxTable;
  media: MediaTable;
  audit_log: AuditLogTable;
  page_views: PageViewsTable;
  list_revisions: ListRevisionsTable;
}

export type Database = AppTables;
