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
 * of the code sees one set of types (server/db/schema.ts). Rows also become plain
 * objects, as pg's are (node:sqlite's have a null prototype).
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
  // node:sqlite returns null-prototype objects; pg returns plain ones. Copying every
  // row gives both dialects the same kind of object (toString, hasOwnProperty, deep
  // equality in tests), and lets the converted columns be set without mutating.
  const normalized: UnknownRow = { ...row };
  for (const [column, value] of Object.entries(row)) {
    if (BOOLEAN_COLUMNS.has(column) && typeof value === "number") normalized[column] = value !== 0;
    else if (JSON_COLUMNS.has(column) && typeof value === "string") normalized[column] = JSON.parse(value);
  }
  return normalized;
}
