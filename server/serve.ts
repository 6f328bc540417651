// First: it must run before any full garbage collection (see the module).
import "./runtime/tick-object-shape.ts";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { toNodeHandler } from "better-auth/node";
import type { RequestHandler } from "express";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { createHttpApp } from "./http/app.ts";
import { serveCachedPagesFirst } from "./http/cached-pages.ts";
import { collectGarbageWhenIdle } from "./http/idle-collection.ts";
import { LISTENING_SOCKETS, type Listeners, listenOnPort } from "./http/listeners.ts";
import { createPageCache } from "./http/page-cache/index.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createMediaStorage } from "./media/storage/index.ts";
import { isLocalStorage } from "./media/storage/local.ts";
import { startMetricsListener } from "./metrics/endpoint.ts";
import { createMetrics } from "./metrics/registry.ts";
import { type AppServices, startServices } from "./services.ts";

/**
 * The server process, started by server/main.ts: serves the production build, or with
 * `NODE_ENV=development` the app through Vite with hot reload.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SERVER_BUILD = path.join(ROOT, "build/server/index.js");
const CLIENT_BUILD = path.join(ROOT, "build/client");
/** In-flight requests get this long to finish after SIGTERM/SIGINT. */
const SHUTDOWN_GRACE_MS = 10_000;

type HandlerFactory = (services: AppServices) => RequestHandler;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  // React and other libraries pick their production or development build from
  // NODE_ENV when first imported (the server bundle is imported below).
  process.env.NODE_ENV = config.env;
  const logger = createLogger({ level: config.logLevel, environment: config.env });
  const running = await startServices(config, logger);
  const { services, database } = running;

  const { renderApp, clientAssets, closeDevServer } =
    config.env === "development" ? await developmentRendering(services) : await productionRendering(services);

  // Local media files are served by Express; in S3 they are served by the store or its CDN.
  const mediaStorage = createMediaStorage(config);
  // Rendered pages of anonymous visitors, keyed by the published content's version.
  const pageCache = createPageCache({ version: () => services.content.version() });
  // Prometheus metrics (server/metrics/): counted always, served only when configured.
  const metrics = createMetrics({ db: database.db, pool: database.pool, logger });
  const app = createHttpApp({
    config,
    logger,
    pingDatabase: database.ping,
    authHandler: toNodeHandler(services.auth) as RequestHandler,
    pageCache,
    renderApp,
    clientAssets,
    localMedia: isLocalStorage(mediaStorage) ? mediaStorage : undefined,
    metrics,
  });
  // Cache hits are answered before Express (server/http/cached-pages.ts), which also counts
  // every page view; the rest goes to the app.
  const serve = serveCachedPagesFirst({
    pageCache,
    logger,
    trustProxy: config.trustProxy,
    pageViews: running.pageViews,
    metrics,
    next: app,
  });
  const idleCollection = collectGarbageWhenIdle(globalThis.gc, logger);
  const server = await listenOnPort(
    (req, res) => {
      idleCollection.requestSeen();
      serve(req, res);
    },
    config.host,
    config.port,
  );
  // After editing the database by hand (or restoring a backup): `kill -HUP <pid>` makes
  // this instance read the published content afresh, which also retires cached pages.
  process.on("SIGHUP", () => {
    services.content.invalidate().then(
      () => logger.info("Published content reloaded (SIGHUP)"),
      (error: unknown) => logger.error({ err: error }, "Could not reload the published content"),
    );
  });

  const metricsServer =
    config.metrics.port === undefined
      ? undefined
      : await startMetricsListener({
          host: config.host,
          port: config.metrics.port,
          metrics,
          access: { token: config.metrics.token },
          logger,
        });
  const closeServices = async () => {
    idleCollection.stop();
    await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(undefined)));
    await running.close();
  };

  installShutdown({ server, logger, closeServices, closeDevServer });
  // Last: whoever waits for this line (systemd's logs, a script, a test) may send SIGTERM at
  // once, and a signal that came before its handler would end the process on the spot.
  logger.info(
    {
      address: `http://${config.host}:${server.port}`,
      listeningSockets: LISTENING_SOCKETS,
      database: database.dialect,
      pid: process.pid,
    },
    `Listening on ${config.publicOrigin}`,
  );
}

async function productionRendering(services: AppServices) {
  if (!existsSync(SERVER_BUILD)) {
    throw new Error("No production build found in build/. Run `npm run build` first (or `npm start`, which builds).");
  }
  const build = (await import(SERVER_BUILD)) as { createReactRouterHandler: HandlerFactory };
  return {
    renderApp: build.createReactRouterHandler(services),
    clientAssets: { directory: CLIENT_BUILD },
    closeDevServer: async () => {},
  };
}

async function developmentRendering(services: AppServices) {
  const vite = await import("vite");
  const devServer = await vite.createServer({ root: ROOT, server: { middlewareMode: true }, appType: "custom" });
  const renderApp: RequestHandler = async (req, res, next) => {
    try {
      const module = (await devServer.ssrLoadModule("./app/request-handler.server.ts")) as {
        createReactRouterHandler: HandlerFactory;
      };
      await module.createReactRouterHandler(services)(req, res, next);
    } catch (error) {
      if (error instanceof Error) devServer.ssrFixStacktrace(error);
      next(error);
    }
  };
  return {
    renderApp,
    clientAssets: { middleware: devServer.middlewares as unknown as RequestHandler },
    closeDevServer: () => devServer.close(),
  };
}

function installShutdown(parts: {
  server: Listeners;
  logger: Logger;
  closeServices: () => Promise<void>;
  closeDevServer: () => Promise<void>;
}): void {
  const { server, logger } = parts;
  let stopping = false;

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "Shutting down: no new connections, finishing in-flight requests");

    const force = setTimeout(() => {
      logger.warn("In-flight requests did not finish in time; closing their connections");
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();

    // A connection busy with a request when the signal came becomes an idle keep-alive
    // connection once its response ends; without this it would hold close() open until
    // the client or the keep-alive timeout drops it.
    const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
    closeIdle.unref();

    // close() stops accepting and waits for open requests; idle keep-alive
    // connections would hold it open, so they are closed now.
    server.close(async (error) => {
      clearTimeout(force);
      clearInterval(closeIdle);
      await parts.closeDevServer();
      await parts.closeServices();
      logger.info("Stopped");
      process.exit(error ? 1 : 0);
    });
    server.closeIdleConnections();
  };

  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error) => {
  process.stderr.write(`Bastion failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  if (process.env.LOG_LEVEL === "debug" && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
