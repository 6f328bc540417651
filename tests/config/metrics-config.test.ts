import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { configError } from "../helpers/config-error.ts";

/** METRICS_TOKEN and METRICS_PORT (server/metrics/endpoint.ts): parsed values and each refusal. */

describe("metrics settings", () => {
  it("are off by default", () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, port: undefined });
  });

  it("take a token and a port", () => {
    const config = loadConfig({ METRICS_TOKEN: " s3cret-metrics-token ", METRICS_PORT: "9464" });
    expect(config.metrics).toEqual({ token: "s3cret-metrics-token", port: 9464 });
  });

  it.each([
    [{ METRICS_TOKEN: "short" }, "METRICS_TOKEN must be 16 to 200 printable characters without spaces"],
    [
      { METRICS_TOKEN: "has a space in it, 16+" },
      "METRICS_TOKEN must be 16 to 200 printable characters without spaces",
    ],
    [{ METRICS_TOKEN: "x".repeat(201) }, "METRICS_TOKEN must be 16 to 200 printable characters without spaces"],
    [{ METRICS_PORT: "metrics" }, "METRICS_PORT must be an integer between 1 and 65535"],
    [{ METRICS_PORT: "70000" }, "METRICS_PORT must be an integer between 1 and 65535"],
    [{ METRICS_PORT: "0" }, "METRICS_PORT must be an integer between 1 and 65535"],
    [
      { PORT: "8080", METRICS_PORT: "8080" },
      "METRICS_PORT must differ from PORT: the metrics listener is a separate one",
    ],
  ])("%o is refused", (env, message) => {
    expect(configError(env)).toBe(message);
  });
});
