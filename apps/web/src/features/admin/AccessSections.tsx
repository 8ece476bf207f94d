import { Check, Plus, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { formatDateTime, formatRelative } from "../../lib/time";
import { Button } from "../../ui/Button";
import { Field } from "../../ui/Field";
import { AdminTable } from "./AdminTable";
import styles from "./admin.module.css";
import {
  useAddToAllowList,
  useAllowList,
  useApproveWaitlisted,
  useRemoveFromAllowList,
  useRemoveFromWaitlist,
  useWaitlist,
} from "./api";

export function AllowListSection() {
  const allowList = useAllowList();
  const add = useAddToAllowList();
  const remove = useRemoveFromAllowList();
  const [email, setEmail] = useState("");

  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(email.trim(), { onSuccess: () => setEmail("") });
  };

  return (
    <section className={styles.section}>
      <form className={styles.inlineForm} onSubmit={onAdd}>
        <Field
          label="Allow an e-mail"
          type="email"
          required
          placeholder="someone@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button
          type="submit"
          variant="accent"
          icon={<Plus size={15} />}
          isLoading={add.isPending}
          disabled={!email.trim()}
        >
          Add
        </Button>
      </form>
      {add.isError ? <p className={styles.error}>{add.error.message}</p> : null}
      <AdminTable
        query={allowList}
        rows={allowList.data?.entries}
        rowKey={(entry) => entry.email}
        empty="Nobody is allow-listed yet."
        columns={[
          { header: "E-mail", cell: (entry) => entry.email },
          { header: "Role", cell: (entry) => (entry.is_admin ? "Admin" : "User") },
          { header: "Added by", cell: (entry) => addedBy(entry.added_by) },
          {
            header: "Added",
            cell: (entry) => <span title={formatDateTime(entry.created_at)}>{formatRelative(entry.created_at)}</span>,
          },
          {
            header: "",
            cell: (entry) => (
              <Button
                variant="ghost"
                size="xs"
                icon={<Trash2 size={13} />}
                aria-label={`Remove ${entry.email}`}
                onClick={() => {
                  if (window.confirm(`Remove ${entry.email} from the allow-list?`)) remove.mutate(entry.email);
                }}
              >
                Remove
              </Button>
            ),
          },
        ]}
      />
    </section>
  );
}

export function WaitlistSection() {
  const waitlist = useWaitlist();
  const approve = useApproveWaitlisted();
  const remove = useRemoveFromWaitlist();
  return (
    <section className={styles.section}>
      {approve.isError ? <p className={styles.error}>{approve.error.message}</p> : null}
      <AdminTable
        query={waitlist}
        rows={waitlist.data?.entries}
        rowKey={(entry) => entry.email}
        empty="Nobody is waiting."
        columns={[
          { header: "E-mail", cell: (entry) => entry.email },
          {
            header: "Asked",
            cell: (entry) => <span title={formatDateTime(entry.created_at)}>{formatRelative(entry.created_at)}</span>,
          },
          {
            header: "",
            cell: (entry) => (
              <span className={styles.rowActions}>
                <Button
                  variant="secondary"
                  size="xs"
                  icon={<Check size={13} />}
                  isLoading={approve.isPending && approve.variables === entry.email}
                  onClick={() => approve.mutate(entry.email)}
                >
                  Approve
                </Button>
                <Button
                  variant="ghost"
                  size="xs"
                  icon={<Trash2 size={13} />}
                  onClick={() => remove.mutate(entry.email)}
                >
                  Remove
                </Button>
              </span>
            ),
          },
        ]}
      />
    </section>
  );
}

/** Who put an address on the allow-list, as a person would say it. */
function addedBy(source: string | null): string {
  if (source === "ALLOWED_EMAILS") return "Server settings (ALLOWED_EMAILS)";
  if (source === "cli") return "Command line (npm run admin)";
  return source ?? "—";
}
