import { describe, expect, it, vi } from "vitest";
import {
  AppError,
  Conflict,
  describeError,
  errorResponse,
  Invalid,
  NotFound,
  RateLimited,
} from "../../server/errors.ts";

describe("AppError", () => {
  it("is recognised by kind, also when made by another copy of the module (the server bundle has its own)", async () => {
    vi.resetModules();
    const copy = await import("../../server/errors.ts");
    expect(copy.Invalid).not.toBe(Invalid);
    const invalid = new copy.Invalid({ title: "Chapter title is required" });
    expect(invalid instanceof AppError).toBe(true);
    expect(invalid instanceof Invalid).toBe(true);
    expect(invalid instanceof NotFound).toBe(false);
    expect(describeError(invalid)).toEqual({
      status: 400,
      message: "Chapter title is required",
      fields: { title: "Chapter title is required" },
      expected: true,
    });
    expect(new Error("x") instanceof AppError).toBe(false);
    expect({ message: "look-alike", status: 400 } instanceof AppError).toBe(false);
  });

  it("describes anything else as an unexpected 500 that leaks nothing", () => {
    const described = describeError(new Error("connection refused at 10.0.0.5"));
    expect(described.status).toBe(500);
    expect(described.expected).toBe(false);
    expect(described.message).not.toContain("10.0.0.5");
  });

  it("answers JSON routes with the status, the message, the fields and Retry-After", async () => {
    const conflict = errorResponse(new Conflict("Stale."));
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ error: "Stale." });
    const limited = errorResponse(new RateLimited("Slow down.", 12.2));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("13");
    const invalid = errorResponse(new Invalid({ url: "Enter a URL" }));
    expect(await invalid.json()).toEqual({ error: "Enter a URL", fields: { url: "Enter a URL" } });
  });
});
