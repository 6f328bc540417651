import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/free-port.ts";
import type { RunningServer } from "../helpers/server.ts";
import { header, request } from "../http/client.ts";
import { type Cluster, HAS_POSTGRES, signInThrough, startCluster, timeUntil } from "./cluster.ts";
import { fillGuideConfig, HAS_NGINX, type RunningNginx, reservePort, startNginx, tlsVariant } from "./nginx.ts";
import { streamRequests } from "./request-stream.ts";
import { selfSignedCertificate } from "./self-signed.ts";

/**
 * Debian's nginx with the deployment guide's configuration (docs/deploy/nginx.conf) in
 * front of two real instances on one PostgreSQL database: it serves the site from both,
 * hands them the client's address and scheme, terminates TLS with the blocks the file
 * shows commented out, and a stream of requests loses nothing
 * while one instance stops gracefully (SIGTERM) and, later, while one is killed (SIGKILL).
 * nginx is required in CI (tests/scale/nginx.ts fails the file without it there).
 */

/** Pages rendered (a query string), cached, and the health check, round and round. */
const STREAMED_PATHS = [
  "/",
  "/blog",
  "/about",
  "/projects",
  "/projects/edge-chapter",
  "/resources?from=stream",
  "/healthz",
];
const STREAM_CLIENTS = 4;
const BEFORE_STOP_MS = 1_000;
const AFTER_STOP_MS = 2_000;

