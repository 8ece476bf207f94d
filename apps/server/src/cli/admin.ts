/**
 * `npm run admin -- …`: bootstrap and run access without the UI.
 *   allow add EMAIL [--admin]   allow list   allow remove EMAIL
 *   keys create --email EMAIL --name NAME   (prints the key once)
 * When a server owns `DATA_DIR` the embedded stores are locked by it, so the command is
 * sent to that server over the local admin channel and runs there; when none answers, the
 * CLI opens the same stores with the same config as the server and runs it itself. Both
 * paths run `runAdminCommand`, so they do the same thing and print the same text.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { type Config, ConfigError, parseConfig } from "../config";
import { openStores, StartupError, type Stores } from "../deps";
import { createLogger } from "../logger";
import { askRunningServer, LocalAdminChannelError, socketPathProblem } from "../services/admin/local-admin-channel";
import {
  type AdminCommand,
  AdminCommandRefused,
  API_KEY_NAME_MAX,
  runAdminCommand,
} from "../services/admin/local-admin-commands";

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
  const command = commandOf(`${area} ${action ?? ""}`.trim(), subject, values);
  const config = parseConfig({ LOG_LEVEL: "warn", ...process.env });
  console.log(await perform(config, command));
}

function commandOf(
  command: string,
  subject: string | undefined,
  values: { admin?: boolean; email?: string; name?: string },
): AdminCommand {
  switch (command) {
    case "allow add":
      return { command, email: email(subject), isAdmin: values.admin ?? false };
    case "allow list":
      return { command };
    case "allow remove":
      return { command, email: email(subject) };
    case "keys create": {
      const address = email(values.email);
      const name = values.name?.trim();
      if (!name) throw new UsageError("--name is required.");
      if (name.length > API_KEY_NAME_MAX)
        throw new UsageError(`--name must be at most ${API_KEY_NAME_MAX} characters.`);
      return { command, email: address, name };
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

/** Runs the command in the server that owns `DATA_DIR`, or on the stores when none does. */
async function perform(config: Config, command: AdminCommand): Promise<string> {
  const answer = await askRunningServer(config.dataDir, command);
  if (answer) {
    switch (answer.outcome) {
      case "done":
        return answer.output;
      case "refused":
        throw new AdminCommandRefused(answer.message);
      case "failed":
        throw new Error(answer.message);
    }
  }
  let stores: Stores;
  try {
    stores = await openStores(config, createLogger(config.logLevel), { sandbox: false });
  } catch (error) {
    const unreachable = socketPathProblem(config.dataDir);
    if (error instanceof StartupError && unreachable) {
      throw new StartupError(`${error.message}\nA running server cannot be reached either: ${unreachable}.`);
    }
    throw error;
  }
  try {
    return await runAdminCommand(
      { db: stores.appDatabase.db, adminEmails: config.adminEmails, clock: () => new Date() },
      command,
    );
  } finally {
    await stores.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof AdminCommandRefused) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof StartupError || error instanceof LocalAdminChannelError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
