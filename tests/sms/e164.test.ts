import { describe, expect, it } from "vitest";
import { toE164 } from "../../server/sms/e164.ts";

describe("phone numbers written with the trunk prefix", () => {
  it('leave out a "(0)" after the country code rather than dialling it', () => {
    expect(toE164("+44 (0)7700 900123")).toBe("+447700900123");
    expect(toE164("+49 (0) 30 1234567")).toBe("+49301234567");
    expect(toE164("0044 (0)20 7946 0000")).toBe("+442079460000");
    // Brackets around digits that are dialled stay separators.
    expect(toE164("+1 (202) 555-0143")).toBe("+12025550143");
    expect(toE164("+39 06 6982 0000")).toBe("+390669820000");
  });

  it("leave out the trunk prefix written without brackets, where the country has one", () => {
    expect(toE164("+44 07700 900123")).toBe("+447700900123");
    expect(toE164("+49 0151 23456789")).toBe("+4915123456789");
    // Italy's leading 0 is part of the number.
    expect(toE164("+39 06 6982 0000")).toBe("+390669820000");
  });
});

describe("numbers that are not ones", () => {
  it("are refused: no country code, one that does not exist, or too few or too many digits for the country", () => {
    for (const typed of ["07700 900123", "+999 123456789", "+44 7700 9001", "+1 202 555 01430", "+44 7700 9OO123"]) {
      expect(toE164(typed), typed).toBeNull();
    }
  });
});