/** A GET over HTTPS that accepts the test's self-signed certificate. */
function httpsGet(url: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(url, { rejectUnauthorized: false, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("error", reject);
      response.once("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    outgoing.once("error", reject);
    outgoing.end();
  });
}

const listeningPid = async (instance: RunningServer) =>
  (await instance.waitForLog((line) => line.msg?.startsWith("Listening") === true)).pid as number;
const servedThroughProxy = (instance: RunningServer, path: string) =>
  instance.logs().some((line) => line.msg === `GET ${path} 200`);

describe.skipIf(!HAS_POSTGRES || !HAS_NGINX)("nginx in front of two instances (docs/deploy/nginx.conf)", () => {
  let cluster: Cluster;
  let nginx: RunningNginx;
  let publicUrl: string;

  beforeAll(async () => {
    const reserved = await reservePort();
    const listenPort = reserved.port;
    publicUrl = `http://127.0.0.1:${listenPort}`;
    cluster = await startCluster({
      instances: 2,
      publicUrl,
      // nginx is the one hop in front: the client is the address it appends to X-Forwarded-For.
      env: { TRUST_PROXY: "1" },
      accounts: [],
      seed: async ({ db }) => {
        await db
          .insertInto("chapters")
          .values({
            id: "chapter-edge",
            slug: "edge-chapter",
            title: "At the edge",
            number: 1,
            order_index: 0,
            published: true,
          })
          .execute();
      },
    });
    const instances = cluster.instances.map((instance) => `127.0.0.1:${instance.port}`);
    await reserved.release();
    nginx = await startNginx(fillGuideConfig({ serverName: "127.0.0.1", listenPort, instances }), listenPort);
  });

  afterAll(async () => {
    await nginx?.stop();
    await cluster?.stop();
  });

  it("serves the site from both instances", async () => {
    for (let turn = 0; turn < 6; turn++) {
      const page = await request(`${nginx.url}/about`);
      expect(page.status).toBe(200);
      expect(page.text()).toContain("</html>");
    }
    for (const instance of cluster.instances) expect(servedThroughProxy(instance, "/about"), instance.url).toBe(true);
  });

  it("tells the instances the scheme and the client's address itself, whatever the client claims", async () => {
    // A client claiming HTTPS over plain HTTP: nginx replaces the header, so no HSTS.
    const claimed = await request(`${nginx.url}/blog`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(claimed.status).toBe(200);
    expect(header(claimed, "strict-transport-security")).toBeUndefined();
    // The same header straight from a trusted hop is believed: the check above could fail.
    const [first] = cluster.instances as [RunningServer];
    const direct = await request(`${first.url}/blog`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(header(direct, "strict-transport-security")).toBeDefined();

    // nginx's own request id replaces the client's, and the instance keeps it (one id in both logs).
    const traced = await request(`${nginx.url}/healthz`, { headers: { "X-Request-Id": "chosen-by-the-client" } });
    expect(header(traced, "x-request-id")).toMatch(/^[0-9a-f]{32}$/);

    // Sign-in attempts each claiming another address all count against the one nginx saw
    // (5 a minute per address), on whichever instance they land.
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt++) {
      const { response } = await signInThrough(nginx.url, publicUrl, "nobody@example.com", {
        password: "not the password 1",
        clientIp: `198.51.100.${attempt}`,
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("terminates TLS with the guide's commented-out blocks: HTTP redirects, HTTPS reaches the instances as https", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "bastion-tls-"));
    const { certificate, key } = selfSignedCertificate("127.0.0.1");
    writeFileSync(path.join(folder, "fullchain.pem"), certificate);
    writeFileSync(path.join(folder, "privkey.pem"), key);
    chmodSync(folder, 0o755);
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const instances = cluster.instances.map((instance) => `127.0.0.1:${instance.port}`);
    const config = tlsVariant(fillGuideConfig({ serverName: "127.0.0.1", listenPort: httpPort, instances }), {
      httpPort,
      httpsPort,
      certificateFile: path.join(folder, "fullchain.pem"),
      keyFile: path.join(folder, "privkey.pem"),
    });
    const tls = await startNginx(config, httpPort);
    try {
      const redirected = await request(`http://127.0.0.1:${httpPort}/about?from=http`);
      expect(redirected.status).toBe(301);
      expect(header(redirected, "location")).toBe("https://127.0.0.1/about?from=http");
      const page = await httpsGet(`https://127.0.0.1:${httpsPort}/blog`);
      expect(page.status).toBe(200);
      // The instances believe nginx's X-Forwarded-Proto: the page is served as HTTPS.
      expect(page.headers["strict-transport-security"]).toBeDefined();
      expect(page.body).toContain("</html>");
    } finally {
      await tls.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("loses no request while an instance stops gracefully (SIGTERM), and takes it back once restarted", async () => {
    const stopping = cluster.instances[1] as RunningServer;
    const stream = streamRequests(nginx.url, STREAMED_PATHS, STREAM_CLIENTS);
    await new Promise((resolve) => setTimeout(resolve, BEFORE_STOP_MS));
    await stopping.stop();
    stream.mark();
    await new Promise((resolve) => setTimeout(resolve, AFTER_STOP_MS));
    const result = await stream.stop();
    process.stdout.write(
      `nginx, SIGTERM: ${result.sent} requests (${result.sentAfterMark} after the stop), ${result.failures.length} failed, slowest ${result.slowestMs.toFixed(0)} ms\n`,
    );
    expect(result.failures).toEqual([]);
    expect(result.sentAfterMark).toBeGreaterThan(20);

    // The same port again: nginx sends it requests once its 10 s out of the rotation end.
    const restarted = await cluster.startInstance(1, { PORT: String(stopping.port) });
    await timeUntil(
      async () => {
        await request(`${nginx.url}/resources`);
        return servedThroughProxy(restarted, "/resources");
      },
      {
        since: performance.now(),
        everyMs: 200,
        timeoutMs: 20_000,
        what: "A request through nginx on the restarted instance",
      },
    );
  });

  it("loses no request while an instance is killed (SIGKILL)", async () => {
    const victim = cluster.instances[0] as RunningServer;
    const stream = streamRequests(nginx.url, STREAMED_PATHS, STREAM_CLIENTS);
    await new Promise((resolve) => setTimeout(resolve, BEFORE_STOP_MS));
    process.kill(await listeningPid(victim), "SIGKILL");
    await victim.exited;
    stream.mark();
    await new Promise((resolve) => setTimeout(resolve, AFTER_STOP_MS));
    const result = await stream.stop();
    process.stdout.write(
      `nginx, SIGKILL: ${result.sent} requests (${result.sentAfterMark} after the kill), ${result.failures.length} failed, slowest ${result.slowestMs.toFixed(0)} ms\n`,
    );
    expect(result.failures).toEqual([]);
    expect(result.sentAfterMark).toBeGreaterThan(20);
  });
});
