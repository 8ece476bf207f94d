import { createContext, type ReactNode, useContext, useEffect, useState } from "react";

/**
 * Page-specific controls shown above the bottom navigation's tabs on small screens. A page
 * calls `usePageControls(node)`; the layout renders whatever the current page set.
 */
interface PageControlsContextValue {
  controls: ReactNode;
  setControls: (controls: ReactNode) => void;
}

const PageControlsContext = createContext<PageControlsContextValue | null>(null);

export function PageControlsProvider({ children }: { children: ReactNode }) {
  const [controls, setControls] = useState<ReactNode>(null);
  return <PageControlsContext.Provider value={{ controls, setControls }}>{children}</PageControlsContext.Provider>;
}

function usePageControlsContext(): PageControlsContextValue {
  const context = useContext(PageControlsContext);
  if (!context) throw new Error("usePageControls must be used inside a PageControlsProvider");
  return context;
}

/** Shows `controls` above the tabs while the calling page is mounted. */
export function usePageControls(controls: ReactNode): void {
  const { setControls } = usePageControlsContext();
  useEffect(() => {
    setControls(controls);
    return () => setControls(null);
  }, [controls, setControls]);
}

export function useCurrentPageControls(): ReactNode {
  return usePageControlsContext().controls;
}
