import { defineConfig } from "vitest/config";
import { E2E_LANES } from "./tests/e2e/prepared";

// Three tiers (STYLE.md): pure logic, real engines, a real browser. Each test file runs in
// its own process, which suits chDB: one embedded engine per process and data path.
const INTEGRATION = [
  "apps/**/src/**/*.integration.test.ts",
  "packages/**/src/**/*.integration.test.ts",
  "scripts/**/*.integration.test.ts",
];
/** Integration files that spawn and kill real server processes. */
const SERIAL = ["apps/server/src/faults/**/*.integration.test.ts", "apps/server/src/main.integration.test.ts"];

export default defineConfig({
  test: {
    pool: "forks",
    // Vitest's own report, then each tier's wall time and slowest files (the CI budget).
    reporters: ["default", "./tests/reporters/tier-times.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["apps/**/src/**/*.test.{ts,tsx}", "packages/**/src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "integration",
          include: INTEGRATION,
          exclude: ["**/node_modules/**", ...SERIAL],
          globalSetup: ["tests/integration/global-setup.ts"],
          // Two files at a time: most of a file's time is waiting (a worker start, a replay
          // answer, a store's disk), and each file has its own stores and ports.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // The files that start, kill and time real server processes: one at a time, after the rest.
          name: "integration:serial",
          include: SERIAL,
          exclude: ["**/node_modules/**"],
          globalSetup: ["tests/integration/global-setup.ts"],
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.e2e.test.ts"],
          globalSetup: ["tests/e2e/global-setup.ts"],
          setupFiles: ["tests/e2e/on-failure.ts"],
          // A page load on a busy 2-core machine can take seconds; polls wait for it.
          expect: { poll: { timeout: 15_000, interval: 100 } },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One file per lane at a time, each lane against a server of its own (tests/e2e/server.ts).
          maxWorkers: E2E_LANES,
        },
      },
    ],
  },
});
