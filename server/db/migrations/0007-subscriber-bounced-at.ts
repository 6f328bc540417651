import { type Kysely, sql } from "kysely";
import type { DialectName } from "../connection.ts";

/**
 * newsletter_subscribers.bounced_at: when the address was marked bounced. The
 * active-subscribers chart took a bounced subscriber's last change (`updated_at`) as
 * the day they left, but a second bounce report or a click on the unsubscribe link
 * after the bounce moves that date, and the chart then counted them as active in
 * between. Rows bounced before this migration get their last change, the best date
 * there is for them.
 */

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable("newsletter_subscribers")
    .addColumn("bounced_at", dialect === "postgres" ? "timestamptz" : "text")
    .execute();
  await sql`update newsletter_subscribers set bounced_at = updated_at where status = 'bounced'`.execute(db);
}
