/**
 * Limits on asking for sign-in links, so the endpoint can neither flood someone's inbox
 * nor be used to fill the waitlist: per address, per client network (an IPv4 address, or
 * an IPv6 /64, which one host can rotate through at will), and a ceiling on new waitlist
 * entries per hour across everyone, which no number of rotated addresses gets around.
 * Kept in memory: a restart forgets them, which is acceptable for limits measured in
 * minutes.
 */
import { isIPv6 } from "node:net";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export interface SignInLimits {
  /** Resolves when allowed; otherwise rejects with the seconds to wait. */
  consume(email: string, ip: string | undefined): Promise<void>;
  /** Takes one of the hour's new waitlist places; rejects with `RateLimited` when none is left. */
  takeWaitlistPlace(): Promise<void>;
  /** Gives a place back (the address was on the waitlist already). */
  returnWaitlistPlace(): Promise<void>;
}

export class RateLimited extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    message = `Too many sign-in requests. Try again in ${retryAfterSeconds} seconds.`,
  ) {
    super(message);
  }
}

export interface SignInLimitOptions {
  perAddress?: number;
  perAddressSeconds?: number;
  perIp?: number;
  perIpSeconds?: number;
  /** New waitlist entries per hour, across all callers. */
  waitlistPerHour?: number;
}

export function createSignInLimits(options: SignInLimitOptions = {}): SignInLimits {
  const byAddress = new RateLimiterMemory({
    keyPrefix: "magic-link-address",
    points: options.perAddress ?? 5,
    duration: options.perAddressSeconds ?? 15 * 60,
  });
  const byIp = new RateLimiterMemory({
    keyPrefix: "magic-link-ip",
    points: options.perIp ?? 30,
    duration: options.perIpSeconds ?? 60 * 60,
  });
  const waitlist = new RateLimiterMemory({
    keyPrefix: "waitlist-new",
    points: options.waitlistPerHour ?? 100,
    duration: 60 * 60,
  });
  const limited = (rejection: unknown, message?: (seconds: number) => string) => {
    if (!(rejection instanceof RateLimiterRes)) return rejection;
    const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    return new RateLimited(seconds, message?.(seconds));
  };
  return {
    consume: async (email, ip) => {
      try {
        if (ip) await byIp.consume(networkOf(ip));
        await byAddress.consume(email);
      } catch (rejection) {
        throw limited(rejection);
      }
    },
    takeWaitlistPlace: async () => {
      try {
        await waitlist.consume("all");
      } catch (rejection) {
        throw limited(
          rejection,
          (seconds) =>
            `The waitlist is not taking new e-mails right now. Try again in ${Math.ceil(seconds / 60)} minutes.`,
        );
      }
    },
    returnWaitlistPlace: async () => {
      await waitlist.reward("all", 1).catch(() => undefined);
    },
  };
}

/**
 * The key a caller's address is limited under: an IPv4 address as it is (an IPv4-mapped
 * IPv6 address as its IPv4), an IPv6 address by its /64 — the block one subscriber gets.
 */
export function networkOf(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(ip)) return ip;
  const [head = "", tail = ""] = ip.split("%")[0]?.split("::") ?? [];
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || "0", 16).toString(16))
    .join(":")}::/64`;
}
