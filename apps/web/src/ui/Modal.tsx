import { X } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from "react";
import styles from "./Modal.module.css";

export type ModalSize = "sm" | "md" | "lg" | "xl";

export interface ModalProps {
  isOpen: boolean;
  onClose: () => void;
  title: ReactNode;
  size?: ModalSize;
  children: ReactNode;
  footer?: ReactNode;
  /** Cmd/Ctrl+Enter anywhere in the dialog (a form's submit). */
  onSubmitShortcut?: () => void;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal on the native `<dialog>`: the page behind is inert, Esc and a click on the
 * backdrop close it, Tab cycles inside it, and focus returns where it was on close. It
 * opens with focus on its first field (`data-autofocus`, else the first control of its
 * body, never the close button), so typing starts at once, and Cmd/Ctrl+Enter submits
 * from anywhere in it.
 */
export function Modal({ isOpen, onClose, title, size = "md", children, footer, onSubmitShortcut }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (isOpen && !element.open) {
      const previous = document.activeElement as HTMLElement | null;
      element.showModal();
      const body = element.querySelector<HTMLElement>("[data-modal-body]");
      const first =
        element.querySelector<HTMLElement>("[data-autofocus]") ??
        body?.querySelector<HTMLElement>(FOCUSABLE) ??
        element.querySelector<HTMLElement>(FOCUSABLE);
      first?.focus();
      return () => previous?.focus?.();
    }
    if (!isOpen && element.open) element.close();
    return undefined;
  }, [isOpen]);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey) && onSubmitShortcut) {
      event.preventDefault();
      onSubmitShortcut();
      return;
    }
    if (event.key !== "Tab" || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={dialog}
      className={`${styles.modal} ${styles[size]}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
      onKeyDown={onKeyDown}
    >
      {isOpen ? (
        <div className={styles.panel}>
          <header className={styles.header}>
            <h2 id={titleId}>{title}</h2>
            <button type="button" className={styles.close} onClick={onClose} aria-label="Close">
              <X size={18} />
            </button>
          </header>
          <div className={styles.body} data-modal-body>
            {children}
          </div>
          {footer ? <footer className={styles.footer}>{footer}</footer> : null}
        </div>
      ) : null}
    </dialog>
  );
}
