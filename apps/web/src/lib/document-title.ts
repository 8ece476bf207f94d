/**
 * The browser tab's title, one per route, so tabs, history and bookmarks say which page
 * they are: "Queries — Epicenter", "polymarket.markets — Epicenter"…
 */
import { useEffect } from "react";

export const PRODUCT_TITLE = "Epicenter — The Data Terminal for Prediction Markets";

/** Sets the tab title while the page is shown; `undefined` (still loading) keeps the product's. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} — Epicenter` : PRODUCT_TITLE;
  }, [title]);
}
