import { type FormEvent, useEffect, useState } from "react";
import { Button } from "../../ui/Button";
import { Field } from "../../ui/Field";
import { Modal } from "../../ui/Modal";
import styles from "./queries.module.css";

export interface SaveQueryValues {
  title: string;
  description: string;
  isPublic: boolean;
}

/** Title (required), description and 'Make public'; Cmd/Ctrl+Enter saves. */
export function SaveQueryDialog({
  isOpen,
  onClose,
  onSave,
  initial,
  heading = "Save Query",
  isSaving,
  error,
}: {
  isOpen: boolean;
  onClose: () => void;
  onSave: (values: SaveQueryValues) => void;
  initial: SaveQueryValues;
  heading?: string;
  isSaving: boolean;
  error: string | null;
}) {
  const [values, setValues] = useState(initial);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the dialog opens
  useEffect(() => {
    if (isOpen) setValues(initial);
  }, [isOpen]);

  const canSave = values.title.trim() !== "" && !isSaving;
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (canSave) onSave({ ...values, title: values.title.trim(), description: values.description.trim() });
  };
  return (
    <Modal isOpen={isOpen} onClose={onClose} title={heading} size="md" onSubmitShortcut={submit}>
      <form className={styles.saveForm} onSubmit={submit}>
        <Field
          label="Title"
          data-autofocus
          required
          maxLength={200}
          value={values.title}
          onChange={(event) => setValues({ ...values, title: event.target.value })}
        />
        <label className={styles.textareaField}>
          <span>Description</span>
          <textarea
            rows={3}
            maxLength={2000}
            placeholder="Optional: what the query answers"
            value={values.description}
            onChange={(event) => setValues({ ...values, description: event.target.value })}
          />
        </label>
        <label className={styles.switch}>
          <input
            type="checkbox"
            role="switch"
            aria-checked={values.isPublic}
            checked={values.isPublic}
            onChange={(event) => setValues({ ...values, isPublic: event.target.checked })}
          />
          <span>Make public</span>
        </label>
        {error ? (
          <p className={styles.formError} role="alert">
            {error}
          </p>
        ) : null}
        <div className={styles.formActions}>
          <span className={styles.shortcut}>⌘/Ctrl + Enter</span>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="accent" disabled={!canSave} isLoading={isSaving}>
            Save
          </Button>
        </div>
      </form>
    </Modal>
  );
}
