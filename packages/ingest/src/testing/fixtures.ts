/**
 * Test helper: reads the recorded upstream payloads in the repo's `fixtures/` (laid out
 * like the URLs they stand for), tolerating the BOM one of them carries.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { DEFAULT_FIXTURES_DIR } from "../replay/catalog";

export function fixtureText(path: string): string {
  return readFileSync(`${DEFAULT_FIXTURES_DIR}${path}`, "utf8");
}

export function fixture<T = unknown>(path: string): T {
  const text = fixtureText(path);
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as T;
}

export function fixtureLines<T = unknown>(path: string): T[] {
  return gunzipSync(readFileSync(`${DEFAULT_FIXTURES_DIR}${path}`))
    .toString("utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as T);
}
