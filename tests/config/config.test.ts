import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { ConfigError, loadConfig, resolveAuthSecret } from "../../server/config.ts";
import { configError } from "../helpers/config-error.ts";
import { runScript } from "../helpers/run-script.ts";

describe("loadConfig", () => {
  it("uses the documented defaults with an empty environment", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.publicOrigin).toBe("http://localhost:3000");
    expect(config.dataDir).toBe(path.resolve("./data"));
    expect(config.database).toEqual({ kind: "sqlite", file: path.resolve("./data/bastion.sqlite") });
    expect(config.logLevel).toBe("info");
    expect(config.env).toBe("production");
    expect(config.trustProxy).toBe(false);
    expect(config.authSecret).toBeUndefined();
    expect(config.admin).toBeUndefined();
    expect(config.s3).toBeUndefined();
    expect(config.imageOrigins).toEqual([]);
    expect(config.mail.smtpUrl).toBeUndefined();
    expect(config.mail).toMatchObject({
      pollIntervalMs: 5_000,
      leaseMs: 120_000,
      retryBaseMs: 30_000,
      notificationPollIntervalMs: 10_000,
    });
  });

  it("reads the mail worker's intervals in seconds", () => {
    const config = loadConfig({
      MAIL_POLL_SECONDS: "0.5",
      MAIL_LEASE_SECONDS: "30",
      MAIL_RETRY_BASE_SECONDS: "2",
      NEWSLETTER_POLL_SECONDS: "1.5",
    });
    expect(config.mail).toMatchObject({
      pollIntervalMs: 500,
      leaseMs: 30_000,
      retryBaseMs: 2_000,
      notificationPollIntervalMs: 1_500,
    });
  });

  it("puts the SQLite file under DATA_DIR", () => {
    const config = loadConfig({ DATA_DIR: "/srv/bastion-data" });
    expect(config.dataDir).toBe("/srv/bastion-data");
    expect(config.database).toEqual({ kind: "sqlite", file: "/srv/bastion-data/bastion.sqlite" });
  });

  it("derives the public origin from PORT when PUBLIC_URL is unset", () => {
    const config = loadConfig({ PORT: "8080", HOST: "0.0.0.0" });
    expect(config.port).toBe(8080);
    expect(config.host).toBe("0.0.0.0");
    expect(config.publicOrigin).toBe("http://localhost:8080");
  });

  it("takes the origin of PUBLIC_URL", () => {
    expect(loadConfig({ PUBLIC_URL: "https://sec.example.com/some/path?q=1" }).publicOrigin).toBe(
      "https://sec.example.com",
    );
    expect(loadConfig({ PUBLIC_URL: "http://example.org:8443" }).publicOrigin).toBe("http://example.org:8443");
  });

  it("selects PostgreSQL when DATABASE_URL starts with postgres://", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://bastion:pw@db.internal:5432/bastion" }).database).toEqual({
      kind: "postgres",
      url: "postgres://bastion:pw@db.internal:5432/bastion",
    });
    expect(loadConfig({ DATABASE_URL: "postgresql://db/bastion" }).database.kind).toBe("postgres");
  });

  it("accepts a sqlite: or file: DATABASE_URL as an SQLite file", () => {
    expect(loadConfig({ DATABASE_URL: "sqlite:/var/lib/bastion/site.db" }).database).toEqual({
      kind: "sqlite",
      file: "/var/lib/bastion/site.db",
    });
    expect(loadConfig({ DATABASE_URL: "file:///var/lib/bastion/site.db" }).database).toEqual({
      kind: "sqlite",
      file: "/var/lib/bastion/site.db",
    });
  });

  it("reads the owner account and the log level", () => {
    const config = loadConfig({
      ADMIN_EMAIL: "owner@example.com",
      ADMIN_PASSWORD: "correct horse battery staple",
      LOG_LEVEL: "debug",
    });
    expect(config.admin).toEqual({
      email: "owner@example.com",
      password: "correct horse battery staple",
      name: "Admin",
    });
    expect(config.logLevel).toBe("debug");
  });

  it("reads IMAGE_ORIGINS as origins, each once", () => {
    const config = loadConfig({
      IMAGE_ORIGINS: " https://images.example.org/, https://cdn.example.com:8443,https://images.example.org",
    });
    expect(config.imageOrigins).toEqual(["https://images.example.org", "https://cdn.example.com:8443"]);
  });

  describe("a bad value gives one line naming the variable", () => {
    it.each([
      [{ PORT: "abc" }, "PORT must be an integer between 1 and 65535"],
      [{ PORT: "70000" }, "PORT must be an integer between 1 and 65535"],
      [{ PORT: "0" }, "PORT must be an integer between 1 and 65535"],
      [{ PORT: "80.5" }, "PORT must be an integer between 1 and 65535"],
      [{ LOG_LEVEL: "loud" }, "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent"],
      [{ PUBLIC_URL: "ftp://x" }, "PUBLIC_URL must be an http:// or https:// URL"],
      [{ PUBLIC_URL: "not a url" }, "PUBLIC_URL must be an http:// or https:// URL"],
      [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL must start with postgres://, postgresql://, sqlite: or file:"],
      [{ AUTH_SECRET: "too-short" }, "AUTH_SECRET must be at least 32 characters long"],
      [{ ADMIN_EMAIL: "owner@example.com" }, "ADMIN_PASSWORD must be set when ADMIN_EMAIL is set"],
      [{ ADMIN_EMAIL: "not-an-email", ADMIN_PASSWORD: "x" }, "ADMIN_EMAIL must be an email address"],
      [
        { TRUST_PROXY: "maybe" },
        'TRUST_PROXY: "maybe" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal; TRUST_PROXY must be false, a number of proxy hops from 1 to 10, or a comma-separated list of proxy addresses, CIDR ranges and the names loopback, linklocal, uniquelocal',
      ],
      [{ SMTP_URL: "http://mail" }, "SMTP_URL must be an smtp:// or smtps:// URL"],
      [{ MAIL_POLL_SECONDS: "soon" }, "MAIL_POLL_SECONDS must be a number of seconds between 0.1 and 3600"],
      [{ MAIL_LEASE_SECONDS: "0" }, "MAIL_LEASE_SECONDS must be a number of seconds between 1 and 86400"],
      [{ MAIL_RETRY_BASE_SECONDS: "-1" }, "MAIL_RETRY_BASE_SECONDS must be a number of seconds between 0.1 and 3600"],
      [{ NEWSLETTER_POLL_SECONDS: "1e3" }, "NEWSLETTER_POLL_SECONDS must be a number of seconds between 0.1 and 3600"],
      [
        { IMAGE_ORIGINS: "http://images.example.org" },
        "IMAGE_ORIGINS must be a comma-separated list of https:// origins (e.g. https://images.example.com)",
      ],
      [
        { IMAGE_ORIGINS: "https://images.example.org/photos" },
        "IMAGE_ORIGINS must be a comma-separated list of https:// origins (e.g. https://images.example.com)",
      ],
      [
        { IMAGE_ORIGINS: "images.example.org" },
        "IMAGE_ORIGINS must be a comma-separated list of https:// origins (e.g. https://images.example.com)",
      ],
      [{ S3_BUCKET: "media" }, "S3_BUCKET must be set together with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY"],
    ])("%o", (env, message) => {
      const actual = configError(env);
      expect(actual).toBe(message);
      expect(actual).not.toContain("\n");
    });

    it("names the first bad variable when several are bad", () => {
      const message = configError({ PORT: "abc", LOG_LEVEL: "loud" });
      expect(message).toBe("PORT must be an integer between 1 and 65535");
    });

    it("starts with the variable's name for a schema-level error", () => {
      const message = configError({ NODE_ENV: "staging" });
      expect(message).toMatch(/^NODE_ENV /);
      expect(message).not.toContain("\n");
    });
  });
});

