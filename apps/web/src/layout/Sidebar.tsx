import { Activity } from "lucide-react";
import { Link, NavLink, useLocation } from "react-router";
import { AccountButton } from "../features/auth/AccountButton";
import { Logo } from "../ui/Logo";
import { isSectionActive, visibleNavItems } from "./nav-items";
import styles from "./Sidebar.module.css";

export function Sidebar({ isAdmin }: { isAdmin: boolean }) {
  const { pathname } = useLocation();
  return (
    <aside className={styles.sidebar} aria-label="Main navigation">
      <Link to="/" className={styles.brand}>
        <Logo size={28} />
        <span>Epicenter</span>
        <span className={styles.alpha}>alpha</span>
      </Link>
      <nav className={styles.nav}>
        {visibleNavItems(isAdmin).map((item) => {
          const isActive = isSectionActive(item, pathname);
          return (
            <NavLink
              key={item.to}
              to={item.to}
              className={isActive ? `${styles.link} ${styles.active}` : styles.link}
              aria-current={isActive ? "page" : undefined}
              end={item.to === "/"}
            >
              <item.icon size={17} strokeWidth={1.8} />
              <span>{item.label}</span>
            </NavLink>
          );
        })}
      </nav>
      <div className={styles.footer}>
        <AccountButton />
        <Link to="/hub/status" className={styles.status}>
          <Activity size={14} />
          <span>System status</span>
        </Link>
      </div>
    </aside>
  );
}
