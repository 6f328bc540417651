import { type ColumnDefinitionBuilder, type Kysely, type RawBuilder, sql } from "kysely";
import type { DialectName } from "../connection.ts";
import {
  BOUNCE_TYPES,
  CERTIFICATION_STATUSES,
  INVITATION_KINDS,
  NOTIFICATION_ITEM_TYPES,
  NOTIFICATION_STATUSES,
  OUTBOX_STATUSES,
  RESOURCE_CATEGORIES,
  ROLES,
  SECTION_TYPES,
  SUBSCRIBER_STATUSES,
  TIMELINE_CATEGORIES,
  TIP_CATEGORIES,
  TIP_TYPES,
} from "../schema.ts";
import { BETTER_AUTH_TABLES, createBetterAuthTables } from "./better-auth-tables.ts";

/**
 * The whole data model of ARCHITECTURE.md. Migrations are frozen once released:
 * later changes go in new files, never here. The constant lists are imported
 * rather than copied so the CHECK constraints and the TypeScript types agree.
 */

const APP_TABLES = [
  "page_views",
  "audit_log",
  "media",
  "account_invitations",
  "email_outbox",
  "notifications",
  "newsletter_settings",
  "request_limits",
  "newsletter_bounces",
  "newsletter_suppressions",
  "newsletter_subscribers",
  "user_roles",
  "site_settings",
  "site_content",
  "timeline_events",
  "skills",
  "certifications",
  "resources",
  "tips_resources",
  "chapter_sections",
  "chapter_slug_redirects",
  "chapters",
  "home_page_content",
] as const;

function oneOf(column: string, values: readonly string[]): RawBuilder<unknown> {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;
}

