/**
 * The result grid with a wide, long result (issue 13): 100,000 rows × 50 columns show their
 * first rows at once, with only the cells on screen in the DOM; the grid scrolls to the far
 * corner, sorts by a column and resizes a column.
 *
 * The service cuts one result at 32 MiB of JSON (`maxResultBytes`), and 100,000 rows of
 * these 50 columns are more than that even as value arrays (about 10 bytes a value). So the
 * first test runs a wide query through the real service and takes the rows it allows, and
 * the rest answer /api/query/rows with a 100,000 × 50 result built here, in the service's
 * shape (`QueryResult`).
 *
 * Timings are taken inside the page (performance.now), so the driver's round trips do not
 * count: from the click on Run to the first painted row, and from the end of the
 * /api/query/rows response to it (the SPA's share: read and validate the JSON, then draw). The
 * grid's own share is timed apart, by drawing it again from the result already in memory.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { E2E_USER } from "./global-setup";
import { e2eServer } from "./server";
import { signIn } from "./session";

const { baseUrl, dataDir } = e2eServer();

const ROWS = 100_000;
const COLUMN_COUNT = 50;
const GRID = 'table[aria-label="Query results"]';

/** The shape through the real engine: number, its text, and 48 more columns of numbers and text. */
const SERVICE_SQL = `SELECT ${[
  "number",
  "toString(number) AS s",
  ...Array.from({ length: COLUMN_COUNT - 2 }, (_, k) =>
    k % 2 === 0 ? `number * ${k + 2} AS n${k + 2}` : `toString(number * ${k + 2}) AS s${k + 2}`,
  ),
].join(", ")} FROM numbers(${ROWS})`;

/**
 * 100,000 rows × 50 columns as /api/query/rows returns them (64-bit integers as text): the
 * columns the tests read — a countdown to sort by, NULLs, a long value, a time, a float —
 * then numbers and text up to 50. About 29 MB of JSON.
 */
const WIDE_COLUMNS = [
  { name: "number", type: "UInt64" },
  { name: "s", type: "String" },
  { name: "d", type: "UInt64" },
  { name: "m", type: "Nullable(UInt16)" },
  { name: "l", type: "String" },
  { name: "at", type: "DateTime('UTC')" },
  { name: "ratio", type: "Float64" },
];
for (let k = 2; WIDE_COLUMNS.length < COLUMN_COUNT; k++) {
  WIDE_COLUMNS.push(k % 2 === 0 ? { name: `n${k}`, type: "UInt32" } : { name: `s${k}`, type: "String" });
}

function wideResult(): string {
  const start = Date.UTC(2026, 0, 1);
  const rows: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const row: unknown[] = [
      String(i),
      String(i),
      String(ROWS - 1 - i),
      i % 5 === 0 ? null : i % 1000,
      i < 3 ? `market-${i} ${"long text ".repeat(12)}` : `KX-${i}`,
      new Date(start + i * 1000).toISOString().slice(0, 19).replace("T", " "),
      i / 7,
    ];
    for (const column of WIDE_COLUMNS.slice(7)) {
      const k = Number(column.name.slice(1));
      row.push(column.type === "UInt32" ? (i * k) % 1000 : String((i * k) % 1000));
    }
    rows.push(JSON.stringify(row));
  }
  return `{"columns":${JSON.stringify(WIDE_COLUMNS)},"rows":[${rows.join(",")}],"row_count":${ROWS},"execution_time_ms":812.5,"truncated":false}`;
}

/** Resolves once the frame after the current work has been painted. */
const AFTER_PAINT = "new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))";

/**
 * The in-page stopwatch: started by the last click before a new grid shows (Run, or the
 * Results tab), stopped by the first data cell of that grid — the old one leaves while a
 * query runs — once it is painted.
 */
const START_STOPWATCH = `(() => {
  performance.clearResourceTimings();
  const timing = { clickedAt: 0, firstCellAt: 0, paintedAt: 0 };
  let hasLeft = !document.querySelector('${GRID} tbody td');
  window.__gridTiming = timing;
  const onClick = () => { timing.clickedAt = performance.now(); };
  document.addEventListener("click", onClick, { capture: true });
  const observer = new MutationObserver(() => {
    const cell = document.querySelector('${GRID} tbody td');
    if (!cell) { hasLeft = true; return; }
    if (!hasLeft || timing.firstCellAt) return;
    timing.firstCellAt = performance.now();
    document.removeEventListener("click", onClick, { capture: true });
    observer.disconnect();
    ${AFTER_PAINT}.then(() => { timing.paintedAt = performance.now(); });
  });
  observer.observe(document.body, { childList: true, subtree: true });
})()`;

