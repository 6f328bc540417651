import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../connection.ts";
import * as initialSchema from "./0001-initial-schema.ts";
import * as emailOutboxBatch from "./0002-email-outbox-batch.ts";
import * as contentRevisions from "./0003-content-revisions.ts";
import * as media from "./0004-media.ts";
import * as phoneFactor from "./0005-phone-factor.ts";
import * as auditActorKept from "./0006-audit-actor-kept.ts";
import * as subscriberBouncedAt from "./0007-subscriber-bounced-at.ts";
import * as newsletterActivePeriods from "./0008-newsletter-active-periods.ts";

interface DialectAwareMigration {
  up(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
  down?(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
}

/** Every migration, in order. Names sort lexically; never rename or edit a released one. */
const MIGRATIONS: Record<string, DialectAwareMigration> = {
  "0001-initial-schema": initialSchema,
  "0002-email-outbox-batch": emailOutboxBatch,
  "0003-content-revisions": contentRevisions,
  "0004-media": media,
  "0005-phone-factor": phoneFactor,
  "0006-audit-actor-kept": auditActorKept,
  "0007-subscriber-bounced-at": subscriberBouncedAt,
  "0008-newsletter-active-periods": newsletterActivePeriods,
};

/** The migrations bound to one dialect: column types differ, the schema does not. */
export function migrationsFor(dialect: DialectName): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, migration]) => [
      name,
      {
        up: (db: Kysely<unknown>) => migration.up(db, dialect),
        down: migration.down ? (db: Kysely<unknown>) => migration.down!(db, dialect) : undefined,
      },
    ]),
  );
}
