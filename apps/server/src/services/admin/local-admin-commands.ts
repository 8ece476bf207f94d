/**
 * What `npm run admin` does, as plain functions over the app database: allow-list an
 * e-mail (optionally as an admin), list or remove allow-list entries, create an API key.
 * The CLI runs these itself when no server owns `DATA_DIR`, and the running server runs
 * them for it over the local admin channel (`local-admin-channel.ts`) when one does, so
 * the two paths share one implementation and answer with the very text the CLI prints.
 */
import { type AppDb, addToAllowList, listAllowList, removeFromAllowList, upsertUserByEmail } from "@epicenter/db";
import { z } from "zod";
import { createKeyForUser } from "../access/api-keys";
import { roleOf } from "../access/principal";

/** As the key-management endpoint bounds a key's name. */
export const API_KEY_NAME_MAX = 100;

/** One command, already checked by the CLI; the channel checks it again as it arrives. */
export const ZAdminCommand = z.discriminatedUnion("command", [
  z.strictObject({ command: z.literal("allow add"), email: z.email(), isAdmin: z.boolean() }),
  z.strictObject({ command: z.literal("allow list") }),
  z.strictObject({ command: z.literal("allow remove"), email: z.email() }),
  z.strictObject({
    command: z.literal("keys create"),
    email: z.email(),
    name: z.string().trim().min(1).max(API_KEY_NAME_MAX),
  }),
]);
export type AdminCommand = z.infer<typeof ZAdminCommand>;

export interface AdminCommandDeps {
  db: AppDb;
  adminEmails: readonly string[];
  clock: () => Date;
}

/** A command that cannot be done as asked; the CLI prints it with its usage and exits 2. */
export class AdminCommandRefused extends Error {
  override readonly name = "AdminCommandRefused";
}

/** Runs `command` and returns what the CLI prints for it. */
export async function runAdminCommand(deps: AdminCommandDeps, command: AdminCommand): Promise<string> {
  const { db } = deps;
  switch (command.command) {
    case "allow add": {
      const entry = await addToAllowList(db, command.email, "cli", { isAdmin: command.isAdmin });
      return `${entry.email} is allow-listed${entry.isAdmin ? " as an admin" : ""}.`;
    }
    case "allow list": {
      const entries = await listAllowList(db);
      if (entries.length === 0) return "The allow-list is empty.";
      return entries
        .map((entry) =>
          [entry.email, entry.isAdmin ? "admin" : "user", entry.createdAt.toISOString(), entry.addedBy ?? ""].join(
            "\t",
          ),
        )
        .join("\n");
    }
    case "allow remove": {
      if (!(await removeFromAllowList(db, command.email))) {
        throw new AdminCommandRefused(`${command.email} is not on the allow-list.`);
      }
      return `${command.email} is no longer allow-listed.`;
    }
    case "keys create": {
      const role = await roleOf(deps, command.email);
      if (!role.isAllowed) {
        throw new AdminCommandRefused(
          `${command.email} is not allow-listed; add it first with: allow add ${command.email}`,
        );
      }
      const user = await upsertUserByEmail(db, command.email);
      const { name, key } = await createKeyForUser({ db }, user.id, command.name);
      return `Created API key "${name}" for ${command.email}. It is shown this once:\n\n${key}\n`;
    }
  }
}
