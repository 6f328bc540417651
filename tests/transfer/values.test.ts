import { describe, expect, it } from "vitest";
import { checkRow, decodeValue, encodeValue, ValueError } from "../../server/transfer/values.ts";

describe("values in exports, the same whichever database they come from", () => {
  it("writes booleans as true/false, whether stored as 0/1 (SQLite) or booleans (PostgreSQL)", () => {
    expect([encodeValue("boolean", 1), encodeValue("boolean", 0), encodeValue("boolean", true)]).toEqual([
      true,
      false,
      true,
    ]);
    expect(() => encodeValue("boolean", 2)).toThrow(ValueError);
  });

  it("writes timestamps as ISO-8601 UTC with milliseconds, SQLite's own form read as UTC", () => {
    expect(encodeValue("timestamp", "2026-11-24T01:02:03Z")).toBe("2026-11-24T01:02:03.000Z");
    expect(encodeValue("timestamp", "2026-11-24 01:02:03")).toBe("2026-11-24T01:02:03.000Z");
    expect(encodeValue("timestamp", new Date(Date.UTC(2026, 10, 24, 1, 2, 3, 456)))).toBe("2026-11-24T01:02:03.456Z");
    expect(() => encodeValue("timestamp", "yesterday")).toThrow(ValueError);
  });

  it("writes JSON columns as JSON with sorted keys, from text (SQLite) or parsed jsonb", () => {
    const fromSqlite = encodeValue("json", '{"width":480,"format":"webp","nested":{"b":1,"a":2}}');
    const fromPostgres = encodeValue("json", { format: "webp", nested: { a: 2, b: 1 }, width: 480 });
    expect(JSON.stringify(fromSqlite)).toBe('{"format":"webp","nested":{"a":2,"b":1},"width":480}');
    expect(JSON.stringify(fromPostgres)).toBe(JSON.stringify(fromSqlite));
    expect(decodeValue("json", fromSqlite)).toBe('{"format":"webp","nested":{"a":2,"b":1},"width":480}');
  });

  it("writes bigints as numbers and refuses integers beyond JavaScript's safe range", () => {
    expect(encodeValue("bigint", 1732170000000n)).toBe(1732170000000);
    expect(() => encodeValue("integer", 2 ** 60)).toThrow(ValueError);
    expect(encodeValue("text", null)).toBeNull();
  });

  it("checks a row read from a file against its columns, naming the first bad one", () => {
    const columns = ["id", "published", "created_at"];
    const kinds = ["text", "boolean", "timestamp"] as const;
    expect(checkRow(columns, [...kinds], ["x", true, "2026-11-24T01:02:03.000Z"])).toBeNull();
    expect(checkRow(columns, [...kinds], ["x", true])).toBe("a row must have 3 values, this one has 2");
    expect(checkRow(columns, [...kinds], { id: "x" })).toBe("a row must be a JSON array of values");
    expect(checkRow(columns, [...kinds], ["x", true, "2026-11-24"])).toBe(
      'column "created_at" must be a timestamp in UTC, as YYYY-MM-DDTHH:MM:SS.sssZ',
    );
  });

  it("refuses values SQLite would store and PostgreSQL or the next export would not", () => {
    const check = (kind: "text" | "integer" | "timestamp" | "json", value: unknown) =>
      checkRow(["value"], [kind], [value]);
    expect(check("timestamp", "2024-13-45T99:99:99.999Z")).toBe('column "value" must be a date and time that exists');
    expect(check("timestamp", "2024-02-30T00:00:00.000Z")).toBe('column "value" must be a date and time that exists');
    expect(check("timestamp", "2024-02-29T23:59:59.999Z")).toBeNull();
    const noNul = 'column "value" must not contain a NUL character (U+0000), which PostgreSQL cannot store';
    expect(check("text", "a\u0000b")).toBe(noNul);
    expect(check("json", { note: ["a\u0000b"] })).toBe(noNul);
    expect(check("json", { "a\u0000": 1 })).toBe(noNul);
    expect(check("integer", 2_147_483_648)).toBe('column "value" must be an integer up to 2147483647');
    expect(check("integer", -2_147_483_649)).toBe('column "value" must be an integer from -2147483648');
    expect(check("integer", -2_147_483_648)).toBeNull();
  });
});
