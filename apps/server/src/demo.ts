/**
 * `npm run demo`: the whole product on this machine with no internet. Embedded stores in
 * a demo data directory, and the server with the built SPA on PORT (3000 by default).
 */
import { resolve } from "node:path";
import { ConfigError, parseConfig } from "./config";
import { StartupError } from "./deps";
import { startServer } from "./main";

const DEMO_ADMIN = "admin@epicenter.local";

async function demo(): Promise<void> {
  const env = {
    DATA_DIR: resolve(".demo-data"),
    ADMIN_EMAILS: DEMO_ADMIN,
    ...process.env,
  };
  const config = parseConfig(env);
  const server = await startServer(config);
  console.log(
    [
      "",
      "  Epicenter demo is running",
      `  → ${config.publicUrl}`,
      `  data: ${config.dataDir}`,
      `  admin: ${config.adminEmails.join(", ")}`,
      "",
    ].join("\n"),
  );
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void server.stop().then(() => process.exit(0));
    });
  }
}

demo().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupError) {
    console.error(error.message);
    process.exit(error instanceof ConfigError ? 2 : 1);
  }
  console.error(error);
  process.exit(1);
});
