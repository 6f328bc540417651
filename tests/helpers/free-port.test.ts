import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "./free-port.ts";

describe("freePort", () => {
  it("hands out distinct, bindable ports below the kernel's ephemeral range", async () => {
    const ephemeralStart = Number(
      readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0],
    );
    const ports: number[] = [];
    for (let index = 0; index < 20; index += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) expect(port).toBeLessThan(ephemeralStart);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], "127.0.0.1", resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
