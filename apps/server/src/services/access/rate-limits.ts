/**
 * Limits on asking for sign-in links, per address and per client IP, so the endpoint can
 * neither flood someone's inbox nor be used to fill the waitlist. Kept in memory: a restart
 * forgets them, which is acceptable for a limit measured in minutes.
 */
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export interface SignInLimits {
  /** Resolves when allowed; otherwise rejects with the seconds to wait. */
  consume(email: string, ip: string | undefined): Promise<void>;
}

export class RateLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many sign-in requests. Try again in ${retryAfterSeconds} seconds.`);
  }
}

export function createSignInLimits(
  options: { perAddress?: number; perAddressSeconds?: number; perIp?: number; perIpSeconds?: number } = {},
): SignInLimits {
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
  return {
    consume: async (email, ip) => {
      try {
        if (ip) await byIp.consume(ip);
        await byAddress.consume(email);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          throw new RateLimited(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
        }
        throw rejection;
      }
    },
  };
}
