import { describe, expect, it } from "vitest";
import { toE164 } from "../../server/sms/phone-number.ts";

describe("phone numbers written with the trunk prefix", () => {
  it('leave out a "(0)" after the country code rather than dialling it', () => {
    expect(toE164("+44 (0)7700 900123")).toBe("+447700900123");
    expect(toE164("+49 (0) 30 1234567")).toBe("+49301234567");
    expect(toE164("0044 (0)20 7946 0000")).toBe("+442079460000");
    // Brackets around digits that are dialled stay separators.
    expect(toE164("+1 (202) 555-0143")).toBe("+12025550143");
    expect(toE164("+39 06 6982 0000")).toBe("+390669820000");
  });
});
