/**
 * The frame checksum against two outside references: hashes the Java driver's own
 * implementation computed (the one JDBC verifies answers with), and a compressed frame
 * recorded by ch-go, the Go driver under Grafana's data source.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cityHash128 } from "./cityhash";

const fixture = (name: string) => readFileSync(new URL(`../../../../../fixtures/clickhouse/${name}`, import.meta.url));
const java = JSON.parse(fixture("cityhash128-java.json").toString()) as { hashes: Record<string, string> };

/** The fixture's input of each length: byte i is (i*131 + n*7 + 13) & 0xff. */
function input(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 131 + length * 7 + 13) & 0xff);
}

describe("cityHash128 (CityHash 1.0.2, as ClickHouse frames carry it)", () => {
  it("matches the Java driver's hash at every length from 0 to 260 and on longer inputs up to 1 MiB", () => {
    const lengths = Object.keys(java.hashes).map(Number);
    expect(lengths.length).toBeGreaterThan(260);
    const wrong = lengths.filter((length) => cityHash128(input(length)).toString("hex") !== java.hashes[length]);
    expect(wrong).toEqual([]);
  });

  it("gives the checksum of a frame ch-go recorded: method, sizes and LZ4 payload hashed together", () => {
    const frame = fixture("ch-go-data_compressed_lz4.raw");
    expect(frame[16]).toBe(0x82);
    expect(cityHash128(frame.subarray(16)).equals(frame.subarray(0, 16))).toBe(true);
    // One byte changed anywhere changes it.
    const changed = Buffer.from(frame.subarray(16));
    changed.writeUInt8((changed.at(-1) as number) ^ 1, changed.length - 1);
    expect(cityHash128(changed).equals(frame.subarray(0, 16))).toBe(false);
  });
});
