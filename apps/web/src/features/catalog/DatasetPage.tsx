/**
 * One table of the catalog (SPEC §2 /datasets/{namespace-table}): counts, schema and sample
 * values; a market key's sample (a Polymarket market's id, a Kalshi ticker) opens its market.
 */
import type { Venue } from "@epicenter/contracts";
import { ArrowLeft, Code2, Database } from "lucide-react";
import { useMemo } from "react";
import { useNavigate, useParams } from "react-router";
import { usePageControls } from "../../layout/page-controls";
import { useDocumentTitle } from "../../lib/document-title";
import { Badge, sourceTone } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { editorUrl } from "../../ui/editor-link";
import { LoadingScreen } from "../../ui/LoadingScreen";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { SourceMark } from "../../ui/SourceMark";
import { Spinner } from "../../ui/Spinner";
import { MarketLink } from "../markets/MarketLink";
import { isMarketKey, marketKeyColumnOf } from "../markets/market-keys";
import { useSample, useTable } from "./api";
import styles from "./catalog.module.css";
import { firstSampleValues, parseDatasetId, sampleText, simplifyType, tableQuery } from "./catalog-model";

export function DatasetPage() {
  const { datasetId = "" } = useParams();
  const navigate = useNavigate();
  const parsed = parseDatasetId(datasetId);
  const namespace = parsed?.namespace ?? "";
  const name = parsed?.table ?? "";
  useDocumentTitle(parsed ? `${namespace}.${name}` : "Data Catalog");
  const table = useTable(namespace, name);
  const sample = useSample(namespace, name, table.isSuccess);
  const samples = useMemo(() => firstSampleValues(sample.data), [sample.data]);
  const marketKey = marketKeyColumnOf(namespace, name);

  const openInEditor = useMemo(
    () => () => navigate(editorUrl({ sql: tableQuery({ namespace, name }), title: `${namespace}.${name}` })),
    [navigate, namespace, name],
  );
  const controls = useMemo(
    () => (
      <>
        <Button variant="ghost" size="sm" icon={<ArrowLeft size={14} />} onClick={() => navigate("/datasets")}>
          Back to Catalog
        </Button>
        <Button
          variant="accent"
          size="sm"
          icon={<Code2 size={14} />}
          onClick={openInEditor}
          disabled={!table.isSuccess}
        >
          Query in Editor
        </Button>
      </>
    ),
    [navigate, openInEditor, table.isSuccess],
  );
  usePageControls(controls);

  if (!parsed || table.isError) {
    return (
      <Page>
        <EmptyState
          icon={<Database size={20} />}
          title={parsed ? "This table could not be loaded" : "No such table"}
          tone={parsed ? "danger" : "neutral"}
          action={
            <Button variant="secondary" icon={<ArrowLeft size={14} />} onClick={() => navigate("/datasets")}>
              Back to Catalog
            </Button>
          }
        >
          {table.error?.message ?? `“${datasetId}” is not a table of the catalog.`}
        </EmptyState>
      </Page>
    );
  }
  if (table.isPending) return <LoadingScreen message="Loading table…" />;

  const info = table.data;
  return (
    <Page width="wide">
      <PageHeader
        icon={<SourceMark source={info.source} size={44} />}
        title={
          <span className="mono">
            {info.namespace}.{info.name}
          </span>
        }
        description={info.description}
        actions={
          <div className={styles.detailActions}>
            <Button variant="ghost" icon={<ArrowLeft size={15} />} onClick={() => navigate("/datasets")}>
              Back to Catalog
            </Button>
            <Button variant="accent" icon={<Code2 size={15} />} onClick={openInEditor}>
              Query in Editor
            </Button>
          </div>
        }
      />

      <dl className={styles.counts}>
        <div>
          <dt>Rows</dt>
          <dd data-testid="row-count">{(info.row_count ?? 0).toLocaleString("en-US")}</dd>
        </div>
        <div>
          <dt>Columns</dt>
          <dd data-testid="column-count">{info.columns.length}</dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>
            <Badge tone={sourceTone(info.source)}>{info.source}</Badge>
          </dd>
        </div>
      </dl>

      <section className={styles.schema} aria-label="Schema">
        <table className={styles.schemaTable}>
          <thead>
            <tr>
              <th>Column</th>
              <th>Type</th>
              <th>Sample Value</th>
            </tr>
          </thead>
          <tbody>
            {info.columns.map((column) => (
              <tr key={column.name}>
                <td data-label="Column">
                  <code className={styles.columnName}>{column.name}</code>
                  {column.description ? <p className={styles.columnDescription}>{column.description}</p> : null}
                </td>
                <td data-label="Type">
                  <code className={styles.type} title={column.type}>
                    {simplifyType(column.type)}
                  </code>
                </td>
                <td data-label="Sample Value" className={styles.sample}>
                  {sample.isPending ? (
                    <Spinner size={12} />
                  ) : sample.isError ? (
                    <span className={styles.muted}>—</span>
                  ) : samples.has(column.name) ? (
                    <SampleValue
                      value={samples.get(column.name)}
                      marketKey={marketKey?.column === column.name ? marketKey : null}
                    />
                  ) : (
                    <span className={styles.muted}>NULL</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {sample.isError ? (
          <p className={styles.sampleError}>Sample values could not be loaded: {sample.error.message}</p>
        ) : null}
      </section>
    </Page>
  );
}

/** A sample as text, or as a link to its market when the column holds market keys. */
function SampleValue({ value, marketKey }: { value: unknown; marketKey: { venue: Venue } | null }) {
  const text = sampleText(value);
  if (marketKey && isMarketKey(value)) {
    return (
      <code>
        <MarketLink venue={marketKey.venue} id={value}>
          {text}
        </MarketLink>
      </code>
    );
  }
  return <code>{text}</code>;
}
