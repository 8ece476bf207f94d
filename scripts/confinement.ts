/**
 * Part of `npm run demo` and `npm start`: makes sure the machine can confine user SQL
 * before the server starts (issue 23). The sandbox's workers run under bubblewrap; where it
 * is missing the server runs SQL for admins only (unless `SANDBOX_UNCONFINED=allow`).
 *
 * - bubblewrap works here: nothing to do.
 * - Linux, missing, and this is root with apt-get (a fresh server or container): install it.
 * - Otherwise: say how to install it, and start anyway.
 *
 * Never fails the start: confinement is the server's to enforce, this only sets it up.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chooseConfinement } from "@epicenter/warehouse";

async function main(): Promise<void> {
  if (process.platform !== "linux") {
    console.log(
      "epicenter: user SQL is confined with bubblewrap, which is Linux-only. On macOS run the server in a Linux VM or container (see README, 'Confinement'); here only admins can run SQL unless you set SANDBOX_UNCONFINED=allow.",
    );
    return;
  }
  if ((await chooseConfinement("auto")).kind === "bubblewrap") return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync("/usr/bin/apt-get");
  if (!isRoot || !hasApt) {
    console.log(
      `epicenter: bubblewrap is ${existsSync("/usr/bin/bwrap") ? "installed but cannot create namespaces here" : "not installed"}, so only admins can run SQL. Install it (${hasApt ? "sudo apt-get install bubblewrap" : "your package manager's bubblewrap"}) and start again.`,
    );
    return;
  }
  console.log("epicenter: installing bubblewrap to confine user SQL (apt-get install bubblewrap)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () => spawnSync("apt-get", ["install", "-y", "-qq", "bubblewrap"], { stdio: "inherit", env });
  if (install().status !== 0) {
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    install();
  }
  const confinement = await chooseConfinement("auto");
  console.log(
    confinement.kind === "bubblewrap"
      ? "epicenter: bubblewrap installed; user SQL runs confined."
      : "epicenter: bubblewrap could not be set up here, so only admins can run SQL (see the server's log).",
  );
}

await main();
