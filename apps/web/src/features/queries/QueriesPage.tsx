import { type SavedQuery, savedQueryNode } from "@epicenter/contracts";
import { Clock, GitFork, Pencil, Play, Plus, Timer, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import { Link, useNavigate } from "react-router";
import { usePageControls } from "../../layout/page-controls";
import { useDocumentTitle } from "../../lib/document-title";
import { formatRelative } from "../../lib/time";
import { Button } from "../../ui/Button";
import { editorUrl } from "../../ui/editor-link";
import { Page } from "../../ui/Page";
import { PageHeader } from "../../ui/PageHeader";
import { SearchInput } from "../../ui/SearchInput";
import { Spinner } from "../../ui/Spinner";
import { useDeleteSavedQuery, useQueryStats, useSavedQueries, useUpdateSavedQuery } from "./api";
import styles from "./queries.module.css";
import { SaveQueryDialog } from "./SaveQueryDialog";

const number = new Intl.NumberFormat();

/** The saved-query gallery: examples, public queries and the user's own. */
export function QueriesPage() {
  useDocumentTitle("Queries");
  const navigate = useNavigate();
  const queries = useSavedQueries();
  const stats = useQueryStats();
  const remove = useDeleteSavedQuery();
  const update = useUpdateSavedQuery();
  const [search, setSearch] = useState("");
  const [showExamples, setShowExamples] = useState(true);
  const [editing, setEditing] = useState<SavedQuery | null>(null);

  const statsById = useMemo(
    () => new Map((stats.data?.queries ?? []).map((entry) => [entry.query_id, entry])),
    [stats.data],
  );
  const visible = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (queries.data?.queries ?? []).filter(
      (query) =>
        (showExamples || !query.is_example) &&
        (!needle ||
          query.title.toLowerCase().includes(needle) ||
          (query.description ?? "").toLowerCase().includes(needle)),
    );
  }, [queries.data, search, showExamples]);

  usePageControls(
    useMemo(
      () => (
        <Button variant="accent" size="sm" icon={<Plus size={14} />} onClick={() => navigate("/queries/new")}>
          New
        </Button>
      ),
      [navigate],
    ),
  );

  const onDelete = (query: SavedQuery) => {
    if (!window.confirm("Delete this query?")) return;
    remove.mutate(query.id, { onError: () => window.alert("Failed to delete query") });
  };

  return (
    <Page width="wide">
      <PageHeader
        title="Queries"
        description="Saved, forkable and shareable SQL over every Polymarket and Kalshi snapshot."
        actions={
          <Button variant="accent" icon={<Plus size={16} />} onClick={() => navigate("/queries/new")}>
            New
          </Button>
        }
      />
      <div className={styles.toolbar}>
        <div className={styles.search}>
          <SearchInput
            label="Search queries"
            placeholder="Search queries by title or description"
            value={search}
            onChange={setSearch}
          />
        </div>
        <label className={styles.switch}>
          <input
            type="checkbox"
            role="switch"
            aria-checked={showExamples}
            checked={showExamples}
            onChange={(event) => setShowExamples(event.target.checked)}
          />
          <span>Examples</span>
        </label>
      </div>

      {queries.isPending ? (
        <div className={styles.state}>
          <Spinner /> Loading queries…
        </div>
      ) : queries.isError ? (
        <div className={styles.state}>The queries could not be loaded: {queries.error.message}</div>
      ) : visible.length === 0 && search.trim() === "" ? (
        <div className={styles.empty}>
          <h2>No queries yet</h2>
          <Button variant="accent" icon={<Plus size={16} />} onClick={() => navigate("/queries/new")}>
            Create Query
          </Button>
        </div>
      ) : (
        <div className={styles.grid}>
          <Link to="/queries/new" className={`${styles.card} ${styles.newCard}`}>
            <Plus size={22} />
            <strong>New Query</strong>
            <span>Start from a template with LIMIT 10</span>
          </Link>
          {visible.map((query) => {
            const stat = statsById.get(query.id);
            return (
              <article key={query.id} className={styles.card} aria-label={query.title}>
                <Link to={`/queries/${query.id}`} className={styles.cardLink}>
                  <div className={styles.badges}>
                    <span className={`${styles.badge} ${styles[`author${query.author}`]}`}>{query.author}</span>
                    {query.is_public && !query.is_example ? <span className={styles.badge}>Public</span> : null}
                  </div>
                  <h3>{query.title}</h3>
                  <p className={styles.description}>{query.description ?? "No description"}</p>
                  <dl className={styles.stats}>
                    <div title="Runs">
                      <dt>
                        <Play size={12} />
                      </dt>
                      <dd>
                        {number.format(stat?.execution_count ?? 0)} {stat?.execution_count === 1 ? "run" : "runs"}
                      </dd>
                    </div>
                    <div title="Average runtime">
                      <dt>
                        <Timer size={12} />
                      </dt>
                      <dd>{stat ? `${number.format(stat.avg_runtime_ms)} ms` : "—"}</dd>
                    </div>
                    <div title="Last run">
                      <dt>
                        <Clock size={12} />
                      </dt>
                      <dd>{formatRelative(stat?.last_executed_at ?? null)}</dd>
                    </div>
                  </dl>
                </Link>
                <div className={styles.cardActions}>
                  {query.is_owner ? (
                    <>
                      <Button variant="ghost" size="xs" icon={<Pencil size={13} />} onClick={() => setEditing(query)}>
                        Edit
                      </Button>
                      <Button variant="ghost" size="xs" icon={<Trash2 size={13} />} onClick={() => onDelete(query)}>
                        Delete
                      </Button>
                    </>
                  ) : (
                    <Button
                      variant="ghost"
                      size="xs"
                      icon={<GitFork size={13} />}
                      onClick={() => navigate(editorUrl(savedQueryNode(query)))}
                    >
                      Fork
                    </Button>
                  )}
                </div>
              </article>
            );
          })}
          {visible.length === 0 ? <div className={styles.state}>No query matches “{search.trim()}”.</div> : null}
        </div>
      )}

      <SaveQueryDialog
        isOpen={editing !== null}
        onClose={() => setEditing(null)}
        initial={{
          title: editing?.title ?? "",
          description: editing?.description ?? "",
          isPublic: editing?.is_public ?? false,
        }}
        isSaving={update.isPending}
        error={update.isError ? update.error.message : null}
        onSave={(values) => {
          if (!editing) return;
          update.mutate(
            {
              id: editing.id,
              title: values.title,
              description: values.description || null,
              is_public: values.isPublic,
            },
            { onSuccess: () => setEditing(null) },
          );
        }}
      />
    </Page>
  );
}
