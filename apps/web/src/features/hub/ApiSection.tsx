/**
 * API Access (SPEC §2 hub api): the seven endpoints, generated from `/api/openapi.json`
 * with curl examples for this host; how to connect from elsewhere (a saved query run by id
 * with parameters, the ClickHouse-compatible HTTP interface, the MCP server); and the
 * user's API keys.
 */

import { endpoints } from "@epicenter/contracts";
import { ExternalLink, FileJson } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "../../ui/Badge";
import { CodeBlock } from "../../ui/CodeBlock";
import { EmptyState } from "../../ui/EmptyState";
import { Spinner } from "../../ui/Spinner";
import { ApiKeysPanel } from "../keys/ApiKeysPanel";
import { useOpenApi } from "./api";
import sectionStyles from "./api.module.css";
import { CONNECT_ANCHORS, ConnectSection } from "./ConnectSection";
import connectStyles from "./connect.module.css";
import hubStyles from "./hub.module.css";
import { API_KEY_VARIABLE, buildReferences, type EndpointReference } from "./openapi-model";

/** The hub's shared styles plus this section's own. */
const styles = { ...hubStyles, ...sectionStyles };

export function ApiSection() {
  const openApi = useOpenApi();
  const origin = window.location.origin;
  return (
    <div className={styles.stack}>
      <section className={styles.apiIntro}>
        <div>
          <h2>REST API</h2>
          <p>
            Base URL <code>{origin}</code>. Send an API key as <code>Authorization: Bearer …</code> or{" "}
            <code>X-API-Key</code>; the examples read it from <code>${API_KEY_VARIABLE}</code>. Authenticated requests
            have no rate limit.
          </p>
        </div>
        <div className={styles.apiLinks}>
          <Link to="/hub/api/reference" className={styles.buttonLink}>
            <ExternalLink size={14} /> Interactive reference
          </Link>
          <a href={endpoints.openapi.path} className={styles.buttonLinkGhost} target="_blank" rel="noreferrer">
            <FileJson size={14} /> openapi.json
          </a>
        </div>
      </section>
      <CodeBlock code={`export ${API_KEY_VARIABLE}="ep_live_…"   # a key from the list below`} caption="shell" />
      <nav className={connectStyles.jumpLinks} aria-label="On this page">
        <span>On this page:</span>
        <a href="#rest-endpoints">REST endpoints</a>
        {CONNECT_ANCHORS.map((anchor) => (
          <a key={anchor.id} href={`#${anchor.id}`}>
            {anchor.label}
          </a>
        ))}
        <a href="#api-keys-title">API keys</a>
      </nav>

      {openApi.isPending ? (
        <div className={styles.loadingRow}>
          <Spinner /> Loading the API reference…
        </div>
      ) : openApi.isError ? (
        <EmptyState title="The API reference could not be loaded" tone="danger">
          {openApi.error.message}
        </EmptyState>
      ) : (
        <div className={styles.endpoints} id="rest-endpoints">
          {buildReferences(openApi.data, origin).map((reference) => (
            <EndpointCard key={`${reference.method} ${reference.path}`} reference={reference} />
          ))}
        </div>
      )}

      <ConnectSection origin={origin} />

      <ApiKeysPanel />
    </div>
  );
}

export function MethodBadge({ method }: { method: string }) {
  return <span className={`${styles.method} ${styles[`method${method}`] ?? ""}`}>{method}</span>;
}

function EndpointCard({ reference }: { reference: EndpointReference }) {
  return (
    <article
      className={styles.endpoint}
      data-testid="api-endpoint"
      data-endpoint={`${reference.method} ${reference.path}`}
      aria-label={`${reference.method} ${reference.path}`}
    >
      <header className={styles.endpointHeader}>
        <MethodBadge method={reference.method} />
        <code className={styles.endpointPath}>{reference.path}</code>
        <Badge tone={reference.auth === "none" ? "neutral" : "accent"}>
          {reference.auth === "none" ? "no auth" : reference.auth}
        </Badge>
      </header>
      <h3>{reference.summary}</h3>
      {reference.description ? <p className={styles.muted}>{reference.description}</p> : null}
      {reference.parameters.length > 0 ? (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Parameter</th>
                <th>In</th>
                <th>Type</th>
                <th>Description</th>
              </tr>
            </thead>
            <tbody>
              {reference.parameters.map((parameter) => (
                <tr key={`${parameter.where}-${parameter.name}`}>
                  <td>
                    <code>{parameter.name}</code>
                    {parameter.isRequired ? <span className={styles.required}> required</span> : null}
                  </td>
                  <td>{parameter.where}</td>
                  <td>
                    <code className={styles.type}>{parameter.type}</code>
                  </td>
                  <td className={styles.muted}>{parameter.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <div className={styles.examples}>
        <CodeBlock code={reference.curl} caption="curl" testId="curl-example" />
        {reference.responseExample !== null ? (
          <CodeBlock
            code={JSON.stringify(reference.responseExample, null, 2)}
            caption={`Response ${reference.responses.find((response) => response.status.startsWith("2"))?.status ?? ""}`}
          />
        ) : null}
      </div>
      <p className={styles.responses}>
        {reference.responses.map((response) => (
          <span key={response.status}>
            <strong>{response.status}</strong> {response.description}
          </span>
        ))}
      </p>
    </article>
  );
}
