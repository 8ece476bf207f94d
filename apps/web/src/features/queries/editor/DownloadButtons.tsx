/**
 * The editor's downloads: the whole result of the editor's SQL (up to 1,000,000 rows) in
 * the engine's CSV, JSON, Parquet or Arrow, not only the rows on screen, with the values of its
 * `{name:Type}` parameters; until every parameter has a valid value the buttons say so
 * instead of failing on the server.
 */
import type { ExportQueryRequest } from "@epicenter/contracts";
import { Download } from "lucide-react";
import { useState } from "react";
import { downloadResult } from "../api";
import styles from "./editor.module.css";

type DownloadFormat = ExportQueryRequest["format"];

const PARAMETERISED_NOTE = "Give every parameter a value to download.";

/** What each download holds, on its button. */
const DOWNLOAD_NOTES: Record<DownloadFormat, string> = {
  csv: "All rows, up to 1,000,000. Text cells that start with =, +, -, @, a tab or a line break get a leading ' so spreadsheets show them as text instead of running them.",
  json: "All rows, up to 1,000,000, as a JSON array of objects: values exactly as queried.",
  parquet: "All rows, up to 1,000,000, as Parquet: values and types exactly as queried.",
  arrow:
    "All rows, up to 1,000,000, as an Arrow IPC stream (for pyarrow, Polars, DuckDB, R): values and types exactly as queried.",
};

export function DownloadButtons({
  sql,
  title,
  params,
  onError,
}: {
  sql: string;
  title: string;
  /** The parameters' values, or undefined while one is missing or invalid. */
  params: Record<string, string> | undefined;
  onError: (message: string) => void;
}) {
  const [isDownloading, setIsDownloading] = useState(false);
  const hasParameters = params === undefined;
  const download = (format: DownloadFormat) => {
    setIsDownloading(true);
    downloadResult({
      query: sql,
      format,
      limit: 1_000_000,
      filename: slug(title),
      ...(params && Object.keys(params).length > 0 ? { params } : {}),
    })
      .catch((error: unknown) => onError(error instanceof Error ? error.message : "The download failed."))
      .finally(() => setIsDownloading(false));
  };
  return (
    <fieldset
      className={styles.downloads}
      disabled={hasParameters}
      title={hasParameters ? PARAMETERISED_NOTE : undefined}
    >
      <legend className="visually-hidden">
        Download all rows, up to 1,000,000{hasParameters ? ` (${PARAMETERISED_NOTE})` : ""}
      </legend>
      <Download size={14} />
      <span className={styles.downloadsCaption}>
        {hasParameters ? "Give every parameter a value to download:" : "All rows, up to 1,000,000:"}
      </span>
      {(["csv", "json", "parquet", "arrow"] as const).map((format) => (
        <button
          key={format}
          type="button"
          disabled={isDownloading || hasParameters}
          onClick={() => download(format)}
          aria-label={`Download ${format.toUpperCase()}`}
          title={hasParameters ? PARAMETERISED_NOTE : DOWNLOAD_NOTES[format]}
        >
          {format.toUpperCase()}
        </button>
      ))}
    </fieldset>
  );
}

function slug(title: string): string {
  return (
    title
      .replace(/[^A-Za-z0-9 _.-]/g, "")
      .trim()
      .slice(0, 80) || "epicenter-query"
  );
}
