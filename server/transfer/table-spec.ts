/** The shape of an entry of the list of tables (tables.ts). */

export type ColumnKind = "text" | "integer" | "bigint" | "boolean" | "timestamp" | "json";

export interface TableSpec {
  name: string;
  /** Column name to kind, in the order an export writes them. */
  columns: Readonly<Record<string, ColumnKind>>;
  /** The primary key: rows are read in its order (byte order of text), so exports are reproducible. */
  key: readonly string[];
  /**
   * Whether `export` writes the table (a backup always holds every table). Not exported:
   * what only makes sense on the installation that made it (sessions, one-time tokens,
   * rate-limit counters, queued messages) and signing keys sealed with its secret.
   */
  exported: boolean;
  /** Filled with default rows at every start (seed.ts): such rows alone are no data. */
  seeded?: boolean;
}

export const table = (
  name: string,
  exported: boolean,
  columns: Record<string, ColumnKind>,
  key: readonly string[] = ["id"],
  seeded = false,
): TableSpec => ({ name, columns, key, exported, seeded });
