/**
 * When an e2e test fails, says what each open page looked like: its address, the element
 * with focus, the errors it threw, and a screenshot in `test-results/failures/`. A failure
 * seen once under load is otherwise gone with the run.
 */
import { mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeEach } from "vitest";
import { openSessions } from "./browser";

const FAILURE_DIR = join(process.cwd(), "test-results", "failures");

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    mkdirSync(FAILURE_DIR, { recursive: true });
    const name = `${basename(task.file?.name ?? "e2e", ".e2e.test.ts")}-${task.name}`
      .replace(/[^\w-]+/g, "-")
      .slice(0, 120);
    let index = 0;
    for (const session of openSessions) {
      const { page } = session;
      const path = join(FAILURE_DIR, `${name}-${index++}.png`);
      const focus = await page
        .evaluate<string>(`document.activeElement?.outerHTML.slice(0, 160) ?? "none"`)
        .catch((error: Error) => `unknown (${error.message})`);
      await page.screenshot({ path, timeout: 10_000 }).catch(() => undefined);
      console.error(
        [
          `e2e failure report for "${task.name}":`,
          `  page ${page.url()}`,
          `  focus ${focus}`,
          `  page errors ${JSON.stringify(session.errors)}`,
          `  screenshot ${path}`,
        ].join("\n"),
      );
    }
  });
});
