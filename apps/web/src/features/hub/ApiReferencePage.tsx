/**
 * The interactive API reference: every operation of `/api/openapi.json`, grouped by tag,
 * with its parameters, request and response schemas, and a "Try it" form that calls the
 * API with the signed-in session. Rendered here, from the document the server serves, so
 * it needs no script from a CDN and cannot drift from the server.
 */
import { ArrowLeft, Play } from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { tryOperation } from "../../lib/api";
import { useDocumentTitle } from "../../lib/document-title";
import { Button } from "../../ui/Button";
import { CodeBlock } from "../../ui/CodeBlock";
import { EmptyState } from "../../ui/EmptyState";
import { inputClassName } from "../../ui/Field";
import { LoadingScreen } from "../../ui/LoadingScreen";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { SearchInput } from "../../ui/SearchInput";
import { MethodBadge } from "./ApiSection";
import { useOpenApi } from "./api";
import sectionStyles from "./api.module.css";
import hubStyles from "./hub.module.css";
import { exampleOf, inlineRefs, type OpenApiOperation, typeOf } from "./openapi-model";

/** The hub's shared styles plus this section's own. */
const styles = { ...hubStyles, ...sectionStyles };

interface Operation {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

export function ApiReferencePage() {
  useDocumentTitle("API reference");
  const openApi = useOpenApi();
  const [search, setSearch] = useState("");
  const groups = useMemo(() => {
    const byTag = new Map<string, Operation[]>();
    for (const [path, methods] of Object.entries(openApi.data?.paths ?? {})) {
      for (const [method, operation] of Object.entries(methods)) {
        const op = operation as OpenApiOperation;
        const text = `${method} ${path} ${op.summary ?? ""}`.toLowerCase();
        if (search && !text.includes(search.toLowerCase())) continue;
        const tag = op.tags?.[0] ?? "Other";
        byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, operation: op }]);
      }
    }
    return [...byTag.entries()];
  }, [openApi.data, search]);

  if (openApi.isPending) return <LoadingScreen message="Loading the API reference…" />;
  return (
    <Page>
      <PageHeader
        eyebrow={
          <Link to="/hub/api" className={styles.back}>
            <ArrowLeft size={12} /> API Access
          </Link>
        }
        title="API reference"
        description={
          openApi.data
            ? `${openApi.data.info.title} ${openApi.data.info.version} · OpenAPI ${openApi.data.openapi} · generated from the server's contracts`
            : undefined
        }
        actions={
          <div className={styles.referenceSearch}>
            <SearchInput label="Filter endpoints" value={search} onChange={setSearch} />
          </div>
        }
      />
      {openApi.isError ? (
        <EmptyState title="The OpenAPI document could not be loaded" tone="danger">
          {openApi.error.message}
        </EmptyState>
      ) : (
        <div className={styles.reference}>
          <nav className={styles.referenceNav} aria-label="Tags">
            {groups.map(([tag, operations]) => (
              <a key={tag} href={`#tag-${tag.replace(/\W+/g, "-")}`}>
                {tag} <span>{operations.length}</span>
              </a>
            ))}
          </nav>
          <div className={styles.stack}>
            {groups.map(([tag, operations]) => (
              <section key={tag} id={`tag-${tag.replace(/\W+/g, "-")}`} className={styles.stack}>
                <h2 className={styles.tagTitle}>{tag}</h2>
                {operations.map((operation) => (
                  <OperationCard key={`${operation.method} ${operation.path}`} {...operation} />
                ))}
              </section>
            ))}
          </div>
        </div>
      )}
    </Page>
  );
}

