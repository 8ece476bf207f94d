import { Suspense } from "react";
import { Outlet, useLocation } from "react-router";
import { useSession } from "../features/auth/session";
import { LoadingScreen } from "../ui/LoadingScreen";
import styles from "./AppLayout.module.css";
import { BottomNav } from "./BottomNav";
import { hidesChrome, hidesSidebar } from "./nav-items";
import { PageControlsProvider } from "./page-controls";
import { Sidebar } from "./Sidebar";
import { TopBar } from "./TopBar";

export function AppLayout() {
  const { pathname } = useLocation();
  const { state } = useSession();
  const isAdmin = state.status === "signed-in" && state.user.is_admin;
  const showSidebar = !hidesSidebar(pathname);
  const showChrome = !hidesChrome(pathname);
  return (
    <PageControlsProvider>
      <div className={styles.shell} data-sidebar={showSidebar ? "shown" : "hidden"}>
        {showSidebar ? <Sidebar isAdmin={isAdmin} /> : null}
        <div className={styles.main}>
          {showChrome ? <TopBar /> : null}
          <main className={styles.content} data-chrome={showChrome ? "shown" : "hidden"}>
            <Suspense fallback={<LoadingScreen />}>
              <Outlet />
            </Suspense>
          </main>
        </div>
        {showChrome ? <BottomNav isAdmin={isAdmin} /> : null}
      </div>
    </PageControlsProvider>
  );
}
