import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../helpers/run-script.ts";
import { request } from "../http/client.ts";

/**
 * Debian's nginx, run unprivileged from a temporary prefix, serving the deployment
 * guide's own configuration (docs/deploy/nginx.conf) with its placeholders filled in:
 * the test runs the file operators copy, not a look-alike.
 */

export const NGINX_BINARY = process.env.NGINX_BINARY ?? "/usr/sbin/nginx";
export const HAS_NGINX = existsSync(NGINX_BINARY);
export const GUIDE_CONFIG = path.join(PROJECT_ROOT, "docs/deploy/nginx.conf");

if (!HAS_NGINX && process.env.CI) {
  throw new Error(
    `nginx is missing at ${NGINX_BINARY}: CI runs the nginx-in-front test, install it (apt-get install -y nginx-light).`,
  );
}
if (!HAS_NGINX)
  process.stderr.write(`tests/scale/nginx.test.ts: skipped, no nginx at ${NGINX_BINARY} (NGINX_BINARY).\n`);

/**
 * A free port held by a placeholder listener until release(): the port nginx will listen
 * on must be known before the instances start (it is their PUBLIC_URL), and they pick
 * free ports of their own meanwhile.
 */
export async function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  const placeholder = createServer();
  // Never what keeps the test process alive, should a start fail before release().
  placeholder.unref();
  await new Promise<void>((resolve, reject) => {
    placeholder.once("error", reject);
    placeholder.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = placeholder.address() as AddressInfo;
  return { port, release: () => new Promise<void>((resolve) => placeholder.close(() => resolve())) };
}

export interface RunningNginx {
  url: string;
  /** The filled-in site configuration nginx runs. */
  siteConfig: string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** The guide's file with its placeholders replaced; throws if one is left or unknown. */
export function fillGuideConfig(values: { serverName: string; listenPort: number; instances: string[] }): string {
  const [first, second, ...more] = values.instances;
  if (!first || !second || more.length > 0) throw new Error("The guide's configuration names two instances");
  const filled = readFileSync(GUIDE_CONFIG, "utf8")
    .replaceAll("{{SERVER_NAME}}", values.serverName)
    .replaceAll("{{LISTEN_PORT}}", String(values.listenPort))
    .replaceAll("{{INSTANCE_1}}", first)
    .replaceAll("{{INSTANCE_2}}", second);
  const left = /\{\{[A-Z_0-9]+\}\}/.exec(filled);
  if (left) throw new Error(`docs/deploy/nginx.conf has a placeholder the test does not fill: ${left[0]}`);
  return filled;
}

/**
 * The guide's TLS set-up from a filled-in file: its upstream, and the commented-out
 * blocks at its end, uncommented, on the given ports and with the given certificate,
 * in place of the plain server block.
 */
export function tlsVariant(
  filled: string,
  options: { httpPort: number; httpsPort: number; certificateFile: string; keyFile: string },
): string {
  const upstreamStart = filled.indexOf("upstream bastion {");
  const upstream = filled.slice(upstreamStart, filled.indexOf("\n}\n", upstreamStart) + 3);
  const commented = filled.slice(filled.indexOf("# server {"));
  const blocks = commented
    .split("\n")
    .map((line) => line.replace(/^# ?/, ""))
    .join("\n")
    .replace("listen 80;", `listen ${options.httpPort};`)
    .replace("listen 443 ssl http2;", `listen ${options.httpsPort} ssl http2;`)
    .replace(/\/etc\/letsencrypt\/live\/[^/]+\/fullchain\.pem/, options.certificateFile)
    .replace(/\/etc\/letsencrypt\/live\/[^/]+\/privkey\.pem/, options.keyFile);
  if (blocks.includes("listen 80;") || blocks.includes("letsencrypt") || !blocks.includes(" ssl http2;")) {
    throw new Error(
      "docs/deploy/nginx.conf's TLS blocks changed: tests/scale/nginx.ts no longer finds what it replaces",
    );
  }
  return `${upstream}\n${blocks}`;
}

export async function startNginx(siteConfig: string, listenPort: number): Promise<RunningNginx> {
  const prefix = mkdtempSync(path.join(tmpdir(), "bastion-nginx-"));
  // Run as root, nginx's workers become nobody: they must reach the prefix and the temp folders in it.
  chmodSync(prefix, 0o755);
  for (const folder of ["logs", "client_body", "proxy", "fastcgi", "uwsgi", "scgi"])
    mkdirSync(path.join(prefix, folder));
  const errorLog = path.join(prefix, "logs/error.log");
  writeFileSync(path.join(prefix, "bastion.conf"), siteConfig);
  writeFileSync(
    path.join(prefix, "nginx.conf"),
    [
      "worker_processes 1;",
      `error_log ${errorLog} warn;`,
      "events { worker_connections 512; }",
      "http {",
      `  access_log ${path.join(prefix, "logs/access.log")};`,
      `  client_body_temp_path ${path.join(prefix, "client_body")};`,
      `  proxy_temp_path ${path.join(prefix, "proxy")};`,
      `  fastcgi_temp_path ${path.join(prefix, "fastcgi")};`,
      `  uwsgi_temp_path ${path.join(prefix, "uwsgi")};`,
      `  scgi_temp_path ${path.join(prefix, "scgi")};`,
      `  include ${path.join(prefix, "bastion.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  const child: ChildProcess = spawn(
    NGINX_BINARY,
    [
      "-p",
      prefix,
      "-e",
      errorLog,
      "-c",
      path.join(prefix, "nginx.conf"),
      "-g",
      `daemon off; pid ${path.join(prefix, "nginx.pid")};`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, "exit");
  const readLog = () => (existsSync(errorLog) ? readFileSync(errorLog, "utf8") : "");
  const url = `http://127.0.0.1:${listenPort}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGQUIT");
      await exited;
    }
    rmSync(prefix, { recursive: true, force: true });
  };

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = readLog();
      await stop();
      throw new Error(`nginx exited with code ${child.exitCode}:\n${stderr}\n${log}`);
    }
    // Any answer will do: nginx is listening (the TLS set-up answers plain HTTP with a redirect).
    if (
      await request(`${url}/healthz`).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not answer within 10 s:\n${stderr}\n${readLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, siteConfig, errorLog: readLog, stop };
}
