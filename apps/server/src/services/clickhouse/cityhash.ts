/**
 * CityHash128 as ClickHouse froze it (CityHash 1.0.2): the checksum of every frame of
 * ClickHouse's compressed framing (`compress=1`, `decompress=1`), which JDBC and
 * clickhouse-go verify before they decompress. Later CityHash releases changed the
 * algorithm, and no package on the registry keeps this version, so it is written out here
 * from the published algorithm and checked against hashes computed by the Java driver's
 * own implementation and a frame recorded by ch-go (`cityhash.test.ts`).
 *
 * 64-bit arithmetic is BigInt wrapped to 64 bits; a frame is at most 1 MiB, hashed once.
 */

const MASK = (1n << 64n) - 1n;
const K0 = 0xc3a5c85c97cb3127n;
const K1 = 0xb492b66fbe98f273n;
const K2 = 0x9ae16a3b2f90404fn;
const K3 = 0xc949d7c7509e6557n;
const K_MUL = 0x9ddfea08eb382d69n;

const wrap = (value: bigint) => value & MASK;
const mul = (a: bigint, b: bigint) => (a * b) & MASK;
const add = (a: bigint, b: bigint) => (a + b) & MASK;

function rotate(value: bigint, shift: bigint): bigint {
  return shift === 0n ? value : ((value >> shift) | (value << (64n - shift))) & MASK;
}

const shiftMix = (value: bigint) => value ^ (value >> 47n);

function hashLen16(u: bigint, v: bigint): bigint {
  let a = mul(u ^ v, K_MUL);
  a ^= a >> 47n;
  let b = mul(v ^ a, K_MUL);
  b ^= b >> 47n;
  return mul(b, K_MUL);
}

class Bytes {
  private readonly view: DataView;
  constructor(readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  u64(at: number): bigint {
    return this.view.getBigUint64(at, true);
  }
  u32(at: number): bigint {
    return BigInt(this.view.getUint32(at, true));
  }
  u8(at: number): bigint {
    return BigInt(this.data[at] as number);
  }
}

function hashLen0to16(s: Bytes, at: number, length: number): bigint {
  const len = BigInt(length);
  if (length > 8) {
    const a = s.u64(at);
    const b = s.u64(at + length - 8);
    // Rotated by the length itself (9–16), never by zero.
    return hashLen16(a, rotate(add(b, len), len)) ^ b;
  }
  if (length >= 4) return hashLen16(add(s.u32(at) << 3n, len), s.u32(at + length - 4));
  if (length > 0) {
    const y = s.u8(at) + (s.u8(at + (length >> 1)) << 8n);
    const z = len + (s.u8(at + length - 1) << 2n);
    return mul(shiftMix(mul(y, K2) ^ mul(z, K3)), K2);
  }
  return K2;
}

/** Two 64-bit halves of 32 bytes' weak hash with seeds. */
function weakHashLen32(s: Bytes, at: number, seedA: bigint, seedB: bigint): [bigint, bigint] {
  const w = s.u64(at);
  const x = s.u64(at + 8);
  const y = s.u64(at + 16);
  const z = s.u64(at + 24);
  let a = add(seedA, w);
  let b = rotate(add(add(seedB, a), z), 21n);
  const c = a;
  a = add(add(a, x), y);
  b = add(b, rotate(a, 44n));
  return [add(a, z), add(b, c)];
}

/** Under 128 bytes: CityMurmur. */
function cityMurmur(s: Bytes, start: number, length: number, seed0: bigint, seed1: bigint): [bigint, bigint] {
  let a = seed0;
  let b = seed1;
  let c: bigint;
  let d: bigint;
  let left = length - 16;
  if (left <= 0) {
    a = mul(shiftMix(mul(a, K1)), K1);
    c = add(mul(b, K1), hashLen0to16(s, start, length));
    d = shiftMix(add(a, length >= 8 ? s.u64(start) : c));
  } else {
    c = hashLen16(add(s.u64(start + length - 8), K1), a);
    d = hashLen16(add(b, BigInt(length)), add(c, s.u64(start + length - 16)));
    a = add(a, d);
    let at = start;
    do {
      a ^= mul(shiftMix(mul(s.u64(at), K1)), K1);
      a = mul(a, K1);
      b ^= a;
      c ^= mul(shiftMix(mul(s.u64(at + 8), K1)), K1);
      c = mul(c, K1);
      d ^= c;
      at += 16;
      left -= 16;
    } while (left > 0);
  }
  a = hashLen16(a, c);
  b = hashLen16(d, b);
  return [a ^ b, hashLen16(b, a)];
}

function cityHash128WithSeed(s: Bytes, start: number, length: number, seed0: bigint, seed1: bigint): [bigint, bigint] {
  if (length < 128) return cityMurmur(s, start, length, seed0, seed1);
  let x = seed0;
  let y = seed1;
  let z = mul(K1, BigInt(length));
  let at = start;
  let left = length;
  let v0 = add(mul(rotate(y ^ K1, 49n), K1), s.u64(at));
  let v1 = add(mul(rotate(v0, 42n), K1), s.u64(at + 8));
  let w0 = add(mul(rotate(add(y, z), 35n), K1), x);
  let w1 = mul(rotate(add(x, s.u64(at + 88)), 53n), K1);
  const round = () => {
    x = mul(rotate(add(add(add(x, y), v0), s.u64(at + 16)), 37n), K1);
    y = mul(rotate(add(add(y, v1), s.u64(at + 48)), 42n), K1);
    x ^= w1;
    y ^= v0;
    z = rotate(z ^ w0, 33n);
    [v0, v1] = weakHashLen32(s, at, mul(v1, K1), add(x, w0));
    [w0, w1] = weakHashLen32(s, at + 32, add(z, w1), y);
    [z, x] = [x, z];
    at += 64;
  };
  do {
    round();
    round();
    left -= 128;
  } while (left >= 128);
  y = add(y, add(mul(rotate(w0, 37n), K0), z));
  x = add(x, mul(rotate(add(v0, z), 49n), K0));
  // The last 0–127 bytes, up to four 32-byte chunks taken from the end.
  for (let done = 0; done < left; ) {
    done += 32;
    y = add(mul(rotate(wrap(y - x), 42n), K0), v1);
    w0 = add(w0, s.u64(at + left - done + 16));
    x = add(mul(rotate(x, 49n), K0), w0);
    w0 = add(w0, v0);
    [v0, v1] = weakHashLen32(s, at + left - done, v0, v1);
  }
  x = hashLen16(x, v0);
  y = hashLen16(y, w0);
  return [add(hashLen16(add(x, v1), w1), y), hashLen16(add(x, w1), add(y, v1))];
}

/** The 16 bytes ClickHouse writes before a frame: the low half, then the high, each little-endian. */
export function cityHash128(data: Uint8Array): Buffer {
  const s = new Bytes(data);
  const length = data.length;
  const [low, high] =
    length >= 16
      ? cityHash128WithSeed(s, 16, length - 16, s.u64(0) ^ K3, s.u64(8))
      : length >= 8
        ? cityHash128WithSeed(
            new Bytes(new Uint8Array(0)),
            0,
            0,
            s.u64(0) ^ mul(BigInt(length), K0),
            s.u64(length - 8) ^ K1,
          )
        : cityHash128WithSeed(s, 0, length, K0, K1);
  const out = Buffer.alloc(16);
  out.writeBigUInt64LE(low, 0);
  out.writeBigUInt64LE(high, 8);
  return out;
}
