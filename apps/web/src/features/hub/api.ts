import { endpoints, type HealthResponse, ZHealthResponse } from "@epicenter/contracts";
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { ApiRequestError, call } from "../../lib/api";

/** The hub status page rechecks every 30 s (SPEC §9). */
export const STATUS_POLL_MS = 30_000;

export interface HealthCheck {
  isOnline: boolean;
  responseMs: number;
  health: HealthResponse | null;
  checkedAt: number;
}

/**
 * `GET /health`, timed. Any failure — no answer, a 503, a body that is not the health
 * document — reads as the API being down rather than as an error of the page.
 */
export async function checkHealth(): Promise<HealthCheck> {
  const started = performance.now();
  const answered = (health: HealthResponse | null, isOnline: boolean): HealthCheck => ({
    isOnline,
    responseMs: Math.round(performance.now() - started),
    health,
    checkedAt: Date.now(),
  });
  try {
    const health = await call(endpoints.health, {}, { cache: "no-store" });
    return answered(health, health.status === "healthy");
  } catch (error) {
    // A 503 still carries the health document: which store did not answer.
    const parsed = ZHealthResponse.safeParse(error instanceof ApiRequestError ? error.body : null);
    return answered(parsed.success ? parsed.data : null, false);
  }
}

export function useHealthCheck() {
  return useQuery({
    queryKey: ["hub", "health"],
    queryFn: checkHealth,
    refetchInterval: STATUS_POLL_MS,
    staleTime: 0,
    retry: false,
  });
}

export function useSyncStatus() {
  return useQuery({
    queryKey: ["hub", "sync-status"],
    queryFn: ({ signal }) => call(endpoints.syncStatus, {}, { signal }),
    refetchInterval: STATUS_POLL_MS,
    staleTime: 0,
  });
}

export function usePlatformStats(options: { refetchMs?: number; isEnabled?: boolean } = {}) {
  return useQuery({
    queryKey: ["platform-stats"],
    queryFn: ({ signal }) => call(endpoints.platformStats, {}, { signal }),
    refetchInterval: options.refetchMs ?? false,
    enabled: options.isEnabled ?? true,
    staleTime: 0,
  });
}

const ZOpenApiDocument = z.object({
  openapi: z.string(),
  info: z.object({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

export function useOpenApi() {
  return useQuery({
    queryKey: ["openapi"],
    queryFn: async ({ signal }) => ZOpenApiDocument.passthrough().parse(await call(endpoints.openapi, {}, { signal })),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useClientConfig() {
  return useQuery({
    queryKey: ["client-config"],
    queryFn: ({ signal }) => call(endpoints.clientConfig, {}, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
