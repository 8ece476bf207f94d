import type { QueryNode } from "@epicenter/contracts";
import { Code2 } from "lucide-react";
import { useNavigate } from "react-router";
import { Button } from "../../ui/Button";
import { editorUrl } from "../../ui/editor-link";

/** "Query in Editor" for one panel of the market page: opens the SQL it was drawn from. */
export function QueryButton({
  node,
  what,
  size = "sm",
  variant = "secondary",
}: {
  node: QueryNode;
  what: string;
  size?: "sm" | "md";
  variant?: "secondary" | "accent";
}) {
  const navigate = useNavigate();
  return (
    <Button
      variant={variant}
      size={size}
      icon={<Code2 size={size === "md" ? 15 : 14} />}
      onClick={() => void navigate(editorUrl(node))}
      aria-label={`Query in Editor: ${what}`}
      title={`Open the SQL of ${what} in the editor`}
    >
      Query in Editor
    </Button>
  );
}
