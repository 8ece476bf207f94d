/** Saved queries as the API shows them: who wrote them, whether the caller owns them. */
import type { SavedQuery as SavedQueryJson } from "@epicenter/contracts";
import { ZChartSpec } from "@epicenter/contracts";
import type { SavedQuery } from "@epicenter/db";

export function savedQueryJson(query: SavedQuery, callerId: string | null): SavedQueryJson {
  const isOwner = callerId !== null && query.userId === callerId && !query.isExample;
  const chart = ZChartSpec.safeParse(query.chart);
  return {
    id: query.id,
    user_id: query.userId,
    title: query.title,
    sql: query.sql,
    description: query.description,
    is_public: query.isPublic,
    is_example: query.isExample,
    chart: chart.success ? chart.data : null,
    created_at: query.createdAt.toISOString(),
    updated_at: query.updatedAt.toISOString(),
    is_owner: isOwner,
    author: query.isExample ? "Example" : isOwner ? "You" : "Community",
  };
}
