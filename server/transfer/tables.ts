/**
 * Every table of the database (server/db/schema.ts and Better Auth's tables), in an
 * order where a table comes after the tables it references: inserted in this order,
 * deleted in the reverse. Backups, restores, exports and imports all take their list
 * of tables and columns from here; tests/transfer/tables.test.ts compares it with the
 * migrated database of each dialect, so a table or column added by a migration and
 * not here fails the tests.
 *
 * Column kinds say how a value is written to an export (docs/data-format.md): the same
 * JSON value whichever database it came from.
 */

import { AUTH_TABLES } from "./auth-tables.ts";
import { type TableSpec, table } from "./table-spec.ts";

export type { ColumnKind, TableSpec } from "./table-spec.ts";

const revision = { revision: "integer" } as const;

export const TABLES: readonly TableSpec[] = [
  ...AUTH_TABLES,

  // Content.
  table(
    "home_page_content",
    true,
    {
      section_key: "text",
      content_value: "text",
      is_visible: "boolean",
      metadata: "json",
      display_order: "integer",
      updated_at: "timestamp",
      ...revision,
    },
    ["section_key"],
    true,
  ),
  table("chapters", true, {
    id: "text",
    slug: "text",
    title: "text",
    number: "integer",
    order_index: "integer",
    published: "boolean",
    created_at: "timestamp",
    updated_at: "timestamp",
    published_at: "timestamp",
    ...revision,
  }),
  table("chapter_slug_redirects", true, { slug: "text", chapter_id: "text", created_at: "timestamp" }, ["slug"]),
  table("chapter_sections", true, {
    id: "text",
    chapter_id: "text",
    type: "text",
    content: "text",
    caption: "text",
    language: "text",
    order_index: "integer",
    ...revision,
    alt: "text",
  }),
  table("tips_resources", true, {
    id: "text",
    category: "text",
    title: "text",
    description: "text",
    url: "text",
    type: "text",
    order_index: "integer",
    created_at: "timestamp",
    ...revision,
  }),
  table("resources", true, {
    id: "text",
    name: "text",
    description: "text",
    url: "text",
    category: "text",
    featured: "boolean",
    order_index: "integer",
    created_at: "timestamp",
    ...revision,
  }),
  table("certifications", true, {
    id: "text",
    name: "text",
    organization: "text",
    description: "text",
    date: "text",
    status: "text",
    order_index: "integer",
    ...revision,
  }),
  table("skills", true, {
    id: "text",
    name: "text",
    level: "integer",
    category: "text",
    order_index: "integer",
    ...revision,
  }),
  table("timeline_events", true, {
    id: "text",
    date: "text",
    title: "text",
    description: "text",
    category: "text",
    order_index: "integer",
    ...revision,
  }),
  table("site_content", true, { key: "text", value: "text", ...revision }, ["key"], true),
  table("site_settings", true, { setting_key: "text", setting_value: "text", ...revision }, ["setting_key"], true),
  table("list_revisions", true, { list_key: "text", revision: "integer" }, ["list_key"]),
  table("user_roles", true, { user_id: "text", role: "text", created_at: "timestamp" }, ["user_id", "role"]),

  // Newsletter.
  table("newsletter_subscribers", true, {
    id: "text",
    email: "text",
    status: "text",
    subscribed_at: "timestamp",
    confirmed_at: "timestamp",
    unsubscribed_at: "timestamp",
    confirmation_token_hash: "text",
    confirmation_expires_at: "timestamp",
    last_confirmation_sent_at: "timestamp",
    consent_at: "timestamp",
    consent_source: "text",
    consent_ip_hash: "text",
    bounced_at: "timestamp",
    updated_at: "timestamp",
  }),
  table("newsletter_active_periods", true, {
    id: "text",
    subscriber_id: "text",
    started_at: "timestamp",
    ended_at: "timestamp",
  }),
  table("newsletter_suppressions", true, { id: "text", email: "text", reason: "text", added_at: "timestamp" }),
  table("newsletter_bounces", true, {
    id: "text",
    email: "text",
    type: "text",
    reason: "text",
    received_at: "timestamp",
  }),
  table("request_limits", false, { key: "text", count: "integer", window_started_at: "timestamp" }, ["key"]),
  table(
    "newsletter_settings",
    true,
    { setting_key: "text", setting_value: "text", ...revision },
    ["setting_key"],
    true,
  ),
  table("notifications", true, {
    id: "text",
    item_type: "text",
    item_id: "text",
    title: "text",
    summary: "text",
    url: "text",
    image_url: "text",
    status: "text",
    created_at: "timestamp",
    scheduled_for: "timestamp",
    sent_at: "timestamp",
  }),
  table("email_outbox", false, {
    id: "text",
    idempotency_key: "text",
    kind: "text",
    batch_id: "text",
    to_address: "text",
    subject: "text",
    html_body: "text",
    text_body: "text",
    headers: "json",
    status: "text",
    attempts: "integer",
    next_attempt_at: "timestamp",
    lease_expires_at: "timestamp",
    last_error: "text",
    message_id: "text",
    created_at: "timestamp",
    sent_at: "timestamp",
  }),

  // Accounts beyond Better Auth's own tables.
  table("account_invitations", false, {
    id: "text",
    kind: "text",
    email: "text",
    role: "text",
    token_hash: "text",
    invited_by: "text",
    created_at: "timestamp",
    expires_at: "timestamp",
    accepted_at: "timestamp",
  }),
  table(
    "phone_factors",
    true,
    { user_id: "text", phone_number: "text", verified_at: "timestamp", created_at: "timestamp" },
    ["user_id"],
  ),
  table("sms_outbox", false, {
    id: "text",
    kind: "text",
    user_id: "text",
    to_number: "text",
    body: "text",
    status: "text",
    attempts: "integer",
    next_attempt_at: "timestamp",
    lease_expires_at: "timestamp",
    expires_at: "timestamp",
    last_error: "text",
    created_at: "timestamp",
    sent_at: "timestamp",
  }),

  // Media metadata (the files travel in backups), history and counts.
  table("media", true, {
    id: "text",
    bucket: "text",
    path: "text",
    mime: "text",
    bytes: "integer",
    width: "integer",
    height: "integer",
    created_at: "timestamp",
    created_by: "text",
    alt: "text",
    original_name: "text",
    source_url: "text",
    variants: "json",
    ...revision,
  }),
  table("audit_log", true, {
    id: "text",
    at: "timestamp",
    user_id: "text",
    action: "text",
    entity: "text",
    entity_id: "text",
    details: "json",
  }),
  table("page_views", true, { day: "text", path: "text", views: "integer" }, ["day", "path"]),
];

/** Kysely's own bookkeeping: the schema version travels in the manifest and header instead. */
export const MIGRATION_TABLES = ["kysely_migration", "kysely_migration_lock"] as const;

export const EXPORTED_TABLES: readonly TableSpec[] = TABLES.filter((spec) => spec.exported);

const BY_NAME = new Map(TABLES.map((spec) => [spec.name, spec]));

export function tableSpec(name: string): TableSpec | undefined {
  return BY_NAME.get(name);
}
