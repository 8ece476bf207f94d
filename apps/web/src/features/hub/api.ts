import { ZClientConfig, ZHealthResponse, ZPlatformStats, ZSyncStatusResponse } from "@epicenter/contracts";
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiRequest } from "../../lib/api";

/** The hub status page rechecks every 30 s (SPEC §9). */
export const STATUS_POLL_MS = 30_000;

export interface HealthCheck {
  isOnline: boolean;
  responseMs: number;
  health: z.infer<typeof ZHealthResponse> | null;
  checkedAt: number;
}

/**
 * `GET /health`, timed. Any failure — no answer, a 503, a body that is not the health
 * document — reads as the API being down rather than as an error of the page.
 */
export async function checkHealth(): Promise<HealthCheck> {
  const started = performance.now();
  try {
    const response = await fetch("/health", { cache: "no-store", headers: { accept: "application/json" } });
    const responseMs = Math.round(performance.now() - started);
    const parsed = ZHealthResponse.safeParse(await response.json().catch(() => null));
    const health = parsed.success ? parsed.data : null;
    return { isOnline: response.ok && health?.status === "healthy", responseMs, health, checkedAt: Date.now() };
  } catch {
    return {
      isOnline: false,
      responseMs: Math.round(performance.now() - started),
      health: null,
      checkedAt: Date.now(),
    };
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
    queryFn: () => apiRequest("/api/sync/status", ZSyncStatusResponse),
    refetchInterval: STATUS_POLL_MS,
    staleTime: 0,
  });
}

export function usePlatformStats(options: { refetchMs?: number; isEnabled?: boolean } = {}) {
  return useQuery({
    queryKey: ["platform-stats"],
    queryFn: () => apiRequest("/api/stats", ZPlatformStats),
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
    queryFn: () => apiRequest("/api/openapi.json", ZOpenApiDocument.passthrough()),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useClientConfig() {
  return useQuery({
    queryKey: ["client-config"],
    queryFn: () => apiRequest("/api/config", ZClientConfig),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
