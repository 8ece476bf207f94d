/**
 * The server's files are its own (issue 23): `DATA_DIR` is 0700 however it was made, so no
 * other user of the machine reaches anything in it. Behind that, the folders that hold
 * secrets are the server's user's alone too: PGlite writes its files 0666 whatever the
 * umask (measured), so the app database's are taken to 0600 at start (the ones it adds
 * later sit in its 0700 folder), and the outbox's mails, which hold sign-in links, are
 * written 0600 by the mailer. The warehouse keeps its modes: a worker that runs as another
 * user (no bubblewrap, a root server) reads the snapshot through the search bit the
 * sandbox gives its parents, and nothing else.
 */
import { chmod, mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** Folders under `DATA_DIR` whose every file is the server's alone. */
const PRIVATE_FOLDERS = ["app", "outbox", "run"];

export async function secureDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
  for (const folder of PRIVATE_FOLDERS) await ownerOnly(join(dataDir, folder));
}

/** Takes group and others' rights off `path` and everything under it. */
async function ownerOnly(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return;
  await chmod(path, info.mode & 0o700);
  if (!info.isDirectory()) return;
  for (const entry of await readdir(path)) await ownerOnly(join(path, entry));
}
