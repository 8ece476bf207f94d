import { Link, useLocation } from "react-router";
import styles from "./BottomNav.module.css";
import { isNavItemActive, visibleNavItems } from "./nav-items";
import { useCurrentPageControls } from "./page-controls";

/** Fixed icon tabs on small screens, with the current page's own controls above them. */
export function BottomNav({ isAdmin }: { isAdmin: boolean }) {
  const { pathname } = useLocation();
  const controls = useCurrentPageControls();
  return (
    <div className={styles.dock}>
      {controls ? <div className={styles.controls}>{controls}</div> : null}
      <nav className={styles.tabs} aria-label="Bottom navigation">
        {visibleNavItems(isAdmin).map((item) => {
          const isActive = isNavItemActive(item, pathname);
          return (
            <Link
              key={item.to}
              to={item.to}
              className={isActive ? `${styles.tab} ${styles.active}` : styles.tab}
              aria-current={isActive ? "page" : undefined}
              aria-label={item.label}
            >
              <item.icon size={20} strokeWidth={1.8} />
              <span>{item.shortLabel}</span>
            </Link>
          );
        })}
      </nav>
    </div>
  );
}
