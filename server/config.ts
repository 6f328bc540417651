import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { Cron } from "croner";
import { z } from "zod";
import { parseTrustProxy } from "./http/client-address.ts";

/**
 * The environment, parsed once into one typed object. Every variable is listed in
 * the README's configuration table; a bad value stops start-up with one line
 * naming the variable and what is wrong (see ConfigError).
 */

const MIN_SECRET_LENGTH = 32;
/** What precedes the file's path in an SQLite DATABASE_URL. */
const SQLITE_PREFIX = /^(sqlite|file):(\/\/)?/;

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    // abort: the checks chained after this one parse the value.
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return url.protocol === "http:" || url.protocol === "https:";
        } catch {
          return false;
        }
      },
      { message: `${name} must be an http:// or https:// URL`, abort: true },
    );

/** Whether a URL's user name and password are percent-encoded (a raw "%" makes decoding them throw). */
function credentialsDecode(url: URL): boolean {
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
    return true;
  } catch {
    return false;
  }
}

/**
 * A base URL other addresses are built on (the site's, the bucket's): a query, a fragment
 * or credentials in it would end up in every link, or be dropped without a word.
 */
const baseUrl = (name: string, example: string) =>
  httpUrl(name).refine((value) => {
    const url = new URL(value);
    return !url.username && !url.password && !/[?#]/.test(value);
  }, `${name} must not carry credentials, a query or a fragment (e.g. ${example})`);

/** A duration in (possibly fractional) seconds, between min and max, turned into milliseconds. */
const seconds = (name: string, fallback: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .default(String(fallback))
    .refine((value) => /^\d+(\.\d+)?$/.test(value) && Number(value) >= min && Number(value) <= max, {
      message: `${name} must be a number of seconds between ${min} and ${max}`,
    })
    .transform((value) => Math.round(Number(value) * 1000));

/** A whole number of days between min and max. */
const days = (name: string, fallback: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .default(String(fallback))
    .refine((value) => /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max, {
      message: `${name} must be a whole number of days between ${min} and ${max}`,
    })
    .transform(Number);

/**
 * The shortest AUDIT_LOG_DAYS. The failed sign-ins in the audit log feed the password
 * lock, which looks back an hour (server/auth/sign-in-guard.ts, the longest window any
 * reader of audit_log reads): a month keeps every row a check reads, with room for
 * longer windows and for looking into an incident after the fact.
 */
export const AUDIT_LOG_MIN_DAYS = 30;

/**
 * BACKUP_SCHEDULE as the cron pattern croner runs: null for off, undefined when it is
 * neither a name nor a valid cron expression.
 */
function backupPattern(value: string): string | null | undefined {
  const named: Record<string, string | null> = { off: null, hourly: "@hourly", daily: "@daily", weekly: "@weekly" };
  const lower = value.toLowerCase();
  if (Object.hasOwn(named, lower)) return named[lower];
  // Five fields as the README documents: croner reads a sixth leading field as seconds
  // (`30 3 * * * *` would run every hour), and a pattern that never comes due
  // (`0 0 30 2 *`) would leave the site without backups.
  if (!value.startsWith("@") && value.split(/\s+/).length !== 5) return undefined;
  try {
    const cron = new Cron(value, { paused: true });
    const runs = cron.nextRun() !== null;
    cron.stop();
    return runs ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * IMAGE_ORIGINS as a list of origins, or undefined when an entry is not an https://
 * origin. Plain http:// is left out: an HTTPS page's browser would block it anyway.
 */
function imageOrigins(value: string): string[] | undefined {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const origins: string[] = [];
  for (const entry of entries) {
    if (!URL.canParse(entry) || /[?#]/.test(entry)) return undefined;
    const url = new URL(entry);
    // An origin however it is spelled (upper case, the default port): what the URL parser
    // makes of it is what the CSP and the image checks compare with.
    if (url.protocol !== "https:" || url.pathname !== "/" || url.username || url.password) return undefined;
    origins.push(url.origin);
  }
  return [...new Set(origins)];
}

const environmentSchema = z.object({
  NODE_ENV: z
    .enum(["production", "development", "test"], { message: "NODE_ENV must be production, development or test" })
    .default("production"),
  PORT: z
    .string()
    .trim()
    .default("3000")
    .refine((value) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 65535, {
      message: "PORT must be an integer between 1 and 65535",
    })
    .transform(Number),
  HOST: z
    .string()
    .trim()
    .default("127.0.0.1")
    .refine(
      (value) => isIP(value) !== 0 || /^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/i.test(value),
      "HOST must be an IP address (without brackets) or a host name",
    ),
  // Bastion is served at the root of its host: a path would be dropped from every link.
  PUBLIC_URL: baseUrl("PUBLIC_URL", "https://bastion.example.com")
    .refine(
      (value) => new URL(value).pathname === "/",
      "PUBLIC_URL must be an origin without a path (e.g. https://bastion.example.com)",
    )
    .optional(),
  DATA_DIR: z
    .string()
    .trim()
    .default("./data")
    .refine((value) => value !== "", "DATA_DIR must not be empty"),
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .refine(
      (value) => !value || /^postgres(ql)?:\/\//.test(value) || /^(sqlite|file):/.test(value),
      "DATABASE_URL must start with postgres://, postgresql://, sqlite: or file:",
    )
    .refine(
      (value) => !value || !/^postgres/.test(value) || postgresUrlParses(value),
      "DATABASE_URL is not a valid postgres:// URL (check the host and port, and percent-encode the password)",
    )
    .refine(
      (value) => !value || /^postgres/.test(value) || value.replace(SQLITE_PREFIX, "") !== "",
      "DATABASE_URL must name the SQLite file (e.g. file:/var/lib/bastion/bastion.sqlite)",
    ),
  AUTH_SECRET: z
    .string()
    .optional()
    .refine(
      // Spaces around it, as an env file may leave, add nothing to guess: not counted.
      (value) => value === undefined || value.trim().length >= MIN_SECRET_LENGTH,
      `AUTH_SECRET must be at least ${MIN_SECRET_LENGTH} characters long`,
    ),
  SMTP_URL: z
    .string()
    .trim()
    .optional()
    .refine(
      (value) => !value || (/^smtps?:\/\/[^/]/.test(value) && URL.canParse(value) && new URL(value).hostname !== ""),
      "SMTP_URL must be an smtp:// or smtps:// URL",
    ),
  MAIL_FROM: optionalText,
  MAIL_POLL_SECONDS: seconds("MAIL_POLL_SECONDS", 5, 0.1, 3600),
  MAIL_LEASE_SECONDS: seconds("MAIL_LEASE_SECONDS", 120, 1, 86_400),
  MAIL_RETRY_BASE_SECONDS: seconds("MAIL_RETRY_BASE_SECONDS", 30, 0.1, 3600),
  NEWSLETTER_POLL_SECONDS: seconds("NEWSLETTER_POLL_SECONDS", 10, 0.1, 3600),
  SMS_URL: httpUrl("SMS_URL")
    .refine(
      (value) => credentialsDecode(new URL(value)),
      "SMS_URL must percent-encode its user name and key (write % as %25, @ as %40, : as %3A)",
    )
    .optional(),
  S3_ENDPOINT: baseUrl("S3_ENDPOINT", "https://s3.example.com").optional(),
  S3_BUCKET: optionalText,
  S3_REGION: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_PUBLIC_URL: baseUrl("S3_PUBLIC_URL", "https://media.example.com").optional(),
  IMAGE_ORIGINS: z
    .string()
    .trim()
    .default("")
    .transform((value, context) => {
      const origins = imageOrigins(value);
      if (origins === undefined) {
        context.addIssue({
          code: "custom",
          message: "IMAGE_ORIGINS must be a comma-separated list of https:// origins (e.g. https://images.example.com)",
        });
        return z.NEVER;
      }
      return origins;
    }),
  BACKUP_SCHEDULE: z
    .string()
    .trim()
    .default("off")
    .transform((value, context) => {
      const pattern = backupPattern(value);
      if (pattern === undefined) {
        context.addIssue({
          code: "custom",
          message: "BACKUP_SCHEDULE must be off, hourly, daily, weekly or a cron expression (e.g. 30 3 * * *)",
        });
        return z.NEVER;
      }
      return pattern;
    }),
  BACKUP_KEEP: z
    .string()
    .trim()
    .default("7")
    .refine((value) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 1000, {
      message: "BACKUP_KEEP must be an integer between 1 and 1000",
    })
    .transform(Number),
  AUDIT_LOG_DAYS: days("AUDIT_LOG_DAYS", 365, AUDIT_LOG_MIN_DAYS, 36_500),
  ADMIN_EMAIL: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || z.email().safeParse(value).success, "ADMIN_EMAIL must be an email address"),
  ADMIN_PASSWORD: optionalText,
  ADMIN_NAME: optionalText,
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((value, context) => {
      try {
        return parseTrustProxy(value);
      } catch (error) {
        context.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .refine(
      (value) => !value || /^[\x21-\x7e]{16,200}$/.test(value),
      "METRICS_TOKEN must be 16 to 200 printable characters without spaces",
    ),
  METRICS_PORT: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 65535), {
      message: "METRICS_PORT must be an integer between 1 and 65535",
    })
    .transform((value) => (value ? Number(value) : undefined)),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      message: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
});

export class ConfigError extends Error {
  override name = "ConfigError";
}

export type DatabaseConfig = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

export type Config = ReturnType<typeof buildConfig>;

function buildConfig(env: z.infer<typeof environmentSchema>) {
  const dataDir = path.resolve(env.DATA_DIR);
  const publicUrl = new URL(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`);
  const database: DatabaseConfig =
    env.DATABASE_URL && /^postgres(ql)?:\/\//.test(env.DATABASE_URL)
      ? { kind: "postgres", url: env.DATABASE_URL }
      : { kind: "sqlite", file: sqliteFile(env.DATABASE_URL, dataDir) };

  if (env.ADMIN_EMAIL && !env.ADMIN_PASSWORD) {
    throw new ConfigError("ADMIN_PASSWORD must be set when ADMIN_EMAIL is set");
  }
  // Without ADMIN_EMAIL no owner account is created: the others would be ignored.
  for (const name of ["ADMIN_PASSWORD", "ADMIN_NAME"] as const) {
    if (env[name] && !env.ADMIN_EMAIL) throw new ConfigError(`ADMIN_EMAIL must be set when ${name} is set`);
  }
  const s3Keys = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
  if (s3Keys.some(Boolean) && !s3Keys.every(Boolean)) {
    throw new ConfigError("S3_BUCKET must be set together with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY");
  }
  // Without S3_BUCKET media stay on local disk: the bucket's other settings would be ignored.
  for (const name of ["S3_ENDPOINT", "S3_REGION", "S3_PUBLIC_URL"] as const) {
    if (env[name] && !env.S3_BUCKET) {
      throw new ConfigError(
        `S3_BUCKET must be set when ${name} is set (with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)`,
      );
    }
  }
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
    throw new ConfigError("METRICS_PORT must differ from PORT: the metrics listener is a separate one");
  }

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    /** Origin (scheme://host[:port]) used in emails, feeds and canonical links. */
    publicOrigin: publicUrl.origin,
    dataDir,
    database,
    authSecret: env.AUTH_SECRET,
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM ?? `Bastion <no-reply@${publicUrl.hostname}>`,
      /** How often the worker looks for due emails (retries, other instances' rows). */
      pollIntervalMs: env.MAIL_POLL_SECONDS,
      /** How long a claim holds before another instance may take the email over. */
      leaseMs: env.MAIL_LEASE_SECONDS,
      /** The first retry delay, doubled at each attempt. */
      retryBaseMs: env.MAIL_RETRY_BASE_SECONDS,
      /** How often due newsletter notifications are looked for. */
      notificationPollIntervalMs: env.NEWSLETTER_POLL_SECONDS,
    },
    sms: {
      /** The HTTP SMS provider's endpoint (a JSON POST per message); unset: texts stay in the outbox and are logged. */
      url: env.SMS_URL,
    },
    /** Scheduled backups into DATA_DIR/backups (server/backup/schedule.ts): a cron pattern or null (off). */
    backup: { schedule: env.BACKUP_SCHEDULE, keep: env.BACKUP_KEEP },
    /** How many days audit-log rows are kept (server/audit/pruning.ts deletes older ones). */
    auditLog: { days: env.AUDIT_LOG_DAYS },
    s3: env.S3_BUCKET
      ? {
          endpoint: env.S3_ENDPOINT,
          bucket: env.S3_BUCKET,
          region: env.S3_REGION ?? "us-east-1",
          accessKeyId: env.S3_ACCESS_KEY_ID as string,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY as string,
          publicUrl: env.S3_PUBLIC_URL,
        }
      : undefined,
    /** Other sites whose images chapters may show (the CSP's img-src), besides this site and the media storage. */
    imageOrigins: env.IMAGE_ORIGINS,
    admin: env.ADMIN_EMAIL
      ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD as string, name: env.ADMIN_NAME ?? "Admin" }
      : undefined,
    trustProxy: env.TRUST_PROXY,
    /**
     * GET /metrics (server/metrics/): with the token as a bearer token, and/or alone on
     * HOST:METRICS_PORT; off (404) when neither is set.
     */
    metrics: { token: env.METRICS_TOKEN || undefined, port: env.METRICS_PORT },
    logLevel: env.LOG_LEVEL,
  };
}

/**
 * Whether pg can read a postgres:// URL (an out-of-range port or a broken host would
 * otherwise fail the first connection with a bare "Invalid URL"). As pg does, spaces
 * and a raw "%" are tolerated, and so is an empty host (a Unix socket given as ?host=).
 */
function postgresUrlParses(value: string): boolean {
  return URL.canParse(value.replaceAll(" ", "%20").replace("@/", "@localhost/"));
}

function sqliteFile(databaseUrl: string | undefined, dataDir: string): string {
  if (!databaseUrl) return path.join(dataDir, "bastion.sqlite");
  const file = databaseUrl.replace(SQLITE_PREFIX, "");
  return path.resolve(file);
}

/** Parses the environment; throws ConfigError with a one-line message on the first bad variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  // A variable set to an empty string (`PORT=`) means the same as one left unset.
  const given = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== ""));
  const result = environmentSchema.safeParse(given);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = String(issue?.path[0] ?? "environment");
    const message = issue?.message ?? "is invalid";
    throw new ConfigError(message.startsWith(variable) ? message : `${variable} ${message}`);
  }
  return buildConfig(result.data);
}

/** Where the server keeps the secret it generates when AUTH_SECRET is not set. */
export function authSecretFile(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "auth-secret");
}

/**
 * Returns AUTH_SECRET, or the secret generated into DATA_DIR on the first start and
 * reused afterwards, so sessions and signed tokens survive restarts. The file is
 * written under a temporary name and then linked into place, so no process ever
 * reads a half-written secret; when two start at once, the first link wins.
 */
export function resolveAuthSecret(config: Config): string {
  if (config.authSecret) return config.authSecret;
  const file = authSecretFile(config);
  const stored = readStoredSecret(file);
  if (stored !== undefined) return stored;

  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(temporary, `${secret}\n`, { mode: 0o600 });
  try {
    linkSync(temporary, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readStoredSecret(file) as string;
  } finally {
    unlinkSync(temporary);
  }
}

/**
 * The secret stored in `file`, or undefined when there is none. A damaged file
 * (shorter than a secret) stops start-up: signing sessions with an empty or short
 * key would make them forgeable.
 */
function readStoredSecret(file: string): string | undefined {
  let stored: string;
  try {
    stored = readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (stored.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `The auth secret in ${file} is shorter than ${MIN_SECRET_LENGTH} characters: delete that file to generate a new one (this signs everyone out), or set AUTH_SECRET`,
    );
  }
  return stored;
}