function columnTypes(dialect: DialectName) {
  const postgres = dialect === "postgres";
  return {
    timestamp: postgres ? ("timestamptz" as const) : ("text" as const),
    json: postgres ? ("jsonb" as const) : ("text" as const),
    /** Default for timestamp columns: the current time in the same ISO form the app writes. */
    now: (column: ColumnDefinitionBuilder) =>
      column.defaultTo(postgres ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
    emptyObject: (column: ColumnDefinitionBuilder) => column.defaultTo(postgres ? sql`'{}'::jsonb` : sql`'{}'`),
  };
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);

  await createBetterAuthTables(db, dialect);

  await db.schema
    .createTable("home_page_content")
    .addColumn("section_key", "text", (c) => c.primaryKey())
    .addColumn("content_value", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("is_visible", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("metadata", t.json, (c) => t.emptyObject(c).notNull())
    .addColumn("display_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", t.timestamp, (c) => t.now(c).notNull())
    .execute();
  await db.schema
    .createIndex("home_page_content_display_order_idx")
    .on("home_page_content")
    .column("display_order")
    .execute();

  await db.schema
    .createTable("chapters")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("order_index", "integer", (c) => c.notNull())
    .addColumn("published", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("updated_at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("published_at", t.timestamp)
    .addCheckConstraint("chapters_title_not_blank", sql`length(trim(title)) > 0`)
    .execute();
  await db.schema.createIndex("chapters_order_idx").on("chapters").column("order_index").execute();
  await db.schema
    .createIndex("chapters_published_order_idx")
    .on("chapters")
    .columns(["published", "order_index"])
    .execute();

  // Earlier slugs of renamed chapters, so that old links redirect to the current one.
  await db.schema
    .createTable("chapter_slug_redirects")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("chapter_id", "text", (c) => c.notNull().references("chapters.id").onDelete("cascade"))
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .execute();

  await db.schema
    .createTable("chapter_sections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("chapter_id", "text", (c) => c.notNull().references("chapters.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("caption", "text")
    .addColumn("language", "text")
    .addColumn("order_index", "integer", (c) => c.notNull())
    .addCheckConstraint("chapter_sections_type_check", oneOf("type", SECTION_TYPES))
    .execute();
  await db.schema
    .createIndex("chapter_sections_chapter_order_idx")
    .on("chapter_sections")
    .columns(["chapter_id", "order_index"])
    .execute();

  await db.schema
    .createTable("tips_resources")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("category", "text", (c) => c.notNull().defaultTo("Tenable"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("url", "text")
    .addColumn("type", "text", (c) => c.notNull().defaultTo("external"))
    .addColumn("order_index", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .addCheckConstraint("tips_resources_category_check", oneOf("category", TIP_CATEGORIES))
    .addCheckConstraint("tips_resources_type_check", oneOf("type", TIP_TYPES))
    .execute();
  await db.schema
    .createIndex("tips_resources_category_order_idx")
    .on("tips_resources")
    .columns(["category", "order_index"])
    .execute();

  await db.schema
    .createTable("resources")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("category", "text", (c) => c.notNull().defaultTo("Learning"))
    .addColumn("featured", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("order_index", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .addCheckConstraint("resources_category_check", oneOf("category", RESOURCE_CATEGORIES))
    .execute();
  await db.schema.createIndex("resources_order_idx").on("resources").column("order_index").execute();

  await db.schema
    .createTable("certifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("organization", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("date", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("completed"))
    .addColumn("order_index", "integer", (c) => c.notNull())
    .addCheckConstraint("certifications_status_check", oneOf("status", CERTIFICATION_STATUSES))
    .execute();
  await db.schema.createIndex("certifications_order_idx").on("certifications").column("order_index").execute();

  await db.schema
    .createTable("skills")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("level", "integer", (c) => c.notNull().defaultTo(50))
    .addColumn("category", "text")
    .addColumn("order_index", "integer", (c) => c.notNull())
    .addCheckConstraint("skills_level_range", sql`level between 0 and 100`)
    .execute();
  await db.schema.createIndex("skills_order_idx").on("skills").column("order_index").execute();

  await db.schema
    .createTable("timeline_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("date", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("category", "text", (c) => c.notNull().defaultTo("project"))
    .addColumn("order_index", "integer", (c) => c.notNull())
    .addCheckConstraint("timeline_events_category_check", oneOf("category", TIMELINE_CATEGORIES))
    .execute();
  await db.schema.createIndex("timeline_events_order_idx").on("timeline_events").column("order_index").execute();

  await db.schema
    .createTable("site_content")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull().defaultTo(""))
    .execute();

  await db.schema
    .createTable("site_settings")
    .addColumn("setting_key", "text", (c) => c.primaryKey())
    .addColumn("setting_value", "text", (c) => c.notNull().defaultTo(""))
    .execute();

  await db.schema
    .createTable("user_roles")
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .addPrimaryKeyConstraint("user_roles_pk", ["user_id", "role"])
    .addCheckConstraint("user_roles_role_check", oneOf("role", ROLES))
    .execute();

  await db.schema
    .createTable("newsletter_subscribers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("subscribed_at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("confirmed_at", t.timestamp)
    .addColumn("unsubscribed_at", t.timestamp)
    .addColumn("confirmation_token_hash", "text", (c) => c.unique())
    .addColumn("confirmation_expires_at", t.timestamp)
    .addColumn("last_confirmation_sent_at", t.timestamp)
    .addColumn("consent_at", t.timestamp)
    .addColumn("consent_source", "text")
    .addColumn("consent_ip_hash", "text")
    .addColumn("updated_at", t.timestamp, (c) => t.now(c).notNull())
    .addCheckConstraint("newsletter_subscribers_consent_source_check", sql`consent_source in ('form', 'api')`)
    .addCheckConstraint("newsletter_subscribers_status_check", oneOf("status", SUBSCRIBER_STATUSES))
    .addCheckConstraint("newsletter_subscribers_email_lower", sql`email = lower(email)`)
    .execute();
  await db.schema
    .createIndex("newsletter_subscribers_subscribed_idx")
    .on("newsletter_subscribers")
    .column("subscribed_at")
    .execute();
  await db.schema
    .createIndex("newsletter_subscribers_status_idx")
    .on("newsletter_subscribers")
    .columns(["status", "subscribed_at"])
    .execute();

  await db.schema
    .createTable("newsletter_suppressions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("added_at", t.timestamp, (c) => t.now(c).notNull())
    .addCheckConstraint("newsletter_suppressions_email_lower", sql`email = lower(email)`)
    .execute();
  await db.schema
    .createIndex("newsletter_suppressions_added_idx")
    .on("newsletter_suppressions")
    .column("added_at")
    .execute();

  await db.schema
    .createTable("newsletter_bounces")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("received_at", t.timestamp, (c) => t.now(c).notNull())
    .addCheckConstraint("newsletter_bounces_type_check", oneOf("type", BOUNCE_TYPES))
    .addCheckConstraint("newsletter_bounces_email_lower", sql`email = lower(email)`)
    .execute();
  await db.schema
    .createIndex("newsletter_bounces_email_idx")
    .on("newsletter_bounces")
    .columns(["email", "received_at"])
    .execute();

  // Fixed-window counters for our own rate limits (newsletter subscribe, bounce webhook),
  // shared through the database so that they hold across instances.
  await db.schema
    .createTable("request_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("window_started_at", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("newsletter_settings")
    .addColumn("setting_key", "text", (c) => c.primaryKey())
    .addColumn("setting_value", "text", (c) => c.notNull().defaultTo(""))
    .execute();

  await db.schema
    .createTable("notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("item_type", "text", (c) => c.notNull())
    .addColumn("item_id", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("image_url", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("scheduled_for", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("sent_at", t.timestamp)
    .addUniqueConstraint("notifications_item_unique", ["item_type", "item_id"])
    .addCheckConstraint("notifications_item_type_check", oneOf("item_type", NOTIFICATION_ITEM_TYPES))
    .addCheckConstraint("notifications_status_check", oneOf("status", NOTIFICATION_STATUSES))
    .execute();
  await db.schema
    .createIndex("notifications_status_idx")
    .on("notifications")
    .columns(["status", "created_at"])
    .execute();

  await db.schema
    .createTable("email_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("html_body", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("headers", t.json, (c) => t.emptyObject(c).notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("lease_expires_at", t.timestamp)
    .addColumn("last_error", "text")
    .addColumn("message_id", "text")
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("sent_at", t.timestamp)
    .addCheckConstraint("email_outbox_status_check", oneOf("status", OUTBOX_STATUSES))
    .execute();
  await db.schema
    .createIndex("email_outbox_due_idx")
    .on("email_outbox")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema.createIndex("email_outbox_created_idx").on("email_outbox").column("created_at").execute();

  await db.schema
    .createTable("account_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("invited_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("accepted_at", t.timestamp)
    .addCheckConstraint("account_invitations_kind_check", oneOf("kind", INVITATION_KINDS))
    .addCheckConstraint("account_invitations_role_check", oneOf("role", ROLES))
    .addCheckConstraint("account_invitations_email_lower", sql`email is null or email = lower(email)`)
    .execute();

  await db.schema
    .createTable("media")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("mime", "text", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("created_by", "text", (c) => c.references("user.id").onDelete("set null"))
    .addUniqueConstraint("media_bucket_path_unique", ["bucket", "path"])
    .execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("user_id", "text", (c) => c.references("user.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("entity", "text", (c) => c.notNull())
    .addColumn("entity_id", "text")
    .addColumn("details", t.json, (c) => t.emptyObject(c).notNull())
    .execute();
  await db.schema.createIndex("audit_log_at_idx").on("audit_log").column("at").execute();

  await db.schema
    .createTable("page_views")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("page_views_pk", ["day", "path"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...APP_TABLES, ...BETTER_AUTH_TABLES]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
