import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";
import { BOOLEAN_COLUMNS, JSON_COLUMNS } from "./schema.ts";

/**
 * SQLite has no boolean or JSON type: it returns 0/1 and JSON text where PostgreSQL
 * returns true/false and parsed jsonb. This plugin, installed on SQLite only, turns
 * those columns back into the same JavaScript values PostgreSQL gives, so the rest
 * of the code sees one set of types (server/db/schema.ts).
 */
export class SqliteResultNormalizer implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const { result } = args;
    if (result.rows.length === 0) return result;
    return { ...result, rows: result.rows.map(normalizeRow) };
  }
}

function normalizeRow(row: UnknownRow): UnknownRow {
  let normalized: UnknownRow | undefined;
  for (const [column, value] of Object.entries(row)) {
    let next = value;
    if (BOOLEAN_COLUMNS.has(column) && typeof value === "number") next = value !== 0;
    else if (JSON_COLUMNS.has(column) && typeof value === "string") next = JSON.parse(value);
    if (next !== value) {
      normalized ??= { ...row };
      normalized[column] = next;
    }
  }
  return normalized ?? row;
}
