/**
 * Leaving an editor with unsaved work asks first: a reload or a closed window through the
 * browser's own prompt, a move to a page outside the editor through a confirmation.
 * Moving between query tabs never asks (each tab keeps its work as its draft), nor does
 * leaving right after a save or a tab closed on purpose, though that render still counts
 * the work as unsaved (the save's state lands after it): `markLeavingSaved()` says so.
 */
import { useEffect, useRef } from "react";
import { useBlocker } from "react-router";

/** The editor's own pages: moving between them keeps each query's work as its tab's draft. */
export const isEditorPath = (pathname: string) => /^\/queries\/[^/]+$/.test(pathname);

/** Whether a move from `from` to `to` must ask before it drops unsaved work. */
export function mustAskBeforeLeaving({
  isDirty,
  isLeavingSaved,
  from,
  to,
}: {
  isDirty: boolean;
  isLeavingSaved: boolean;
  from: string;
  to: string;
}): boolean {
  return isDirty && !isLeavingSaved && from !== to && !isEditorPath(to);
}

export function useLeaveGuard({ isDirty, onLeave }: { isDirty: boolean; onLeave: () => void }) {
  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [isDirty]);
  const isLeavingSaved = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) =>
    mustAskBeforeLeaving({
      isDirty,
      isLeavingSaved: isLeavingSaved.current,
      from: currentLocation.pathname,
      to: nextLocation.pathname,
    }),
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm("Leave this query? Your unsaved changes will be lost.")) {
      onLeave();
      blocker.proceed();
    } else blocker.reset();
  }, [blocker, onLeave]);
  return {
    /** The next move leaves nothing unsaved behind (a save, a closed tab): it does not ask. */
    markLeavingSaved: () => {
      isLeavingSaved.current = true;
    },
  };
}
