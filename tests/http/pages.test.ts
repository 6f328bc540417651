import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { type LogLine, type RunningServer, startServer } from "../helpers/server.ts";
import { header, request } from "./client.ts";

/** Pages as plain HTTP sees them (the layout reads the database, hence per dialect). */

describe.each(TEST_DIALECTS)("pages on %s", (dialect) => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ dialect });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("renders the home page as complete HTML", async () => {
    const response = await request(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(header(response, "content-type")).toMatch(/^text\/html/);
    const html = response.text();
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain('data-testid="primary-nav"');
    expect(html).toContain('data-testid="footer-linkedin"');
  });

  it("answers an unknown path with the 404 page and logs the path as a warning", async () => {
    const response = await request(`${server.url}/nope`);
    expect(response.status).toBe(404);
    const html = response.text();
    expect(html).toContain("Oops! Page not found");
    expect(html).toMatch(/<a\b[^>]*href="\/"[^>]*>(?:(?!<\/a>).)*Return to Home/s);

    const warning = await server.waitForLog(
      (line) => line.level === 40 && (line.path === "/nope" || (line.req as LogLine | undefined)?.path === "/nope"),
    );
    expect(warning.msg).toBeTruthy();
  });

  it("logs one line per request with method, path, status and duration", async () => {
    const before = server.logs().length;
    const response = await request(`${server.url}/?from=request-log-test`);
    expect(response.status).toBe(200);

    const isRequestLine = (line: LogLine) => {
      const req = line.req as { method?: string; path?: string } | undefined;
      return req?.method === "GET" && req.path === "/";
    };
    const line = await server.waitForLog(
      (candidate) => isRequestLine(candidate) && server.logs().indexOf(candidate) >= before,
    );
    expect(line.level).toBe(30);
    expect((line.res as { status?: number } | undefined)?.status).toBe(200);
    expect(typeof line.durationMs).toBe("number");
    expect(line.durationMs as number).toBeGreaterThanOrEqual(0);
    // The query string is not logged (it may carry tokens).
    expect(JSON.stringify(line)).not.toContain("request-log-test");
    expect(server.logs().slice(before).filter(isRequestLine)).toHaveLength(1);
  });
});
