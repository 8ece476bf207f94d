/** `tsx build-templates.ts <folder>`: migrates a warehouse and an app database into `<folder>` (see global-setup.ts). */
import { join } from "node:path";
import { buildAppDatabaseTemplate } from "@epicenter/db/testing";
import { buildWarehouseTemplate } from "@epicenter/warehouse/testing";

const root = process.argv[2];
if (!root) throw new Error("usage: build-templates.ts <folder>");
await Promise.all([buildWarehouseTemplate(join(root, "warehouse")), buildAppDatabaseTemplate(join(root, "app"))]);