function OperationCard({ method, path, operation }: Operation) {
  const [isOpen, setIsOpen] = useState(false);
  const body = inlineRefs(operation.requestBody?.content?.["application/json"]?.schema);
  return (
    <details className={styles.operation} open={isOpen} onToggle={(event) => setIsOpen(event.currentTarget.open)}>
      <summary>
        <MethodBadge method={method.toUpperCase()} />
        <code className={styles.endpointPath}>{path}</code>
        <span className={styles.muted}>{operation.summary}</span>
      </summary>
      {isOpen ? (
        <div className={styles.operationBody}>
          {operation.description ? (
            <p>
              <Prose text={operation.description} />
            </p>
          ) : null}
          <p className={styles.muted}>
            Auth:{" "}
            {(operation.security ?? []).length === 0
              ? "none"
              : (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)).join(" or ")}
          </p>
          {(operation.parameters ?? []).length > 0 ? (
            <ul className={styles.paramList}>
              {(operation.parameters ?? []).map((parameter) => (
                <li key={parameter.name}>
                  <code>{parameter.name}</code> <span className={styles.muted}>({parameter.in})</span>{" "}
                  <code className={styles.type}>{typeOf(inlineRefs(parameter.schema))}</code>{" "}
                  <Prose text={parameter.description ?? ""} />
                </li>
              ))}
            </ul>
          ) : null}
          {body ? <CodeBlock code={JSON.stringify(exampleOf(body), null, 2)} caption="Request body" /> : null}
          {Object.entries(operation.responses ?? {}).map(([status, response]) => {
            const schema = inlineRefs(Object.values(response.content ?? {})[0]?.schema);
            return schema ? (
              <CodeBlock
                key={status}
                code={JSON.stringify(exampleOf(schema), null, 2)}
                caption={`${status} ${response.description ?? ""}`}
              />
            ) : (
              <p key={status} className={styles.muted}>
                <strong>{status}</strong> {response.description}
              </p>
            );
          })}
          <TryIt
            method={method}
            path={path}
            operation={operation}
            body={body ? JSON.stringify(exampleOf(body), null, 2) : null}
          />
        </div>
      ) : null}
    </details>
  );
}

function TryIt({ method, path, operation, body }: Operation & { body: string | null }) {
  const parameters = operation.parameters ?? [];
  const [values, setValues] = useState<Record<string, string>>({});
  const [requestBody, setRequestBody] = useState(body ?? "");
  const [answer, setAnswer] = useState<{ status: number; text: string; ms: number } | null>(null);
  const [isSending, setIsSending] = useState(false);

  const send = async () => {
    setIsSending(true);
    let url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ""));
    const query = new URLSearchParams(
      parameters.filter((p) => p.in === "query" && values[p.name]).map((p) => [p.name, values[p.name] ?? ""]),
    ).toString();
    if (query) url += `?${query}`;
    const sent = await tryOperation({ method, url, body: body !== null ? requestBody : null });
    let pretty = sent.text;
    try {
      pretty = JSON.stringify(JSON.parse(sent.text), null, 2);
    } catch {
      // not JSON: show as sent
    }
    setAnswer({ ...sent, text: pretty.slice(0, 20_000) });
    setIsSending(false);
  };

  return (
    <div className={styles.tryIt}>
      <h4>Try it</h4>
      {parameters.map((parameter) => (
        <label key={parameter.name} className={styles.tryField}>
          <span className="mono">{parameter.name}</span>
          <input
            className={inputClassName}
            value={values[parameter.name] ?? ""}
            placeholder={parameter.in}
            onChange={(event) => setValues({ ...values, [parameter.name]: event.target.value })}
          />
        </label>
      ))}
      {body !== null ? (
        <textarea
          className={`${inputClassName} ${styles.tryBody}`}
          value={requestBody}
          onChange={(event) => setRequestBody(event.target.value)}
          aria-label="Request body"
          spellCheck={false}
        />
      ) : null}
      <Button variant="accent" size="sm" icon={<Play size={13} />} onClick={send} isLoading={isSending}>
        Send request
      </Button>
      {answer ? (
        <CodeBlock code={answer.text} caption={`${answer.status || "network error"} · ${answer.ms} ms`} />
      ) : null}
    </div>
  );
}

/** Description text with its `backticked` names shown as code, as the contracts write them. */
function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split(/`([^`]+)`/).map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order.
          <code key={index}>{part}</code>
        ) : (
          part
        ),
      )}
    </>
  );
}
