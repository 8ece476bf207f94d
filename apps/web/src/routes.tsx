/**
 * Every route of the product (SPEC §2), each page loaded lazily so the first load carries
 * only the shell; beside them the market pages (`/markets/{venue}/{id}`). Redirects: /seismo → /intelligence, /status → /hub/status, anything
 * unknown → /.
 */
import { VENUES } from "@epicenter/contracts";
import { lazy, type ReactNode, Suspense } from "react";
import { createBrowserRouter, Navigate, useRouteError } from "react-router";
import { RequireSession } from "./features/auth/RequireSession";
import { AppLayout } from "./layout/AppLayout";
import { ErrorScreen } from "./ui/ErrorScreen";
import { LoadingScreen } from "./ui/LoadingScreen";

const LandingPage = lazy(() => import("./features/landing/LandingPage").then((m) => ({ default: m.LandingPage })));

const LoginPage = lazy(() => import("./features/auth/LoginPage").then((m) => ({ default: m.LoginPage })));
const AuthCallbackPage = lazy(() =>
  import("./features/auth/AuthCallbackPage").then((m) => ({ default: m.AuthCallbackPage })),
);
const IntelligencePage = lazy(() =>
  import("./features/intelligence/IntelligencePage").then((m) => ({ default: m.IntelligencePage })),
);
const QueriesPage = lazy(() => import("./features/queries/QueriesPage").then((m) => ({ default: m.QueriesPage })));
const QueryEditorPage = lazy(() =>
  import("./features/queries/editor/QueryEditorPage").then((m) => ({ default: m.QueryEditorPage })),
);
const DashboardsPage = lazy(() =>
  import("./features/dashboards/DashboardsPage").then((m) => ({ default: m.DashboardsPage })),
);
const DashboardPage = lazy(() =>
  import("./features/dashboards/DashboardPage").then((m) => ({ default: m.DashboardPage })),
);
const DatasetsPage = lazy(() => import("./features/catalog/DatasetsPage").then((m) => ({ default: m.DatasetsPage })));
const DatasetPage = lazy(() => import("./features/catalog/DatasetPage").then((m) => ({ default: m.DatasetPage })));
const MarketPage = lazy(() => import("./features/markets/MarketPage").then((m) => ({ default: m.MarketPage })));
const HubPage = lazy(() => import("./features/hub/HubPage").then((m) => ({ default: m.HubPage })));
const ApiReferencePage = lazy(() =>
  import("./features/hub/ApiReferencePage").then((m) => ({ default: m.ApiReferencePage })),
);
const AdminPage = lazy(() => import("./features/admin/AdminPage").then((m) => ({ default: m.AdminPage })));

/** Pages outside the app layout need their own boundary for lazy loading. */
function Lazy({ page }: { page: ReactNode }) {
  return <Suspense fallback={<LoadingScreen isFullScreen />}>{page}</Suspense>;
}

function RouteError() {
  return <ErrorScreen error={useRouteError()} />;
}

export const router = createBrowserRouter([
  { path: "/login", element: <Lazy page={<LoginPage />} />, errorElement: <RouteError /> },
  { path: "/auth/callback", element: <Lazy page={<AuthCallbackPage />} />, errorElement: <RouteError /> },
  {
    element: (
      <RequireSession>
        <AppLayout />
      </RequireSession>
    ),
    errorElement: <RouteError />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: "intelligence/*", element: <IntelligencePage /> },
      { path: "queries", element: <QueriesPage /> },
      { path: "queries/:queryId", element: <QueryEditorPage /> },
      { path: "query/editor", element: <QueryEditorPage /> },
      { path: "dashboards", element: <DashboardsPage /> },
      { path: "dashboards/:dashboardId", element: <DashboardPage /> },
      { path: "datasets", element: <DatasetsPage /> },
      { path: "datasets/:datasetId", element: <DatasetPage /> },
      ...VENUES.map((venue) => ({ path: `markets/${venue}/:id`, element: <MarketPage venue={venue} /> })),
      { path: "hub", element: <HubPage /> },
      { path: "hub/:section", element: <HubPage /> },
      { path: "hub/api/reference", element: <ApiReferencePage /> },
      { path: "admin", element: <AdminPage /> },
      { path: "admin/:section", element: <AdminPage /> },
      { path: "seismo", element: <Navigate to="/intelligence" replace /> },
      { path: "status", element: <Navigate to="/hub/status" replace /> },
      { path: "*", element: <Navigate to="/" replace /> },
    ],
  },
]);