const READ_STOPWATCH = `(() => {
  const timing = window.__gridTiming;
  const answer = performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith("/api/query/rows")).pop();
  return {
    ...timing,
    responseEndAt: answer ? answer.responseEnd : 0,
    cells: document.querySelectorAll('${GRID} td, ${GRID} th').length,
    heapMb: performance.memory ? Math.round(performance.memory.usedJSHeapSize / 1e6) : null,
  };
})()`;

interface Stopwatch {
  clickedAt: number;
  firstCellAt: number;
  paintedAt: number;
  responseEndAt: number;
  cells: number;
  heapMb: number | null;
}

describe("the result grid with 100,000 rows × 50 columns", () => {
  let browser: BrowserSession;
  let answer: Server | undefined;
  beforeAll(async () => {
    browser = await openBrowser({ width: 1440, height: 900 });
    await signIn(browser.page, baseUrl, dataDir, E2E_USER);
  });
  afterAll(async () => {
    answer?.close();
    await browser.close();
  });

  function header(name: string) {
    return browser.page
      .locator(`${GRID} thead th`)
      .filter({ has: browser.page.locator(`[data-column-name="${name}"]`) });
  }

  async function scrollTo(where: "top" | "bottom" | "end"): Promise<void> {
    const [x, y, row] =
      where === "top"
        ? ["0", "0", 2]
        : where === "bottom"
          ? ["0", "scroller.scrollHeight", ROWS + 1]
          : ["scroller.scrollWidth", "scroller.scrollHeight", ROWS + 1];
    await browser.page.evaluate(`(() => {
      const scroller = document.querySelector('${GRID}').parentElement;
      scroller.scrollTo(${x}, ${y});
    })()`);
    await browser.page.locator(`${GRID} tbody tr[aria-rowindex="${row}"]`).waitFor();
  }

  /** The text of the cell in data row `row` (0-based, as shown) of the column named `name`. */
  async function cellText(name: string, row: number): Promise<string> {
    return browser.page.evaluate<string>(`(() => {
      const grid = document.querySelector('${GRID}');
      const headers = [...grid.querySelectorAll("thead th")];
      const header = headers.find((th) => th.querySelector('[data-column-name="${name}"]'));
      const colIndex = header.getAttribute("aria-colindex");
      const tr = grid.querySelector('tbody tr[aria-rowindex="${row + 2}"]');
      return tr.querySelector('td[aria-colindex="' + colIndex + '"]').textContent;
    })()`);
  }

  // The times are printed to the tier's log (0.9 s to render 29 MB of rows idle, 0.17 s to
  // draw them from memory), never asserted: a loaded CI machine cannot hold a test to
  // milliseconds. What a slow grid does wrong is checked instead: the cells it keeps in
  // the DOM (a grid that drew all 5 million would hold them all).

  /** Runs what the editor holds with the row limit at 100,000 and times it to the first painted rows. */
  async function runTimed(): Promise<Stopwatch & { total: number; render: number }> {
    const { page } = browser;
    await page.getByLabel("Row limit").selectOption(String(ROWS));
    await page.evaluate(START_STOPWATCH);
    await page.getByRole("button", { name: "Run" }).click();
    await expect
      .poll(async () => (await page.evaluate<Stopwatch>(READ_STOPWATCH)).paintedAt, { timeout: 60_000 })
      .toBeGreaterThan(0);
    const timing = await page.evaluate<Stopwatch>(READ_STOPWATCH);
    expect(timing.responseEndAt).toBeGreaterThan(timing.clickedAt);
    return { ...timing, total: timing.paintedAt - timing.clickedAt, render: timing.paintedAt - timing.responseEndAt };
  }

  function report(label: string, timing: Stopwatch & { total: number; render: number }, rows: number): void {
    console.log(
      `results grid, ${label}: ${rows.toLocaleString("en-US")} rows × ${COLUMN_COUNT} columns; ` +
        `click → first rows ${Math.round(timing.total)} ms, response end → first rows ${Math.round(timing.render)} ms; ` +
        `${timing.cells} cells in the DOM; JS heap ${timing.heapMb ?? "?"} MB`,
    );
  }

  it("shows a wide query from the service at once, within its 32 MiB bound", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/queries/new`);
    const editor = page.locator(".cm-content");
    await editor.waitFor();
    await editor.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(SERVICE_SQL);
    const timing = await runTimed();
    const status = await page.getByText(/^[\d,]+ rows$/).textContent();
    const rows = Number(status?.replace(/\D/g, ""));
    report("from the service", timing, rows);

    // The bound cuts it (see the header); what arrives is still tens of thousands of rows.
    expect(rows).toBeGreaterThan(20_000);
    // Issue 24, defect 4: it says the bytes cut it, and not to raise the limit.
    const notice = page.getByRole("status").filter({ hasText: "larger than the 32 MiB one answer holds" });
    await notice.waitFor();
    expect(await notice.textContent()).not.toContain("Raise the limit");
    expect(timing.cells).toBeLessThan(2_000);
    const grid = page.locator(GRID);
    expect(await grid.getAttribute("aria-rowcount")).toBe(String(rows + 1));
    expect(await grid.getAttribute("aria-colcount")).toBe(String(COLUMN_COUNT + 1));
    expect([await cellText("number", 1), await cellText("s", 1), await cellText("s3", 1)]).toEqual(["1", "1", "3"]);
  });

  it("renders 100,000 rows × 50 columns at once, with only the visible cells in the DOM", async () => {
    const { page } = browser;
    // Served over HTTP by this process, with the page's request redirected unseen: handing
    // 29 MB to route.fulfill would add the driver's own transfer to the timing.
    const body = Buffer.from(wideResult());
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      response.end(body);
    });
    answer = server;
    const port = await new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
    );
    await page.route(`${baseUrl}/api/query/rows`, (route) => route.continue({ url: `http://127.0.0.1:${port}/` }));
    const timing = await runTimed();
    report("answered in full", timing, ROWS);
    await page.getByText(`${ROWS.toLocaleString("en-US")} rows`).waitFor();

    expect(timing.cells).toBeLessThan(2_000);
    const grid = page.locator(GRID);
    expect(await grid.getAttribute("aria-rowcount")).toBe(String(ROWS + 1));
    expect(await grid.getAttribute("aria-colcount")).toBe(String(COLUMN_COUNT + 1));
    expect(await cellText("number", 0)).toBe("0");
    expect(await cellText("d", 0)).toBe("99999");
    expect(await cellText("m", 0)).toBe("NULL");
    expect(await cellText("at", 1)).toBe("2026-01-01 00:00:01");
    // A long value is cut on screen and whole in its title.
    const long = page.locator(`${GRID} tbody tr[aria-rowindex="2"] td[title^="market-0 long text"]`);
    expect(await long.count()).toBe(1);
    await browser.screenshot("results-grid-wide");
  });

  it("draws the grid of 100,000 × 50 rows already in memory at once, from the visible cells alone", async () => {
    const { page } = browser;
    await page.getByRole("tab", { name: "Chart" }).click();
    await page.getByTestId("result-chart").waitFor();
    await page.evaluate(START_STOPWATCH);
    await page.getByRole("tab", { name: "Results" }).click();
    await expect.poll(async () => (await page.evaluate<Stopwatch>(READ_STOPWATCH)).paintedAt).toBeGreaterThan(0);
    const timing = await page.evaluate<Stopwatch>(READ_STOPWATCH);
    const drawn = timing.paintedAt - timing.clickedAt;
    console.log(`results grid, drawn from memory: ${Math.round(drawn)} ms; ${timing.cells} cells in the DOM`);
    expect(timing.cells).toBeLessThan(2_000);
  });

  it("scrolls to the last row and the last column without filling the DOM", async () => {
    const { page } = browser;
    await scrollTo("end");
    const last = WIDE_COLUMNS.at(-1)?.name ?? "";
    await header(last).waitFor();
    expect(await header(last).getAttribute("aria-colindex")).toBe(String(COLUMN_COUNT + 1));
    expect(
      await page
        .locator(`${GRID} tbody tr[aria-rowindex="${ROWS + 1}"] td`)
        .first()
        .textContent(),
    ).toBe(String(ROWS));
    expect(await cellText(last, ROWS - 1)).toBe(String(((ROWS - 1) * Number(last.slice(1))) % 1000));
    // The first columns have left the DOM, as the first rows have.
    expect(await header("number").count()).toBe(0);
    expect(await page.locator(`${GRID} tbody tr[aria-rowindex="2"]`).count()).toBe(0);
    expect(await page.locator(`${GRID} td, ${GRID} th`).count()).toBeLessThan(2_000);
    await browser.screenshot("results-grid-scrolled");
    await scrollTo("top");
    expect(await cellText("number", 0)).toBe("0");
  });

  it("sorts by a column: ascending, descending, then the query's order", async () => {
    const { page } = browser;
    const countdown = header("d");
    const sortCountdown = countdown.getByRole("button");

    const sorted = await page.evaluate<number>(`(async () => {
      const started = performance.now();
      document.querySelector('${GRID} thead [data-column-name="d"]').closest("button").click();
      await ${AFTER_PAINT};
      return performance.now() - started;
    })()`);
    console.log(`results grid, sorted 100,000 rows by a UInt64 column: ${Math.round(sorted)} ms`);
    expect(sorted).toBeLessThan(1_000);
    await expect.poll(() => countdown.getAttribute("aria-sort")).toBe("ascending");
    // UInt64 arrives as text: 2 must come before 10, as a number does.
    expect([await cellText("d", 0), await cellText("d", 1), await cellText("d", 2)]).toEqual(["0", "1", "2"]);
    expect(await cellText("number", 0)).toBe("99999");
    await browser.screenshot("results-grid-sorted");

    await sortCountdown.click();
    await expect.poll(() => countdown.getAttribute("aria-sort")).toBe("descending");
    expect(await cellText("d", 0)).toBe("99999");
    expect(await cellText("number", 0)).toBe("0");

    // Sorting another column ends the first one's; NULLs stay last either way.
    const maybe = header("m");
    await maybe.getByRole("button").click();
    await expect.poll(() => maybe.getAttribute("aria-sort")).toBe("ascending");
    expect(await countdown.getAttribute("aria-sort")).toBeNull();
    expect(await cellText("m", 0)).toBe("1");
    await maybe.getByRole("button").click();
    await expect.poll(() => maybe.getAttribute("aria-sort")).toBe("descending");
    expect(await cellText("m", 0)).toBe("999");
    await scrollTo("bottom");
    expect(await cellText("m", ROWS - 1)).toBe("NULL");
    await scrollTo("top");
    await maybe.getByRole("button").click();
    await expect.poll(() => maybe.getAttribute("aria-sort")).toBeNull();
    expect(await cellText("number", 0)).toBe("0");

    // The keyboard sorts too.
    await sortCountdown.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => countdown.getAttribute("aria-sort")).toBe("ascending");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await expect.poll(() => countdown.getAttribute("aria-sort")).toBeNull();
  });

  it("resizes a column by dragging the edge of its header", async () => {
    const { page } = browser;
    const column = header("s");
    const handle = column.getByRole("separator");
    const before = await column.boundingBox();
    const grip = await handle.boundingBox();
    expect(before && grip).toBeTruthy();
    if (!before || !grip) return;
    const y = grip.y + grip.height / 2;
    await page.mouse.move(grip.x + grip.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2 + 60, y, { steps: 5 });
    await page.mouse.move(grip.x + grip.width / 2 + 120, y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await column.boundingBox())?.width).toBeCloseTo(before.width + 120, 0);
    const cell = page.locator(
      `${GRID} tbody tr[aria-rowindex="2"] td[aria-colindex="${await column.getAttribute("aria-colindex")}"]`,
    );
    expect((await cell.boundingBox())?.width).toBeCloseTo(before.width + 120, 0);

    // Not narrower than the minimum, however far it is dragged.
    const now = await handle.boundingBox();
    if (!now) return;
    await page.mouse.move(now.x + now.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(now.x - 600, y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await column.boundingBox())?.width).toBeCloseTo(60, 0);

    // And from the keyboard.
    await handle.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(async () => (await column.boundingBox())?.width).toBeGreaterThan(60);
    await browser.screenshot("results-grid-resized");
  });
});
