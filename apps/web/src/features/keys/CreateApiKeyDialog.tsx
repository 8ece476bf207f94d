import { USER_ID_MISSING } from "@epicenter/contracts";
import { type FormEvent, useState } from "react";
import { failureMessage } from "../../lib/api";
import { Button } from "../../ui/Button";
import { CopyButton } from "../../ui/CopyButton";
import { Field } from "../../ui/Field";
import { Modal } from "../../ui/Modal";
import { useSession } from "../auth/session";
import { useCreateApiKey } from "./api";
import styles from "./keys.module.css";

/** Name the key, create it, show it once with a Copy action. */
export function CreateApiKeyDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { state } = useSession();
  const create = useCreateApiKey();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [createdKey, setCreatedKey] = useState<string | null>(null);

  const close = () => {
    setName("");
    setError(null);
    setCreatedKey(null);
    onClose();
  };

  const onSubmit = (event?: FormEvent) => {
    event?.preventDefault();
    if (name.trim() === "" || create.isPending) return;
    setError(null);
    const userId = state.status === "signed-in" ? state.user.id : "";
    if (!userId) {
      setError(USER_ID_MISSING);
      return;
    }
    create.mutate(
      { name: name.trim(), userId },
      {
        onSuccess: (key) => setCreatedKey(key.key),
        onError: (failure) => setError(failureMessage(failure, "Failed to create API key")),
      },
    );
  };

  return (
    <Modal
      isOpen={isOpen}
      onClose={close}
      title={createdKey ? "Your new API key" : "Create API key"}
      size="md"
      {...(createdKey ? {} : { onSubmitShortcut: () => onSubmit() })}
    >
      {createdKey ? (
        <div className={styles.created}>
          <p>Copy it now: this is the only time it is shown.</p>
          <div className={styles.secret}>
            <code data-testid="new-api-key">{createdKey}</code>
            <CopyButton text={createdKey} variant="secondary" size="sm" />
          </div>
          <Button variant="primary" onClick={close}>
            Done
          </Button>
        </div>
      ) : (
        <form className={styles.form} onSubmit={onSubmit}>
          <Field
            label="Name"
            data-autofocus
            placeholder="e.g. research notebook"
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
          />
          {error ? (
            <p className={styles.error} role="alert">
              {error}
            </p>
          ) : null}
          <div className={styles.formActions}>
            <Button variant="ghost" onClick={close}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="accent"
              disabled={name.trim() === "" || create.isPending}
              isLoading={create.isPending}
            >
              Create
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
