/**
 * `npm run demo`: the whole product on this machine with no internet.
 * 1. A local replay of recorded real Polymarket and Kalshi pages stands in for both APIs.
 * 2. On a fresh demo directory, 7 days of 10-minute history are generated, so the 1-day
 *    and 7-day questions have answers.
 * 3. The server starts with the scheduler pointed at the replay, so real sync runs keep
 *    adding snapshots every interval (the first one right away), and the live feeds are
 *    followed from the replay's WebSockets, Kalshi's signed with a key made for the demo.
 * 4. A sign-in link for the demo admin is printed, and how to run `npm run admin` beside it
 *    (the demo's DATA_DIR is not the CLI's default).
 * It listens on 127.0.0.1 unless `HOST` says otherwise (the startup text says how), since
 * the admin's sign-in link is good for whoever opens it.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { generateDemoHistory, startReplayServer } from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse } from "@epicenter/warehouse";
import { ConfigError, parseConfig } from "./config";
import { EMBEDDED_IN_USE, StartupError } from "./deps";
import { startServer } from "./main";

const DEMO_ADMIN = "admin@epicenter.local";

async function demo(): Promise<void> {
  // The replay checks Kalshi's signed upgrade against the demo's own key, as Kalshi would.
  const dataDir = resolve(process.env.DATA_DIR ?? ".demo-data");
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyPath = join(dataDir, "kalshi-demo.key");
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(keyPath, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  const replay = await startReplayServer({
    live: { kalshiPublicKey: publicKey.export({ type: "spki", format: "pem" }).toString() },
  });
  const env = {
    DATA_DIR: dataDir,
    ADMIN_EMAILS: DEMO_ADMIN,
    LOG_LEVEL: "warn",
    // This machine only, as the demo admin's link works for whoever opens it first.
    HOST: "127.0.0.1",
    ...process.env,
    POLYMARKET_API_URL: replay.url.polymarket,
    POLYMARKET_CLOB_URL: replay.url.polymarketClob,
    POLYMARKET_DATA_URL: replay.url.polymarketData,
    KALSHI_API_URL: replay.url.kalshi,
    POLYMARKET_WS_URL: replay.url.polymarketWs,
    KALSHI_WS_URL: replay.url.kalshiWs,
    KALSHI_API_KEY_ID: "demo",
    KALSHI_PRIVATE_KEY_PATH: keyPath,
  };
  const config = parseConfig(env);

  await ensureHistory(config.warehouse.path, config.warehouse.url);
  const server = await startServer(config);
  const link = await adminSignInLink(config.publicUrl, config.outboxDir, config.adminEmails[0] ?? DEMO_ADMIN);

  console.log(
    [
      "",
      "  Epicenter demo is running",
      `  → ${config.publicUrl}`,
      `  ${listeningOn(config.host)}`,
      "",
      `  Sign in as the admin (${config.adminEmails[0] ?? DEMO_ADMIN}) with this link (valid 15 minutes):`,
      `  ${link}`,
      "  Other sign-in links are written to the outbox and logged:",
      `  ${config.outboxDir}`,
      "",
      `  Data: ${config.dataDir}`,
      `  Upstream replay: ${replay.url.polymarket} and ${replay.url.kalshi}; syncing every ${config.syncIntervalSeconds} s`,
      `  Price and trade history from ${replay.url.polymarketClob}, ${replay.url.polymarketData} and Kalshi, between syncs`,
      "",
      "  Manage access from another terminal while the demo runs:",
      `  DATA_DIR=${config.dataDir} npm run admin -- allow add EMAIL`,
      "",
    ].join("\n"),
  );

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void server
        .stop()
        .then(() => replay.close())
        .then(() => process.exit(0));
    });
  }
}

/** Where the demo answers, and how to change it. */
function listeningOn(host: string): string {
  if (host === "127.0.0.1" || host === "::1" || host === "localhost") {
    return `Listening on ${host} only (this machine): HOST=0.0.0.0 npm run demo to listen on every interface`;
  }
  return `Listening on ${host}${host === "0.0.0.0" || host === "::" ? " (every interface)" : ""}: unset HOST to keep it to this machine`;
}

/** Generates history once per demo directory; a restarted demo keeps what it has. */
async function ensureHistory(path: string, url: string | undefined): Promise<void> {
  if (url) return;
  let warehouse: ReturnType<typeof openWarehouse>;
  try {
    warehouse = openWarehouse({ path, poolSize: 2 });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StartupError(`${EMBEDDED_IN_USE(path)} (${reason})`);
  }
  try {
    await migrateWarehouse(warehouse);
    const [row] = await warehouse.query<{ n: string }>("SELECT count() AS n FROM polymarket.markets");
    if (Number(row?.n ?? 0) > 0) return;
    console.log("  Generating 7 days of 10-minute history for the demo (under a minute)…");
    const started = Date.now();
    const result = await generateDemoHistory(warehouse, { days: 7, intervalMinutes: 10 });
    console.log(
      `  History ready: ${result.steps} snapshots from ${result.from} to ${result.to} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await warehouse.close();
  }
}

async function adminSignInLink(publicUrl: string, outboxDir: string, email: string): Promise<string> {
  const asked = Date.now() - 1_000;
  const response = await fetch(`${publicUrl}/api/auth/magic-link`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  if (!response.ok) return `(could not create one: ${response.status}; ask at ${publicUrl}/login)`;
  for (const file of readdirSync(outboxDir).sort().reverse()) {
    const mail = JSON.parse(readFileSync(join(outboxDir, file), "utf8")) as {
      to: string;
      link: string;
      created_at: string;
    };
    if (mail.to === email && Date.parse(mail.created_at) >= asked) return mail.link;
  }
  return `(ask for one at ${publicUrl}/login)`;
}

demo().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupError) {
    console.error(error.message);
    process.exit(error instanceof ConfigError ? 2 : 1);
  }
  console.error(error);
  process.exit(1);
});
