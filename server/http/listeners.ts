import { createServer, type RequestListener, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";

/**
 * libuv accepts one connection per listening socket per turn of the event loop. When a
 * crowd connects at once while the loop is busy with the connections it already serves,
 * the newcomers wait in the kernel's accept queue: 200 connections opened together took
 * about 2 s to be accepted by one socket (docs/security.md). With SO_REUSEPORT the kernel
 * spreads new connections over several listening sockets of this one process, and each
 * turn of the loop accepts one from each. Linux is where Bastion is deployed and tested;
 * elsewhere one socket serves.
 */
export const LISTENING_SOCKETS = process.platform === "linux" ? 4 : 1;

/** The HTTP servers that share one port, each on its own listening socket. */
export interface Listeners {
  port: number;
  /** Stops accepting; calls back once every open connection has ended. */
  close(done: (error?: Error) => void): void;
  closeIdleConnections(): void;
  closeAllConnections(): void;
}

/**
 * Requests that declare no body (neither Content-Length nor Transfer-Encoding, as every
 * GET a browser sends) reach the handler with their body stream already ended, instead
 * of going through a stream's life (an 'end', then a 'close', each a turn of the event
 * loop, and the response waiting on them): about a tenth of the CPU time of a page-cache
 * hit (docs/benchmarks/page-cache-hits.md). Such a stream never emits 'data' or 'end', so a
 * reader of a body would wait forever: the body limits refuse bodiless requests of the
 * methods whose bodies are read (server/http/body-limit.ts).
 */
export const SERVER_OPTIONS = { optimizeEmptyRequests: true };

export async function listenOnPort(handler: RequestListener, host: string, port: number): Promise<Listeners> {
  // SO_REUSEPORT would also let a second process of the same user bind the port, and the
  // kernel would split visitors between the two instances. A plain bind first keeps a port
  // already in use an error at start-up, as it is without the option.
  const sharedPort = await bindExclusivelyAndRelease(host, port);
  const servers: Server[] = [];
  try {
    for (let index = 0; index < LISTENING_SOCKETS; index += 1) {
      const server = createServer(SERVER_OPTIONS, handler);
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen({ host, port: sharedPort, reusePort: LISTENING_SOCKETS > 1 }, () => {
          server.off("error", reject);
          resolve();
        });
      });
    }
  } catch (error) {
    for (const server of servers) server.close();
    throw error;
  }
  return {
    port: sharedPort,
    close(done) {
      let pending = servers.length;
      let firstError: Error | undefined;
      for (const server of servers) {
        server.close((error) => {
          firstError ??= error;
          pending -= 1;
          if (pending === 0) done(firstError);
        });
      }
    },
    closeIdleConnections: () => {
      for (const server of servers) server.closeIdleConnections();
    },
    closeAllConnections: () => {
      for (const server of servers) server.closeAllConnections();
    },
  };
}

/** Binds the port without SO_REUSEPORT (port 0: a free one), releases it and returns its number. */
function bindExclusivelyAndRelease(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen({ host, port, exclusive: true }, () => {
      const address = probe.address();
      const bound = typeof address === "object" && address ? address.port : port;
      probe.close(() => resolve(bound));
    });
  });
}