describe("resolveAuthSecret", () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), "bastion-config-")), "nested", "data");
  });

  afterEach(() => {
    rmSync(path.resolve(dataDir, "../.."), { recursive: true, force: true });
  });

  it("generates a secret once into DATA_DIR, readable by the owner only, and reuses it", () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const secret = resolveAuthSecret(config);
    expect(secret.length).toBeGreaterThanOrEqual(32);

    const file = path.join(dataDir, "auth-secret");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toBe(secret);

    // Another start (a new config object) reads the same secret back.
    expect(resolveAuthSecret(loadConfig({ DATA_DIR: dataDir }))).toBe(secret);
    expect(readFileSync(file, "utf8").trim()).toBe(secret);

    // A different DATA_DIR is a different site with its own secret.
    const otherDir = path.join(dataDir, "other");
    expect(resolveAuthSecret(loadConfig({ DATA_DIR: otherDir }))).not.toBe(secret);
  });

  it("uses AUTH_SECRET when set, without writing a file", () => {
    const fromEnv = "s".repeat(40);
    expect(resolveAuthSecret(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: fromEnv }))).toBe(fromEnv);
    expect(existsSync(path.join(dataDir, "auth-secret"))).toBe(false);
  });

  it("prefers AUTH_SECRET over a secret generated earlier", () => {
    const generated = resolveAuthSecret(loadConfig({ DATA_DIR: dataDir }));
    const fromEnv = "e".repeat(32);
    expect(resolveAuthSecret(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: fromEnv }))).toBe(fromEnv);
    expect(resolveAuthSecret(loadConfig({ DATA_DIR: dataDir }))).toBe(generated);
  });

  it.each([
    ["empty", ""],
    ["too short", "short\n"],
  ])("refuses a stored secret file that is %s instead of signing with it", (_label, content) => {
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, "auth-secret");
    writeFileSync(file, content, { mode: 0o600 });
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(() => resolveAuthSecret(config)).toThrow(ConfigError);
    expect(() => resolveAuthSecret(config)).toThrow(
      `The auth secret in ${file} is shorter than 32 characters: delete that file to generate a new one (this signs everyone out), or set AUTH_SECRET`,
    );
    // The file is left for the operator to inspect; AUTH_SECRET still works.
    expect(readFileSync(file, "utf8")).toBe(content);
    expect(resolveAuthSecret(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: "k".repeat(32) }))).toBe("k".repeat(32));
  });
});

describe("server start-up with a bad variable", () => {
  it("exits with code 1 and one line on stderr naming the variable", async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), "bastion-start-"));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const { code, stdout, stderr } = await runScript("server/main.ts", [], {
      PORT: "abc",
      DATA_DIR: path.join(scratch, "data"),
    });

    expect(code).toBe(1);
    expect(stdout).toBe("");
    const lines = stderr.split("\n").filter((line) => line !== "");
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toContain("PORT must be an integer between 1 and 65535");
    expect(stderr.endsWith("\n")).toBe(true);
    // It stopped before touching DATA_DIR.
    expect(existsSync(path.join(scratch, "data"))).toBe(false);
  });
});
