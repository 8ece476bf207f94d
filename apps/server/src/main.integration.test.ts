/**
 * Where `npm start` listens: both ports (`PORT` and `CLICKHOUSE_HTTP_PORT`) bind `HOST`,
 * 127.0.0.1 unless the operator opens it. Seen from outside, as a client on this machine
 * would: a TCP connection to 127.0.0.1 is taken, one to another address of the machine
 * (127.0.0.2, which Linux routes to the loopback too, and the non-internal interfaces) is
 * refused; with `HOST=0.0.0.0` both are taken.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "./config";
import { startServer } from "./main";

const dataDir = mkdtempSync(join(tmpdir(), "epicenter-main-test-"));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** Whether a TCP connection to `host:port` is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** This machine's other IPv4 addresses: the loopback's 127.0.0.2, and every interface's own. */
const otherAddresses = [
  "127.0.0.2",
  ...Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => address.family === "IPv4" && !address.internal)
    .map((address) => address.address),
];

async function listening(env: Record<string, string>) {
  return startServer(
    parseConfig({
      DATA_DIR: dataDir,
      PORT: "0",
      CLICKHOUSE_HTTP_PORT: "0",
      SYNC_INTERVAL_SECONDS: "0",
      LOG_LEVEL: "silent",
      ...env,
    }),
    { webRoot: join(dataDir, "no-spa") },
  );
}

describe("the server's listeners", () => {
  it("bind 127.0.0.1 by default, both ports, and every interface under HOST=0.0.0.0", async () => {
    const local = await listening({});
    try {
      for (const port of [local.port, local.clickhousePort as number]) {
        expect(await accepts("127.0.0.1", port), `127.0.0.1:${port}`).toBe(true);
        for (const address of otherAddresses) expect(await accepts(address, port), `${address}:${port}`).toBe(false);
      }
    } finally {
      await local.stop();
    }

    const open = await listening({ HOST: "0.0.0.0" });
    try {
      for (const port of [open.port, open.clickhousePort as number]) {
        for (const address of ["127.0.0.1", ...otherAddresses]) {
          expect(await accepts(address, port), `${address}:${port}`).toBe(true);
        }
      }
    } finally {
      await open.stop();
    }
  });
});
