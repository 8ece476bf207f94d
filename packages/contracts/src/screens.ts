/** What the catalog, dashboards, hub and landing screens need beyond the query service. */
import type { Endpoint } from "./endpoint";

/** The screens' endpoints; merged into `endpoints`. */
export const screenEndpoints = {} satisfies Record<string, Endpoint>;
