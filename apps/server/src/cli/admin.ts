/**
 * `npm run admin -- …`: bootstrap and run access without the UI.
 *   allow add EMAIL [--admin]   allow list   allow remove EMAIL
 *   keys create --email EMAIL --name NAME   (prints the key once)
 * It opens the same stores with the same config as the server.
 */
import { parseArgs } from "node:util";
import { addToAllowList, listAllowList, removeFromAllowList, upsertUserByEmail } from "@epicenter/db";
import { z } from "zod";
import { ConfigError, parseConfig } from "../config";
import { openStores, StartupError } from "../deps";
import { createLogger } from "../logger";
import { createKeyForUser } from "../services/access/api-keys";
import { roleOf } from "../services/access/principal";

const USAGE = `Usage:
  npm run admin -- allow add EMAIL [--admin]
  npm run admin -- allow list
  npm run admin -- allow remove EMAIL
  npm run admin -- keys create --email EMAIL --name NAME`;

class UsageError extends Error {}

const email = (value: string | undefined) => {
  const parsed = z.email().safeParse(value);
  if (!parsed.success) throw new UsageError(`"${value ?? ""}" is not an e-mail address.`);
  return parsed.data;
};

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      admin: { type: "boolean" },
      email: { type: "string" },
      name: { type: "string" },
      help: { type: "boolean" },
    },
  });
  const [area, action, subject] = positionals;
  if (values.help || !area) {
    console.log(USAGE);
    return;
  }
  const command = `${area} ${action ?? ""}`.trim();
  if (!["allow add", "allow list", "allow remove", "keys create"].includes(command)) {
    throw new UsageError(`Unknown command "${command}".`);
  }

  const config = parseConfig({ LOG_LEVEL: "warn", ...process.env });
  const stores = await openStores(config, createLogger(config.logLevel), { sandbox: false });
  const db = stores.appDatabase.db;
  try {
    switch (command) {
      case "allow add": {
        const entry = await addToAllowList(db, email(subject), "cli", { isAdmin: values.admin ?? false });
        console.log(`${entry.email} is allow-listed${entry.isAdmin ? " as an admin" : ""}.`);
        break;
      }
      case "allow list": {
        const entries = await listAllowList(db);
        if (entries.length === 0) console.log("The allow-list is empty.");
        for (const entry of entries) {
          console.log(
            [entry.email, entry.isAdmin ? "admin" : "user", entry.createdAt.toISOString(), entry.addedBy ?? ""].join(
              "\t",
            ),
          );
        }
        break;
      }
      case "allow remove": {
        const address = email(subject);
        if (!(await removeFromAllowList(db, address))) throw new UsageError(`${address} is not on the allow-list.`);
        console.log(`${address} is no longer allow-listed.`);
        break;
      }
      case "keys create": {
        const address = email(values.email);
        if (!values.name?.trim()) throw new UsageError("--name is required.");
        const role = await roleOf({ db, adminEmails: config.adminEmails, clock: () => new Date() }, address);
        if (!role.isAllowed)
          throw new UsageError(`${address} is not allow-listed; add it first with: allow add ${address}`);
        const user = await upsertUserByEmail(db, address);
        const { apiKey, key } = await createKeyForUser(db, user.id, values.name);
        console.log(`Created API key "${apiKey.name}" for ${address}. It is shown this once:\n\n${key}\n`);
        break;
      }
    }
  } finally {
    await stores.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof StartupError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
