import { KeyRound, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { formatDateTime, formatRelative } from "../../lib/time";
import { Button } from "../../ui/Button";
import { Spinner } from "../../ui/Spinner";
import { useApiKeys, useRevokeApiKey } from "./api";
import { CreateApiKeyDialog } from "./CreateApiKeyDialog";
import styles from "./keys.module.css";

const REVOKE_CONFIRMATION = "Are you sure you want to revoke this API key? This cannot be undone.";

/** List, create and revoke the user's API keys. */
export function ApiKeysPanel() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [isCreating, setIsCreating] = useState(false);

  const onRevoke = (keyId: string) => {
    if (!window.confirm(REVOKE_CONFIRMATION)) return;
    revoke.mutate(keyId, { onError: () => window.alert("Failed to revoke API key") });
  };

  return (
    <section className={styles.panel} aria-labelledby="api-keys-title">
      <header className={styles.header}>
        <div>
          <h2 id="api-keys-title">API keys</h2>
          <p>
            Send a key as <code>Authorization: Bearer …</code> or <code>X-API-Key</code>. Keys are shown once.
          </p>
        </div>
        <Button variant="accent" size="sm" icon={<Plus size={15} />} onClick={() => setIsCreating(true)}>
          Create key
        </Button>
      </header>
      {keys.isPending ? (
        <div className={styles.empty}>
          <Spinner /> Loading keys…
        </div>
      ) : keys.isError ? (
        <div className={styles.empty}>The keys could not be loaded: {keys.error.message}</div>
      ) : keys.data.keys.length === 0 ? (
        <div className={styles.empty}>
          <KeyRound size={18} /> No API keys yet. Create one to call the API from scripts and notebooks.
        </div>
      ) : (
        <table className={styles.table}>
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Created</th>
              <th>Last used</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {keys.data.keys.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>
                  <code>{key.key_prefix}…</code>
                </td>
                <td title={formatDateTime(key.created_at)}>{formatRelative(key.created_at)}</td>
                <td>{formatRelative(key.last_used_at)}</td>
                <td className={styles.actions}>
                  <Button
                    variant="ghost"
                    size="xs"
                    icon={<Trash2 size={13} />}
                    onClick={() => onRevoke(key.id)}
                    aria-label={`Revoke ${key.name}`}
                  >
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CreateApiKeyDialog isOpen={isCreating} onClose={() => setIsCreating(false)} />
    </section>
  );
}
