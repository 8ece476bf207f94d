import { Search, X } from "lucide-react";
import styles from "./SearchInput.module.css";

/** A search box with a clear button; the label is for screen readers, the placeholder for eyes. */
export function SearchInput({
  value,
  onChange,
  label,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
}) {
  return (
    <div className={styles.search}>
      <Search size={15} className={styles.icon} aria-hidden="true" />
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder ?? label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={styles.input}
      />
      {value ? (
        <button type="button" className={styles.clear} onClick={() => onChange("")} aria-label="Clear search">
          <X size={14} />
        </button>
      ) : null}
    </div>
  );
}
