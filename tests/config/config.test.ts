import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { ACCOUNT_FAILURE_WINDOW_MS } from "../../server/auth/sign-in-guard.ts";
import { AUDIT_LOG_MIN_DAYS, ConfigError, loadConfig, resolveAuthSecret } from "../../server/config.ts";
import { configError } from "../helpers/config-error.ts";
import { runScript } from "../helpers/run-script.ts";

/** A complete S3 configuration, for the checks of its optional settings. */
const S3 = { S3_BUCKET: "media", S3_ACCESS_KEY_ID: "key", S3_SECRET_ACCESS_KEY: "secret" };

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
    expect(config.auditLog).toEqual({ days: 365 });
  });

  it("reads AUDIT_LOG_DAYS, from its minimum up", () => {
    expect(loadConfig({ AUDIT_LOG_DAYS: "90" }).auditLog).toEqual({ days: 90 });
    expect(loadConfig({ AUDIT_LOG_DAYS: String(AUDIT_LOG_MIN_DAYS) }).auditLog).toEqual({ days: AUDIT_LOG_MIN_DAYS });
    expect(loadConfig({ AUDIT_LOG_DAYS: "36500" }).auditLog).toEqual({ days: 36_500 });
  });

  it("keeps the audit log longer than the password lock looks back", () => {
    // Rows younger than the minimum are never deleted: each window read must fit in it.
    expect(ACCOUNT_FAILURE_WINDOW_MS).toBeLessThan(AUDIT_LOG_MIN_DAYS * 86_400_000);
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
    expect(loadConfig({ PUBLIC_URL: "https://sec.example.com/" }).publicOrigin).toBe("https://sec.example.com");
    expect(loadConfig({ PUBLIC_URL: "http://example.org:8443" }).publicOrigin).toBe("http://example.org:8443");
  });

  it("accepts the documented forms of the URLs, hosts and schedules", () => {
    const config = loadConfig({
      HOST: "::",
      SMS_URL: "https://user:k%25ey%40x@sms-provider.example/messages",
      SMTP_URL: "smtps://user:p%ss@mail.example.com:465",
      S3_ENDPOINT: "http://minio:9000/",
      S3_BUCKET: "media",
      S3_REGION: "auto",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_PUBLIC_URL: "https://cdn.example.com/media",
      BACKUP_SCHEDULE: "0 4 29 2 *",
    });
    expect(config.host).toBe("::");
    expect(config.sms.url).toBe("https://user:k%25ey%40x@sms-provider.example/messages");
    expect(config.s3).toMatchObject({ endpoint: "http://minio:9000/", publicUrl: "https://cdn.example.com/media" });
    expect(config.backup.schedule).toBe("0 4 29 2 *");
    for (const HOST of ["0.0.0.0", "localhost", "bastion_app", "app.internal"])
      expect(loadConfig({ HOST }).host).toBe(HOST);
    // A Unix socket, as pg reads it.
    expect(loadConfig({ DATABASE_URL: "postgres:///bastion?host=/var/run/postgresql" }).database.kind).toBe("postgres");
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
      IMAGE_ORIGINS:
        " https://images.example.org/, https://cdn.example.com:8443,https://images.example.org,HTTPS://Photos.Example.NET:443",
    });
    expect(config.imageOrigins).toEqual([
      "https://images.example.org",
      "https://cdn.example.com:8443",
      "https://photos.example.net",
    ]);
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
      [
        { PUBLIC_URL: "https://sec.example.com/bastion" },
        "PUBLIC_URL must be an origin without a path (e.g. https://bastion.example.com)",
      ],
      [
        { PUBLIC_URL: "https://sec.example.com/?utm=1" },
        "PUBLIC_URL must not carry credentials, a query or a fragment (e.g. https://bastion.example.com)",
      ],
      [
        { PUBLIC_URL: "https://admin:pw@sec.example.com" },
        "PUBLIC_URL must not carry credentials, a query or a fragment (e.g. https://bastion.example.com)",
      ],
      [{ HOST: "[::1]" }, "HOST must be an IP address (without brackets) or a host name"],
      [{ HOST: "http://0.0.0.0" }, "HOST must be an IP address (without brackets) or a host name"],
      [
        { SMS_URL: "https://user:50%off@sms-provider.example/messages" },
        "SMS_URL must percent-encode its user name and key (write % as %25, @ as %40, : as %3A)",
      ],
      [
        { SMS_URL: "https://us%er:key@sms-provider.example/messages" },
        "SMS_URL must percent-encode its user name and key (write % as %25, @ as %40, : as %3A)",
      ],
      [
        { DATABASE_URL: "postgres://bastion:pw@db.internal:99999/bastion" },
        "DATABASE_URL is not a valid postgres:// URL (check the host and port, and percent-encode the password)",
      ],
      [
        { DATABASE_URL: "sqlite:" },
        "DATABASE_URL must name the SQLite file (e.g. file:/var/lib/bastion/bastion.sqlite)",
      ],
      [
        { DATABASE_URL: "file://" },
        "DATABASE_URL must name the SQLite file (e.g. file:/var/lib/bastion/bastion.sqlite)",
      ],
      [{ SMTP_URL: "smtp://mail host:587" }, "SMTP_URL must be an smtp:// or smtps:// URL"],
      [{ SMTP_URL: "smtp://mail.example.com:99999" }, "SMTP_URL must be an smtp:// or smtps:// URL"],
      [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL must start with postgres://, postgresql://, sqlite: or file:"],
      [{ AUTH_SECRET: "too-short" }, "AUTH_SECRET must be at least 32 characters long"],
      [{ AUTH_SECRET: `   ${"x".repeat(30)}   ` }, "AUTH_SECRET must be at least 32 characters long"],
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
        { IMAGE_ORIGINS: "https://user:key@images.example.org" },
        "IMAGE_ORIGINS must be a comma-separated list of https:// origins (e.g. https://images.example.com)",
      ],
      [
        { IMAGE_ORIGINS: "https://images.example.org/?size=large" },
        "IMAGE_ORIGINS must be a comma-separated list of https:// origins (e.g. https://images.example.com)",
      ],
      [
        { IMAGE_ORIGINS: "images.example.org" },
        "IMAGE_ORIGINS must be a comma-separated list of https:// origins (e.g. https://images.example.com)",
      ],
      [{ S3_BUCKET: "media" }, "S3_BUCKET must be set together with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY"],
      [
        { S3_ENDPOINT: "http://minio:9000" },
        "S3_BUCKET must be set when S3_ENDPOINT is set (with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)",
      ],
      [
        { S3_REGION: "eu-west-3" },
        "S3_BUCKET must be set when S3_REGION is set (with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)",
      ],
      [
        { S3_PUBLIC_URL: "https://media.example.com" },
        "S3_BUCKET must be set when S3_PUBLIC_URL is set (with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)",
      ],
      [
        { ...S3, S3_PUBLIC_URL: "https://media.example.com/?v=1" },
        "S3_PUBLIC_URL must not carry credentials, a query or a fragment (e.g. https://media.example.com)",
      ],
      [
        { ...S3, S3_ENDPOINT: "https://key:secret@s3.example.com" },
        "S3_ENDPOINT must not carry credentials, a query or a fragment (e.g. https://s3.example.com)",
      ],
      [{ ADMIN_PASSWORD: "correct horse battery staple" }, "ADMIN_EMAIL must be set when ADMIN_PASSWORD is set"],
      [{ ADMIN_NAME: "Ada" }, "ADMIN_EMAIL must be set when ADMIN_NAME is set"],
      [
        { BACKUP_SCHEDULE: "30 3 * * * *" },
        "BACKUP_SCHEDULE must be off, hourly, daily, weekly or a cron expression (e.g. 30 3 * * *)",
      ],
      [
        { BACKUP_SCHEDULE: "0 3 31 4 *" },
        "BACKUP_SCHEDULE must be off, hourly, daily, weekly or a cron expression (e.g. 30 3 * * *)",
      ],
      [{ AUDIT_LOG_DAYS: "29" }, "AUDIT_LOG_DAYS must be a whole number of days between 30 and 36500"],
      [{ AUDIT_LOG_DAYS: "0" }, "AUDIT_LOG_DAYS must be a whole number of days between 30 and 36500"],
      [{ AUDIT_LOG_DAYS: "-400" }, "AUDIT_LOG_DAYS must be a whole number of days between 30 and 36500"],
      [{ AUDIT_LOG_DAYS: "90.5" }, "AUDIT_LOG_DAYS must be a whole number of days between 30 and 36500"],
      [{ AUDIT_LOG_DAYS: "forever" }, "AUDIT_LOG_DAYS must be a whole number of days between 30 and 36500"],
      [{ AUDIT_LOG_DAYS: "36501" }, "AUDIT_LOG_DAYS must be a whole number of days between 30 and 36500"],
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
  it.each([
    [{ PORT: "abc" }, "PORT must be an integer between 1 and 65535"],
    // A raw "%" in the key used to pass, then fail start-up with a bare "URI malformed".
    [
      { SMS_URL: "https://user:50%off@sms-provider.example/messages" },
      "SMS_URL must percent-encode its user name and key (write % as %25, @ as %40, : as %3A)",
    ],
  ])("exits with code 1 and one line on stderr naming the variable: %o", async (env, message) => {
    const scratch = mkdtempSync(path.join(tmpdir(), "bastion-start-"));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const { code, stdout, stderr } = await runScript("server/main.ts", [], {
      ...env,
      DATA_DIR: path.join(scratch, "data"),
    });

    expect(code).toBe(1);
    expect(stdout).toBe("");
    const lines = stderr.split("\n").filter((line) => line !== "");
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toBe(`Configuration error: ${message}`);
    expect(stderr.endsWith("\n")).toBe(true);
    // It stopped before touching DATA_DIR.
    expect(existsSync(path.join(scratch, "data"))).toBe(false);
  });
});
