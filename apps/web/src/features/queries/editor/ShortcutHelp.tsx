/** The editor's keyboard shortcuts, in a dialog opened by its button or by "?" outside the editor. */
import { Modal } from "../../../ui/Modal";
import { EDITOR_SHORTCUTS } from "./SqlEditor";
import styles from "./side-panel.module.css";

const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

export function ShortcutHelp({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const mod = isMac() ? "⌘" : "Ctrl";
  return (
    <Modal isOpen={isOpen} onClose={onClose} title="Keyboard shortcuts" size="sm">
      <table className={styles.shortcuts}>
        <tbody>
          {EDITOR_SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.action}>
              <td>
                {shortcut.keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 ? " + " : null}
                    <kbd>{key === "Mod" ? mod : key}</kbd>
                  </span>
                ))}
              </td>
              <td>{shortcut.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}
